/**
 * A long transaction on the embedded SQLite database does not hold every other request
 * (docs/architecture.md "Caches"; src/db/sqlite-driver.ts TRANSACTION_SLICE_MS): its statements
 * let the event loop in every few milliseconds, cached delivery answers are served meanwhile (their
 * revision check reads the committed state on a reader thread), and nobody reads its uncommitted
 * rows: a query of another flow on the same connection waits for the commit.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import { TRANSACTION_SLICE_MS } from '../src/db/sqlite-driver.js';
import { call, createTestEnv, type TestEnv } from './helpers.js';
import { createWorld, P, type DeliveryWorld } from './delivery-fixtures.js';

const TYPES = [{ name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] }];
const LONG_MS = 400;

describe('a long SQLite transaction', () => {
  let env: TestEnv;
  let w: DeliveryWorld;

  beforeAll(async () => {
    // On disk: reader threads need a file.
    env = await createTestEnv('sqlite', { sqliteOnDisk: true });
    w = await createWorld(env.ctx, env.app, TYPES);
    await w.insertEntry({ type: 'post', slug: 'one', status: 'published', data: { title: 'One' } });
  });
  afterAll(async () => env?.close());

  it('lets cached answers through while it runs, and shows its rows only once committed', async () => {
    const list = () => call(env.app, 'GET', `${P}/entries?type=post`, { key: w.keys.delivery });
    const warm = await list();
    expect(warm.status).toBe(200);
    expect((await list()).headers['x-cache']).toBe('HIT');

    // The event loop's longest pause while the transaction runs.
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);

    let committedAt = 0;
    let statements = 0;
    const transaction = withTransaction(env.ctx.db, async (db) => {
      const t0 = performance.now();
      // An uncommitted change readers must not see: the entry's published title.
      await sql`update entries set published_data = ${JSON.stringify({ title: 'Uncommitted' })} where slug = 'one'`.execute(db.kysely);
      while (performance.now() - t0 < LONG_MS) {
        await sql`select count(*) as n from entries`.execute(db.kysely);
        statements++;
      }
      await sql`update entries set published_data = ${JSON.stringify({ title: 'One' })} where slug = 'one'`.execute(db.kysely);
    }).then(() => (committedAt = performance.now()));

    // Requests sent while it runs.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during: { at: number; status: number; cache: unknown; body: string }[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await list();
      during.push({ at: performance.now(), status: res.status, cache: res.headers['x-cache'], body: JSON.stringify(res.body.data) });
    }
    // A query of another flow on the connection: it waits for the commit, and sees committed rows only.
    const other = sql<{ data: string }>`select published_data as data from entries where slug = 'one'`.execute(env.ctx.db.kysely).then((r) => ({
      at: performance.now(),
      data: r.rows[0].data,
    }));
    await transaction;
    clearInterval(ticker);
    const read = await other;

    expect(statements).toBeGreaterThan(10);
    for (const d of during) {
      expect(d).toMatchObject({ status: 200, cache: 'HIT' });
      expect(d.at).toBeLessThan(committedAt);
      expect(d.body).toBe(JSON.stringify(warm.body.data));
    }
    expect(read.at).toBeGreaterThanOrEqual(committedAt);
    expect(JSON.parse(read.data)).toEqual({ title: 'One' });
    // Slices of TRANSACTION_SLICE_MS plus one statement and the requests served between them;
    // far below the transaction's LONG_MS (a loaded CI machine adds its own pauses).
    expect(longestGap).toBeLessThan(Math.max(100, TRANSACTION_SLICE_MS * 10));
  });
});
