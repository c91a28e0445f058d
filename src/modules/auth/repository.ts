/** SQL for users, memberships and API keys. */
import type { Db } from '../../db/types.js';
import type { WorkspaceRevisions } from '../workspaces/repository.js';
import { fromJsonColumn } from '../../lib/json.js';
import type { Environment, KeyClass, Role, Scope } from './permissions.js';

export interface User {
  id: number;
  email: string;
  name: string | null;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  workspace_id: string;
  key_class: KeyClass;
  name: string;
  key_hash: string;
  key_hint: string;
  scopes: Scope[];
  environment: Environment | null;
  content_types: string[];
  created_by: number;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  return (await db.kysely.selectFrom('users').select(['id', 'email', 'name', 'created_at']).where('email', '=', email).executeTakeFirst()) ?? null;
}

export async function insertUser(db: Db, email: string, name: string | null, now: string): Promise<User> {
  return db.kysely
    .insertInto('users')
    .values({ email, name, created_at: now, password_hash: null, last_sign_in_at: null })
    .returning(['id', 'email', 'name', 'created_at'])
    .executeTakeFirstOrThrow();
}

export async function findMembershipRole(db: Db, workspaceId: string, userId: number): Promise<Role | null> {
  const row = await db.kysely.selectFrom('memberships').select('role').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
  return (row?.role as Role | undefined) ?? null;
}

/**
 * The workspace's first owner (by membership date): the default creator of CLI keys and the
 * user the importer and the demo seeding act for. Null when the workspace has no owner.
 */
export async function findWorkspaceOwner(db: Db, workspaceId: string): Promise<User | null> {
  const row = await db.kysely
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.name', 'u.created_at'])
    .where('m.workspace_id', '=', workspaceId)
    .where('m.role', '=', 'owner')
    .orderBy('m.created_at')
    .orderBy('u.id')
    .executeTakeFirst();
  return row ?? null;
}

/** Creates or changes a membership (one per user and workspace). */
export async function upsertMembership(db: Db, workspaceId: string, userId: number, role: Role, now: string): Promise<void> {
  await db.kysely
    .insertInto('memberships')
    .values({ workspace_id: workspaceId, user_id: userId, role, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['workspace_id', 'user_id']).doUpdateSet({ role, updated_at: now }))
    .execute();
}

export async function deleteMembership(db: Db, workspaceId: string, userId: number): Promise<number> {
  const res = await db.kysely.deleteFrom('memberships').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows);
}

function toKey(row: Record<string, unknown>): ApiKeyRecord {
  return {
    ...(row as unknown as ApiKeyRecord),
    scopes: fromJsonColumn<Scope[]>(row.scopes, []),
    content_types: fromJsonColumn<string[]>(row.content_types, []),
  };
}

export async function insertApiKey(db: Db, key: ApiKeyRecord): Promise<void> {
  await db.kysely
    .insertInto('api_keys')
    .values({ ...key, scopes: JSON.stringify(key.scopes), content_types: JSON.stringify(key.content_types) })
    .execute();
}

/**
 * The key with this hash, its creator's role in the key's workspace (null when the creator is no
 * longer a member) and the workspace's revision, read in one statement so the three agree: the
 * auth cache stores the result under that revision.
 */
export async function findKeyWithRoleByHash(db: Db, keyHash: string): Promise<(ApiKeyRecord & { role: Role | null; revisions: WorkspaceRevisions }) | null> {
  const row = await db.kysely
    .selectFrom('api_keys as k')
    .innerJoin('workspaces as w', 'w.id', 'k.workspace_id')
    .leftJoin('memberships as m', (j) => j.onRef('m.workspace_id', '=', 'k.workspace_id').onRef('m.user_id', '=', 'k.created_by'))
    .selectAll('k')
    .select(['m.role as role', 'w.revision as revision', 'w.draft_revision as draft_revision'])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
  if (!row) return null;
  const { revision, draft_revision, role, ...key } = row;
  return { ...toKey(key), role: (role as Role | null) ?? null, revisions: { revision: Number(revision), draft: Number(draft_revision) } };
}

export async function findKeyById(db: Db, id: string): Promise<ApiKeyRecord | null> {
  const row = await db.kysely.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toKey(row) : null;
}

/** Every key of a workspace, newest first (revoked and expired ones included). */
export async function listKeysOfWorkspace(db: Db, workspaceId: string): Promise<ApiKeyRecord[]> {
  const rows = await db.kysely
    .selectFrom('api_keys')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toKey);
}

export async function revokeKeyById(db: Db, id: string, now: string): Promise<void> {
  await db.kysely.updateTable('api_keys').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}
