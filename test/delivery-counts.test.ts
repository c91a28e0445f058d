/**
 * Counts that do not scan (issue 13, docs/scaling.md "Counts"): `entry_counts` holds the number
 * of entries per content type and status, kept by triggers in the transaction of every write, and
 * an unfiltered delivery list's `total_data` reads it (plus the scheduled entries already due,
 * D21). A fast-check property runs random writes through every write path (create, update,
 * publish, unpublish, archive, schedule, time passing so schedules fall due, the publishing job,
 * bulk state changes and deletes, version restore, delete, content type deletion) and compares
 * the counters with COUNT(*), and each key's `total_data` with the entries it lists. Filtered
 * lists count up to a cap past the page and then say `total_is_exact: false`.
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { FILTERED_COUNT_CAP } from '../src/modules/delivery/query/repository.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { M, P } from './delivery-fixtures.js';

const POST = {
  name: 'Post',
  slug: 'post',
  fields: [
    { name: 'title', field_type: 'text', required: true },
    { name: 'views', field_type: 'integer', filterable: true },
  ],
};

type Seeded = Awaited<ReturnType<typeof seedWorkspace>>;

describe.each(dialects())('entry counters on %s', (dialect) => {
  let env: TestEnv;
  let clock = Date.parse('2026-06-01T12:00:00.000Z');

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(clock) });
  });
  afterAll(async () => env?.close());

  const manage = (s: Seeded, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    call(env.app, method, M + url, { key: s.keys.management, body });

  /** Counters as stored, and as COUNT(*) finds them, per content type and status (zeros left out). */
  async function counters(): Promise<{ stored: Record<string, number>; counted: Record<string, number> }> {
    const stored = await sql<{ content_type_id: string; status: string; n: number }>`select content_type_id, status, n from entry_counts`.execute(
      env.ctx.db.kysely,
    );
    const counted = await sql<{ content_type_id: string; status: string; n: number }>`
      select content_type_id, status, count(*) as n from entries group by content_type_id, status`.execute(env.ctx.db.kysely);
    const shape = (rows: { content_type_id: string; status: string; n: number }[]) =>
      Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [`${r.content_type_id}:${r.status}`, Number(r.n)]));
    return { stored: shape(stored.rows), counted: shape(counted.rows) };
  }

  /** total_data of page 1 and the number of entries the key can walk by cursor. */
  async function totals(key: string): Promise<{ total: number; walked: number }> {
    const first = await call(env.app, 'GET', `${P}/entries?type=post&limit=100`, { key });
    expect(first.status).toBe(200);
    let walked = first.body.data.length;
    for (let cursor = first.body.meta.next_cursor; cursor;) {
      const next = await call(env.app, 'GET', `${P}/entries?type=post&limit=100&cursor=${encodeURIComponent(cursor)}`, { key });
      walked += next.body.data.length;
      cursor = next.body.meta.next_cursor;
    }
    return { total: first.body.meta.total_data, walked };
  }

  type Op = { action: string; n: number };
  const opArb: fc.Arbitrary<Op> = fc.record({
    action: fc.constantFrom(
      'create',
      'create',
      'update',
      'publish',
      'unpublish',
      'archive',
      'schedule',
      'tick',
      'job',
      'bulk-publish',
      'bulk-delete',
      'restore',
      'delete',
    ),
    n: fc.nat(5),
  });

  async function apply(s: Seeded, op: Op, step: number): Promise<void> {
    const slug = `e-${op.n}`;
    const base = '/content-types/post/entries';
    const ids = async () => {
      const list = await manage(s, 'GET', `${base}?limit=100`);
      return (list.body.data as { id: string; slug: string }[]).filter((e) => Number(e.slug.slice(2)) <= op.n).map((e) => e.id);
    };
    switch (op.action) {
      case 'create':
        await manage(s, 'POST', base, { slug, data: { title: `t${step}`, views: step } });
        return;
      case 'update':
        await manage(s, 'PUT', `${base}/${slug}`, { data: { title: `u${step}`, views: step } });
        return;
      case 'schedule':
        await manage(s, 'PATCH', `${base}/${slug}/schedule`, { publish_at: new Date(clock + 3_600_000).toISOString() });
        return;
      case 'tick':
        // Scheduled entries fall due: visible to production before the job rewrites them (D21).
        clock += 2 * 3_600_000;
        return;
      case 'job':
        await runSchedulerOnce(env.ctx);
        return;
      case 'bulk-publish': {
        const list = await ids();
        if (list.length) await manage(s, 'PATCH', `${base}/bulk`, { action: op.n % 2 ? 'publish' : 'archive', ids: list });
        return;
      }
      case 'bulk-delete': {
        const list = await ids();
        if (list.length) await manage(s, 'DELETE', `${base}/bulk`, { ids: list.slice(0, 1) });
        return;
      }
      case 'restore':
        await manage(s, 'POST', `${base}/${slug}/versions/1/restore`);
        return;
      case 'delete':
        await manage(s, 'DELETE', `${base}/${slug}`);
        return;
      default:
        await manage(s, 'PATCH', `${base}/${slug}/${op.action}`);
    }
  }

  it('property: counters equal COUNT(*) after random writes, and total_data equals what each key lists', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 3, maxLength: 18 }), async (ops) => {
        const s = await seedWorkspace(env.ctx);
        await manage(s, 'POST', '/content-types', POST);
        for (const [i, op] of ops.entries()) await apply(s, op, i);
        const c = await counters();
        expect(c.stored).toEqual(c.counted);
        for (const key of [s.keys.delivery, s.keys.preview]) {
          const t = await totals(key);
          expect(t.total).toBe(t.walked);
        }
        // Deleting the content type (its entries first) leaves no counter behind.
        for (const id of await (async () => (await manage(s, 'GET', '/content-types/post/entries?limit=100')).body.data.map((e: { id: string }) => e.id))())
          await manage(s, 'DELETE', `/content-types/post/entries/bulk`, { ids: [id] });
        await manage(s, 'DELETE', '/content-types/post');
        const after = await counters();
        expect(after.stored).toEqual(after.counted);
      }),
      { numRuns: dialect === 'sqlite' ? 25 : 8 },
    );
  });

  it(`counts a filtered list up to ${FILTERED_COUNT_CAP} entries past the page, then answers a lower bound`, async () => {
    const s = await seedWorkspace(env.ctx);
    await manage(s, 'POST', '/content-types', POST);
    const type = await manage(s, 'GET', '/content-types/post');
    const rows = Array.from({ length: 2 * FILTERED_COUNT_CAP + 60 }, (_, i) => ({
      id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      workspace_id: s.workspace.id,
      content_type_id: type.body.data.id,
      slug: `bulk-${i}`,
      status: 'published',
      position: 0,
      version: 1,
      data: JSON.stringify({ title: `b${i}`, views: i % 2 }),
      published_data: JSON.stringify({ title: `b${i}`, views: i % 2 }),
      published_at: '2026-01-01T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    }));
    for (let i = 0; i < rows.length; i += 200)
      await env.ctx.db.kysely
        .insertInto('entries')
        .values(rows.slice(i, i + 200))
        .execute();
    const key = s.keys.delivery;
    const all = await call(env.app, 'GET', `${P}/entries?type=post`, { key });
    expect(all.body.meta).toMatchObject({ total_data: rows.length, total_pages: Math.ceil(rows.length / 10) });
    expect(all.body.meta.total_is_exact).toBeUndefined();
    // Half the entries match: more than the cap past page 1, so a lower bound.
    const even = await call(env.app, 'GET', `${P}/entries?type=post&filter[views][eq]=0`, { key });
    expect(even.body.meta).toMatchObject({ total_data: 10 + FILTERED_COUNT_CAP, total_is_exact: false });
    // Deeper pages look further: near the end the count is exact again.
    const deep = await call(env.app, 'GET', `${P}/entries?type=post&filter[views][eq]=0&page=40`, { key });
    expect(deep.body.meta.total_data).toBe(rows.length / 2);
    expect(deep.body.meta.total_is_exact).toBeUndefined();
    const past = await call(env.app, 'GET', `${P}/entries?type=post&filter[views][eq]=1&page=900`, { key });
    expect(past.body.meta).toMatchObject({ total_data: rows.length / 2, page_size: 0 });
  });
});
