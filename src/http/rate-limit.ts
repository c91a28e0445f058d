/**
 * Per-key rate limits on an API (docs/api.md "Rate limits": 429 RATE_LIMITED with `Retry-After`),
 * as an HTTP hook over `consumeRateLimit` (src/modules/limits/rate-limit.ts, which holds the rule
 * and where the counts live: Redis when REDIS_URL is set, shared by every instance; else this
 * instance's memory). Counted per API key over a one-minute window, right after authentication (an
 * unauthenticated flood is answered 401 and counts against nothing), cache hits included. Limits come from the config:
 * RATE_LIMIT_MANAGEMENT (default 1200 a minute per management key) and RATE_LIMIT_DELIVERY
 * (default off: delivery answers from its cache and usually sits behind a CDN). Responses carry
 * the standard `x-ratelimit-limit`, `x-ratelimit-remaining` and `x-ratelimit-reset` headers (the
 * reset in seconds), a refused one also `retry-after`.
 */
import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { AppError } from '../errors.js';
import { consumeRateLimit } from '../modules/limits/rate-limit.js';

/**
 * Adds the limit to this (encapsulated) API plugin; `perMinute` 0 adds nothing. `name` is the
 * bucket, keeping the counts of the two APIs apart.
 */
export function registerRateLimit(app: FastifyInstance, ctx: Context, perMinute: number, name: string): void {
  if (perMinute <= 0) return;
  // An instance-level hook runs in registration order: after the auth hook (the key is known)
  // and before the delivery cache hook, so cached answers count too.
  app.addHook('onRequest', async (request, reply) => {
    const decision = await consumeRateLimit(ctx, name, request.actor?.keyId ?? request.ip, perMinute);
    const resetSeconds = Math.ceil(decision.resetMs / 1000);
    reply.header('x-ratelimit-limit', decision.limit);
    reply.header('x-ratelimit-remaining', decision.remaining);
    reply.header('x-ratelimit-reset', resetSeconds);
    if (decision.allowed) return;
    reply.header('retry-after', resetSeconds);
    const seconds = Math.max(1, resetSeconds);
    throw new AppError('RATE_LIMITED', `Rate limit of ${decision.limit} requests per minute for this API key reached; retry in ${seconds} s`, null, {
      'Retry-After': String(seconds),
    });
  });
}
