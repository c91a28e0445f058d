/**
 * Two contract defects of the management API (issue 23 item 6), on SQLite and PostgreSQL:
 *
 * - A `null` where a write body expects an object (an entry's `data` or `translations`, a
 *   translation's or a block's `data`, a page's `seo` or `seo_translations`) is a wrong type:
 *   400 VALIDATION_FAILED at its path, and nothing changes. It used to empty the entry's data,
 *   remove every translation or clear the page's SEO.
 * - Versions lists page by cursor like the other cursor lists: `meta.next_cursor` leads to the
 *   next page (offset pages give one too), walking by cursor yields every version once, newest
 *   first, and a cursor that is not one of this list's answers 400 at `query.cursor`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from '../helpers.js';

const M = '/api/v1/manage';
const T0 = Date.parse('2026-11-28T10:00:00.000Z');
const HOUR = 3600_000;

describe.each(dialects())('contract defects on %s', (dialect) => {
  let env: TestEnv;
  let now = T0;
  let key: string;

  const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });
  const entry = (slug: string) => `/content-types/post/entries/${slug}`;
  const stored = async (slug: string) => (await req('GET', entry(slug))).body.data;
  const pageDetail = async (slug: string) => (await req('GET', `/pages/${slug}`)).body.data;
  const expectPath = (res: Awaited<ReturnType<typeof req>>, path: string) => {
    const body = expectError(res, 400, 'VALIDATION_FAILED');
    expect(body.errors.map((e: { path: string }) => e.path)).toContain(path);
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    key = (await seedWorkspace(env.ctx)).keys.management;
    const types = [
      {
        name: 'Post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', localizable: true },
          { name: 'views', field_type: 'integer' },
        ],
      },
      { name: 'Hero', is_block: true, fields: [{ name: 'headline', field_type: 'text', localizable: true }] },
    ];
    for (const body of types) expect((await req('POST', '/content-types', body)).status).toBe(201);
    const created = await req('POST', '/content-types/post/entries', {
      slug: 'story',
      data: { title: 'One', views: 1 },
      translations: { de: { data: { title: 'Eins' } } },
    });
    expect(created.status).toBe(201);
    const page = await req('POST', '/pages', {
      slug: 'home',
      seo: { title: 'Home' },
      seo_translations: { de: { title: 'Start' } },
      blocks: [{ type: 'hero', data: { headline: 'Hello' } }],
    });
    expect(page.status).toBe(201);
  });
  afterAll(async () => env?.close());

  describe('null where a write body expects an object', () => {
    it('PUT of an entry with data null answers 400 at body.data and keeps the data', async () => {
      const before = await stored('story');
      expectPath(await req('PUT', entry('story'), { data: null }), 'body.data');
      expect(await stored('story')).toEqual(before);
      expect(JSON.parse(before.data)).toEqual({ title: 'One', views: 1 });
    });

    it('PUT of an entry with translations null answers 400 at body.translations and keeps them', async () => {
      const before = await stored('story');
      expectPath(await req('PUT', entry('story'), { data: { title: 'One', views: 1 }, translations: null }), 'body.translations');
      expect(await stored('story')).toEqual(before);
      expect(before.translations).toHaveLength(1);
    });

    it('a translation whose data is null answers 400 at its path', async () => {
      expectPath(await req('PUT', entry('story'), { data: { title: 'One' }, translations: { de: { data: null } } }), 'body.translations.de.data');
      expectPath(await req('PUT', entry('story'), { data: { title: 'One' }, translations: [{ locale: 'de', data: null }] }), 'body.translations.0.data');
      expect((await stored('story')).translations).toHaveLength(1);
    });

    it('POST of an entry with data null answers 400 at body.data and creates nothing', async () => {
      expectPath(await req('POST', '/content-types/post/entries', { slug: 'empty', data: null }), 'body.data');
      expectError(await req('GET', entry('empty')), 404, 'NOT_FOUND');
    });

    it('data given as the JSON text null is refused the same way', async () => {
      expectPath(await req('PUT', entry('story'), { data: 'null' }), 'body.data');
    });

    it('PUT of a page with seo null answers 400 at body.seo and keeps its SEO', async () => {
      const before = await pageDetail('home');
      const blocks = before.blocks.map((b: { id: string; type: string; data: string }) => ({ id: b.id, type: b.type, data: JSON.parse(b.data) }));
      expectPath(await req('PUT', '/pages/home', { seo: null, blocks }), 'body.seo');
      expectPath(await req('PUT', '/pages/home', { seo: { title: 'Home' }, seo_translations: null, blocks }), 'body.seo_translations');
      expectPath(await req('PUT', '/pages/home', { seo: { title: 'Home' }, blocks: null }), 'body.blocks');
      expectPath(await req('PUT', '/pages/home', { seo: { title: 'Home' }, blocks: [{ type: 'hero', data: null }] }), 'body.blocks.0.data');
      expect(await pageDetail('home')).toEqual(before);
      expect(before.page.seo.title).toBe('Home');
      expect(before.seo_translations).toHaveLength(1);
    });

    it('POST of a page with seo null answers 400 at body.seo and creates nothing', async () => {
      expectPath(await req('POST', '/pages', { slug: 'about', seo: null }), 'body.seo');
      expectPath(await req('POST', '/pages', { slug: 'about', seo_translations: null }), 'body.seo_translations');
      expectError(await req('GET', '/pages/about'), 404, 'NOT_FOUND');
    });

    it('a field value null still clears that field (the documented way to remove a value)', async () => {
      const saved = await req('PUT', entry('story'), { data: { title: 'One', views: null } });
      expect(saved.status).toBe(200);
      expect(JSON.parse(saved.body.data.data)).toEqual({ title: 'One' });
    });
  });

  describe('versions lists page by cursor', () => {
    const VERSIONS = 7;

    beforeAll(async () => {
      expect((await req('POST', '/content-types/post/entries', { slug: 'long', data: { title: 'v1' } })).status).toBe(201);
      expect((await req('POST', '/pages', { slug: 'long', seo: { title: 'v1' } })).status).toBe(201);
      // An hour apart, so no two saves share a version (VERSION_COALESCE_SECONDS).
      for (let i = 2; i <= VERSIONS; i++) {
        now += HOUR;
        expect((await req('PUT', entry('long'), { data: { title: `v${i}` } })).status).toBe(200);
        expect((await req('PUT', '/pages/long', { seo: { title: `v${i}` }, blocks: [] })).status).toBe(200);
      }
    });

    for (const [label, list] of [
      ['an entry', `${entry('long')}/versions`],
      ['a page', '/pages/long/versions'],
    ] as const) {
      it(`walking ${label}'s versions by cursor gives every version once, newest first`, async () => {
        const seen: number[] = [];
        let res = await req('GET', `${list}?limit=3`);
        expect(res.status).toBe(200);
        expect(res.body.meta).toMatchObject({ page_size: 3, total_data: VERSIONS, current_page: 1 });
        seen.push(...res.body.data.map((v: { version: number }) => v.version));
        let pages = 1;
        while (res.body.meta.next_cursor) {
          res = await req('GET', `${list}?limit=3&cursor=${encodeURIComponent(res.body.meta.next_cursor)}`);
          expect(res.status).toBe(200);
          // Cursor pages carry no totals, like the entries list's.
          expect(Object.keys(res.body.meta).sort()).toEqual(['next_cursor', 'page_size']);
          expect(res.body.meta.page_size).toBe(res.body.data.length);
          seen.push(...res.body.data.map((v: { version: number }) => v.version));
          pages += 1;
          expect(pages).toBeLessThan(10);
        }
        expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1]);
        expect(pages).toBe(3);
      });

      it(`${label}'s last page has next_cursor null, in offset and cursor mode`, async () => {
        const last = await req('GET', `${list}?limit=3&page=3`);
        expect(last.body.meta).toMatchObject({ page_size: 1, next_cursor: null });
        const all = await req('GET', `${list}?limit=100`);
        expect(all.body.meta).toMatchObject({ page_size: VERSIONS, next_cursor: null });
        const second = await req('GET', `${list}?limit=2&page=2`);
        const fromCursor = await req('GET', `${list}?limit=2&cursor=${encodeURIComponent(second.body.meta.next_cursor)}`);
        expect(fromCursor.body.data.map((v: { version: number }) => v.version)).toEqual([3, 2]);
      });

      it(`a bad cursor on ${label}'s versions answers 400 at query.cursor`, async () => {
        expectPath(await req('GET', `${list}?cursor=nonsense`), 'query.cursor');
        const first = await req('GET', `${list}?limit=2`);
        const cursor: string = first.body.meta.next_cursor;
        const [payload, mac] = cursor.split('.');
        const forged = `${Buffer.from(JSON.stringify({ v: 99, i: 'x', b: 'y' })).toString('base64url')}.${mac}`;
        expectPath(await req('GET', `${list}?cursor=${encodeURIComponent(forged)}`), 'query.cursor');
        expectPath(await req('GET', `${list}?cursor=${encodeURIComponent(`${payload}.${mac.slice(1)}`)}`), 'query.cursor');
      });
    }

    it("one item's versions cursor is refused by another item's versions list and by the entries list", async () => {
      const entryCursor: string = (await req('GET', `${entry('long')}/versions?limit=2`)).body.meta.next_cursor;
      const pageCursor: string = (await req('GET', '/pages/long/versions?limit=2')).body.meta.next_cursor;
      expectPath(await req('GET', `/pages/long/versions?cursor=${encodeURIComponent(entryCursor)}`), 'query.cursor');
      expectPath(await req('GET', `${entry('story')}/versions?cursor=${encodeURIComponent(entryCursor)}`), 'query.cursor');
      expectPath(await req('GET', `${entry('long')}/versions?cursor=${encodeURIComponent(pageCursor)}`), 'query.cursor');
      expectPath(await req('GET', `/content-types/post/entries?cursor=${encodeURIComponent(entryCursor)}`), 'query.cursor');
    });
  });
});
