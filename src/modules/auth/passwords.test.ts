/**
 * The cost of password hashes (D90): every deployment hashes at N=2^15, which no environment
 * variable lowers; a Config may carry a lower cost (test suites) but not one below 2^10; a stored
 * hash names its own cost, and an unknown email is checked at the cost of new hashes, so it takes
 * the work of a wrong password.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { hashPassword, PASSWORD_HASH_LOG2N, PASSWORD_HASH_MIN_LOG2N, verifyPassword } from './passwords.js';

const env = { DATA_DIR: '/tmp/quire-passwords-test', LOG_LEVEL: 'silent' };

/** Median CPU milliseconds (all threads: scrypt runs on libuv's pool) of `work`, over `runs` runs. */
async function cpuMs(work: () => Promise<unknown>, runs = 5): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const before = process.cpuUsage();
    await work();
    const used = process.cpuUsage(before);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

describe('password hash cost', () => {
  it('is N=2^15 in every deployment, whatever the environment holds', () => {
    expect(PASSWORD_HASH_LOG2N).toBe(15);
    expect(loadConfig(env).passwordHashLog2n).toBe(15);
    expect(loadConfig({ ...env, PASSWORD_HASH_LOG2N: '10', PASSWORD_HASH_LOG2_N: '10', SCRYPT_LOG2N: '10' }).passwordHashLog2n).toBe(15);
  });

  it('may be lowered by a Config built in code, to 2^10 at the least', () => {
    expect(loadConfig(env, { passwordHashLog2n: PASSWORD_HASH_MIN_LOG2N }).passwordHashLog2n).toBe(10);
    for (const bad of [9, 21, 12.5, Number.NaN]) expect(() => loadConfig(env, { passwordHashLog2n: bad })).toThrow(ConfigError);
  });

  it('is named by each stored hash, which verifies at its own cost', async () => {
    const low = await hashPassword('the right password', 10);
    const high = await hashPassword('the right password', 15);
    expect(low).toMatch(/^scrypt\$10\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(high).toMatch(/^scrypt\$15\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    // The cost a check is given is for unknown users only: a stored hash keeps its own.
    expect(await verifyPassword(low, 'the right password', 15)).toBe(true);
    expect(await verifyPassword(high, 'the right password', 10)).toBe(true);
    expect(await verifyPassword(high, 'not the right password', 15)).toBe(false);
    expect(await verifyPassword(null, 'the right password', 15)).toBe(false);
    expect(await verifyPassword('not a hash', 'the right password', 15)).toBe(false);
  });

  it('checks an unknown email at the cost of new hashes: the work of a wrong password', async () => {
    const stored = await hashPassword('the right password', PASSWORD_HASH_LOG2N);
    await verifyPassword(null, 'warm up', PASSWORD_HASH_LOG2N);
    const wrong = await cpuMs(() => verifyPassword(stored, 'not the right password', PASSWORD_HASH_LOG2N));
    const unknown = await cpuMs(() => verifyPassword(null, 'not the right password', PASSWORD_HASH_LOG2N));
    const cheap = await cpuMs(() => verifyPassword(null, 'not the right password', PASSWORD_HASH_MIN_LOG2N));
    // 2^15 against 2^15: one work, within the noise of a shared machine.
    expect(unknown / wrong).toBeGreaterThan(0.5);
    expect(unknown / wrong).toBeLessThan(2);
    // The decoy follows the configured cost (32 times less work at 2^10), never a fixed one.
    expect(unknown / Math.max(cheap, 0.1)).toBeGreaterThan(8);
  }, 30_000);
});
