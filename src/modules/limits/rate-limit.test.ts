/** consumeRateLimit: counts per bucket and key over one minute, in memory or in a shared Redis. */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Context } from '../../context.js';
import { consumeRateLimit, MAX_MEMORY_KEYS } from './rate-limit.js';

const memoryCtx = (): Context => ({ redis: null, caches: { rateLimits: new Map() } }) as unknown as Context;

describe('consumeRateLimit in memory', () => {
  it('allows perMinute requests per key and bucket, then refuses with the time left', async () => {
    const ctx = memoryCtx();
    const first = await consumeRateLimit(ctx, 'management', 'k1', 2);
    expect(first).toMatchObject({ allowed: true, limit: 2, remaining: 1 });
    expect(first.resetMs).toBeGreaterThan(59_000);
    expect(await consumeRateLimit(ctx, 'management', 'k1', 2)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await consumeRateLimit(ctx, 'management', 'k1', 2);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetMs).toBeGreaterThan(0);
    // Another key, another bucket, another context: counted apart.
    expect((await consumeRateLimit(ctx, 'management', 'k2', 2)).allowed).toBe(true);
    expect((await consumeRateLimit(ctx, 'delivery', 'k1', 2)).allowed).toBe(true);
    expect((await consumeRateLimit(memoryCtx(), 'management', 'k1', 2)).allowed).toBe(true);
  });

  it('keeps at most MAX_MEMORY_KEYS keys, dropping the least recently counted', async () => {
    const ctx = memoryCtx();
    await consumeRateLimit(ctx, 'b', 'oldest', 1);
    await consumeRateLimit(ctx, 'b', 'kept', 1);
    for (let i = 0; i < MAX_MEMORY_KEYS - 1; i++) await consumeRateLimit(ctx, 'b', `k${i}`, 1);
    expect((await consumeRateLimit(ctx, 'b', 'kept', 1)).allowed).toBe(false);
    expect((await consumeRateLimit(ctx, 'b', 'oldest', 1)).allowed).toBe(true);
  });
});

const REDIS_URL = process.env.REDIS_URL;

describe.runIf(REDIS_URL)('consumeRateLimit in Redis', () => {
  const prefix = `quire-test-rl-${process.pid}-${Date.now()}:`;
  const clients: Redis[] = [];
  const instance = (): Context => {
    const redis = new Redis(REDIS_URL!, { keyPrefix: prefix, lazyConnect: false });
    clients.push(redis);
    return { redis } as unknown as Context;
  };
  afterAll(async () => {
    const keys = await clients[0].keys(`${prefix}*`);
    if (keys.length) await clients[0].del(...keys.map((k) => k.slice(prefix.length)));
    await Promise.all(clients.map((c) => c.quit()));
  });

  it('shares one count per key between instances, under the key name the plugin used', async () => {
    const a = instance();
    const b = instance();
    expect(await consumeRateLimit(a, 'delivery', 'k', 2)).toMatchObject({ allowed: true, remaining: 1 });
    expect(await consumeRateLimit(b, 'delivery', 'k', 2)).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await consumeRateLimit(a, 'delivery', 'k', 2);
    expect(refused.allowed).toBe(false);
    expect(refused.resetMs).toBeGreaterThan(0);
    expect(refused.resetMs).toBeLessThanOrEqual(60_000);
    expect(await clients[0].get('rate-limit:delivery:k')).toBe('3');
  });

  it('allows the request when Redis cannot be reached', async () => {
    const redis = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    const ctx = { redis } as unknown as Context;
    for (let i = 0; i < 3; i++) expect(await consumeRateLimit(ctx, 'm', 'k', 1)).toMatchObject({ allowed: true, remaining: 1, resetMs: 0 });
    redis.disconnect();
  });
});
