/**
 * Roles as data: the installation-wide `roles` table, one row per role, which the permission
 * check (src/modules/access/authorize.ts) reads instead of a compile-time table, so a custom role
 * is one more row. Seeded with the five preset roles, written out here (migrations freeze the
 * rows they write; see src/db/migrate.ts):
 *
 * - `key`: the role's name as memberships, invitations and the wire carry it;
 * - `scopes`: JSON array of the scopes the role allows (what its members, and the management keys
 *   they create, may write);
 * - `manages_workspace` (0/1): manages people, API keys and workspace settings;
 * - `owns_workspace` (0/1): grants and takes the owner role, removes owners, cancels their invitations;
 * - `is_preset` (0/1): one of the five roles every installation has;
 * - `created_at`: ISO 8601 UTC.
 *
 * Roles belong to the installation, not to a workspace: they are not exported with a workspace.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

const ALL = ['content:write', 'content:publish', 'media:write', 'schema:write', 'webhooks:write'];

const PRESETS = [
  { key: 'owner', scopes: ALL, manages: 1, owns: 1 },
  { key: 'admin', scopes: ALL, manages: 1, owns: 0 },
  { key: 'editor', scopes: ['content:write', 'content:publish', 'media:write'], manages: 0, owns: 0 },
  { key: 'author', scopes: ['content:write', 'media:write'], manages: 0, owns: 0 },
  { key: 'viewer', scopes: [], manages: 0, owns: 0 },
];

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('roles')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('manages_workspace', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('owns_workspace', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_preset', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  await (db as Kysely<{ roles: Record<string, unknown> }>)
    .insertInto('roles')
    .values(
      PRESETS.map((p) => ({
        key: p.key,
        name: p.key,
        scopes: JSON.stringify(p.scopes),
        manages_workspace: p.manages,
        owns_workspace: p.owns,
        is_preset: 1,
        created_at: now,
      })),
    )
    .execute();
}
