/**
 * Idempotency keys for management writes (docs/api.md "Idempotency-Key": a repeated value returns
 * the original
 * result instead of creating a duplicate; 409 IDEMPOTENCY_KEY_IN_USE, 422
 * IDEMPOTENCY_KEY_REUSED). The HTTP side is src/http/idempotency.ts.
 *
 * Rules:
 * - Records are kept per API key: the same key value sent with two API keys is two records.
 * - The fingerprint of a request is sha256 of its method, URL (path and query) and body (JSON
 *   with sorted keys, so key order does not matter).
 * - First use stores a `pending` record that expires 24 hours later.
 * - Same key, same fingerprint, record completed → the stored status and body are replayed.
 * - Same key, different fingerprint → 422 IDEMPOTENCY_KEY_REUSED (also while pending).
 * - Same key while the first request is still pending → 409 IDEMPOTENCY_KEY_IN_USE; a pending
 *   record older than 60 seconds counts as abandoned (its request died without an outcome) and
 *   is taken over by the next request with that key, like an absent one.
 * - Outcomes with status ≥ 500 are not stored: the record is deleted so the client can retry.
 * - Expired records are ignored and overwritten; each API key's expired records are purged when
 *   that key next uses an idempotency key.
 *
 * Any entry point (HTTP, a GraphQL mutation, an MCP tool) runs the whole cycle with
 * runIdempotent; beginIdempotent, completeIdempotent and releaseIdempotent are its steps.
 */
import { createHash } from 'node:crypto';
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import { stableStringify } from '../../lib/json.js';
import { iso } from '../../lib/time.js';
import { completeRecord, deleteRecord, findRecord, insertRecordIfAbsent, purgeExpired, replaceRecord, type IdempotencyRecord } from './repository.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
export const PENDING_TIMEOUT_MS = 60_000;

/** sha256 over method, URL and canonical body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()}\n${url}\n${stableStringify(body ?? null)}`)
    .digest('hex');
}

/** A claim on a key: the request that holds it stores its outcome with completeIdempotent. */
export interface IdempotencyClaim {
  apiKeyId: string;
  key: string;
  createdAt: string;
}

/** A stored response to send again. */
export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

export type BeginResult = { kind: 'proceed'; claim: IdempotencyClaim } | { kind: 'replay'; response: StoredResponse };

function parseStored(rec: IdempotencyRecord): StoredResponse {
  let stored: { body?: unknown; headers?: unknown } = {};
  try {
    stored = JSON.parse(rec.response ?? '{}') as typeof stored;
  } catch {
    stored = {};
  }
  const headers: Record<string, string> = {};
  if (stored.headers && typeof stored.headers === 'object') {
    for (const [k, v] of Object.entries(stored.headers as Record<string, unknown>)) if (typeof v === 'string') headers[k] = v;
  }
  return { statusCode: rec.status_code ?? 200, body: typeof stored.body === 'string' ? stored.body : '', headers };
}

/**
 * Claims `key` for a request with `fingerprint`, or returns the response to replay. Throws 422
 * IDEMPOTENCY_KEY_REUSED or 409 IDEMPOTENCY_KEY_IN_USE per the rules above.
 */
export async function beginIdempotent(ctx: Context, apiKeyId: string, key: string, fingerprint: string): Promise<BeginResult> {
  const now = ctx.clock();
  const nowIso = iso(now);
  const fresh: IdempotencyRecord = {
    api_key_id: apiKeyId,
    idem_key: key,
    fingerprint,
    state: 'pending',
    status_code: null,
    response: null,
    created_at: nowIso,
    expires_at: iso(new Date(now.getTime() + IDEMPOTENCY_TTL_MS)),
  };
  const claim = { kind: 'proceed' as const, claim: { apiKeyId, key, createdAt: nowIso } };
  await purgeExpired(ctx.db, apiKeyId, nowIso);
  if (await insertRecordIfAbsent(ctx.db, fresh)) return claim;

  const existing = await findRecord(ctx.db, apiKeyId, key);
  // Gone between the insert and the read (released or purged): claim it anew.
  if (!existing) return (await insertRecordIfAbsent(ctx.db, fresh)) ? claim : inUse();
  const expired = existing.expires_at <= nowIso;
  const abandoned = existing.state === 'pending' && Date.parse(existing.created_at) <= now.getTime() - PENDING_TIMEOUT_MS;
  if (expired || abandoned) {
    return (await replaceRecord(ctx.db, existing.created_at, fresh)) ? claim : inUse();
  }
  if (existing.fingerprint !== fingerprint) {
    throw new AppError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with a different method, path or body; use a new key for a new request',
    );
  }
  if (existing.state === 'pending') return inUse();
  return { kind: 'replay', response: parseStored(existing) };
}

function inUse(): never {
  throw new AppError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry later');
}

/** Stores the outcome of a claimed request, or releases the key for a 5xx outcome. */
export async function completeIdempotent(ctx: Context, claim: IdempotencyClaim, response: StoredResponse): Promise<void> {
  if (response.statusCode >= 500) {
    await releaseIdempotent(ctx, claim);
    return;
  }
  await completeRecord(
    ctx.db,
    claim.apiKeyId,
    claim.key,
    claim.createdAt,
    response.statusCode,
    JSON.stringify({ body: response.body, headers: response.headers }),
  );
}

/** Deletes the claim so the same key can be sent again. */
export async function releaseIdempotent(ctx: Context, claim: IdempotencyClaim): Promise<void> {
  await deleteRecord(ctx.db, claim.apiKeyId, claim.key, claim.createdAt);
}

/** What runIdempotent answers: the outcome to send, and whether it is a replay of a first one. */
export interface IdempotentOutcome {
  replayed: boolean;
  response: StoredResponse;
}

/**
 * The whole cycle for one operation under an idempotency key, for any entry point: claims `key`
 * for `apiKeyId` with `fingerprint` (of the operation and its arguments, e.g. requestFingerprint),
 * then either replays the stored outcome (`replayed: true`, `run` not called) or calls `run`,
 * stores what it returns (released instead when its status is ≥ 500; a failure to store is
 * logged, not thrown, since the operation happened) and returns it. `run`
 * returns the outcome as the entry point will send it (status, body, headers to replay), errors
 * a client should see again included; when `run` throws, the key is released (nothing stored) and
 * the error rethrown, so the client may retry. Throws 422 IDEMPOTENCY_KEY_REUSED or 409
 * IDEMPOTENCY_KEY_IN_USE per the rules above, before `run` is called.
 */
export async function runIdempotent(
  ctx: Context,
  apiKeyId: string,
  key: string,
  fingerprint: string,
  run: () => Promise<StoredResponse>,
): Promise<IdempotentOutcome> {
  const begun = await beginIdempotent(ctx, apiKeyId, key, fingerprint);
  if (begun.kind === 'replay') return { replayed: true, response: begun.response };
  let response: StoredResponse;
  try {
    response = await run();
  } catch (err) {
    await releaseIdempotent(ctx, begun.claim);
    throw err;
  }
  try {
    await completeIdempotent(ctx, begun.claim, response);
  } catch (err) {
    // The operation is done and its outcome must reach the client; a record left pending is
    // taken over after PENDING_TIMEOUT_MS.
    ctx.log.error({ err }, 'could not store the idempotent response');
  }
  return { replayed: false, response };
}
