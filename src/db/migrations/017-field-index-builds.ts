/**
 * Index builds that run in the background (issue 13 "schema changes at scale"): marking a field
 * filterable or sortable, or adding a unique field, needs an index over the whole `entries`
 * table, which on a big table takes seconds to minutes. When the table is big, that index is built
 * outside the request (PostgreSQL `CREATE INDEX CONCURRENTLY`, SQLite on a worker thread) and the
 * field's flags turn on only once it is ready (src/modules/content-types/index-builds.ts).
 *
 * `field_index_builds` holds one row per field with such a build, until the flags turn on:
 * `filterable`, `sortable`, `is_unique` (0/1) are the flags waiting for it; `state` is
 * `building` or `failed` (then `error` says why, and the flags stayed as they were);
 * `indexes_built` of `indexes_total` is its progress. A deleted field takes its row along.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('field_index_builds')
    .addColumn('field_id', 'text', (c) => c.primaryKey().references('fields.id').onDelete('cascade'))
    .addColumn('filterable', 'integer', (c) => c.notNull())
    .addColumn('sortable', 'integer', (c) => c.notNull())
    .addColumn('is_unique', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('indexes_built', 'integer', (c) => c.notNull())
    .addColumn('indexes_total', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('field_index_builds_state').on('field_index_builds').columns(['state', 'started_at']).execute();
}
