/**
 * Sign-in throttling (contract of D90): after 5 failed attempts for one account, or 20 from one
 * client address, within 15 minutes, further attempts answer 429 RATE_LIMITED with Retry-After
 * until the oldest failure of the window is 15 minutes old. A throttled attempt is refused before
 * the password is checked, so it costs no hash and reveals nothing. An attempt is counted as a
 * failure when it starts (claimAttempt), before its password check, and taken back if the password
 * was right: otherwise guesses sent in parallel would all pass the check while the first ones are
 * still hashing. A successful sign-in clears its account's failures (not its address's).
 *
 * Counters live in the context's memory (`ctx.caches.signInFailures`): per instance, like the
 * request rate limits, so N instances behind a balancer allow up to N times as many guesses
 * (docs/security.md). At most 10,000 keys are kept, the least recently failed dropped first.
 */
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';

export const WINDOW_MS = 15 * 60_000;
export const MAX_PER_ACCOUNT = 5;
export const MAX_PER_ADDRESS = 20;
const MAX_KEYS = 10_000;

function recent(ctx: Context, key: string, now: number): number[] {
  const list = ctx.caches.signInFailures.get(key);
  if (!list) return [];
  const kept = list.filter((t) => t > now - WINDOW_MS);
  if (kept.length === 0) ctx.caches.signInFailures.delete(key);
  else if (kept.length !== list.length) ctx.caches.signInFailures.set(key, kept);
  return kept;
}

/** Throws 429 RATE_LIMITED (Retry-After in seconds) when `email` or `address` has too many recent failures. */
export function assertNotThrottled(ctx: Context, email: string, address: string): void {
  const now = ctx.clock().getTime();
  const checks: [string, number][] = [
    [`account:${email}`, MAX_PER_ACCOUNT],
    [`address:${address}`, MAX_PER_ADDRESS],
  ];
  let retryMs = 0;
  for (const [key, max] of checks) {
    const times = recent(ctx, key, now);
    if (times.length >= max) retryMs = Math.max(retryMs, times[times.length - max] + WINDOW_MS - now);
  }
  if (retryMs > 0) {
    const seconds = Math.max(1, Math.ceil(retryMs / 1000));
    throw new AppError('RATE_LIMITED', `Too many failed sign-in attempts; retry in ${seconds} s`, null, { 'Retry-After': String(seconds) });
  }
}

/**
 * Starts a password check for `email` from `address`: 429 RATE_LIMITED when throttled, otherwise
 * counts the attempt as failed at once and returns `succeeded`, to call when the password was
 * right (clears the account's failures and takes this attempt back from the address's count).
 */
export function claimAttempt(ctx: Context, email: string, address: string): { succeeded: () => void } {
  assertNotThrottled(ctx, email, address);
  const at = recordFailure(ctx, email, address);
  return {
    succeeded: () => {
      clearAccountFailures(ctx, email);
      const key = `address:${address}`;
      const times = ctx.caches.signInFailures.get(key);
      const i = times ? times.lastIndexOf(at) : -1;
      if (i >= 0) times!.splice(i, 1);
      if (times?.length === 0) ctx.caches.signInFailures.delete(key);
    },
  };
}

/** Records one failed attempt for `email` and `address`; returns its time (ms). */
export function recordFailure(ctx: Context, email: string, address: string): number {
  const now = ctx.clock().getTime();
  const map = ctx.caches.signInFailures;
  for (const key of [`account:${email}`, `address:${address}`]) {
    const times = recent(ctx, key, now);
    times.push(now);
    // Re-inserting keeps the map's order by last failure, so the first key is the stalest.
    map.delete(key);
    map.set(key, times);
    if (map.size > MAX_KEYS) map.delete(map.keys().next().value as string);
  }
  return now;
}

/** Forgets the failures of `email` after a successful sign-in. */
export function clearAccountFailures(ctx: Context, email: string): void {
  ctx.caches.signInFailures.delete(`account:${email}`);
}
