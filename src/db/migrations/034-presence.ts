/**
 * Who has which item open in the Studio (docs/workflow.md "Who else is here" (D133)): one row per
 * open Studio event stream (GET /api/v1/manage/events), shared by every instance, since a stream
 * lives on one instance while its presence PUT (and other people's streams) may be served by
 * another. The row, not an instance's memory, is the truth.
 *
 * - `stream_id`: the id the stream's `hello` frame gave (random, unguessable); `user_id` its
 *   person: only they may set the stream's presence.
 * - `item_kind`/`item_id`: the entry or page the stream's Studio shows now, null for none;
 *   `since`: when it started showing it (people are listed in that order).
 * - `instance`: the instance holding the stream, which pushes `expires_at` forward every
 *   heartbeat; a row whose instance stopped (crashed, or cut off) expires after about three
 *   heartbeats and is swept by whichever instance deletes it first.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('presence')
    .addColumn('stream_id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('item_kind', 'text')
    .addColumn('item_id', 'text')
    .addColumn('since', 'text', (c) => c.notNull())
    .addColumn('instance', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  // Who is on an item; the sweep of expired rows; an instance's heartbeat refresh.
  await db.schema.createIndex('presence_item').on('presence').columns(['workspace_id', 'item_kind', 'item_id']).execute();
  await db.schema.createIndex('presence_expires_at').on('presence').columns(['expires_at']).execute();
  await db.schema.createIndex('presence_instance').on('presence').columns(['instance']).execute();
}
