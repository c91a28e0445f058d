/**
 * The role rows of the installation (migration 022's `roles` table): reading them, and keeping
 * them per context. A context reads the rows once, on first use, into `ctx.caches.roles`
 * (rolesOf); the actors it resolves carry them to the permission check (Actor.roles), with their
 * workspace's custom roles (D120, migration 030) read at each resolution (rolesOfWorkspace), so an
 * edited custom role counts at once on every instance: sessions resolve per request, and cached
 * keys are dropped when the workspace's revision moves, which every custom-role write bumps.
 * Installation rows (workspace_id null) are written by migrations only; whatever else writes them
 * must call forgetRoles on its context afterwards.
 */
import type { Context } from '../../context.js';
import { migrationHasRun } from '../../db/migrate.js';
import type { Db } from '../../db/types.js';
import type { Selectable } from 'kysely';
import type { RolesTable } from '../../db/types.js';
import { isScope } from '../auth/permissions.js';
import { permissionsOfScopes, scopesOfPermissions, type Permission } from './permission-rules.js';
import { PRESET_ROLES, PRESET_TABLE, RoleTable, type RoleRow } from './roles.js';

/**
 * Every role row of the installation, presets first (in their order), then custom roles by
 * creation. Null when the database has not run migration 022 (built by an older release and not
 * migrated since: servers migrate at start, so only a tool or test opening such a database sees
 * it); any other failure throws.
 */
export async function readRoles(db: Db): Promise<RoleTable | null> {
  let rows;
  try {
    rows = await db.kysely.selectFrom('roles').selectAll().orderBy('created_at').orderBy('key').execute();
  } catch (error) {
    if (!(await migrationHasRun(db.kysely, '022-roles'))) return null;
    throw error;
  }
  const order = new Map<string, number>(PRESET_ROLES.map((r, i) => [r.name, i]));
  // Custom roles of a workspace (migration 030) are read per workspace: rolesOfWorkspace.
  const installation = rows.filter((r) => r.workspace_id == null);
  installation.sort((a, b) => (order.get(a.key) ?? order.size) - (order.get(b.key) ?? order.size));
  return new RoleTable(installation.map(roleOfRow));
}

/** A `roles` row as the check reads it. A preset's permissions follow from its scopes; a custom role's scopes from its permissions. */
export function roleOfRow(r: Selectable<RolesTable>): RoleRow {
  const permissions = r.permissions ? (JSON.parse(r.permissions) as Permission[]) : null;
  // A scope this version does not know grants nothing (a row written by a later version).
  const scopes = permissions ? scopesOfPermissions(permissions) : (JSON.parse(r.scopes) as string[]).filter(isScope);
  return {
    name: r.key,
    label: r.name,
    description: r.description ?? '',
    workspaceId: r.workspace_id ?? null,
    preset: Number(r.is_preset) === 1,
    scopes,
    manages: Number(r.manages_workspace) === 1,
    ownsWorkspace: Number(r.owns_workspace) === 1,
    permissions: permissions ?? permissionsOfScopes(scopes),
  };
}

/** The custom roles of `workspaceId`, oldest first. */
export async function readWorkspaceRoles(db: Db, workspaceId: string): Promise<RoleRow[]> {
  const rows = await db.kysely.selectFrom('roles').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('key').execute();
  return rows.map(roleOfRow);
}

/** The rows the check reads for an actor of `workspaceId`: the installation's (cached) and the workspace's custom roles (read now). */
export async function rolesOfWorkspace(ctx: Pick<Context, 'caches' | 'db'>, workspaceId: string): Promise<RoleTable> {
  const installation = await rolesOf(ctx);
  if (installation === PRESET_TABLE) return installation;
  try {
    return installation.with(await readWorkspaceRoles(ctx.db, workspaceId));
  } catch (error) {
    // A database migrated up to 022 but not 030 (a tool opening an old database) has no custom roles.
    if (!(await migrationHasRun(ctx.db.kysely, '030-workspace-roles'))) return installation;
    throw error;
  }
}

/**
 * The role rows of `ctx`, read from the database on first use and then kept in ctx.caches.roles.
 * A database without the table (see readRoles) gets the preset rows it would be seeded with, and
 * is read again next time, so the rows count as soon as it is migrated.
 */
export function rolesOf(ctx: Pick<Context, 'caches' | 'db'>): Promise<RoleTable> {
  const cache = ctx.caches.roles;
  if (!cache.table) {
    const loading: Promise<RoleTable> = readRoles(ctx.db).then((table) => {
      if (table) return table;
      if (cache.table === loading) cache.table = undefined;
      return PRESET_TABLE;
    });
    cache.table = loading;
    // A failed read is not kept: the next request reads again.
    loading.catch(() => {
      if (cache.table === loading) cache.table = undefined;
    });
  }
  return cache.table;
}

/**
 * Drops `ctx`'s role rows and the keys it authenticated with them (their scopes were computed from
 * the rows): to be called by whatever writes the `roles` table.
 */
export function forgetRoles(ctx: Context): void {
  ctx.caches.roles.table = undefined;
  ctx.caches.keys.clear();
}
