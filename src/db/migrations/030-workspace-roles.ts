/**
 * Custom roles per workspace (D120): rows of the installation's `roles` table (migration 022)
 * that belong to one workspace, so the permission check keeps reading one shape of row.
 *
 * - `workspace_id`: the workspace a custom role belongs to; null for the five presets (and any
 *   installation-wide row), which every workspace lists;
 * - `description`: free text shown beside the name;
 * - `permissions`: JSON array of `{resource, actions, content_types?, locales?, deny_fields?,
 *   own_only?}` (src/modules/access/permission-rules.ts); null for the presets, whose permissions
 *   follow from their scopes.
 *
 * A custom role's `key` is its id (a uuid), which memberships and invitations store; a preset's key
 * is its name. Names are unique per workspace (the index) and never a preset's (the operation).
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('roles').addColumn('workspace_id', 'text').execute();
  await db.schema
    .alterTable('roles')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('roles').addColumn('permissions', 'text').execute();
  await db.schema
    .createIndex('roles_workspace_name')
    .on('roles')
    .columns(['workspace_id', 'name'])
    .unique()
    .where(sql.ref('workspace_id'), 'is not', null)
    .execute();
}
