/**
 * The webhook outbox (docs/api.md "Webhooks" (D82)): when a change event is recorded, one delivery row per
 * matching enabled webhook is inserted in the SAME transaction as the write, so a crash after the
 * commit loses nothing (the delivery worker, worker.ts, sends what is pending) and a rolled-back
 * write sends nothing. Called by recordEvent (src/modules/events/).
 */
import type { Db } from '../../db/types.js';
import { newId } from '../../lib/ids.js';
import { changeTags } from '../read/cache-tags.js';
import { matchesEvent } from './events.js';
import { enabledWebhooks, insertDeliveries, type DeliveryRow } from './repository.js';
import { RETRY_WINDOW_MS } from './worker.js';

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
  /** `<kind>.stage_changed` only: the stage entered (not stored in `events`; the payload carries it). */
  stage?: { id: string; name: string };
}

/**
 * The D82 body: `{type, timestamp, workspace_id, data: {id, slug, content_type?, status, version},
 * tags}`, where `tags` are the cache tags of the changed item (D142, changeTags in
 * src/modules/read/cache-tags.ts): purge them at the CDN.
 */
export function eventPayload(event: Omit<OutboxEvent, 'id'>): string {
  const data: Record<string, unknown> = { id: event.itemId, slug: event.slug };
  if (event.contentType !== null) data.content_type = event.contentType;
  data.status = event.status;
  data.version = event.version;
  if (event.stage) data.stage = event.stage;
  return JSON.stringify({ type: event.type, timestamp: event.createdAt, workspace_id: event.workspaceId, data, tags: changeTags(event) });
}

/** A new pending outbox row, due at `dueAt`, retried until 24 h after it. */
export function deliveryRow(webhookId: string, workspaceId: string, eventId: number | null, type: string, payload: string, dueAt: string): DeliveryRow {
  return {
    id: newId(),
    webhook_id: webhookId,
    workspace_id: workspaceId,
    event_id: eventId,
    event_type: type,
    payload,
    status: 'pending',
    attempts: 0,
    next_attempt_at: dueAt,
    give_up_at: new Date(Date.parse(dueAt) + RETRY_WINDOW_MS).toISOString(),
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    created_at: dueAt,
  };
}

const parseList = (text: string): string[] => JSON.parse(text) as string[];

/**
 * Inserts the deliveries of `event` for every enabled webhook of its workspace whose `events`
 * patterns and `content_types` filter match; returns how many. `trx` must be the write's
 * transaction (D82: recorded with the change).
 */
export async function enqueueDeliveries(trx: Db, event: OutboxEvent): Promise<number> {
  const hooks = (await enabledWebhooks(trx, event.workspaceId)).filter((w) =>
    matchesEvent(parseList(w.events), parseList(w.content_types), event.type, event.contentType),
  );
  if (hooks.length === 0) return 0;
  const payload = eventPayload(event);
  await insertDeliveries(
    trx,
    hooks.map((w) => deliveryRow(w.id, event.workspaceId, event.id, event.type, payload, event.createdAt)),
  );
  return hooks.length;
}
