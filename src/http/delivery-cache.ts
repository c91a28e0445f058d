/**
 * Response cache of the delivery API. A GET answered 200 is kept, per API key and URL, together
 * with the workspace revision it was computed under (migration 004: database triggers bump it on
 * every write that can change what a key reads) and the moment it stops being true on its own
 * (the workspace's next scheduled publication, D21). A later identical request by the same key is
 * served from memory only while both still hold, so every instance sharing the database serves
 * fresh content on the next request after any write, and a scheduled item appears on time.
 *
 * Routes opt out with `config: { cache: false }` (preview tokens: their answer depends on a
 * token's lifetime). Memory is bounded by MAX_BYTES; least recently used responses go first.
 *
 * HTTP caching and compression (D81, rules in src/http/http-cache.ts) happen here too, for every
 * delivery GET and HEAD answered 200, cached or not: a strong `ETag`, 304 on a matching
 * `If-None-Match`, `Cache-Control` by key type and DELIVERY_MAX_AGE, `Vary: X-API-Key,
 * Accept-Encoding`, and bodies over 1 KB in br or gzip as `Accept-Encoding` asks. A cached
 * response keeps its identity bytes, their hash and each encoding once made (the requested one
 * when it is stored, others on their first request), all counted against MAX_BYTES, so a hit
 * sends stored bytes without hashing or compressing. Error answers get `Cache-Control: no-store`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { iso } from '../lib/time.js';
import { addVary, bodyHash, encodeBody, entityTagFor, MIN_COMPRESS_BYTES, negotiateCoding, notModifiedTag } from './http-cache.js';
import { nextScheduledAt } from '../modules/publishing/scheduler-repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: never serve this route's responses from the delivery cache; their answers also get
     * `Cache-Control: private, no-store` (they depend on more than the URL and the content, e.g.
     * a preview token's lifetime).
     */
    cache?: boolean;
  }
}

/** Total payload bytes kept (identity and encoded bodies), and the longest a response is kept without being asked for. */
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_AGE_MS = 5 * 60_000;

/** One answer body: its identity bytes, their hash (the entity tag) and its encodings made so far. */
interface Representation {
  identity: Buffer;
  hash: string;
  br?: Buffer;
  gzip?: Buffer;
}

interface CachedResponse extends Representation {
  revision: number;
  validUntil: number;
  contentType: string;
  /** identity + encodings, as counted in `bytes`. */
  size: number;
}

interface WorkspaceHorizon {
  revision: number;
  computedAt: number;
  until: number;
}

/**
 * `Cache-Control` of a delivery answer (D81): preview tokens (routes with `cache: false`)
 * `private, no-store`; preview keys `private, no-cache` (drafts never in a shared cache, the
 * browser revalidates with the ETag); production keys `no-cache`, or `public, max-age=N` with
 * DELIVERY_MAX_AGE.
 */
function cacheControlOf(ctx: Context, request: FastifyRequest): string {
  if (request.routeOptions.config?.cache === false) return 'private, no-store';
  if (request.actor?.environment === 'preview') return 'private, no-cache';
  const maxAge = ctx.config.deliveryMaxAge;
  return maxAge === null ? 'no-cache' : `public, max-age=${maxAge}`;
}

/**
 * Sets the D81 headers for `rep` on a 200 answer and returns the bytes to send: null with status
 * 304 when `If-None-Match` names a current tag, else the identity or encoded body (an encoding
 * made now is handed to `remember`, so a cached response keeps it).
 */
async function represent(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  rep: Representation,
  remember?: (coding: 'br' | 'gzip', bytes: Buffer) => void,
): Promise<Buffer | null> {
  reply.header('Cache-Control', cacheControlOf(ctx, request));
  addVary(reply, 'X-API-Key', 'Accept-Encoding');
  const coding = rep.identity.length > MIN_COMPRESS_BYTES ? negotiateCoding(request.headers['accept-encoding']) : 'identity';
  const tag = entityTagFor(rep.hash, coding);
  const matched = notModifiedTag(request.headers['if-none-match'], rep.hash, tag);
  if (matched) {
    reply.code(304).header('ETag', matched);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return null;
  }
  reply.header('ETag', tag);
  if (coding === 'identity') return rep.identity;
  reply.header('Content-Encoding', coding);
  let bytes = rep[coding];
  if (!bytes) {
    bytes = await encodeBody(rep.identity, coding);
    if (!rep[coding]) remember?.(coding, bytes);
  }
  return bytes;
}

export function registerDeliveryCache(app: FastifyInstance, ctx: Context): void {
  const responses = new Map<string, CachedResponse>();
  const horizons = new Map<string, WorkspaceHorizon>();
  let bytes = 0;

  const drop = (key: string) => {
    const hit = responses.get(key);
    if (hit) {
      bytes -= hit.size;
      responses.delete(key);
    }
  };
  const evict = () => {
    while (bytes > MAX_BYTES && responses.size > 0) drop(responses.keys().next().value as string);
  };
  /** Keeps an encoding of a cached response, if that response is still the one cached under `key`. */
  const rememberFor = (key: string, entry: CachedResponse) => (coding: 'br' | 'gzip', encoded: Buffer) => {
    entry[coding] = encoded;
    if (responses.get(key) !== entry) return;
    entry.size += encoded.length;
    bytes += encoded.length;
    evict();
  };

  const cacheKey = (request: FastifyRequest) => `${request.actor.keyId}\n${request.url}`;
  const cacheable = (request: FastifyRequest) =>
    request.method === 'GET' && request.routeOptions.config?.cache !== false && request.actor?.revision !== undefined;

  /** When responses of this workspace computed now stop being true without a write. */
  const horizon = async (workspaceId: string, revision: number, now: number): Promise<number> => {
    const known = horizons.get(workspaceId);
    if (known && known.revision === revision && now < known.until && now - known.computedAt < MAX_AGE_MS) return known.until;
    const next = await nextScheduledAt(ctx.db, workspaceId, iso(new Date(now)));
    const until = Math.min(now + MAX_AGE_MS, next ? Date.parse(next) : Infinity);
    horizons.set(workspaceId, { revision, computedAt: now, until });
    return until;
  };

  // Runs after the auth hook (registered first), so request.actor and its revision are known.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!cacheable(request)) return;
    const key = cacheKey(request);
    const hit = responses.get(key);
    if (!hit) return;
    if (hit.revision !== request.actor.revision || ctx.clock().getTime() >= hit.validUntil) {
      drop(key);
      return;
    }
    // Most recently used last: Map order is the eviction order.
    responses.delete(key);
    responses.set(key, hit);
    reply.header('X-Cache', 'HIT');
    reply.code(200).type(hit.contentType);
    const body = await represent(ctx, request, reply, hit, rememberFor(key, hit));
    return reply.send(body ?? undefined);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.getHeader('X-Cache') === 'HIT') return payload;
    if (reply.statusCode !== 200) {
      if (reply.statusCode >= 400) reply.header('Cache-Control', 'no-store');
      return payload;
    }
    if ((request.method !== 'GET' && request.method !== 'HEAD') || typeof payload !== 'string') return payload;
    const identity = Buffer.from(payload, 'utf8');
    const rep: Representation = { identity, hash: bodyHash(identity) };
    if (!cacheable(request) || identity.length > MAX_BYTES / 16) return represent(ctx, request, reply, rep);
    const now = ctx.clock().getTime();
    const revision = request.actor.revision as number;
    const validUntil = await horizon(request.actor.workspaceId, revision, now);
    if (validUntil <= now) return represent(ctx, request, reply, rep);
    const key = cacheKey(request);
    drop(key);
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    const entry: CachedResponse = { ...rep, revision, validUntil, contentType, size: identity.length };
    responses.set(key, entry);
    bytes += identity.length;
    evict();
    reply.header('X-Cache', 'MISS');
    return represent(ctx, request, reply, entry, rememberFor(key, entry));
  });
}
