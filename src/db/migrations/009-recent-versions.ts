/**
 * The Studio's home lists the newest versions of a workspace's entries and pages (GET /overview,
 * D91). Versions were only reachable by item (primary key (item, version)), so finding the 20
 * newest read and sorted every version of the workspace; an index on `created_at` lets the query
 * walk versions newest first and stop after 20 of this workspace.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('entry_versions_created').on('entry_versions').columns(['created_at']).execute();
  await db.schema.createIndex('page_versions_created').on('page_versions').columns(['created_at']).execute();
}
