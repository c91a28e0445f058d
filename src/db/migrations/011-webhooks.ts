/**
 * Webhooks (docs/api.md "Webhooks" (D82)): subscriptions, their outbox and the delivery log.
 *
 * - `webhooks`: one subscription of a workspace. `events` and `content_types` are JSON arrays
 *   (text in both dialects); `secret_encrypted` holds the signing secret sealed with AES-256-GCM
 *   under a key derived from the installation secret (src/modules/webhooks/secrets.ts): Standard
 *   Webhooks signs with HMAC, so the secret must be recoverable, yet a copy of the database alone
 *   does not reveal it.
 * - `webhook_deliveries`: the outbox. One row per (webhook, event), inserted in the transaction
 *   of the change (unique on the pair, so an event is enqueued once); `payload` is the exact JSON
 *   body, fixed at enqueue so retries send the same bytes. `next_attempt_at` is when a pending
 *   delivery is due and, while an attempt is under way, the end of that attempt's lease: another
 *   worker claims it again only after the lease ran out (a worker that died mid-attempt).
 *   `give_up_at` ends the retries (24 h after the event).
 * - `webhook_attempts`: the delivery log, one row per attempt, inserted when the attempt is
 *   claimed (so each attempt is made once) and completed with its outcome.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('content_types', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_workspace').on('webhooks').columns(['workspace_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'integer')
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'text')
    .addColumn('give_up_at', 'text', (c) => c.notNull())
    .addColumn('last_attempt_at', 'text')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('webhook_deliveries_event', ['webhook_id', 'event_id'])
    .execute();
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at']).execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('delivery_id', 'text', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('status_code', 'integer')
    .addColumn('response_excerpt', 'text')
    .addColumn('error', 'text')
    .addUniqueConstraint('webhook_attempts_number', ['delivery_id', 'number'])
    .execute();
}
