/**
 * The Studio's activity log and people's notifications (docs/workflow.md "Notifications" (D132)
 * and "Who else is here" (D133)).
 *
 * - `activity`: one row per change an open Studio should hear about that is not a change event
 *   of its own (workflow moves, approvals, comments, notifications, presence), inserted in the same
 *   transaction as the change (src/modules/activity/record.ts). The Studio's event stream reads it
 *   after the last id it saw, like the live stream reads `events`; ids are taken under the
 *   workspace row's lock, so per workspace they grow in commit order. `user_id` set: only that
 *   person's streams hear it. Rows are pruned after a short time: a stream that was away longer
 *   starts over (it refetches what it shows).
 * - `notifications`: one row per person told something (assigned, mentioned, approval requested,
 *   changes requested, stage changed, release failed), newest first per person and workspace.
 *   `subject` is a JSON snapshot of what the item or release was called then (it may be deleted
 *   later); `stage` a JSON `{id, name}`.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('activity')
    .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('item_kind', 'text')
    .addColumn('item_id', 'text')
    .addColumn('content_type', 'text')
    .addColumn('user_id', 'integer')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activity_workspace_id').on('activity').columns(['workspace_id', 'id']).execute();
  await db.schema.createIndex('activity_created_at').on('activity').columns(['created_at']).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_user_id', 'integer')
    .addColumn('item_kind', 'text')
    .addColumn('item_id', 'text')
    .addColumn('release_id', 'text')
    .addColumn('comment_id', 'text')
    .addColumn('stage', 'text')
    .addColumn('subject', 'text')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text')
    .execute();
  // A person's list (newest first) and their unread count, per workspace.
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'workspace_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('notifications_unread').on('notifications').columns(['user_id', 'workspace_id', 'read_at']).execute();
}
