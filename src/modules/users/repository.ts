/** SQL of the People screen (D91): a workspace's members with their sign-in state, and its pending invitations. */
import type { Db } from '../../db/types.js';
import type { Role } from '../auth/permissions.js';

export interface MemberRow {
  id: number;
  email: string;
  name: string | null;
  role: Role;
  has_password: boolean;
  created_at: string;
  last_sign_in_at: string | null;
}

function memberQuery(db: Db, workspaceId: string) {
  return db.kysely
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'm.role', 'u.password_hash', 'm.created_at', 'u.last_sign_in_at'])
    .where('m.workspace_id', '=', workspaceId);
}

type Row = { id: number; email: string; name: string | null; role: string; password_hash: string | null; created_at: string; last_sign_in_at: string | null };

function toMember({ password_hash, ...row }: Row): MemberRow {
  return { ...row, role: row.role as Role, has_password: password_hash !== null };
}

/** The workspace's members, by email. */
export async function listMembers(db: Db, workspaceId: string): Promise<MemberRow[]> {
  const rows = await memberQuery(db, workspaceId).orderBy('u.email').execute();
  return rows.map(toMember);
}

export async function findMember(db: Db, workspaceId: string, userId: number): Promise<MemberRow | null> {
  const row = await memberQuery(db, workspaceId).where('u.id', '=', userId).executeTakeFirst();
  return row ? toMember(row) : null;
}

/** How many owners the workspace has. */
export async function countOwners(db: Db, workspaceId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- pending invitations (migration 021) -------------------------------------------------------

export interface InvitationRow {
  id: string;
  workspace_id: string;
  email: string;
  name: string | null;
  role: Role;
  invited_by: number | null;
  token_hash: string;
  created_at: string;
  expires_at: string;
}

/** An invitation found by its token, with the name and slug of its workspace. */
export interface InvitationWithWorkspace extends InvitationRow {
  workspace_slug: string;
  workspace_name: string;
}

const INVITATION_COLUMNS = ['i.id', 'i.workspace_id', 'i.email', 'i.name', 'i.role', 'i.invited_by', 'i.token_hash', 'i.created_at', 'i.expires_at'] as const;

/** The workspace's pending invitations not expired at `now`, by email. */
export async function listInvitations(db: Db, workspaceId: string, now: string): Promise<InvitationRow[]> {
  const rows = await db.kysely
    .selectFrom('invitations as i')
    .select(INVITATION_COLUMNS)
    .where('i.workspace_id', '=', workspaceId)
    .where('i.expires_at', '>', now)
    .orderBy('i.email')
    .execute();
  return rows.map((r) => ({ ...r, role: r.role as Role }));
}

/** The invitation with this token digest, unexpired at `now`, or null. */
export async function findInvitationByToken(db: Db, tokenHash: string, now: string): Promise<InvitationWithWorkspace | null> {
  const row = await db.kysely
    .selectFrom('invitations as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .select([...INVITATION_COLUMNS, 'w.slug as workspace_slug', 'w.name as workspace_name'])
    .where('i.token_hash', '=', tokenHash)
    .where('i.expires_at', '>', now)
    .executeTakeFirst();
  return row ? { ...row, role: row.role as Role } : null;
}

export async function findInvitationById(db: Db, workspaceId: string, id: string): Promise<InvitationRow | null> {
  const row = await db.kysely
    .selectFrom('invitations as i')
    .select(INVITATION_COLUMNS)
    .where('i.workspace_id', '=', workspaceId)
    .where('i.id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, role: row.role as Role } : null;
}

/** Stores an invitation, replacing the workspace's earlier one for the same email (its link stops working). */
export async function replaceInvitation(db: Db, row: InvitationRow): Promise<void> {
  await db.kysely.deleteFrom('invitations').where('workspace_id', '=', row.workspace_id).where('email', '=', row.email).execute();
  await db.kysely.insertInto('invitations').values(row).execute();
}

/** Deletes an invitation of the workspace; the number deleted (0 or 1). */
export async function deleteInvitation(db: Db, workspaceId: string, id: string): Promise<number> {
  const res = await db.kysely.deleteFrom('invitations').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Deletes the invitation with this token digest if still unexpired; true when this call did it (single use under races). */
export async function consumeInvitation(db: Db, tokenHash: string, now: string): Promise<boolean> {
  const res = await db.kysely.deleteFrom('invitations').where('token_hash', '=', tokenHash).where('expires_at', '>', now).executeTakeFirst();
  return Number(res.numDeletedRows) === 1;
}

/** Drops invitations that expired before `now` (housekeeping; reads check expiry anyway). */
export async function deleteExpiredInvitations(db: Db, now: string): Promise<void> {
  await db.kysely.deleteFrom('invitations').where('expires_at', '<=', now).execute();
}

/** The account with this email: whether it has a password, has ever signed in, and how many memberships it has; null when none. */
export async function accountState(db: Db, email: string): Promise<{ id: number; has_password: boolean; signed_in: boolean; memberships: number } | null> {
  const user = await db.kysely.selectFrom('users').select(['id', 'password_hash', 'last_sign_in_at']).where('email', '=', email).executeTakeFirst();
  if (!user) return null;
  const n = await db.kysely
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  return { id: user.id, has_password: user.password_hash !== null, signed_in: user.last_sign_in_at !== null, memberships: Number(n.n) };
}

/** Creates a user without a password unless the email has one already (a concurrent creation included); returns its id. */
export async function ensureUserRow(db: Db, email: string, name: string | null, now: string): Promise<number> {
  await db.kysely
    .insertInto('users')
    .values({ email, name, created_at: now, password_hash: null, last_sign_in_at: null })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
  const row = await db.kysely.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}

/** Sets the first password of a user who has none and never signed in; false when either changed meanwhile. */
export async function setFirstPassword(db: Db, userId: number, hash: string): Promise<boolean> {
  const res = await db.kysely
    .updateTable('users')
    .set({ password_hash: hash })
    .where('id', '=', userId)
    .where('password_hash', 'is', null)
    .where('last_sign_in_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}
