/**
 * Lookups of many entries or media by id within one workspace, `workspace_id = ? AND id IN
 * (…)` (relation and media checks of every entry write, the Contentful importer's existing-entry
 * lookup; issue 12 item 4), read one index entry per id. With only `(workspace_id, slug)` and
 * `(workspace_id, folder, created_at)` to choose from, SQLite's planner took the workspace
 * condition for the cheaper one once the id list was long (hundreds of ids) and read every entry
 * or medium of the workspace per lookup, so an import got slower with each further batch.
 * `(workspace_id, id)` serves both conditions at once on either database.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('entries_workspace_id').ifNotExists().on('entries').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('media_workspace_id').ifNotExists().on('media').columns(['workspace_id', 'id']).execute();
}
