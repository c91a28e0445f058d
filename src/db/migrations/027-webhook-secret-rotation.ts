/**
 * Webhook secret rotation (docs/api.md "Webhooks"; issue 28 item 6). A rotation keeps the secret
 * it replaces for a grace period, during which deliveries carry a signature by each secret
 * (Standard Webhooks allows several, space-separated, in `webhook-signature`), so a receiver can
 * switch to the new secret at its own pace:
 *
 * - `webhooks.previous_secret_encrypted`: the replaced secret, sealed exactly as the current one
 *   (AES-256-GCM under a key derived from the installation secret, the webhook id as additional
 *   data; src/modules/webhooks/secrets.ts), null when none is kept;
 * - `webhooks.previous_secret_expires_at`: the end of the grace period (ISO instant); from then
 *   on only the current secret signs, and the delivery worker clears both columns.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('webhooks').addColumn('previous_secret_encrypted', 'text').execute();
  await db.schema.alterTable('webhooks').addColumn('previous_secret_expires_at', 'text').execute();
}
