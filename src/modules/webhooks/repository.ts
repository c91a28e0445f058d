/**
 * SQL of webhooks (D82): subscriptions, the outbox (webhook_deliveries) and the attempt log
 * (webhook_attempts). The rules (matching, backoff, SSRF, sealing) live in the other files of
 * this module; here are only rows.
 *
 * Claiming (claimDue, claimDelivery) is how each attempt is made once with several instances on
 * one database: in one transaction the due rows are locked (PostgreSQL `FOR UPDATE SKIP LOCKED`,
 * so concurrent workers take disjoint rows without waiting; SQLite holds its single write lock
 * from the first statement), their `next_attempt_at` is pushed to the end of a lease and an
 * attempt row is inserted. Until the lease ends no other worker sees the row as due; when a
 * worker dies mid-attempt, the row becomes due again at the lease's end (at-least-once).
 */
import { selectForUpdate, takeWriteLock } from '../../db/lock.js';
import type { Db, WebhookAttemptsTable, WebhookDeliveriesTable, WebhooksTable } from '../../db/types.js';
import { newId } from '../../lib/ids.js';

export type WebhookRow = WebhooksTable;
export type DeliveryRow = WebhookDeliveriesTable;
export type AttemptRow = WebhookAttemptsTable;

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db.kysely.insertInto('webhooks').values(row).execute();
}

export async function findWebhook(db: Db, workspaceId: string, id: string): Promise<WebhookRow | undefined> {
  return db.kysely.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

/**
 * findWebhook, the row locked until the transaction ends (call inside withTransaction): two
 * secret rotations of one webhook run one after the other, so neither loses the other's secret.
 */
export async function findWebhookForUpdate(db: Db, workspaceId: string, id: string): Promise<WebhookRow | undefined> {
  await takeWriteLock(db, 'webhooks');
  return selectForUpdate(db, db.kysely.selectFrom('webhooks').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id)).executeTakeFirst();
}

/** A page of a workspace's webhooks, oldest first, and how many there are. */
export async function listWebhookRows(db: Db, workspaceId: string, offset: number, limit: number): Promise<{ rows: WebhookRow[]; total: number }> {
  const rows = await db.kysely
    .selectFrom('webhooks')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .offset(offset)
    .limit(limit)
    .execute();
  const { n } = await db.kysely
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return { rows, total: Number(n) };
}

export async function updateWebhookRow(db: Db, id: string, patch: Partial<Omit<WebhookRow, 'id' | 'workspace_id'>>): Promise<void> {
  await db.kysely.updateTable('webhooks').set(patch).where('id', '=', id).execute();
}

/**
 * Drops the replaced secrets whose grace period ended by `now` (secret rotation, migration 027).
 * A read first: most passes find none, and then take no write lock.
 */
export async function dropExpiredSecrets(db: Db, now: string): Promise<void> {
  const expired = await db.kysely.selectFrom('webhooks').select('id').where('previous_secret_expires_at', '<=', now).limit(1).executeTakeFirst();
  if (!expired) return;
  await db.kysely
    .updateTable('webhooks')
    .set({ previous_secret_encrypted: null, previous_secret_expires_at: null })
    .where('previous_secret_expires_at', '<=', now)
    .execute();
}

/** Deletes a webhook with its deliveries and attempts; false when it was not there. */
export async function deleteWebhookRow(db: Db, workspaceId: string, id: string): Promise<boolean> {
  const res = await db.kysely.deleteFrom('webhooks').where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

/** The enabled webhooks of a workspace (the outbox filters them by event in code). */
export async function enabledWebhooks(db: Db, workspaceId: string): Promise<Pick<WebhookRow, 'id' | 'events' | 'content_types'>[]> {
  return db.kysely.selectFrom('webhooks').select(['id', 'events', 'content_types']).where('workspace_id', '=', workspaceId).where('enabled', '=', 1).execute();
}

/** Inserts outbox rows; a (webhook, event) pair already enqueued is left alone. */
export async function insertDeliveries(db: Db, rows: DeliveryRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.kysely
    .insertInto('webhook_deliveries')
    .values(rows)
    .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
    .execute();
}

/** What a worker needs to make one claimed attempt. */
export interface ClaimedAttempt {
  deliveryId: string;
  webhookId: string;
  workspaceId: string;
  url: string;
  secretSealed: string;
  /** The secret a rotation replaced, while its grace period runs (migration 027). */
  previousSecret: { sealed: string; expiresAt: string } | null;
  payload: string;
  /** 1-based number of this attempt. */
  number: number;
  attemptId: string;
  giveUpAt: string;
}

async function claimRows(
  db: Db,
  due: {
    id: string;
    webhook_id: string;
    workspace_id: string;
    url: string;
    secret_encrypted: string;
    previous_secret_encrypted: string | null;
    previous_secret_expires_at: string | null;
    payload: string;
    attempts: number;
    give_up_at: string;
  }[],
  now: string,
  leaseUntil: string,
  giveUpAt?: string,
): Promise<ClaimedAttempt[]> {
  const out: ClaimedAttempt[] = [];
  for (const d of due) {
    const number = d.attempts + 1;
    const giveUp = giveUpAt ?? d.give_up_at;
    await db.kysely
      .updateTable('webhook_deliveries')
      .set({ attempts: number, status: 'pending', next_attempt_at: leaseUntil, last_attempt_at: now, give_up_at: giveUp })
      .where('id', '=', d.id)
      .execute();
    // An earlier attempt without an outcome was cut short (its worker stopped); say so in the log.
    await db.kysely
      .updateTable('webhook_attempts')
      .set({ finished_at: now, error: 'interrupted: the sender stopped before recording an outcome' })
      .where('delivery_id', '=', d.id)
      .where('finished_at', 'is', null)
      .execute();
    const attemptId = newId();
    await db.kysely
      .insertInto('webhook_attempts')
      .values({
        id: attemptId,
        delivery_id: d.id,
        number,
        started_at: now,
        finished_at: null,
        duration_ms: null,
        status_code: null,
        response_excerpt: null,
        error: null,
      })
      .execute();
    out.push({
      deliveryId: d.id,
      webhookId: d.webhook_id,
      workspaceId: d.workspace_id,
      url: d.url,
      secretSealed: d.secret_encrypted,
      previousSecret:
        d.previous_secret_encrypted !== null && d.previous_secret_expires_at !== null
          ? { sealed: d.previous_secret_encrypted, expiresAt: d.previous_secret_expires_at }
          : null,
      payload: d.payload,
      number,
      attemptId,
      giveUpAt: giveUp,
    });
  }
  return out;
}

function claimSelect(db: Db) {
  return db.kysely
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
    .select([
      'd.id',
      'd.webhook_id',
      'd.workspace_id',
      'w.url',
      'w.secret_encrypted',
      'w.previous_secret_encrypted',
      'w.previous_secret_expires_at',
      'd.payload',
      'd.attempts',
      'd.give_up_at',
    ]);
}

/**
 * Claims up to `limit` due deliveries of enabled webhooks (call inside withTransaction): each
 * gets its attempt row and a lease until `leaseUntil`.
 */
export async function claimDue(db: Db, now: string, leaseUntil: string, limit: number): Promise<ClaimedAttempt[]> {
  // The read below and the claim are one step: the database's write lock (SQLite) or the rows'
  // locks (PostgreSQL; rows another claimer holds are skipped, so instances claim different rows).
  await takeWriteLock(db, 'webhook_deliveries');
  const q = claimSelect(db)
    .where('d.status', '=', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where('w.enabled', '=', 1)
    .orderBy('d.next_attempt_at')
    .limit(limit);
  return claimRows(db, await selectForUpdate(db, q, { of: 'd', skipLocked: true }).execute(), now, leaseUntil);
}

/**
 * Claims one delivery for an attempt now (manual retry, ping), whatever its status, unless an
 * attempt of it is under way (lease not over): then returns 'busy'. `giveUpAt` replaces the
 * retry deadline when given. Call inside withTransaction.
 */
export async function claimDelivery(db: Db, deliveryId: string, now: string, leaseUntil: string, giveUpAt?: string): Promise<ClaimedAttempt | 'busy' | null> {
  await takeWriteLock(db, 'webhook_deliveries');
  const q = claimSelect(db).select(['d.status', 'd.next_attempt_at']).where('d.id', '=', deliveryId);
  const row = await selectForUpdate(db, q, { of: 'd' }).executeTakeFirst();
  if (!row) return null;
  if (row.status === 'pending' && row.next_attempt_at !== null && row.next_attempt_at > now) {
    const open = await db.kysely
      .selectFrom('webhook_attempts')
      .select('id')
      .where('delivery_id', '=', deliveryId)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    if (open) return 'busy';
  }
  const [claimed] = await claimRows(db, [row], now, leaseUntil, giveUpAt);
  return claimed;
}

/** The outcome of an attempt as stored. */
export interface AttemptResult {
  finishedAt: string;
  durationMs: number;
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  /** The delivery's state after this attempt. */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: string | null;
}

/**
 * Records an attempt's outcome. The delivery row changes only while this attempt is its latest
 * (a worker whose lease ran out and was overtaken does not rewind a newer attempt's state).
 */
export async function finishAttempt(db: Db, claim: ClaimedAttempt, result: AttemptResult): Promise<void> {
  await db.kysely
    .updateTable('webhook_attempts')
    .set({
      finished_at: result.finishedAt,
      duration_ms: result.durationMs,
      status_code: result.statusCode,
      response_excerpt: result.excerpt,
      error: result.error,
    })
    .where('id', '=', claim.attemptId)
    .execute();
  await db.kysely
    .updateTable('webhook_deliveries')
    .set({ status: result.status, next_attempt_at: result.nextAttemptAt, last_status_code: result.statusCode, last_error: result.error })
    .where('id', '=', claim.deliveryId)
    .where('attempts', '=', claim.number)
    .execute();
}

/** A page of a webhook's deliveries, newest first, with their attempts (newest first). */
export async function listDeliveryRows(
  db: Db,
  webhookId: string,
  status: string | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: DeliveryRow[]; attempts: Map<string, AttemptRow[]>; total: number }> {
  let q = db.kysely.selectFrom('webhook_deliveries').where('webhook_id', '=', webhookId);
  if (status) q = q.where('status', '=', status);
  const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(offset).limit(limit).execute();
  const { n } = await q.select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow();
  return {
    rows,
    attempts: await attemptsOf(
      db,
      rows.map((r) => r.id),
    ),
    total: Number(n),
  };
}

/** One delivery of a webhook with its attempts, or undefined. */
export async function findDeliveryRow(db: Db, webhookId: string, deliveryId: string): Promise<{ row: DeliveryRow; attempts: AttemptRow[] } | undefined> {
  const row = await db.kysely.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId).where('id', '=', deliveryId).executeTakeFirst();
  if (!row) return undefined;
  return { row, attempts: (await attemptsOf(db, [row.id])).get(row.id) ?? [] };
}

async function attemptsOf(db: Db, deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
  const map = new Map<string, AttemptRow[]>();
  if (deliveryIds.length === 0) return map;
  const rows = await db.kysely.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('number', 'desc').execute();
  for (const r of rows) map.set(r.delivery_id, [...(map.get(r.delivery_id) ?? []), r]);
  return map;
}
