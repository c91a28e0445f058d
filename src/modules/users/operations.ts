/**
 * People of a workspace (D91; the Studio contract "People"): list, change a role, remove.
 * Invitations are in invitations.ts. Session only (the routes refuse keys); the rules:
 *
 * - any member lists; the list holds the members and the pending invitations (status
 *   `pending`, no account id, no sign-in time: an invitation says nothing about the account);
 * - owners and admins change roles and remove (403 otherwise);
 * - only an owner grants the owner role or changes or removes an owner;
 * - the last owner cannot be demoted or removed: 409 LAST_OWNER. Owner changes lock the
 *   workspace row first, so two concurrent demotions cannot both see "another owner left";
 *   these role rules are the permission check's (modules/access/authorize.ts), asked once on
 *   entry and again with the person's role and the owner count read under the lock;
 * - removing a member deletes the membership, ends all of that person's Studio sessions and
 *   retires their unused one-time links into the workspace (links of earlier versions); their
 *   management keys stop working on the next request (D12: key power needs a membership).
 */
import type { Context } from '../../context.js';
import type { Db } from '../../db/types.js';
import { lockRows } from '../../db/lock.js';
import { withTransaction } from '../../db/transaction.js';
import { recordAudit } from '../audit/record.js';
import { AppError, invalid } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { authorize } from '../access/authorize.js';
import { PRESET_TABLE, roleRow } from '../access/roles.js';
import { ROLES, type Actor, type Role } from '../auth/permissions.js';
import { deleteMembership, upsertMembership } from '../auth/repository.js';
import { deleteUserSessions, retireWorkspaceTokens } from '../auth/session-repository.js';
import { countOwners, findMember, listInvitations, listMembers, type InvitationRow, type MemberRow } from './repository.js';

/**
 * A person as the People screen shows them: a member (`active`, or `invited` while a member has
 * no password yet, e.g. made with `quire users create`) or a pending invitation (`pending`,
 * `id` null, `invitation_id` and `expires_at` set).
 */
export interface Member {
  id: number | null;
  invitation_id: string | null;
  email: string;
  name: string | null;
  role: Role;
  status: 'active' | 'invited' | 'pending';
  created_at: string;
  last_sign_in_at: string | null;
  expires_at: string | null;
}

function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    invitation_id: null,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.has_password ? 'active' : 'invited',
    created_at: row.created_at,
    last_sign_in_at: row.last_sign_in_at,
    expires_at: null,
  };
}

/** A pending invitation as a row of the People list: the email, the name and role the admin gave, nothing of the account. */
export function pendingMember(row: InvitationRow): Member {
  return {
    id: null,
    invitation_id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: 'pending',
    created_at: row.created_at,
    last_sign_in_at: null,
    expires_at: row.expires_at,
  };
}

/** The role key `ref` names (a preset's name, a custom role's id or name, D120); 400 at body.role otherwise. */
function parseRole(actor: Actor, ref: string): Role {
  const key = (actor.roles ?? PRESET_TABLE).resolve(ref, actor.workspaceId);
  if (key === undefined) throw invalid('body.role', `must be one of ${ROLES.join(', ')} or a custom role of this workspace (its id or name)`);
  // A custom role's key is its id: the Role type names the presets, the check reads any key.
  return key as Role;
}

/** The workspace's owner count when `role` owns the workspace (the last-owner rule needs it), else undefined. */
async function ownersIfOwner(db: Db, actor: Actor, role: Role): Promise<number | undefined> {
  return roleRow(role, actor.roles)?.ownsWorkspace ? countOwners(db, actor.workspaceId) : undefined;
}

/** GET /users: the workspace's members and pending invitations, by email (any member may look). */
export async function listPeople(ctx: Context, actor: Actor): Promise<Member[]> {
  authorize(actor, 'people:list');
  const members = (await listMembers(ctx.db, actor.workspaceId)).map(toMember);
  const pending = (await listInvitations(ctx.db, actor.workspaceId, iso(ctx.clock()))).map(pendingMember);
  return [...members, ...pending].sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
}

async function requireMember(ctx: Context, workspaceId: string, userId: number): Promise<MemberRow> {
  const member = await findMember(ctx.db, workspaceId, userId);
  if (!member) throw new AppError('NOT_FOUND', `user ${userId} is not a member of this workspace`);
  return member;
}

/** PATCH /users/{id}: changes a member's role; takes effect on their next request (D12). */
export async function changeRole(ctx: Context, actor: Actor, userId: number, input: { role: string }): Promise<Member> {
  authorize(actor, 'people:change-role');
  const role = parseRole(actor, input.role);
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    await lockRows(db, 'workspaces', { id: actor.workspaceId });
    const member = await requireMember(tx, actor.workspaceId, userId);
    if (member.role === role) return toMember(member);
    authorize(actor, 'people:change-role', { role: member.role, grant: role, owners: await ownersIfOwner(db, actor, member.role) });
    await upsertMembership(db, actor.workspaceId, userId, role, iso(ctx.clock()));
    await recordAudit(db, {
      workspaceId: actor.workspaceId,
      at: ctx.clock(),
      actor,
      action: 'member.role_changed',
      target: { kind: 'user', id: String(userId), slug: member.email },
      changedFields: ['role'],
    });
    return toMember({ ...member, role });
  });
}

/** DELETE /users/{id}: removes the membership, ends the person's sessions and retires their invitation links here. */
export async function removeMember(ctx: Context, actor: Actor, userId: number): Promise<void> {
  authorize(actor, 'people:remove');
  await withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    await lockRows(db, 'workspaces', { id: actor.workspaceId });
    const member = await requireMember(tx, actor.workspaceId, userId);
    authorize(actor, 'people:remove', { role: member.role, owners: await ownersIfOwner(db, actor, member.role) });
    await deleteMembership(db, actor.workspaceId, userId);
    await deleteUserSessions(db, userId);
    // An invitation into this workspace must not outlive the membership it was for.
    await retireWorkspaceTokens(db, userId, actor.workspaceId, iso(ctx.clock()));
    await recordAudit(db, {
      workspaceId: actor.workspaceId,
      at: ctx.clock(),
      actor,
      action: 'member.removed',
      target: { kind: 'user', id: String(userId), slug: member.email },
    });
  });
}
