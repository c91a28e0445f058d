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
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { iso } from '../lib/time.js';
import { nextScheduledAt } from '../modules/publishing/scheduler-repository.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: never serve this route's responses from the delivery cache. */
    cache?: boolean;
  }
}

/** Total payload bytes kept, and the longest a response is kept without being asked for. */
const MAX_BYTES = 32 * 1024 * 1024;
const MAX_AGE_MS = 5 * 60_000;

interface CachedResponse {
  revision: number;
  validUntil: number;
  /** Encoded once, so a hit sends bytes without re-encoding the JSON text. */
  payload: Buffer;
  contentType: string;
}

interface WorkspaceHorizon {
  revision: number;
  computedAt: number;
  until: number;
}

export function registerDeliveryCache(app: FastifyInstance, ctx: Context): void {
  const responses = new Map<string, CachedResponse>();
  const horizons = new Map<string, WorkspaceHorizon>();
  let bytes = 0;

  const drop = (key: string) => {
    const hit = responses.get(key);
    if (hit) {
      bytes -= hit.payload.length;
      responses.delete(key);
    }
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
    return reply.code(200).type(hit.contentType).send(hit.payload);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.statusCode !== 200 || !cacheable(request) || reply.getHeader('X-Cache') === 'HIT') return payload;
    if (typeof payload !== 'string' || payload.length > MAX_BYTES / 16) return payload;
    const now = ctx.clock().getTime();
    const revision = request.actor.revision as number;
    const validUntil = await horizon(request.actor.workspaceId, revision, now);
    if (validUntil <= now) return payload;
    const key = cacheKey(request);
    drop(key);
    const encoded = Buffer.from(payload, 'utf8');
    responses.set(key, { revision, validUntil, payload: encoded, contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8') });
    bytes += encoded.length;
    while (bytes > MAX_BYTES && responses.size > 0) drop(responses.keys().next().value as string);
    reply.header('X-Cache', 'MISS');
    return payload;
  });
}
