/**
 * Webhook operations (docs/api.md "Webhooks" (D82)). Every operation, reads
 * included, needs the `webhooks:write` scope (owners and admins): a webhook's URL may carry a
 * receiver's credentials and its delivery log shows the receiver's answers.
 *
 * - create: validates the URL (http(s); unless WEBHOOK_ALLOW_PRIVATE its host must be or resolve
 *   to public addresses only, address-guard.ts; checked again at every attempt), the events (D82 types, `<kind>.*`, `*`) and the content type filter
 *   (content types of the workspace); the secret is returned once and stored sealed.
 * - rotate-secret: a new secret, returned once; the replaced one keeps signing beside it for a
 *   grace period (both signatures in `webhook-signature`), then is dropped (worker.ts).
 * - ping and retry make one attempt now, within the request, and answer the delivery with its
 *   log; a failed ping or a retried finished delivery is not retried automatically.
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { recordAudit, type AuditEntry } from '../audit/record.js';
import { AppError, notFound, validationError, type ErrorDetail } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { offsetPage, type OffsetPage } from '../../lib/pagination.js';
import { iso } from '../../lib/time.js';
import { authorize } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { entryTypeSlugsAmong } from '../content-types/repository.js';
import {
  DEFAULT_GRACE_SECONDS,
  type CreateWebhookInput,
  type CreatedWebhookRecord,
  type RotateSecretInput,
  type RotatedWebhookRecord,
  type UpdateWebhookInput,
  type WebhookDeliveryRecord,
  type WebhookRecord,
} from '../../http/schemas/webhooks.js';
import { checkEventPatterns } from './events.js';
import { targetProblem } from './http-client.js';
import { deliveryRow } from './outbox.js';
import {
  claimDelivery,
  deleteWebhookRow,
  findDeliveryRow,
  findWebhook,
  findWebhookForUpdate,
  insertDeliveries,
  insertWebhook,
  listDeliveryRows,
  listWebhookRows,
  updateWebhookRow,
  type AttemptRow,
  type ClaimedAttempt,
  type DeliveryRow,
  type WebhookRow,
} from './repository.js';
import { generateSecret, sealSecret } from './secrets.js';
import { leaseEnd, performAttempt } from './worker.js';

function present(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    content_types: JSON.parse(row.content_types) as string[],
    enabled: row.enabled === 1,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

function presentDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDeliveryRecord {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event_id: row.event_id === null ? null : Number(row.event_id),
    event_type: row.event_type,
    status: row.status as WebhookDeliveryRecord['status'],
    attempt_count: row.attempts,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    give_up_at: row.give_up_at,
    created_at: row.created_at,
    payload: JSON.parse(row.payload) as unknown,
    attempts: attempts.map((a) => ({
      number: a.number,
      started_at: a.started_at,
      finished_at: a.finished_at,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      response_excerpt: a.response_excerpt,
      error: a.error,
    })),
  };
}

/** Checks the parts of a create or update body that are present; throws 400 with every problem. */
async function checkInput(ctx: Context, actor: Actor, input: UpdateWebhookInput): Promise<void> {
  const errors: ErrorDetail[] = [];
  if (input.url !== undefined) {
    const problem = await targetProblem(input.url, ctx.config.webhookAllowPrivate, ctx.resolveHost);
    if (problem) errors.push({ path: 'body.url', message: problem });
  }
  if (input.events !== undefined) errors.push(...checkEventPatterns(input.events, 'body.events'));
  if (input.content_types?.length) {
    const known = await entryTypeSlugsAmong(ctx.db, actor.workspaceId, input.content_types);
    input.content_types.forEach((slug, i) => {
      if (!known.has(slug)) errors.push({ path: `body.content_types.${i}`, message: `'${slug}' is not a content type of this workspace` });
    });
  }
  if (errors.length) throw validationError(errors);
}

async function requireWebhook(ctx: Context, actor: Actor, id: string): Promise<WebhookRow> {
  const row = await findWebhook(ctx.db, actor.workspaceId, id);
  if (!row) throw notFound('Webhook');
  return row;
}

/** POST /webhooks: 201 with the webhook and its secret (the only time it is shown). */
export async function createWebhook(ctx: Context, actor: Actor, input: CreateWebhookInput): Promise<CreatedWebhookRecord> {
  authorize(actor, 'webhooks:write');
  await checkInput(ctx, actor, input);
  const id = newId();
  const secret = generateSecret();
  const now = iso(ctx.clock());
  const row: WebhookRow = {
    id,
    workspace_id: actor.workspaceId,
    url: input.url,
    description: input.description ?? null,
    events: JSON.stringify([...new Set(input.events)]),
    content_types: JSON.stringify([...new Set(input.content_types ?? [])]),
    enabled: input.enabled === false ? 0 : 1,
    secret_encrypted: sealSecret(ctx.secret, id, secret),
    previous_secret_encrypted: null,
    previous_secret_expires_at: null,
    created_at: now,
    updated_at: now,
  };
  await withTransaction(ctx.db, async (db) => {
    await insertWebhook(db, row);
    await recordAudit(db, webhookAudit(actor, row, now, 'webhook.created'));
  });
  return { ...present(row), secret };
}

export async function listWebhooks(
  ctx: Context,
  actor: Actor,
  q: { page?: number; limit?: number },
): Promise<{ items: WebhookRecord[]; total: number; window: OffsetPage }> {
  authorize(actor, 'webhooks:write');
  const window = offsetPage(q.page, q.limit);
  const { rows, total } = await listWebhookRows(ctx.db, actor.workspaceId, window.offset, window.limit);
  return { items: rows.map(present), total, window };
}

export async function getWebhook(ctx: Context, actor: Actor, id: string): Promise<WebhookRecord> {
  authorize(actor, 'webhooks:write');
  return present(await requireWebhook(ctx, actor, id));
}

/** PATCH /webhooks/{id}: changes the given fields (same checks as create). */
export async function updateWebhook(ctx: Context, actor: Actor, id: string, input: UpdateWebhookInput): Promise<WebhookRecord> {
  authorize(actor, 'webhooks:write');
  const current = await requireWebhook(ctx, actor, id);
  await checkInput(ctx, actor, input);
  const patch: Partial<WebhookRow> = { updated_at: iso(ctx.clock()) };
  if (input.url !== undefined) patch.url = input.url;
  if (input.description !== undefined) patch.description = input.description;
  if (input.events !== undefined) patch.events = JSON.stringify([...new Set(input.events)]);
  if (input.content_types !== undefined) patch.content_types = JSON.stringify([...new Set(input.content_types)]);
  if (input.enabled !== undefined) patch.enabled = input.enabled ? 1 : 0;
  await withTransaction(ctx.db, async (db) => {
    await updateWebhookRow(db, id, patch);
    const changedFields = Object.keys(patch).filter((k) => k !== 'updated_at');
    await recordAudit(db, { ...webhookAudit(actor, { id, url: input.url ?? current.url }, patch.updated_at!, 'webhook.updated'), changedFields });
  });
  return present(await requireWebhook(ctx, actor, id));
}

/**
 * POST /webhooks/{id}/rotate-secret (docs/api.md "Rotating the signing secret"; issue 28 item 6):
 * a new secret, answered once (never kept for an Idempotency-Key replay: the route is a secret
 * answer). The replaced secret keeps signing beside the new one for `grace_seconds` (default 24 h,
 * at most 7 days, bounds checked by the body schema; 0: not at all), sealed like the current one.
 * Only the secret being replaced is kept: a rotation within a grace period drops the one before.
 * Attempts already under way finish with the secrets they were claimed with. 404 for another
 * workspace's webhook.
 */
export async function rotateWebhookSecret(ctx: Context, actor: Actor, id: string, input: RotateSecretInput): Promise<RotatedWebhookRecord> {
  authorize(actor, 'webhooks:write');
  const now = ctx.clock();
  const grace = input.grace_seconds ?? DEFAULT_GRACE_SECONDS;
  const secret = generateSecret();
  const expires = grace > 0 ? iso(new Date(now.getTime() + grace * 1000)) : null;
  const row = await withTransaction(ctx.db, async (db) => {
    const current = await findWebhookForUpdate(db, actor.workspaceId, id);
    if (!current) throw notFound('Webhook');
    // The sealed value moves as it is: the same webhook id is its additional data.
    const patch = {
      secret_encrypted: sealSecret(ctx.secret, id, secret),
      previous_secret_encrypted: expires === null ? null : current.secret_encrypted,
      previous_secret_expires_at: expires,
      updated_at: iso(now),
    };
    await updateWebhookRow(db, id, patch);
    await recordAudit(db, webhookAudit(actor, current, patch.updated_at, 'webhook.secret_rotated'));
    return { ...current, ...patch };
  });
  return { ...present(row), secret, previous_secret_expires_at: expires };
}

/** DELETE /webhooks/{id}: the webhook and its delivery log; pending deliveries are dropped. */
export async function deleteWebhook(ctx: Context, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'webhooks:write');
  await withTransaction(ctx.db, async (db) => {
    const current = await findWebhookForUpdate(db, actor.workspaceId, id);
    if (!current || !(await deleteWebhookRow(db, actor.workspaceId, id))) throw notFound('Webhook');
    await recordAudit(db, webhookAudit(actor, current, iso(ctx.clock()), 'webhook.deleted'));
  });
}

/** GET /webhooks/{id}/deliveries: newest first, each with its attempts. */
export async function listDeliveries(
  ctx: Context,
  actor: Actor,
  id: string,
  q: { page?: number; limit?: number; status?: string },
): Promise<{ items: WebhookDeliveryRecord[]; total: number; window: OffsetPage }> {
  authorize(actor, 'webhooks:write');
  await requireWebhook(ctx, actor, id);
  const window = offsetPage(q.page, q.limit);
  const { rows, attempts, total } = await listDeliveryRows(ctx.db, id, q.status, window.offset, window.limit);
  return { items: rows.map((r) => presentDelivery(r, attempts.get(r.id) ?? [])), total, window };
}

async function attemptNow(ctx: Context, webhookId: string, claim: ClaimedAttempt): Promise<WebhookDeliveryRecord> {
  await performAttempt(ctx, claim);
  const found = await findDeliveryRow(ctx.db, webhookId, claim.deliveryId);
  if (!found) throw notFound('Delivery');
  return presentDelivery(found.row, found.attempts);
}

/**
 * POST /webhooks/{id}/deliveries/{delivery_id}/retry: one attempt now. A pending delivery keeps
 * its schedule afterwards; a delivered or failed one gets this attempt only. 409 while an
 * attempt of it is under way.
 */
export async function retryDelivery(ctx: Context, actor: Actor, id: string, deliveryId: string): Promise<WebhookDeliveryRecord> {
  authorize(actor, 'webhooks:write');
  await requireWebhook(ctx, actor, id);
  const found = await findDeliveryRow(ctx.db, id, deliveryId);
  if (!found) throw notFound('Delivery');
  const now = ctx.clock();
  const claim = await withTransaction(ctx.db, (db) =>
    claimDelivery(db, deliveryId, iso(now), leaseEnd(ctx, now), found.row.status === 'pending' ? undefined : iso(now)),
  );
  if (claim === null) throw notFound('Delivery');
  if (claim === 'busy') throw new AppError('INVALID_STATE_TRANSITION', 'An attempt of this delivery is under way; retry when it has finished');
  return attemptNow(ctx, id, claim);
}

/**
 * POST /webhooks/{id}/ping: sends a `ping` event now (also to a disabled webhook) and answers its
 * delivery. Body: `{type: "ping", timestamp, workspace_id, data: {id: <webhook id>, slug: null,
 * status: null, version: null}}`. A failed ping is logged, not retried.
 */
export async function pingWebhook(ctx: Context, actor: Actor, id: string): Promise<WebhookDeliveryRecord> {
  authorize(actor, 'webhooks:write');
  await requireWebhook(ctx, actor, id);
  const now = ctx.clock();
  const payload = JSON.stringify({ type: 'ping', timestamp: iso(now), workspace_id: actor.workspaceId, data: { id, slug: null, status: null, version: null } });
  const row = { ...deliveryRow(id, actor.workspaceId, null, 'ping', payload, iso(now)), give_up_at: iso(now) };
  const claim = await withTransaction(ctx.db, async (db) => {
    await insertDeliveries(db, [row]);
    return claimDelivery(db, row.id, iso(now), leaseEnd(ctx, now));
  });
  if (claim === null || claim === 'busy') throw new AppError('INTERNAL_ERROR', 'The ping could not be queued');
  return attemptNow(ctx, id, claim);
}

/**
 * The audit row of a webhook action (D122). The target's slug is the address's host only: a
 * webhook URL may carry credentials in its path or query, and the log never holds secrets.
 */
function webhookAudit(actor: Actor, hook: { id: string; url: string }, at: string, action: string): AuditEntry {
  let host: string | null;
  try {
    host = new URL(hook.url).host;
  } catch {
    host = null;
  }
  return { workspaceId: actor.workspaceId, at, actor, action, target: { kind: 'webhook', id: hook.id, slug: host } };
}
