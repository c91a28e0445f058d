/**
 * The role rows of the installation (migration 022's `roles` table): reading them, and keeping
 * them per context. A context reads the rows once, on first use, into `ctx.caches.roles`
 * (rolesOf); the actors it resolves carry them to the permission check (Actor.roles). No API
 * writes roles yet; whatever writes them (a custom-role operation) must call forgetRoles on its
 * context afterwards, and other instances must be told too (a revision they check), since each
 * holds its own copy.
 */
import type { Context } from '../../context.js';
import { migrationHasRun } from '../../db/migrate.js';
import type { Db } from '../../db/types.js';
import { isScope } from '../auth/permissions.js';
import { PRESET_ROLES, PRESET_TABLE, RoleTable } from './roles.js';

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
  rows.sort((a, b) => (order.get(a.key) ?? order.size) - (order.get(b.key) ?? order.size));
  return new RoleTable(
    rows.map((r) => ({
      name: r.key,
      // A scope this version does not know grants nothing (a row written by a later version).
      scopes: (JSON.parse(r.scopes) as string[]).filter(isScope),
      manages: Number(r.manages_workspace) === 1,
      ownsWorkspace: Number(r.owns_workspace) === 1,
    })),
  );
}

/**
 * The role rows of `ctx`, read from the database on first use and then kept in ctx.caches.roles.
 * A database without the table (see readRoles) gets the preset rows it would be seeded with, and
 * is read again next time, so the rows count as soon as it is migrated.
 */
export function rolesOf(ctx: Context): Promise<RoleTable> {
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
