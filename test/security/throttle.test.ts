/**
 * The in-memory sign-in throttle (src/modules/auth/throttle.ts; without REDIS_URL) keeps the
 * failures counted per account apart from those counted per client address: no flood of failed
 * sign-ins from many addresses, for many unknown emails, can evict the count of a targeted
 * account and so reopen its five guesses. Before the fix both kinds shared one map of 10,000
 * keys, the least recently failed dropped first, so 10,000 failures from fresh addresses (two
 * keys each) reset the target.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../../src/modules/auth/operations.js';
import { claimAttempt } from '../../src/modules/auth/throttle.js';
import { createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from '../helpers.js';
import { Browser, memberWithPassword, PASSWORD } from '../studio-helpers.js';

/** Failed sign-ins of `count` unknown emails, each from an address of its own (IPv6, as a botnet would use). */
async function flood(env: TestEnv, count: number, tag: string): Promise<void> {
  for (let i = 0; i < count; i++) await claimAttempt(env.ctx, `flood-${tag}-${i}@example.com`, `2001:db8:${tag}::${i.toString(16)}`);
}

describe.each(dialects())('sign-in throttle without Redis on %s', (dialect) => {
  let env: TestEnv;
  let ws: BootstrapResult;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    ws = await seedWorkspace(env.ctx);
  });
  afterAll(async () => env?.close());

  it("a flood of failures from 25,000 addresses for unknown emails does not evict a targeted account's count", async () => {
    const target = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    for (let i = 0; i < 5; i++) expectError(await new Browser(env.app).signIn(target.email, 'wrong password!'), 401, 'UNAUTHORIZED');
    expectError(await new Browser(env.app).signIn(target.email, PASSWORD), 429, 'RATE_LIMITED');
    await flood(env, 25_000, 'a');
    // Still throttled: the five failures of the last minutes still count, from any address.
    const after = await new Browser(env.app).signIn(target.email, PASSWORD);
    expectError(after, 429, 'RATE_LIMITED');
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keeps memory bounded under the flood: addresses and unknown emails at most 10,000 each, known accounts only while their failures count', async () => {
    await flood(env, 12_000, 'b');
    const stores = env.ctx.caches.signInFailures;
    expect(stores.addresses.size).toBeLessThanOrEqual(10_000);
    expect(stores.unknownEmails.size).toBeLessThanOrEqual(10_000);
    // Only the targeted account of the first test failed within the window.
    expect([...stores.accounts.keys()]).toHaveLength(1);
  });
});
