/** Per-key rate limits: 429 RATE_LIMITED with Retry-After, in the envelope (docs/api.md "Errors"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

describe.each(dialects())('rate limits on %s', (dialect) => {
  let env: TestEnv;
  let keys: { management: string; delivery: string; preview: string };
  let second: string;
  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { rateLimitManagement: 5, rateLimitDelivery: 3 } });
    const s = await seedWorkspace(env.ctx);
    keys = s.keys;
    second = (await createApiKey(env.ctx, s.workspace.id, s.user.id, { keyClass: 'management' })).key;
  });
  afterAll(async () => env?.close());

  it('answers 429 RATE_LIMITED with Retry-After once a management key used its requests, per key', async () => {
    // Requests without a valid key are refused before they count.
    for (let i = 0; i < 3; i++) expectError(await call(env.app, 'GET', '/api/v1/manage/content-types'), 401, 'UNAUTHORIZED');
    for (let i = 0; i < 5; i++) {
      const res = await call(env.app, 'GET', '/api/v1/manage/content-types', { key: keys.management });
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('5');
    }
    const limited = expectError(await call(env.app, 'GET', '/api/v1/manage/content-types', { key: keys.management }), 429, 'RATE_LIMITED');
    expect(limited.message).toMatch(/5 requests per minute/);
    const res = await call(env.app, 'GET', '/api/v1/manage/content-types', { key: keys.management });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another key has its own budget.
    expect((await call(env.app, 'GET', '/api/v1/manage/content-types', { key: second })).status).toBe(200);
  });

  it('counts delivery requests answered from the cache too', async () => {
    for (let i = 0; i < 3; i++) expect((await call(env.app, 'GET', '/api/v1/public/schema', { key: keys.delivery })).status).toBe(200);
    expectError(await call(env.app, 'GET', '/api/v1/public/schema', { key: keys.delivery }), 429, 'RATE_LIMITED');
    expect((await call(env.app, 'GET', '/api/v1/public/schema', { key: keys.preview })).status).toBe(200);
  });
});
