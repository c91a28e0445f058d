/**
 * The change-event log (docs/api.md "Change events" (D82); docs/front-ends.md "Sync" (D83)): one row per
 * write that changes an entry, page,
 * media asset or content type, inserted in the same transaction as the write
 * (src/modules/events/record.ts). Webhook deliveries are fanned out from it and sync deltas
 * read it (`id` greater than a token's last id, per workspace).
 *
 * `id` grows with every event; per workspace the ids are also assigned in commit order (the
 * writer locks its workspace row before taking an id), so a reader that saw id N never later
 * finds a new event of that workspace below N. Rows go with their workspace.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('events')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('item_kind', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('slug', 'text')
    .addColumn('content_type', 'text')
    .addColumn('status', 'text')
    .addColumn('version', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_workspace_id').on('events').columns(['workspace_id', 'id']).execute();
}
