/**
 * Request rate limits, callable from any entry point (HTTP hooks today; a GraphQL resolver or an
 * MCP tool the same way): `consumeRateLimit` counts one request of `key` in a named `bucket` over
 * a fixed one-minute window and says whether it may proceed (docs/api.md "Rate limits", docs/security.md
 * "Limits and their settings").
 *
 * Where counts live: with REDIS_URL, in Redis (one INCR per request, the window's expiry set by the
 * first), so instances behind a balancer share one count per key; the key names are those the
 * HTTP layer used before (`rate-limit:<bucket>:<key>` under the context's prefix), so instances of
 * the previous release count together with these during a rolling deploy. Without Redis, in this
 * context's memory (per instance: N instances allow N times the limit), at most 5,000 keys per
 * context, the least recently counted dropped first. While Redis is unreachable the request is
 * allowed (a lost Redis must not take the API down; lib/redis.ts logs the outage once).
 */
import type { Redis } from 'ioredis';
import type { Context } from '../../context.js';

/** The window every limit is counted over. */
export const WINDOW_MS = 60_000;
/** Keys kept in memory per context (the plugin this replaces kept as many). */
export const MAX_MEMORY_KEYS = 5000;

/** The answer for one counted request. */
export interface RateLimitDecision {
  /** false: the limit was already used in this window; refuse the request. */
  readonly allowed: boolean;
  /** The limit per minute the request was counted against. */
  readonly limit: number;
  /** Requests left in this window after this one (0 once refused). */
  readonly remaining: number;
  /** Milliseconds until the window ends and the count starts again (0 when nothing was counted). */
  readonly resetMs: number;
}

/**
 * Counts one request of `key` (e.g. an API key id) in `bucket` (e.g. `management`, `delivery`:
 * buckets never share counts) against `perMinute`, and returns whether it may proceed, the
 * requests left and when the window resets. Never throws for a Redis failure (allowed, nothing
 * counted). `perMinute` must be positive: callers with the limit off do not call.
 */
export async function consumeRateLimit(ctx: Context, bucket: string, key: string, perMinute: number): Promise<RateLimitDecision> {
  const counted = ctx.redis ? await countInRedis(ctx.redis, `rate-limit:${bucket}:${key}`) : countInMemory(ctx, `${bucket}:${key}`);
  if (!counted) return { allowed: true, limit: perMinute, remaining: perMinute, resetMs: 0 };
  return {
    allowed: counted.count <= perMinute,
    limit: perMinute,
    remaining: Math.max(0, perMinute - counted.count),
    resetMs: counted.resetMs,
  };
}

// KEYS: the counter. ARGV: window (ms). The first request of a window sets its expiry; later ones
// read what is left of it, in one round trip so instances cannot interleave.
const INCR_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl
if current == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
else
  ttl = redis.call('PTTL', KEYS[1])
  if ttl < 0 then
    redis.call('PEXPIRE', KEYS[1], ARGV[1])
    ttl = tonumber(ARGV[1])
  end
end
return {current, ttl}
`;

/** The client with the counting script defined as a command (sent by its SHA-1 after the first call). */
type CountingRedis = Redis & { quireCountRateLimit(key: string, windowMs: number): Promise<[number, number]> };

async function countInRedis(redis: Redis, name: string): Promise<{ count: number; resetMs: number } | null> {
  try {
    if (!('quireCountRateLimit' in redis)) redis.defineCommand('quireCountRateLimit', { numberOfKeys: 1, lua: INCR_SCRIPT });
    const [count, ttl] = await (redis as CountingRedis).quireCountRateLimit(name, WINDOW_MS);
    return { count, resetMs: ttl };
  } catch {
    return null;
  }
}

function countInMemory(ctx: Context, name: string): { count: number; resetMs: number } {
  const windows = ctx.caches.rateLimits;
  const now = Date.now();
  let window = windows.get(name);
  if (!window || window.endsAt <= now) window = { count: 0, endsAt: now + WINDOW_MS };
  window.count++;
  // Re-inserted so the map's order is the order of last use; the oldest goes first when full.
  windows.delete(name);
  windows.set(name, window);
  if (windows.size > MAX_MEMORY_KEYS) windows.delete(windows.keys().next().value as string);
  return { count: window.count, resetMs: window.endsAt - now };
}
