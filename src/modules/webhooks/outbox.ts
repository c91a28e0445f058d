/**
 * The webhook outbox (DECISIONS.md D82): when a change event is recorded, one delivery row per
 * matching enabled webhook is inserted in the SAME transaction as the write, so a crash after the
 * commit loses nothing (the delivery worker sends what is pending) and a rolled-back write sends
 * nothing. Called by recordEvent (src/modules/events/); the worker is src/modules/webhooks/worker.ts.
 */
import type { Db } from '../../db/types.js';

/** A recorded change event as recordEvent hands it over (the `events` row, camelCased). */
export interface OutboxEvent {
  /** The event id (events.id). */
  id: number;
  workspaceId: string;
  /** D82 event type, e.g. `entry.published`. */
  type: string;
  itemKind: string;
  itemId: string;
  slug: string | null;
  /** Content type slug of an entry (or of a content type event). */
  contentType: string | null;
  status: string | null;
  version: number | null;
  /** ISO instant the event was recorded. */
  createdAt: string;
}

/**
 * Inserts the deliveries of `event` for every enabled webhook of its workspace whose `events`
 * patterns and `content_types` filter match. `trx` must be the write's transaction.
 */
export async function enqueueDeliveries(trx: Db, event: OutboxEvent): Promise<number> {
  void trx;
  void event;
  return 0;
}
