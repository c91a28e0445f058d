/**
 * The webhook delivery worker (D82). Every `config.webhookPollMs` it claims due deliveries from
 * the outbox (repository.ts claimDue: each attempt made once across instances on one database)
 * and sends them, signed the Standard Webhooks way (`webhook-id` = the delivery id, stable over
 * retries; `webhook-timestamp`; `webhook-signature: v1,<base64 HMAC-SHA256>`).
 *
 * Retries: a failed attempt is tried again after 5 s, 30 s, 2 min, 10 min, 1 h, then every hour,
 * each delay ±10 % at random (so many receivers failing together do not come back in step),
 * until 24 h after the event; a delivery whose next try would fall later is marked `failed`.
 * Tests pass a fast schedule (WorkerOptions.backoffMs).
 *
 * On the embedded SQLite database one process owns the file, so one worker runs; its claims go
 * through SQLite's write lock all the same. On PostgreSQL every instance runs a worker.
 */
import { Webhook } from 'standardwebhooks';
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { iso } from '../../lib/time.js';
import { attempt, type AttemptOutcome } from './http-client.js';
import { claimDue, dropExpiredSecrets, finishAttempt, type AttemptResult, type ClaimedAttempt } from './repository.js';
import { openSecret } from './secrets.js';

/** Delays after the 1st, 2nd, … failed attempt; the last one repeats. */
export const DEFAULT_BACKOFF_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 3_600_000];
/** How long after its event a delivery is retried. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
/** A claimed attempt's lease beyond the request timeout, before another worker may take it over. */
const LEASE_MARGIN_MS = 30_000;

export interface WorkerOptions {
  /** Retry delays in ms (default DEFAULT_BACKOFF_MS). */
  backoffMs?: readonly number[];
  /** Deliveries claimed per pass (default 20). */
  batch?: number;
  /** Milliseconds between passes (default config.webhookPollMs). */
  pollMs?: number;
  /** Random source for the jitter, in [0, 1) (default Math.random). */
  random?: () => number;
}

/** Delay before the next try after `attemptsMade` failed attempts, jittered ±10 %. */
export function retryDelayMs(attemptsMade: number, schedule: readonly number[] = DEFAULT_BACKOFF_MS, random: () => number = Math.random): number {
  const base = schedule[Math.min(Math.max(attemptsMade, 1), schedule.length) - 1];
  return Math.round(base * (0.9 + 0.2 * random()));
}

/** The end of the lease of an attempt claimed at `now`. */
export function leaseEnd(ctx: Context, now: Date): string {
  return iso(new Date(now.getTime() + ctx.config.webhookTimeoutMs + LEASE_MARGIN_MS));
}

/** The signed headers of one attempt: one signature per secret (the current one first), space-separated. */
function signedHeaders(secrets: readonly string[], deliveryId: string, at: Date, payload: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'Quire-Webhooks/1',
    'webhook-id': deliveryId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(deliveryId, at, payload)).join(' '),
  };
}

/**
 * The replaced secret of a rotation while its grace period runs at `at`, else null. One that
 * cannot be opened is left out (the current secret still signs).
 */
function previousSecret(ctx: Context, claim: ClaimedAttempt, at: Date): string | null {
  if (claim.previousSecret === null || claim.previousSecret.expiresAt <= iso(at)) return null;
  try {
    return openSecret(ctx.secret, claim.webhookId, claim.previousSecret.sealed);
  } catch {
    return null;
  }
}

/**
 * Sends one claimed attempt and records its outcome (attempt row, delivery state: delivered on
 * 2xx; otherwise pending with its next try, or failed past the retry deadline).
 */
export async function performAttempt(ctx: Context, claim: ClaimedAttempt, options: WorkerOptions = {}): Promise<AttemptResult> {
  const at = ctx.clock();
  let outcome: AttemptOutcome;
  let secret: string | null = null;
  try {
    secret = openSecret(ctx.secret, claim.webhookId, claim.secretSealed);
  } catch {
    outcome = {
      ok: false,
      statusCode: null,
      durationMs: 0,
      excerpt: null,
      error: 'the signing secret cannot be opened (was the installation secret replaced?)',
    };
  }
  if (secret !== null) {
    outcome = await attempt({
      url: claim.url,
      headers: signedHeaders(
        [secret, previousSecret(ctx, claim, at)].filter((s): s is string => s !== null),
        claim.deliveryId,
        at,
        claim.payload,
      ),
      body: claim.payload,
      timeoutMs: ctx.config.webhookTimeoutMs,
      allowPrivate: ctx.config.webhookAllowPrivate,
      resolve: ctx.resolveHost,
    });
  }
  const done = ctx.clock();
  let status: AttemptResult['status'] = 'delivered';
  let nextAttemptAt: string | null = null;
  if (!outcome!.ok) {
    const next = new Date(done.getTime() + retryDelayMs(claim.number, options.backoffMs, options.random));
    status = iso(next) > claim.giveUpAt ? 'failed' : 'pending';
    nextAttemptAt = status === 'pending' ? iso(next) : null;
  }
  const result: AttemptResult = {
    finishedAt: iso(done),
    durationMs: outcome!.durationMs,
    statusCode: outcome!.statusCode,
    excerpt: outcome!.excerpt,
    error: outcome!.error,
    status,
    nextAttemptAt,
  };
  await withTransaction(ctx.db, (db) => finishAttempt(db, claim, result));
  return result;
}

/** One pass: claims up to `batch` due deliveries and sends them in parallel; returns how many. */
export async function runWebhookWorkerOnce(ctx: Context, options: WorkerOptions = {}): Promise<number> {
  const now = ctx.clock();
  await dropExpiredSecrets(ctx.db, iso(now));
  const claims = await withTransaction(ctx.db, (db) => claimDue(db, iso(now), leaseEnd(ctx, now), options.batch ?? 20));
  await Promise.all(
    claims.map((c) =>
      performAttempt(ctx, c, options).catch((err: unknown) => {
        // Its lease runs out and a later pass tries again.
        ctx.log.error({ err, delivery: c.deliveryId }, 'recording a webhook attempt failed');
      }),
    ),
  );
  return claims.length;
}

export interface WebhookWorker {
  /** Runs a pass now (unless one is running). */
  wake(): void;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/**
 * Starts the worker: a pass right away (sending what waited while no instance ran), then one per
 * poll interval; a full batch is followed by another pass at once. The timer is unref'd; failures
 * are logged, never thrown.
 */
export function startWebhookWorker(ctx: Context, options: WorkerOptions = {}): WebhookWorker {
  let running: Promise<void> | null = null;
  let stopped = false;
  const batch = options.batch ?? 20;
  const tick = (): void => {
    if (running || stopped) return;
    running = (async () => {
      while (!stopped && (await runWebhookWorkerOnce(ctx, { ...options, batch })) === batch);
    })()
      .catch((err: unknown) => ctx.log.error({ err }, 'webhook delivery pass failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, options.pollMs ?? ctx.config.webhookPollMs);
  timer.unref();
  setImmediate(tick).unref();
  return {
    wake: tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (running) await running;
    },
  };
}
