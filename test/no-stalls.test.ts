/**
 * No stalls (issue 13): a slow query must not hold up cached answers and health checks.
 *
 * SQLite: better-sqlite3 runs statements on the calling thread, so a slow delivery list used to
 * stop the whole process meanwhile. Lists run on reader threads now (src/db/sqlite-readers.ts):
 * while a list that reads a 200,000-entry type from end to end runs, a cached delivery answer and
 * `/healthz` answer at once (nine in ten within 50 ms); a read past DB_STATEMENT_TIMEOUT_MS answers 503 and the next list is
 * served by a new reader.
 *
 * PostgreSQL: a cached answer checks its workspace's revision on a connection of its own
 * (src/modules/workspaces/revision-checker.ts), not the pool: with every pooled connection held by
 * slow queries, cached answers and `/healthz` still answer at once, and a write made through
 * another instance is still seen on the next request; when that connection is lost, the check
 * goes through the pool.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import type { Db } from '../src/db/types.js';
import type { BootstrapResult } from '../src/modules/auth/operations.js';
import { insertBulkEntries } from './bulk-entries.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const ENTRIES = 200_000;

/** How long `fn` took, in ms, with its result. */
async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value below which a share `p` of `values` falls. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** A second app on the database of `env` (another instance), with its own pool, caches and revision checker. */
async function secondInstance(
  env: TestEnv,
  options: { config?: Partial<TestEnv['config']>; poolSize?: number } = {},
): Promise<{ app: FastifyInstance; db: Db }> {
  const config = Object.freeze({ ...env.config, ...options.config });
  let db: Db;
  if (env.dialect === 'postgres') {
    const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(env.ctx.db.kysely)).rows[0].s;
    db = await createDb(config, { pgSchema: schema, poolSize: options.poolSize ?? 4, migrate: false });
  } else {
    db = await createDb(config, { migrate: false });
  }
  const app = await buildApp(await createContext(config, db, { log: pino({ level: 'silent' }) }), { logger: false });
  await app.ready();
  return { app, db };
}

describe.runIf(dialects().includes('sqlite'))('no stalls on SQLite', () => {
  let env: TestEnv;
  let ws: BootstrapResult;
  beforeAll(async () => {
    env = await createTestEnv('sqlite', { sqliteOnDisk: true });
    ws = await seedWorkspace(env.ctx);
    const ct = await call(env.app, 'POST', `${M}/content-types`, {
      key: ws.keys.management,
      body: { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text', filterable: true }] },
    });
    expect(ct.status).toBe(201);
    await insertBulkEntries(env.ctx.db, { workspaceId: ws.workspace.id, contentTypeId: ct.body.data.id, userId: ws.user.id, count: ENTRIES });
  }, 120_000);
  afterAll(async () => env?.close());

  // Matches nothing, so the page and its capped count read every one of the type's index entries.
  const slowList = `${P}/entries?type=post&filter[title][contains]=no-such-title`;

  it('answers cached lists and /healthz at once while a list reads 200,000 entries', async () => {
    const cached = `${P}/entries?type=post&limit=5`;
    expect((await call(env.app, 'GET', cached, { key: ws.keys.delivery })).headers['x-cache']).toBe('MISS');
    expect((await call(env.app, 'GET', cached, { key: ws.keys.delivery })).headers['x-cache']).toBe('HIT');

    const alone = await timed(() => call(env.app, 'GET', `${slowList}&limit=11`, { key: ws.keys.delivery }));
    expect(alone.value.status).toBe(200);
    expect(alone.value.body.meta.total_data).toBe(0);

    let done = false;
    const slow = timed(() => call(env.app, 'GET', slowList, { key: ws.keys.delivery })).finally(() => (done = true));
    const samples: { cached: number; health: number }[] = [];
    await pause(5);
    while (!done) {
      const hit = await timed(() => call(env.app, 'GET', cached, { key: ws.keys.delivery }));
      const health = await timed(() => env.app.inject({ method: 'GET', url: '/healthz' }));
      // Only samples taken wholly while the slow list ran count.
      if (done) break;
      expect(hit.value.headers['x-cache']).toBe('HIT');
      expect(health.value.statusCode).toBe(200);
      samples.push({ cached: hit.ms, health: health.ms });
      await pause(10);
    }
    const answer = await slow;
    expect(answer.value.status).toBe(200);
    expect(answer.value.body.meta.total_data).toBe(0);
    // The slow list took long enough to be sampled several times, and no sample waited for it
    // (before, none could be taken: every request waited for the list). Nine in ten answered
    // within 50 ms; the bound on the slowest leaves room for this machine's other work.
    expect(samples.length, `slow list ${answer.ms.toFixed(0)} ms`).toBeGreaterThanOrEqual(3);
    for (const kind of ['cached', 'health'] as const) {
      const times = samples.map((s) => s[kind]);
      expect(percentile(times, 0.9), JSON.stringify(samples)).toBeLessThan(50);
      expect(Math.max(...times), JSON.stringify(samples)).toBeLessThan(150);
    }
  });

  it('answers 503 for a read past DB_STATEMENT_TIMEOUT_MS, and serves the next list from a new reader', async () => {
    const other = await secondInstance(env, { config: { dbStatementTimeoutMs: 100 } });
    try {
      const res = await call(other.app, 'GET', slowList, { key: ws.keys.delivery });
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('1');
      const next = await call(other.app, 'GET', `${P}/entries?type=post&limit=2&sort=created_at:asc`, { key: ws.keys.delivery });
      expect(next.status).toBe(200);
      expect(next.body.data).toHaveLength(2);
      expect((await other.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await other.app.close();
      await other.db.close();
    }
  });
});

describe.runIf(dialects().includes('postgres'))('no stalls on PostgreSQL', () => {
  let env: TestEnv;
  let ws: BootstrapResult;
  let other: { app: FastifyInstance; db: Db };
  beforeAll(async () => {
    env = await createTestEnv('postgres');
    ws = await seedWorkspace(env.ctx);
    const ct = await call(env.app, 'POST', `${M}/content-types`, {
      key: ws.keys.management,
      body: { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] },
    });
    expect(ct.status).toBe(201);
    other = await secondInstance(env, { poolSize: 3 });
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.db.close();
    await env?.close();
  });

  const write = async (slug: string) => {
    const made = await call(env.app, 'POST', `${M}/content-types/post/entries`, { key: ws.keys.management, body: { slug, data: { title: slug } } });
    expect(made.status).toBe(201);
    expect((await call(env.app, 'PATCH', `${M}/content-types/post/entries/${slug}/publish`, { key: ws.keys.management })).status).toBe(200);
  };
  const list = () => call(other.app, 'GET', `${P}/entries?type=post&sort=slug:asc`, { key: ws.keys.delivery });
  const slugs = (res: { body: { data: { slug: string }[] } }) => res.body.data.map((e) => e.slug);

  /** Holds every pooled connection of the second instance in pg_sleep for `seconds`; `done` settles when they are free again. */
  async function exhaustPool(seconds: number): Promise<{ done: Promise<unknown> }> {
    const sleeping = Promise.allSettled([1, 2, 3].map(() => sql`select pg_sleep(${seconds})`.execute(other.db.kysely)));
    for (let i = 0; i < 100; i++) {
      const n = await sql<{
        n: number;
      }>`select count(*)::int as n from pg_stat_activity where query like 'select pg_sleep%' and state = 'active' and datname = current_database()`.execute(
        env.ctx.db.kysely,
      );
      if (n.rows[0].n >= 3) return { done: sleeping };
      await pause(20);
    }
    throw new Error('the pool did not fill up');
  }

  it('answers cached lists and /healthz at once with every pooled connection busy, and sees a write through another instance next', async () => {
    await write('a-first');
    expect(slugs(await list())).toEqual(['a-first']);
    expect((await list()).headers['x-cache']).toBe('HIT');

    const sleeping = await exhaustPool(3);
    const samples: number[] = [];
    for (let i = 0; i < 10; i++) {
      const hit = await timed(() => list());
      expect(hit.value.headers['x-cache']).toBe('HIT');
      expect(slugs(hit.value)).toEqual(['a-first']);
      const health = await timed(() => other.app.inject({ method: 'GET', url: '/healthz' }));
      expect(health.value.statusCode).toBe(200);
      samples.push(hit.ms, health.ms);
    }
    // Before, each took the sleep's 3 s. Nine in ten within 50 ms; room for this machine's other work.
    expect(percentile(samples, 0.9), JSON.stringify(samples)).toBeLessThan(50);
    expect(Math.max(...samples), JSON.stringify(samples)).toBeLessThan(150);

    // A write through the first instance while the pool is still full: the next request is not
    // served from the cache; it waits for a pooled connection and answers the new content.
    await write('b-second');
    const fresh = await list();
    expect(fresh.status).toBe(200);
    expect(fresh.headers['x-cache']).toBe('MISS');
    expect(slugs(fresh)).toEqual(['a-first', 'b-second']);
    await sleeping.done;
  });

  it('checks through the pool while the revision connection is down, and opens it again', async () => {
    expect((await list()).headers['x-cache']).toBe('HIT');
    const killed = await sql<{ n: number }>`select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
      where query like 'SELECT id, revision, draft_revision FROM workspaces%' and pid <> pg_backend_pid() and datname = current_database()`.execute(
      env.ctx.db.kysely,
    );
    expect(killed.rows[0].n).toBeGreaterThanOrEqual(1);
    await pause(50);
    // Cached answers are verified through the pool meanwhile: still served, and a write is seen.
    expect((await list()).headers['x-cache']).toBe('HIT');
    await write('c-third');
    const fresh = await list();
    expect(fresh.headers['x-cache']).toBe('MISS');
    expect(slugs(fresh)).toEqual(['a-first', 'b-second', 'c-third']);
    // After a second the connection is opened again and the pool is left alone.
    await pause(1_100);
    expect((await list()).headers['x-cache']).toBe('HIT');
    const sleeping = await exhaustPool(1);
    const hit = await timed(() => list());
    expect(hit.value.headers['x-cache']).toBe('HIT');
    expect(hit.ms).toBeLessThan(150);
    await sleeping.done;
  });
});
