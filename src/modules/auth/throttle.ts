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
 * guesses (docs/security.md).
 *
 * The memory keeps three stores apart, so that no flood of failures can evict the count that
 * protects an account: failures per existing account (`accounts`), per email that has no account
 * (`unknownEmails`) and per client address (`addresses`). Only the last two can be filled by
 * anyone (any email, any address): each keeps at most 10,000 keys, the least recently failed
 * dropped first. The account store is never cut to a size: it holds only emails of accounts that
 * exist, and only while their failures are inside the window (keys are kept in the order of
 * their last failure, and those whose last failure left the window are dropped first on every
 * write), so it is bounded by the number of accounts with a failure in the last 15 minutes,
 * each with at most 5 times. An email that has no account is counted by the same limit of 5
 * (the answers must not tell the two apart); a flood can evict those counts, which protect nobody.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';

export const WINDOW_MS = 15 * 60_000;
export const MAX_PER_ACCOUNT = 5;
export const MAX_PER_ADDRESS = 20;
/** Keys kept per store that anyone can fill (unknown emails, addresses). */
export const MAX_OPEN_KEYS = 10_000;

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
 * once and returns it. `known` says whether an account has this email: in memory its failures
 * then go to the store no flood can evict (the limits are the same either way).
 */
export async function claimAttempt(ctx: Context, email: string, address: string, known = false): Promise<Attempt> {
  if (ctx.redis) {
    try {
      return await claimInRedis(ctx, ctx.redis, email, address);
    } catch (err) {
      if (err instanceof AppError) throw err;
      // Redis is unreachable: this instance's own count is better than none.
    }
  }
  return claimInMemory(ctx, email, address, known);
}

/** Forgets the failures of `email` (after a password was set through a setup link). */
export async function clearAccountFailures(ctx: Context, email: string): Promise<void> {
  ctx.caches.signInFailures.accounts.delete(email);
  ctx.caches.signInFailures.unknownEmails.delete(email);
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

/** The failure times of `key` still inside the window (drops the key when none are). */
function recent(store: Map<string, number[]>, key: string, now: number): number[] {
  const list = store.get(key);
  if (!list) return [];
  const kept = list.filter((t) => t > now - WINDOW_MS);
  if (kept.length === 0) store.delete(key);
  else if (kept.length !== list.length) store.set(key, kept);
  return kept;
}

/**
 * Records a failure at `now`. Re-inserting keeps each store in the order of last failure, so its
 * first keys are the stalest: those past the window go first; a store anyone can fill also
 * drops its stalest key beyond MAX_OPEN_KEYS.
 */
function record(store: Map<string, number[]>, key: string, now: number, bounded: boolean): void {
  const times = recent(store, key, now);
  times.push(now);
  store.delete(key);
  store.set(key, times);
  for (const [first, list] of store) {
    if (list[list.length - 1] > now - WINDOW_MS) break;
    store.delete(first);
  }
  if (bounded && store.size > MAX_OPEN_KEYS) store.delete(store.keys().next().value as string);
}

function claimInMemory(ctx: Context, email: string, address: string, known: boolean): Attempt {
  const now = ctx.clock().getTime();
  const { accounts, unknownEmails, addresses } = ctx.caches.signInFailures;
  const accountStore = known ? accounts : unknownEmails;
  const counts: [Map<string, number[]>, string, number][] = [
    [accountStore, email, MAX_PER_ACCOUNT],
    [addresses, address, MAX_PER_ADDRESS],
  ];
  let retryMs = 0;
  for (const [store, key, max] of counts) {
    const times = recent(store, key, now);
    if (times.length >= max) retryMs = Math.max(retryMs, times[times.length - max] + WINDOW_MS - now);
  }
  if (retryMs > 0) throw throttled(retryMs);
  record(accountStore, email, now, !known);
  record(addresses, address, now, true);
  return {
    succeeded: async () => {
      accountStore.delete(email);
      const times = addresses.get(address);
      const i = times ? times.lastIndexOf(now) : -1;
      if (i >= 0) times!.splice(i, 1);
      if (times?.length === 0) addresses.delete(address);
    },
  };
}
