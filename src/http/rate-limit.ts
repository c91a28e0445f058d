/**
 * Per-key rate limits (docs/api.md "Rate limits": 429 RATE_LIMITED with `Retry-After`), through
 * @fastify/rate-limit. Counted per API key over a one-minute window, right after authentication (an
 * unauthenticated flood is answered 401 and counts against nothing), cache hits included. Limits come from the config:
 * RATE_LIMIT_MANAGEMENT (default 1200 a minute per management key) and RATE_LIMIT_DELIVERY
 * (default off: delivery answers from its cache and usually sits behind a CDN). With REDIS_URL the
 * counters live in Redis (the plugin's maintained Redis store), so instances behind a balancer
 * share one limit per key; without it, in each instance's memory, so N instances allow N times
 * the limit. While Redis is unreachable requests are let through (a lost Redis must not take the
 * API down) and the outage is logged. Responses carry the standard `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset` headers.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AppError } from '../errors.js';

/**
 * Registers the limit on this (encapsulated) API plugin; `perMinute` 0 registers nothing. `name`
 * keeps the counters of the two APIs apart in a shared Redis (`redis`, null: this instance only).
 */
export async function registerRateLimit(app: FastifyInstance, perMinute: number, name: string, redis: Redis | null): Promise<void> {
  if (perMinute <= 0) return;
  await app.register(rateLimit, { global: false, ...(redis ? { redis, nameSpace: `rate-limit:${name}:`, skipOnError: true } : {}) });
  // An instance-level hook runs in registration order: after the auth hook (the key is known)
  // and before the delivery cache hook, so cached answers count too. (The plugin's global mode
  // would add route-level hooks, which run after every instance-level one.)
  app.addHook(
    'onRequest',
    app.rateLimit({
      max: perMinute,
      timeWindow: 60_000,
      keyGenerator: (request: FastifyRequest) => request.actor?.keyId ?? request.ip,
      errorResponseBuilder: (_request, context) => {
        const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
        return new AppError('RATE_LIMITED', `Rate limit of ${context.max} requests per minute for this API key reached; retry in ${seconds} s`, null, {
          'Retry-After': String(seconds),
        });
      },
    }),
  );
}
