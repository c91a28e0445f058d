/**
 * SQL of custom roles (D120, migration 030): rows of `roles` with a workspace, written by
 * custom-roles.ts. Every write also moves the workspace's revisions, so keys cached on any
 * instance are authenticated again with the new rows (src/modules/auth/key-cache.ts).
 */
import type { Db } from '../../db/types.js';

export interface CustomRoleValues {
  name: string;
  description: string;
  /** JSON array of permissions. */
  permissions: string;
  /** The scopes they amount to, as JSON (the key ∩ role rule reads them). */
  scopes: string;
}

export async function insertCustomRole(db: Db, workspaceId: string, id: string, values: CustomRoleValues, now: string): Promise<void> {
  await db.kysely
    .insertInto('roles')
    .values({ key: id, workspace_id: workspaceId, ...values, manages_workspace: 0, owns_workspace: 0, is_preset: 0, created_at: now })
    .execute();
  await bumpWorkspace(db, workspaceId);
}

export async function updateCustomRole(db: Db, workspaceId: string, id: string, values: CustomRoleValues): Promise<void> {
  await db.kysely.updateTable('roles').set(values).where('key', '=', id).where('workspace_id', '=', workspaceId).execute();
  await bumpWorkspace(db, workspaceId);
}

export async function deleteCustomRole(db: Db, workspaceId: string, id: string): Promise<void> {
  await db.kysely.deleteFrom('roles').where('key', '=', id).where('workspace_id', '=', workspaceId).execute();
  await bumpWorkspace(db, workspaceId);
}

/** Whether a custom role of `workspaceId` other than `exceptId` is called `name`. */
export async function customRoleNameTaken(db: Db, workspaceId: string, name: string, exceptId: string | null): Promise<boolean> {
  let q = db.kysely.selectFrom('roles').select('key').where('workspace_id', '=', workspaceId).where('name', '=', name);
  if (exceptId) q = q.where('key', '!=', exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** How many members and pending invitations of `workspaceId` hold role `key`. */
export async function roleUse(db: Db, workspaceId: string, key: string): Promise<{ members: number; invitations: number }> {
  const [m] = await db.kysely
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', key)
    .execute();
  const [i] = await db.kysely
    .selectFrom('invitations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', key)
    .execute();
  return { members: Number(m.n), invitations: Number(i.n) };
}

/** Moves the workspace's revisions: cached keys of every instance are checked again against the new rows. */
async function bumpWorkspace(db: Db, workspaceId: string): Promise<void> {
  await db.kysely
    .updateTable('workspaces')
    .set((eb) => ({ revision: eb('revision', '+', 1), draft_revision: eb('draft_revision', '+', 1) }))
    .where('id', '=', workspaceId)
    .execute();
}
