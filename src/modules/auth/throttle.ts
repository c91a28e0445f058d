/**
 * Sign-in throttling (contract of D90): after 5 failed attempts for one account, or 20 from one
 * client address, within 15 minutes, further attempts answer 429 RATE_LIMITED with Retry-After
 * until the oldest failure of the window is 15 minutes old. A throttled attempt is refused before
 * the password is checked, so it costs no hash and reveals nothing. An attempt is counted as a
 * failure when it starts (claimAttempt), before its password check, and taken back if the password
 * was right: otherwise guesses sent in parallel would all pass the check while the first ones are
 * still hashing. A successful sign-in clears its account's failures (not its address's).
 *
 * Where failures are counted: with REDIS_URL, in Redis (sorted sets of failure times, checked and
 * added in one Lua script, so instances behind a balancer share one count and parallel guesses
 * on several instances cannot slip through together); account keys hold a SHA-256 of the email,
 * never the address itself. Without Redis, or while Redis is unreachable, in the context's memory
 * (`ctx.caches.signInFailures`): per instance, so N instances allow up to N times as many
 * guesses (docs/security.md). At most 10,000 keys are kept in memory, the least recently failed
 * dropped first.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';

export const WINDOW_MS = 15 * 60_000;
export const MAX_PER_ACCOUNT = 5;
export const MAX_PER_ADDRESS = 20;
const MAX_KEYS = 10_000;

/** A started password check; call succeeded() when the password was right. */
export interface Attempt {
  succeeded(): Promise<void>;
}

function throttled(retryMs: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryMs / 1000));
  return new AppError('RATE_LIMITED', `Too many failed sign-in attempts; retry in ${seconds} s`, null, { 'Retry-After': String(seconds) });
}

/**
 * Starts a password check for `email` from `address`: throws 429 RATE_LIMITED (Retry-After in
 * seconds) when either has too many recent failures, otherwise counts the attempt as failed at
 * once and returns it.
 */
export async function claimAttempt(ctx: Context, email: string, address: string): Promise<Attempt> {
  if (ctx.redis) {
    try {
      return await claimInRedis(ctx, ctx.redis, email, address);
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Redis is unreachable: this instance's own count is better than none.
    }
  }
  return claimInMemory(ctx, email, address);
}

/** Forgets the failures of `email` (after a password was set through a setup link). */
export async function clearAccountFailures(ctx: Context, email: string): Promise<void> {
  ctx.caches.signInFailures.delete(`account:${email}`);
  if (ctx.redis) await ctx.redis.del(redisKeys(email, '')[0]).catch(() => {});
}

// ---- Redis -----------------------------------------------------------------------------------

/**
 * KEYS: account set, address set. ARGV: now (ms), window (ms), max per account, max per address,
 * member. Drops failures older than the window; when a set is full, returns the ms until its
 * oldest counted failure leaves the window; otherwise adds `member` to both and returns 0.
 */
const CLAIM_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limits = { tonumber(ARGV[3]), tonumber(ARGV[4]) }
local wait = 0
for i = 1, 2 do
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local n = redis.call('ZCARD', KEYS[i])
  if n >= limits[i] then
    local oldest = redis.call('ZRANGE', KEYS[i], n - limits[i], n - limits[i], 'WITHSCORES')
    local ms = tonumber(oldest[2]) + window - now
    if ms > wait then wait = ms end
  end
end
if wait > 0 then return wait end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], now, ARGV[5])
  redis.call('PEXPIRE', KEYS[i], window)
end
return 0
`;

function redisKeys(email: string, address: string): [string, string] {
  const account = createHash('sha256').update(email).digest('base64url');
  return [`signin:account:${account}`, `signin:address:${address}`];
}

async function claimInRedis(ctx: Context, redis: Redis, email: string, address: string): Promise<Attempt> {
  const [accountKey, addressKey] = redisKeys(email, address);
  const now = ctx.clock().getTime();
  const member = `${now}:${randomBytes(6).toString('base64url')}`;
  const wait = Number(await redis.eval(CLAIM_SCRIPT, 2, accountKey, addressKey, now, WINDOW_MS, MAX_PER_ACCOUNT, MAX_PER_ADDRESS, member));
  if (wait > 0) throw throttled(wait);
  return {
    succeeded: async () => {
      await redis
        .multi()
        .del(accountKey)
        .zrem(addressKey, member)
        .exec()
        .catch(() => {});
    },
  };
}

// ---- memory ----------------------------------------------------------------------------------

function recent(ctx: Context, key: string, now: number): number[] {
  const list = ctx.caches.signInFailures.get(key);
  if (!list) return [];
  const kept = list.filter((t) => t > now - WINDOW_MS);
  if (kept.length === 0) ctx.caches.signInFailures.delete(key);
  else if (kept.length !== list.length) ctx.caches.signInFailures.set(key, kept);
  return kept;
}

function claimInMemory(ctx: Context, email: string, address: string): Attempt {
  const now = ctx.clock().getTime();
  const map = ctx.caches.signInFailures;
  const keys: [string, number][] = [
    [`account:${email}`, MAX_PER_ACCOUNT],
    [`address:${address}`, MAX_PER_ADDRESS],
  ];
  let retryMs = 0;
  for (const [key, max] of keys) {
    const times = recent(ctx, key, now);
    if (times.length >= max) retryMs = Math.max(retryMs, times[times.length - max] + WINDOW_MS - now);
  }
  if (retryMs > 0) throw throttled(retryMs);
  for (const [key] of keys) {
    const times = recent(ctx, key, now);
    times.push(now);
    // Re-inserting keeps the map's order by last failure, so the first key is the stalest.
    map.delete(key);
    map.set(key, times);
    if (map.size > MAX_KEYS) map.delete(map.keys().next().value as string);
  }
  return {
    succeeded: async () => {
      map.delete(`account:${email}`);
      const key = `address:${address}`;
      const times = map.get(key);
      const i = times ? times.lastIndexOf(now) : -1;
      if (i >= 0) times!.splice(i, 1);
      if (times?.length === 0) map.delete(key);
    },
  };
}
