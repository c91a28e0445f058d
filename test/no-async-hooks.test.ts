/**
 * Collecting cache tags turns on no async hooks (docs/scaling.md "Repeated requests"): Node tracks
 * promises (promise hooks, a cost on every promise of the process, cache hits included) once any
 * AsyncLocalStorage is entered or an async hook enabled; without, the continuation of a promise
 * runs with execution async id 0. The tags travel with each delivery request's context instead.
 *
 * In a process of its own (vitest.config.ts: server-isolated): suites sharing a worker load other
 * libraries (an OpenID provider, the test runner's helpers) that may enable hooks for themselves,
 * and a non-zero id must mean our code did.
 */
import { executionAsyncId } from 'node:async_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, seedWorkspace, type TestEnv } from './helpers.js';

describe('async hooks', () => {
  let env: TestEnv;
  let keys: { management: string; delivery: string };

  beforeAll(async () => {
    env = await createTestEnv('sqlite');
    const s = await seedWorkspace(env.ctx);
    keys = s.keys;
    const m = (method: 'POST' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `/api/v1/manage${url}`, { key: keys.management, body });
    expect((await m('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
    expect((await m('POST', '/content-types/post/entries', { slug: 'one', data: { title: 'One' } })).status).toBe(201);
    expect((await m('PATCH', '/content-types/post/entries/one/publish')).status).toBe(200);
  });
  afterAll(async () => env?.close());

  it('no AsyncLocalStorage or async hook in src; promises untracked after REST and GraphQL delivery requests', async () => {
    const src = join(import.meta.dirname, '..', 'src');
    const users = (readdirSync(src, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => /from ['"](node:)?async_hooks['"]|AsyncLocalStorage\s*[(<]|createHook\s*\(/.test(readFileSync(join(src, f), 'utf8')));
    expect(users).toEqual([]);
    const get = (url: string) => call(env.app, 'GET', `/api/v1/public${url}`, { key: keys.delivery });
    const served = await Promise.all([
      get('/entries?type=post&limit=3'),
      get('/entries/one?type=post'),
      get('/entries?type=post&limit=3'),
      call(env.app, 'POST', '/api/v1/public/graphql', { key: keys.delivery, body: { query: '{ postCollection { nodes { title } } }' } }),
    ]);
    for (const res of served) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(String(res.headers['cache-tag'])).toMatch(/model:/);
    }
    expect(await Promise.resolve().then(() => executionAsyncId())).toBe(0);
  });
});
