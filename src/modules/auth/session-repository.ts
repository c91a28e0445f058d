/**
 * SQL of Studio sign-in (migration 008): passwords, sessions and one-time tokens. Sessions and
 * tokens are found by the SHA-256 of their value; the values themselves are never stored.
 */
import type { Db } from '../../db/types.js';
import type { Role } from './permissions.js';

export interface Credentials {
  id: number;
  email: string;
  name: string | null;
  password_hash: string | null;
}

export interface SessionRow {
  id_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface SessionWithUser extends SessionRow {
  email: string;
  name: string | null;
}

export interface MembershipOfUser {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

export type TokenPurpose = 'setup' | 'invitation';

export interface TokenRow {
  token_hash: string;
  purpose: TokenPurpose;
  user_id: number;
  workspace_id: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  email: string;
  workspace_slug: string | null;
  workspace_name: string | null;
}

export async function findCredentialsByEmail(db: Db, email: string): Promise<Credentials | null> {
  const row = await db.kysely.selectFrom('users').select(['id', 'email', 'name', 'password_hash']).where('email', '=', email).executeTakeFirst();
  return row ?? null;
}

export async function findCredentialsById(db: Db, id: number): Promise<Credentials | null> {
  const row = await db.kysely.selectFrom('users').select(['id', 'email', 'name', 'password_hash']).where('id', '=', id).executeTakeFirst();
  return row ?? null;
}

export async function updatePasswordHash(db: Db, userId: number, hash: string): Promise<void> {
  await db.kysely.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
}

export async function updateLastSignIn(db: Db, userId: number, now: string): Promise<void> {
  await db.kysely.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
}

export async function insertSession(db: Db, row: SessionRow): Promise<void> {
  await db.kysely.insertInto('sessions').values(row).execute();
}

/** The session with this digest and its user, or null. */
export async function findSession(db: Db, idHash: string): Promise<SessionWithUser | null> {
  const row = await db.kysely
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id_hash', 's.user_id', 's.created_at', 's.last_seen_at', 's.expires_at', 'u.email', 'u.name'])
    .where('s.id_hash', '=', idHash)
    .executeTakeFirst();
  return row ?? null;
}

export async function touchSession(db: Db, idHash: string, now: string): Promise<void> {
  await db.kysely.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.kysely.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

/** Ends every session of a user; returns how many there were. */
export async function deleteUserSessions(db: Db, userId: number): Promise<number> {
  const res = await db.kysely.deleteFrom('sessions').where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** Drops sessions past their idle or absolute limit (housekeeping; reads check both anyway). */
export async function deleteStaleSessions(db: Db, now: string, idleBefore: string): Promise<void> {
  await db.kysely
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<=', idleBefore)]))
    .execute();
}

/** The workspaces a user belongs to, with their role, by workspace name. */
export async function listUserWorkspaces(db: Db, userId: number): Promise<MembershipOfUser[]> {
  const rows = await db.kysely
    .selectFrom('memberships as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['w.id', 'w.slug', 'w.name', 'm.role'])
    .where('m.user_id', '=', userId)
    .orderBy('w.name')
    .orderBy('w.id')
    .execute();
  return rows.map((r) => ({ ...r, role: r.role as Role }));
}

export async function insertToken(db: Db, row: Omit<TokenRow, 'email' | 'workspace_slug' | 'workspace_name'>): Promise<void> {
  await db.kysely.insertInto('one_time_tokens').values(row).execute();
}

/** The token with this digest, with its user's email and its workspace, or null. */
export async function findToken(db: Db, tokenHash: string): Promise<TokenRow | null> {
  const row = await db.kysely
    .selectFrom('one_time_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('workspaces as w', 'w.id', 't.workspace_id')
    .select([
      't.token_hash',
      't.purpose',
      't.user_id',
      't.workspace_id',
      't.created_at',
      't.expires_at',
      't.used_at',
      'u.email',
      'w.slug as workspace_slug',
      'w.name as workspace_name',
    ])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
  return row ? { ...row, purpose: row.purpose as TokenPurpose } : null;
}

/** Marks a token used if it still is unused and unexpired; true when this call did it (single use under races). */
export async function consumeToken(db: Db, tokenHash: string, now: string): Promise<boolean> {
  const res = await db.kysely
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Retires a user's unused tokens (a new link replaces older ones). */
export async function retireUnusedTokens(db: Db, userId: number, now: string): Promise<void> {
  await db.kysely.updateTable('one_time_tokens').set({ used_at: now }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
}

/** Retires a user's unused tokens into one workspace (their membership there ended). */
export async function retireWorkspaceTokens(db: Db, userId: number, workspaceId: string, now: string): Promise<void> {
  await db.kysely
    .updateTable('one_time_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('workspace_id', '=', workspaceId)
    .where('used_at', 'is', null)
    .execute();
}
