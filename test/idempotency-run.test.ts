/**
 * runIdempotent, the idempotency cycle any entry point runs (docs/api.md "Idempotency-Key"): the
 * first call runs the operation and stores its outcome, a repeat replays it without running,
 * another fingerprint is refused, a thrown or ≥ 500 outcome releases the key.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { runIdempotent, type StoredResponse } from '../src/modules/idempotency/operations.js';
import { createTestEnv, dialects, type TestEnv } from './helpers.js';

const ok = (body: string): StoredResponse => ({ statusCode: 201, body, headers: { etag: '"1"' } });

describe.each(dialects())('runIdempotent on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
  });
  afterAll(async () => env?.close());

  it('runs once, then replays the stored outcome without running again', async () => {
    const key = randomUUID();
    let runs = 0;
    const run = async () => ok(`{"n":${++runs}}`);
    expect(await runIdempotent(env.ctx, 'key-a', key, 'fp', run)).toEqual({ replayed: false, response: ok('{"n":1}') });
    expect(await runIdempotent(env.ctx, 'key-a', key, 'fp', run)).toEqual({ replayed: true, response: ok('{"n":1}') });
    expect(runs).toBe(1);
    // The same value under another API key is another record.
    expect((await runIdempotent(env.ctx, 'key-b', key, 'fp', run)).replayed).toBe(false);
    expect(runs).toBe(2);
  });

  it('refuses another fingerprint (422) and a repeat while the first runs (409), without running', async () => {
    const key = randomUUID();
    let release!: (r: StoredResponse) => void;
    const first = runIdempotent(env.ctx, 'key-a', key, 'fp-1', () => new Promise<StoredResponse>((resolve) => (release = resolve)));
    await expect.poll(() => release).toBeTypeOf('function');
    let ran = false;
    const never = async () => {
      ran = true;
      return ok('{}');
    };
    await expect(runIdempotent(env.ctx, 'key-a', key, 'fp-1', never)).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
    await expect(runIdempotent(env.ctx, 'key-a', key, 'fp-2', never)).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    release(ok('{"first":true}'));
    expect((await first).replayed).toBe(false);
    await expect(runIdempotent(env.ctx, 'key-a', key, 'fp-2', never)).rejects.toBeInstanceOf(AppError);
    expect(ran).toBe(false);
  });

  it('releases the key when the operation throws or answers ≥ 500, so a retry runs', async () => {
    const key = randomUUID();
    await expect(
      runIdempotent(env.ctx, 'key-a', key, 'fp', async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await runIdempotent(env.ctx, 'key-a', key, 'fp', async () => ({ statusCode: 503, body: '{}', headers: {} }))).toMatchObject({ replayed: false });
    expect(await runIdempotent(env.ctx, 'key-a', key, 'fp', async () => ok('{"retried":true}'))).toEqual({ replayed: false, response: ok('{"retried":true}') });
  });
});
