/**
 * People of a workspace (D91; the Studio contract "People"): list, invite, change a role,
 * remove. Session only (the routes refuse keys); the rules:
 *
 * - any member lists; owners and admins invite, change roles and remove (403 otherwise);
 * - only an owner invites an owner, grants the owner role or changes or removes an owner;
 * - the last owner cannot be demoted or removed: 409 LAST_OWNER. Owner changes lock the
 *   workspace row first, so two concurrent demotions cannot both see "another owner left";
 * - inviting someone already a member: 409 ALREADY_MEMBER. A person without a password gets a
 *   one-time invitation link (72 h; shown once to the inviting admin, e-mailed when SMTP_URL is
 *   set); a person who has one is added directly (no link);
 * - removing a member deletes the membership, ends all of that person's Studio sessions and
 *   retires their unused invitation links into the workspace; their management keys stop working
 *   on the next request (D12: key power needs a membership).
 */
import type { Context } from '../../context.js';
import { lockRows } from '../../db/lock.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { ensureUser } from '../auth/operations.js';
import { isRole, ROLES, type Actor, type Role } from '../auth/permissions.js';
import { deleteMembership, findMembershipRole, upsertMembership } from '../auth/repository.js';
import { deleteUserSessions, findCredentialsById, listUserWorkspaces, retireWorkspaceTokens } from '../auth/session-repository.js';
import { issueToken } from '../auth/sessions.js';
import { findWorkspaceById } from '../workspaces/repository.js';
import { sendInvitation } from './mailer.js';
import { countOwners, findMember, listMembers, type MemberRow } from './repository.js';

/** A member as the People screen shows them. */
export interface Member {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  status: 'active' | 'invited';
  created_at: string;
  last_sign_in_at: string | null;
}

function toMember(row: MemberRow): Member {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.has_password ? 'active' : 'invited',
    created_at: row.created_at,
    last_sign_in_at: row.last_sign_in_at,
  };
}

/** 403 unless the actor is an owner or admin of the workspace. */
export function requireManager(actor: Actor, what: string): void {
  if (actor.role === 'owner' || actor.role === 'admin') return;
  throw new AppError('FORBIDDEN', `Only owners and admins can ${what} (your role: ${actor.role ?? 'none'})`);
}

function parseRole(role: string): Role {
  if (!isRole(role)) throw invalid('body.role', `must be one of ${ROLES.join(', ')}`);
  return role;
}

/** GET /users: the workspace's members (any member may look). */
export async function listPeople(ctx: Context, actor: Actor): Promise<Member[]> {
  return (await listMembers(ctx.db, actor.workspaceId)).map(toMember);
}

export interface InviteResult {
  user: Member;
  invitation_url: string | null;
  expires_at: string | null;
  emailed: boolean;
}

/** POST /users/invitations. */
export async function invite(ctx: Context, actor: Actor, input: { email: string; role: string; name?: string }): Promise<InviteResult> {
  requireManager(actor, 'invite people');
  const role = parseRole(input.role);
  if (role === 'owner' && actor.role !== 'owner') throw new AppError('FORBIDDEN', 'Only owners can invite an owner');
  const email = input.email.trim().toLowerCase();
  const name = input.name?.trim() ? input.name.trim() : null;
  const { member, issued, elsewhere } = await withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    let user;
    try {
      user = await ensureUser(tx, email, name);
    } catch (err) {
      if (err instanceof AppError && err.code === 'VALIDATION_FAILED') throw invalid('body.email', 'must be an email address');
      throw err;
    }
    if (await findMembershipRole(db, actor.workspaceId, user.id)) throw new AppError('ALREADY_MEMBER', `${email} is already a member of this workspace`);
    await upsertMembership(db, actor.workspaceId, user.id, role, iso(ctx.clock()));
    const credentials = await findCredentialsById(db, user.id);
    // A person without a password who already belongs to another workspace: a link shown here
    // would let this admin set their password and act in that workspace as them. Their links
    // are retired (so no admin holding one gains this workspace either); a new one goes by e-mail
    // only, or an operator makes one with `quire users set-password --link`.
    const elsewhere = !credentials?.password_hash && (await listUserWorkspaces(db, user.id)).some((w) => w.id !== actor.workspaceId);
    const issued = credentials?.password_hash ? null : await issueToken(tx, user.id, actor.workspaceId, 'invitation');
    return { member: (await findMember(db, actor.workspaceId, user.id))!, issued, elsewhere };
  });
  let emailed = false;
  if (issued) {
    const ws = await findWorkspaceById(ctx.db, actor.workspaceId);
    const inviter = await findCredentialsById(ctx.db, actor.userId);
    emailed = await sendInvitation(ctx, {
      to: member.email,
      workspaceName: ws?.name ?? 'a workspace',
      invitedBy: inviter?.name ?? inviter?.email ?? 'Someone',
      url: issued.url,
      expiresAt: issued.expires_at,
    });
  }
  if (elsewhere) return { user: toMember(member), invitation_url: null, expires_at: emailed ? issued!.expires_at : null, emailed };
  return { user: toMember(member), invitation_url: issued?.url ?? null, expires_at: issued?.expires_at ?? null, emailed };
}

async function requireMember(ctx: Context, workspaceId: string, userId: number): Promise<MemberRow> {
  const member = await findMember(ctx.db, workspaceId, userId);
  if (!member) throw new AppError('NOT_FOUND', `user ${userId} is not a member of this workspace`);
  return member;
}

/** PATCH /users/{id}: changes a member's role; takes effect on their next request (D12). */
export async function changeRole(ctx: Context, actor: Actor, userId: number, input: { role: string }): Promise<Member> {
  requireManager(actor, 'change roles');
  const role = parseRole(input.role);
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    await lockRows(db, 'workspaces', { id: actor.workspaceId });
    const member = await requireMember(tx, actor.workspaceId, userId);
    if (member.role === role) return toMember(member);
    if ((role === 'owner' || member.role === 'owner') && actor.role !== 'owner')
      throw new AppError('FORBIDDEN', 'Only owners can grant or take the owner role');
    if (member.role === 'owner' && (await countOwners(db, actor.workspaceId)) <= 1) {
      throw new AppError('LAST_OWNER', 'The last owner cannot be demoted: make someone else an owner first');
    }
    await upsertMembership(db, actor.workspaceId, userId, role, iso(ctx.clock()));
    return toMember({ ...member, role });
  });
}

/** DELETE /users/{id}: removes the membership, ends the person's sessions and retires their invitation links here. */
export async function removeMember(ctx: Context, actor: Actor, userId: number): Promise<void> {
  requireManager(actor, 'remove people');
  await withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    await lockRows(db, 'workspaces', { id: actor.workspaceId });
    const member = await requireMember(tx, actor.workspaceId, userId);
    if (member.role === 'owner') {
      if (actor.role !== 'owner') throw new AppError('FORBIDDEN', 'Only owners can remove an owner');
      if ((await countOwners(db, actor.workspaceId)) <= 1)
        throw new AppError('LAST_OWNER', 'The last owner cannot be removed: make someone else an owner first');
    }
    await deleteMembership(db, actor.workspaceId, userId);
    await deleteUserSessions(db, userId);
    // An invitation into this workspace must not outlive the membership it was for.
    await retireWorkspaceTokens(db, userId, actor.workspaceId, iso(ctx.clock()));
  });
}
