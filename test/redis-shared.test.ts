/**
 * Several instances sharing one Redis (REDIS_URL, issue 13 "many instances"): request rate limits
 * and Studio sign-in throttling count across instances, and a Redis that goes away degrades to
 * per-instance counting instead of failing requests. Two apps on one database stand in for two
 * instances: each has its own context (memory, caches), as two processes would.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createContext } from '../src/context.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { Browser, memberWithPassword } from './studio-helpers.js';
import pino from 'pino';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) process.stderr.write('\n[quire tests] REDIS_URL is not set: the shared-limits suite is skipped (CI always sets it)\n');

describe.runIf(REDIS_URL).each(dialects())('instances sharing Redis on %s', (dialect) => {
  let env: TestEnv;
  let second: FastifyInstance;
  let keys: { management: string; delivery: string; preview: string };
  let workspaceSlug: string;

  beforeAll(async () => {
    const redisPrefix = `quire-test:${randomBytes(6).toString('hex')}:`;
    env = await createTestEnv(dialect, { config: { redisUrl: REDIS_URL, redisPrefix, rateLimitManagement: 6, rateLimitDelivery: 4 } });
    const ctx2 = await createContext(env.config, env.ctx.db, { log: pino({ level: 'silent' }) });
    second = await buildApp(ctx2, { logger: false });
    await second.ready();
    const ws = await seedWorkspace(env.ctx);
    keys = ws.keys;
    workspaceSlug = ws.workspace.slug;
  });
  afterAll(async () => {
    await second?.close();
    await env?.close();
  });

  it('counts one rate limit per key across instances', async () => {
    for (let i = 0; i < 3; i++) expect((await call(env.app, 'GET', '/api/v1/manage/content-types', { key: keys.management })).status).toBe(200);
    const third = await call(second, 'GET', '/api/v1/manage/content-types', { key: keys.management });
    expect(third.status).toBe(200);
    expect(third.headers['x-ratelimit-remaining']).toBe('2');
    for (let i = 0; i < 2; i++) expect((await call(second, 'GET', '/api/v1/manage/content-types', { key: keys.management })).status).toBe(200);
    expectError(await call(env.app, 'GET', '/api/v1/manage/content-types', { key: keys.management }), 429, 'RATE_LIMITED');
    expectError(await call(second, 'GET', '/api/v1/manage/content-types', { key: keys.management }), 429, 'RATE_LIMITED');
    // The delivery API keeps its own count (its limit, its keys).
    for (let i = 0; i < 2; i++) expect((await call(env.app, 'GET', '/api/v1/public/schema', { key: keys.delivery })).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await call(second, 'GET', '/api/v1/public/schema', { key: keys.delivery })).status).toBe(200);
    expectError(await call(second, 'GET', '/api/v1/public/schema', { key: keys.delivery }), 429, 'RATE_LIMITED');
  });

  it('throttles sign-in failures across instances, parallel guesses included', async () => {
    const m = await memberWithPassword(env.ctx, workspaceSlug, 'author');
    const apps = [env.app, second];
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => new Browser(apps[i % 2]).signIn(m.email, 'wrong password!')));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // Even the right password is refused on either instance now.
    expectError(await new Browser(second).signIn(m.email, 'correct horse battery staple'), 429, 'RATE_LIMITED');
    // No email is written into Redis keys.
    const redis = env.ctx.redis!;
    const stored = await redis.keys(`*`);
    expect(stored.some((k) => k.includes(m.email))).toBe(false);
  });

  it('a right password on one instance clears the account’s count on both', async () => {
    const m = await memberWithPassword(env.ctx, workspaceSlug, 'author');
    const b = new Browser(env.app);
    for (let i = 0; i < 4; i++) expectError(await new Browser(i % 2 ? second : env.app).signIn(m.email, 'wrong password!'), 401, 'UNAUTHORIZED');
    const { PASSWORD } = await import('./studio-helpers.js');
    expect((await b.signIn(m.email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expectError(await new Browser(second).signIn(m.email, 'wrong password!'), 401, 'UNAUTHORIZED');
    expect((await new Browser(second).signIn(m.email, PASSWORD)).status).toBe(200);
  });
});

describe.runIf(REDIS_URL)('a Redis that goes away', () => {
  let env: TestEnv;
  beforeAll(async () => {
    // A port nothing listens on: every Redis command fails at once.
    env = await createTestEnv('sqlite', { config: { redisUrl: 'redis://127.0.0.1:1', rateLimitManagement: 3 } });
  });
  afterAll(async () => env?.close());

  it('lets requests through and counts sign-in failures per instance', async () => {
    const ws = await seedWorkspace(env.ctx);
    for (let i = 0; i < 5; i++) expect((await call(env.app, 'GET', '/api/v1/manage/content-types', { key: ws.keys.management })).status).toBe(200);
    const m = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    for (let i = 0; i < 5; i++) expectError(await new Browser(env.app).signIn(m.email, 'wrong password!'), 401, 'UNAUTHORIZED');
    expectError(await new Browser(env.app).signIn(m.email, 'wrong password!'), 429, 'RATE_LIMITED');
  });
});
