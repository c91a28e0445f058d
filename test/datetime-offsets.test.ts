/**
 * Datetime values keep the offset their author wrote (issue 12 item 2; docs/api.md "Datetime
 * values"): stored, read and delivered as written (canonical form), while filters, sorts, cursors
 * and uniqueness go by the instant each value names, on management and delivery alike. The
 * values below name instants whose order differs from the order of their texts:
 *
 * | slug    | written                       | instant (UTC)            |
 * |---------|-------------------------------|--------------------------|
 * | berlin  | 2026-11-21T10:00:00.000+02:00 | 2026-11-21T08:00:00.000Z |
 * | utc     | 2026-11-21T09:00:00.000Z      | 2026-11-21T09:00:00.000Z |
 * | newyork | 2026-11-21T05:30:00.000-05:00 | 2026-11-21T10:30:00.000Z |
 * | tokyo   | 2026-11-21T20:00:00.000+09:00 | 2026-11-21T11:00:00.000Z |
 * | kolkata | 2026-11-21T08:00:00.000+05:30 | 2026-11-21T02:30:00.000Z |
 * | none    | (no value)                    |                          |
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';

const VALUES: Record<string, string> = {
  berlin: '2026-11-21T10:00+02:00',
  utc: '2026-11-21T09:00:00Z',
  newyork: '2026-11-21T05:30:00-0500',
  tokyo: '2026-11-21T20:00:00.000+09:00',
  kolkata: '2026-11-21T08:00:00+05:30',
};
const STORED: Record<string, string> = {
  berlin: '2026-11-21T10:00:00.000+02:00',
  utc: '2026-11-21T09:00:00.000Z',
  newyork: '2026-11-21T05:30:00.000-05:00',
  tokyo: '2026-11-21T20:00:00.000+09:00',
  kolkata: '2026-11-21T08:00:00.000+05:30',
};
/** By instant, earliest first. */
const BY_INSTANT = ['kolkata', 'berlin', 'utc', 'newyork', 'tokyo'];

describe.each(dialects())('datetime values with offsets on %s', (dialect) => {
  let env: TestEnv;
  let keys: { management: string; delivery: string; preview: string };
  const manage = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key: keys.management, body });
  const deliver = (url: string, key = keys.delivery) => call(env.app, 'GET', `${P}${url}`, { key });
  const slugsOf = (res: { status: number; body: { data: { slug: string }[] } }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((e) => e.slug);
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    keys = (await seedWorkspace(env.ctx)).keys;
    const ct = await manage('POST', '/content-types', {
      name: 'Event',
      slug: 'event',
      display_field: 'starts',
      fields: [
        { name: 'starts', field_type: 'datetime', filterable: true, sortable: true },
        { name: 'code', field_type: 'datetime', is_unique: true },
      ],
    });
    expect(ct.status, JSON.stringify(ct.body)).toBe(201);
    for (const slug of ['berlin', 'utc', 'newyork', 'tokyo', 'kolkata', 'none']) {
      const data = slug === 'none' ? {} : { starts: VALUES[slug] };
      const res = await manage('POST', '/content-types/event/entries', { slug, data });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await manage('PATCH', `/content-types/event/entries/${slug}/publish`)).status).toBe(200);
    }
  });
  afterAll(async () => env?.close());

  it('stores, reads and delivers the value as written, in canonical form', async () => {
    const raw = await env.ctx.db.kysely.selectFrom('entries').select(['slug', 'data', 'published_data']).execute();
    for (const r of raw) {
      if (r.slug === 'none') continue;
      const data = typeof r.data === 'string' ? JSON.parse(r.data) : r.data;
      expect(data.starts, r.slug).toBe(STORED[r.slug]);
    }
    const got = await manage('GET', '/content-types/event/entries/newyork');
    expect(JSON.parse(got.body.data.data).starts).toBe(STORED.newyork);
    for (const key of [keys.delivery, keys.preview]) {
      const one = await deliver('/entries/tokyo?type=event', key);
      expect(JSON.parse(one.body.data.entry.data).starts).toBe(STORED.tokyo);
    }
  });

  it('sorts delivery and management lists by instant, missing values first ascending', async () => {
    for (const key of [keys.delivery, keys.preview]) {
      expect(slugsOf(await deliver('/entries?type=event&sort=starts:asc', key))).toEqual(['none', ...BY_INSTANT]);
      expect(slugsOf(await deliver('/entries?type=event&sort=starts:desc', key))).toEqual([...BY_INSTANT].reverse().concat('none'));
    }
    expect(slugsOf(await manage('GET', '/content-types/event/entries?sort=starts:asc&limit=100'))).toEqual(['none', ...BY_INSTANT]);
    expect(slugsOf(await manage('GET', '/content-types/event/entries?sort=starts:desc&limit=100'))).toEqual([...BY_INSTANT].reverse().concat('none'));
  });

  it('filters by instant whatever offset the filter value is written with', async () => {
    const f = async (q: string) => slugsOf(await deliver(`/entries?type=event&sort=starts:asc&${q}`)).filter((s) => s !== 'none');
    // 10:00+02:00 is 08:00Z: before 09:00Z although its text sorts after it.
    expect(await f(`filter[starts][lt]=${encodeURIComponent('2026-11-21T09:00:00Z')}`)).toEqual(['kolkata', 'berlin']);
    expect(await f(`filter[starts][lte]=${encodeURIComponent('2026-11-21T11:00:00+02:00')}`)).toEqual(['kolkata', 'berlin', 'utc']);
    expect(await f(`filter[starts][gt]=${encodeURIComponent('2026-11-21T05:30:00-05:00')}`)).toEqual(['tokyo']);
    expect(await f(`filter[starts][gte]=${encodeURIComponent('2026-11-21T10:30Z')}`)).toEqual(['newyork', 'tokyo']);
    // Equality on the instant: the Berlin value asked for in UTC, the Tokyo one in New York time.
    expect(await f(`filter[starts][eq]=${encodeURIComponent('2026-11-21T08:00:00Z')}`)).toEqual(['berlin']);
    expect(await f(`filter[starts]=${encodeURIComponent('2026-11-21T06:00:00-05:00')}`)).toEqual(['tokyo']);
    expect(await f(`filter[starts][in]=${encodeURIComponent('2026-11-21T08:00Z,2026-11-21T11:30:00+01:00')}`)).toEqual(['berlin', 'newyork']);
    expect(slugsOf(await deliver(`/entries?type=event&filter[starts][ne]=${encodeURIComponent('2026-11-21T09:00+00:00')}`)).sort()).toEqual([
      'berlin',
      'kolkata',
      'newyork',
      'none',
      'tokyo',
    ]);
    expectError(await deliver(`/entries?type=event&filter[starts][lt]=${encodeURIComponent('2026-11-21T09:00')}`), 400, 'VALIDATION_FAILED');
  });

  it('walks cursor pages in instant order, delivery and management alike, both directions', async () => {
    for (const dir of ['asc', 'desc'] as const) {
      const expected = dir === 'asc' ? ['none', ...BY_INSTANT] : [...BY_INSTANT].reverse().concat('none');
      for (const key of [keys.delivery, keys.preview]) {
        const seen: string[] = [];
        let url = `/entries?type=event&sort=starts:${dir}&limit=2`;
        for (let i = 0; i < 5; i++) {
          const res = await deliver(url, key);
          seen.push(...slugsOf(res));
          const next = res.body.meta.next_cursor as string | null;
          if (!next) break;
          url = `/entries?type=event&sort=starts:${dir}&limit=2&cursor=${encodeURIComponent(next)}`;
        }
        expect(seen).toEqual(expected);
      }
      const seen: string[] = [];
      let url = `/content-types/event/entries?sort=starts:${dir}&limit=2`;
      for (let i = 0; i < 5; i++) {
        const res = await manage('GET', url);
        seen.push(...slugsOf(res));
        const next = res.body.meta.next_cursor as string | null;
        if (!next) break;
        url = `/content-types/event/entries?sort=starts:${dir}&limit=2&cursor=${encodeURIComponent(next)}`;
      }
      expect(seen).toEqual(expected);
    }
  });

  it('holds a unique datetime unique by instant: the same moment in another offset is a duplicate', async () => {
    const first = await manage('PUT', '/content-types/event/entries/berlin', { data: { starts: VALUES.berlin, code: '2026-12-01T10:00:00+02:00' } });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expectError(
      await manage('PUT', '/content-types/event/entries/utc', { data: { starts: VALUES.utc, code: '2026-12-01T08:00:00Z' } }),
      409,
      'UNIQUE_VIOLATION',
    );
    expectError(
      await manage('PUT', '/content-types/event/entries/tokyo', { data: { starts: VALUES.tokyo, code: '2026-12-01T17:00+09:00' } }),
      409,
      'UNIQUE_VIOLATION',
    );
    // Another instant is free, and the owner may write its own value in another offset.
    expect((await manage('PUT', '/content-types/event/entries/utc', { data: { starts: VALUES.utc, code: '2026-12-01T10:00:00Z' } })).status).toBe(200);
    const again = await manage('PUT', '/content-types/event/entries/berlin', { data: { starts: VALUES.berlin, code: '2026-12-01T08:00:00Z' } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(JSON.parse(again.body.data.data).code).toBe('2026-12-01T08:00:00.000Z');
    // The database refuses a duplicate instant that bypasses the check.
    const row = await env.ctx.db.kysely.selectFrom('entries').select(['id', 'data']).where('slug', '=', 'tokyo').executeTakeFirstOrThrow();
    const data = { ...(typeof row.data === 'string' ? JSON.parse(row.data) : row.data), code: '2026-12-01T09:00:00.000+01:00' };
    await expect(sql`update entries set data = ${JSON.stringify(data)} where id = ${row.id}`.execute(env.ctx.db.kysely)).rejects.toThrow(/unique/i);
  });

  it('searches the management list by the value as written', async () => {
    expect(slugsOf(await manage('GET', `/content-types/event/entries?search=${encodeURIComponent('T05:30:00.000-05')}`))).toEqual(['newyork']);
    expect(slugsOf(await manage('GET', `/content-types/event/entries?search=${encodeURIComponent('T10:30')}`))).toEqual([]);
  });
});
