import {
  CompiledQuery,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaches } from '../src/caches.js';
import type { Db } from '../src/db/types.js';
import { authenticate } from '../src/modules/auth/operations.js';
import { getEntryBySlug, listEntries } from '../src/modules/delivery/operations.js';
import { loadDeliverySchema } from '../src/modules/delivery/schema-cache.js';
import { call, createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { createWorld, datas, P, type DeliveryWorld } from './delivery-fixtures.js';

const TYPES = [
  {
    name: 'Author',
    slug: 'author',
    fields: [
      { name: 'name', field_type: 'text' },
      { name: 'bio', field_type: 'textarea', localizable: true },
    ],
  },
  {
    name: 'Post',
    slug: 'post',
    fields: [
      { name: 'title', field_type: 'text', localizable: true, sortable: true, filterable: true },
      { name: 'summary', field_type: 'textarea', localizable: true },
      { name: 'views', field_type: 'integer', sortable: true, filterable: true },
      { name: 'rating', field_type: 'number', filterable: true },
      { name: 'featured', field_type: 'boolean', filterable: true },
      { name: 'published_on', field_type: 'date', filterable: true, sortable: true },
      { name: 'happened_at', field_type: 'datetime', filterable: true },
      { name: 'category', field_type: 'select', options: '["news","guides"]', filterable: true },
      { name: 'website', field_type: 'url', filterable: true },
      { name: 'author', field_type: 'relation', options: '["author"]', filterable: true },
      { name: 'friends', field_type: 'relation_list' },
      { name: 'cover', field_type: 'media' },
    ],
  },
  { name: 'Note', slug: 'note', fields: [{ name: 'heading', field_type: 'text', sortable: true }] },
];

/**
 * Counts the queries a Db runs (transformResult sees each executed query once; transformQuery
 * also sees subqueries as they are built) and keeps their operation trees for EXPLAIN.
 */
class QueryLog implements KyselyPlugin {
  private nodes = new Map<unknown, PluginTransformQueryArgs>();
  /** Every executed query, with its operation tree when it was built by a query builder. */
  queries: (PluginTransformQueryArgs | null)[] = [];
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.nodes.set(args.queryId, args);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.queries.push(this.nodes.get(args.queryId) ?? null);
    return args.result;
  }
}

describe.each(dialects())('delivery sort, filters, cursors on %s', (dialect) => {
  let env: TestEnv;
  let w: DeliveryWorld;
  const now = new Date('2026-06-01T12:00:00.000Z');
  const authors: string[] = [];
  const get = (url: string, key = w.keys.delivery) => call(env.app, 'GET', P + url, { key });
  const slugs = (res: { body: { data: { slug: string }[] } }) => res.body.data.map((e) => e.slug);

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now });
    w = await createWorld(env.ctx, env.app, TYPES);
    for (let i = 0; i < 5; i++) {
      authors.push(
        await w.insertEntry({
          type: 'author',
          slug: `author-${i}`,
          data: { name: `Author ${i}`, bio: `Bio ${i}` },
          translations: { de: { bio: `Bio de ${i}` } },
        }),
      );
    }
    const cover = await w.insertMedia();
    // 12 published posts; p3 and p7 have no views; p5 has a title with a literal %.
    for (let i = 0; i < 12; i++) {
      const data: Record<string, unknown> = {
        title: i === 5 ? 'Save 50% now' : `Post ${String(i).padStart(2, '0')}`,
        summary: `Summary ${i}`,
        rating: i / 2,
        featured: i % 3 === 0,
        published_on: `2026-01-${String(10 + i).padStart(2, '0')}`,
        happened_at: `2026-02-01T${String(i).padStart(2, '0')}:00:00.000Z`,
        website: `https://example.com/${i}`,
        author: authors[i % 5],
        friends: [authors[(i + 1) % 5], authors[(i + 2) % 5]],
        cover,
      };
      if (i !== 3 && i !== 7) data.views = (i * 7) % 10;
      if (i % 4 !== 0) data.category = i % 2 ? 'news' : 'guides';
      await w.insertEntry({ type: 'post', slug: `p${i}`, data, translations: i % 2 ? { de: { title: `Beitrag ${i}` } } : {} });
    }
    await w.insertEntry({ type: 'post', slug: 'd1', status: 'draft', data: { title: 'Draft one', views: 5 } });
    await w.insertEntry({ type: 'post', slug: 'd2', status: 'draft', data: { title: 'Draft two' } });
  });
  afterAll(async () => env?.close());

  describe('sort', () => {
    it('sorts by sortable data fields, with missing values first ascending and last descending', async () => {
      const asc = await get('/entries?type=post&sort=views:asc&limit=100');
      const views = datas(asc.body).map((d) => d.views ?? null);
      expect(views.slice(0, 2)).toEqual([null, null]);
      expect(views.slice(2)).toEqual([...views.slice(2)].sort((a, b) => (a as number) - (b as number)));
      const desc = await get('/entries?type=post&sort=views:desc&limit=100');
      expect(slugs(desc)).toEqual([...slugs(asc)].reverse());
      const title = await get('/entries?type=post&sort=title:asc&limit=3');
      expect(datas(title.body).map((d) => d.title)).toEqual(['Post 00', 'Post 01', 'Post 02']);
      const date = await get('/entries?type=post&sort=published_on:desc&limit=2');
      expect(slugs(date)).toEqual(['p11', 'p10']);
    });

    it('sorts by entry columns', async () => {
      expect(slugs(await get('/entries?type=post&sort=slug:desc&limit=2'))).toEqual(['p9', 'p8']);
      expect(slugs(await get('/entries?type=post&sort=created_at:asc&limit=2'))).toEqual(['p0', 'p1']);
      expect(slugs(await get('/entries?type=post&sort=updated_at:desc&limit=2'))).toEqual(['p11', 'p10']);
      expect(slugs(await get('/entries?type=post&sort=published_at:desc&limit=2'))).toEqual(['p11', 'p10']);
      // Preview keys see drafts: their published_at is null and sorts last descending.
      const preview = await get('/entries?type=post&sort=published_at:desc&limit=100', w.keys.preview);
      expect(slugs(preview).slice(-2).sort()).toEqual(['d1', 'd2']);
    });

    it('answers 400 for fields that are not sortable or not known', async () => {
      for (const sort of ['summary:asc', 'rating:asc', 'nope:asc', 'position:asc', 'views', 'views:up', 'views:asc,title:asc']) {
        const b = expectError(await get(`/entries?type=post&sort=${sort}`), 400, 'VALIDATION_FAILED');
        expect(b.errors[0].path).toBe('query.sort');
      }
    });
  });

  describe('filters', () => {
    const f = async (qs: string) => slugs(await get(`/entries?type=post&limit=100&sort=slug:asc&${qs}`));

    it('supports eq, ne, lt, lte, gt, gte, in, contains and exists', async () => {
      expect(await f('filter[category]=news')).toEqual(['p1', 'p11', 'p3', 'p5', 'p7', 'p9']);
      expect(await f('filter[category][eq]=guides')).toEqual(['p10', 'p2', 'p6']);
      // ne also matches entries without a value.
      expect(await f('filter[category][ne]=news')).toEqual(['p0', 'p10', 'p2', 'p4', 'p6', 'p8']);
      // views: p0 0, p1 7, p2 4, p4 8, p5 5, p6 2, p8 6, p9 3, p10 0, p11 7
      expect(await f('filter[views][lt]=3')).toEqual(['p0', 'p10', 'p6']);
      expect(await f('filter[views][lte]=3')).toEqual(['p0', 'p10', 'p6', 'p9']);
      expect(await f('filter[views][gt]=6')).toEqual(['p1', 'p11', 'p4']);
      expect(await f('filter[views][gte]=6')).toEqual(['p1', 'p11', 'p4', 'p8']);
      expect(await f('filter[views][gte]=2&filter[views][lt]=5')).toEqual(['p2', 'p6', 'p9']);
      expect(await f('filter[views][in]=0,8')).toEqual(['p0', 'p10', 'p4']);
      expect(await f('filter[views][exists]=false')).toEqual(['p3', 'p7']);
      expect((await f('filter[views][exists]=true')).length).toBe(10);
      expect(await f('filter[title][contains]=POST%200')).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p6', 'p7', 'p8', 'p9']);
      // LIKE wildcards in the value are literal.
      expect(await f('filter[title][contains]=50%25')).toEqual(['p5']);
      expect(await f('filter[title][contains]=_')).toEqual([]);
      expect(await f('filter[featured]=true')).toEqual(['p0', 'p3', 'p6', 'p9']);
      expect(await f('filter[featured][ne]=true')).toEqual(['p1', 'p10', 'p11', 'p2', 'p4', 'p5', 'p7', 'p8']);
      expect(await f('filter[rating][gt]=4.5')).toEqual(['p10', 'p11']);
      expect(await f('filter[published_on][gte]=2026-01-20')).toEqual(['p10', 'p11']);
      // Date-times are compared normalized (UTC, milliseconds), like stored values.
      expect(await f('filter[happened_at][lt]=2026-02-01T03:30:00%2B01:00')).toEqual(['p0', 'p1', 'p2']);
      expect(await f(`filter[author]=${authors[1]}`)).toEqual(['p1', 'p11', 'p6']);
      expect(await f(`filter[author][in]=${authors[1]},${authors[2].toUpperCase()}`)).toEqual(['p1', 'p11', 'p2', 'p6', 'p7']);
      expect(await f('filter[website][contains]=example.com/1')).toEqual(['p1', 'p10', 'p11']);
      // Filters combine with pagination totals.
      const page = await get('/entries?type=post&filter[category]=news&limit=4');
      expect(page.body.meta).toMatchObject({ total_data: 6, total_pages: 2, page_size: 4 });
    });

    it('answers 400 for bad filters', async () => {
      const bad = [
        'filter[views]=abc',
        'filter[views][gt]=1.5',
        'filter[rating][gt]=x',
        'filter[featured]=yes',
        'filter[category]=sports',
        'filter[published_on][gt]=2026-02-30',
        'filter[happened_at][lt]=yesterday',
        'filter[author]=not-a-uuid',
        'filter[summary]=x',
        'filter[nope]=x',
        'filter[views][near]=1',
        'filter[views][exists]=maybe',
        'filter[views][contains]=1',
        'filter[featured][in]=true',
        'filter[featured][gt]=true',
        'filter[views][in]=1,,2',
        'filter[views]=1&filter[views]=2',
        'filter[views',
        'filter[views][gt][x]=1',
        'filter[title][contains]=',
      ];
      for (const qs of bad) {
        const res = await get(`/entries?type=post&${qs}`);
        const b = expectError(res, 400, 'VALIDATION_FAILED');
        expect(b.errors[0].path).toMatch(/^query\.filter\[/);
      }
    });
  });

  describe('cursors', () => {
    async function walk(qs: string, key = w.keys.delivery, limit = 3): Promise<string[]> {
      const out: string[] = [];
      let res = await get(`/entries?type=post&limit=${limit}&${qs}`, key);
      out.push(...slugs(res));
      let guard = 0;
      while (res.body.meta.next_cursor && guard++ < 50) {
        res = await get(`/entries?type=post&limit=${limit}&${qs}&cursor=${encodeURIComponent(res.body.meta.next_cursor)}`, key);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body.meta).sort()).toEqual(
          qs.includes('locale=') ? ['locale_requested', 'next_cursor', 'page_size'] : ['next_cursor', 'page_size'],
        );
        out.push(...slugs(res));
      }
      return out;
    }

    /**
     * Lists walked page by page (query string, key). views: p0 and p10 have 0, p1 and p11 have 7,
     * p3 and p7 none: ties, missing values and sort keys a filter pins to one value.
     */
    const listCases = (): [string, string][] => [
      ['', w.keys.delivery],
      ['sort=views:asc', w.keys.delivery],
      ['sort=views:desc', w.keys.delivery],
      ['sort=views:asc&locale=de', w.keys.delivery],
      ['sort=views:desc', w.keys.preview],
      ['sort=title:asc&locale=de', w.keys.delivery],
      ['sort=title:desc&locale=de', w.keys.delivery],
      ['sort=published_at:desc', w.keys.preview],
      ['sort=published_at:asc', w.keys.preview],
      ['sort=slug:asc&filter[category][ne]=news', w.keys.delivery],
      ['sort=published_on:asc&filter[views][exists]=true', w.keys.preview],
      ['sort=views:asc&filter[views][eq]=7&locale=de', w.keys.delivery],
      ['sort=views:desc&filter[views][exists]=false', w.keys.preview],
      ['sort=published_at:desc&filter[featured][eq]=true', w.keys.preview],
      ['sort=published_on:asc&filter[views][gte]=4', w.keys.delivery],
    ];

    it('walks every page with cursors exactly like the offset listing', async () => {
      for (const [qs, key] of listCases()) {
        const full = slugs(await get(`/entries?type=post&limit=100&${qs}`, key));
        for (const limit of [1, 3, 5]) expect(await walk(qs, key, limit), `${qs} limit ${limit}`).toEqual(full);
      }
    });

    it('resumes after sort values too long for a cursor (by row), in both directions, ties and missing values included', async () => {
      // Headings of 3,000 characters share long prefixes; one is short, one is CJK, one is missing.
      const long = (c: string, n: number) => 'x'.repeat(1500) + c.repeat(n);
      const headings = [long('a', 1500), long('b', 1500), long('a', 1500), 'short', '題'.repeat(900), null, long('a', 1499)];
      for (const [i, heading] of headings.entries()) await w.insertEntry({ type: 'note', slug: `n${i}`, data: heading === null ? {} : { heading } });
      for (const key of [w.keys.delivery, w.keys.preview]) {
        for (const qs of ['sort=heading:asc', 'sort=heading:desc']) {
          const full = slugs(await get(`/entries?type=note&limit=100&${qs}`, key));
          expect(full).toHaveLength(headings.length);
          for (const limit of [1, 2, 3]) {
            const out: string[] = [];
            let res = await get(`/entries?type=note&limit=${limit}&${qs}`, key);
            out.push(...slugs(res));
            for (let guard = 0; res.body.meta.next_cursor && guard < 20; guard++) {
              expect(res.body.meta.next_cursor.length).toBeLessThanOrEqual(2048);
              res = await get(`/entries?type=note&limit=${limit}&${qs}&cursor=${encodeURIComponent(res.body.meta.next_cursor)}`, key);
              expect(res.status).toBe(200);
              out.push(...slugs(res));
            }
            expect(out, `${qs} limit ${limit}`).toEqual(full);
          }
        }
      }
    });

    it('offset mode returns next_cursor (null on the last page); cursor mode omits totals', async () => {
      const first = await get('/entries?type=post&limit=5&page=2');
      expect(first.body.meta).toMatchObject({ total_data: 12, current_page: 2, page_size: 5, total_pages: 3 });
      const next = await get(`/entries?type=post&limit=5&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
      const third = await get('/entries?type=post&limit=5&page=3');
      expect(slugs(next)).toEqual(slugs(third));
      expect(next.body.meta).toEqual({ page_size: 2, next_cursor: null });
      expect(third.body.meta.next_cursor).toBeNull();
      const beyond = await get('/entries?type=post&limit=5&page=9');
      expect(beyond.body.meta).toEqual({ total_data: 12, current_page: 9, page_size: 0, total_pages: 3, next_cursor: null });
      // page is ignored with a cursor (even above 1000); limit and fields may change.
      const ignored = await get(`/entries?type=post&limit=2&page=5000&fields=title&cursor=${encodeURIComponent(first.body.meta.next_cursor)}`);
      expect(ignored.status).toBe(200);
      expect(slugs(ignored)).toEqual(slugs(next));
    });

    it('serves each offset page as its slice of the whole list, entries and totals alike', async () => {
      for (const [qs, key] of listCases()) {
        const full = await get(`/entries?type=post&limit=100&${qs}`, key);
        expect(full.body.data.length, qs).toBeGreaterThan(1);
        for (const limit of [1, 2, 5]) {
          for (let page = 1; page <= Math.ceil(full.body.data.length / limit); page++) {
            const res = await get(`/entries?type=post&limit=${limit}&page=${page}&${qs}`, key);
            const where = `${qs} limit ${limit} page ${page}`;
            expect(res.body.data, where).toEqual(full.body.data.slice((page - 1) * limit, page * limit));
            expect(res.body.meta.total_data, where).toBe(full.body.meta.total_data);
            expect(res.body.meta.total_is_exact, where).toBe(full.body.meta.total_is_exact);
          }
        }
      }
    });

    it('rejects tampered, foreign and mismatched cursors with 400', async () => {
      const res = await get('/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=de');
      const cursor: string = res.body.meta.next_cursor;
      const ok = await get(`/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=de&cursor=${encodeURIComponent(cursor)}`);
      expect(ok.status).toBe(200);
      const [payload, mac] = cursor.split('.');
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: '00000000-0000-0000-0000-000000000000' }),
      ).toString('base64url');
      const variants = [
        `/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=de&cursor=${forged}.${mac}`,
        `/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=de&cursor=${payload}.${mac.slice(0, -2)}AA`,
        `/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=de&cursor=garbage`,
        `/entries?type=post&limit=2&sort=views:desc&filter[featured]=false&locale=de&cursor=${cursor}`,
        `/entries?type=post&limit=2&sort=views:asc&filter[featured]=true&locale=de&cursor=${cursor}`,
        `/entries?type=post&limit=2&sort=views:asc&locale=de&cursor=${cursor}`,
        `/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=fr&cursor=${cursor}`,
        `/entries?type=author&limit=2&locale=de&cursor=${cursor}`,
      ];
      for (const url of variants) {
        const b = expectError(await get(url), 400, 'VALIDATION_FAILED');
        expect(b.errors[0].path).toBe('query.cursor');
      }
      // The same query with a preview key (other visibility) does not accept it either.
      expectError(
        await get(`/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=de&cursor=${cursor}`, w.keys.preview),
        400,
        'VALIDATION_FAILED',
      );
      // A cursor of another workspace fails too.
      const other = await createWorld(env.ctx, env.app, TYPES);
      expectError(
        await get(`/entries?type=post&limit=2&sort=views:asc&filter[featured]=false&locale=de&cursor=${cursor}`, other.keys.delivery),
        400,
        'VALIDATION_FAILED',
      );
    });
  });

  describe('query bounds and indexes', () => {
    it('resolves relations and media with a fixed number of queries, whatever the page size', async () => {
      const actor = await authenticate(env.ctx, w.keys.delivery, 'delivery');
      const log = new QueryLog();
      // Fresh caches: this context has not loaded the content model yet.
      const db = { kysely: env.ctx.db.kysely.withPlugin(log), dialect: env.ctx.db.dialect, close: async () => {}, memo: env.ctx.db.memo } satisfies Db;
      const ctx = { ...env.ctx, db, caches: createCaches() };
      const run = async <T>(fn: () => Promise<T>): Promise<{ result: T; queries: number }> => {
        log.queries = [];
        const result = await fn();
        return { result, queries: log.queries.length };
      };
      // The first request of a context reads the model's fingerprint and loads the model (three queries); later ones by
      // an actor checked at the same workspace revision need none (every model change bumps the revision).
      const cold = await run(() => listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 2 }));
      const one = await run(() => listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 1 }));
      const five = await run(() => listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 5 }));
      const all = await run(() => listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 12 }));
      expect(all.result.items).toHaveLength(12);
      const first = JSON.parse(all.result.items[0].data);
      expect(first.author).toMatchObject({ type: 'author' });
      expect(first.author.bio).toMatch(/^Bio de /);
      expect(first.friends).toHaveLength(2);
      expect(first.cover).toMatchObject({ mime_type: 'image/png' });
      // page (its total in the same statement) + related entries (every relation field at once) + media
      expect([one.queries, five.queries, all.queries]).toEqual([3, 3, 3]);
      expect(cold.queries).toBe(6);
      // Past the last page the total needs its own count.
      const beyond = await run(() => listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 5, page: 9 }));
      expect(beyond.result.meta.total_data).toBe(12);
      expect(beyond.queries).toBe(2);
      // Without relation or media fields selected, neither lookup runs.
      const plain = await run(() => listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 5, fields: 'title,views' }));
      expect(plain.queries).toBe(1);
      // Cursor mode: the page.
      const cursor = await run(() => listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 5, fields: 'title', cursor: five.result.meta.next_cursor! }));
      expect(cursor.result.items).toHaveLength(5);
      expect(cursor.queries).toBe(1);
      const detail = await run(() => getEntryBySlug(ctx, actor, 'p1', { type: 'post', locale: 'de' }));
      expect(detail.queries).toBe(3);
    });

    it('checks the content model again once the workspace revision moved, and sees a model change at once', async () => {
      const log = new QueryLog();
      const db = { kysely: env.ctx.db.kysely.withPlugin(log), dialect: env.ctx.db.dialect, close: async () => {}, memo: env.ctx.db.memo } satisfies Db;
      const ctx = { ...env.ctx, db, caches: createCaches() };
      // Queries besides the list itself (one field, no relations: one query): the fingerprint
      // check, and the model's two when it is (re)loaded.
      const extraQueries = () => log.queries.length - 1;
      const list = async (key: string) => {
        // A fresh actor per request, as the key cache checks it against the current revision on each.
        const actor = await authenticate(env.ctx, key, 'delivery');
        log.queries = [];
        const res = await listEntries(ctx, actor, { type: 'post', locale: 'de', limit: 1, fields: 'title' });
        return { extra: extraQueries(), res };
      };
      expect((await list(w.keys.delivery)).extra).toBe(3);
      expect((await list(w.keys.delivery)).extra).toBe(0);
      // A preview key is checked against the other revision (draft_revision): verified on its own.
      expect((await list(w.keys.preview)).extra).toBe(1);
      expect((await list(w.keys.preview)).extra).toBe(0);
      // A model change through the API (on any instance) moves both revisions: the next request checks, and sees it.
      const field = await call(env.app, 'POST', '/api/v1/manage/content-types/post/fields', {
        key: w.keys.management,
        body: { name: 'subtitle_x', field_type: 'text' },
      });
      expect(field.status).toBe(201);
      for (const [key, queries] of [
        [w.keys.delivery, 3],
        [w.keys.preview, 1],
      ] as const) {
        const next = await list(key);
        expect(next.extra).toBe(queries);
        const schema = await loadDeliverySchema(ctx, await authenticate(env.ctx, key, 'delivery'));
        expect(schema.bySlug.get('post')?.fieldsByName.has('subtitle_x')).toBe(true);
      }
    });

    // Production keys read published versions (`published_data`), preview keys working copies
    // (`data`): each side has its own expression index, and each query uses it (D70).
    it.each([
      ['production', 'published_data', 'entries_pub_num_views'],
      ['preview', 'data', 'entries_data_num_views'],
    ] as const)('filters and sorts on data fields through their expression index (%s key: %s)', async (which, column, index) => {
      const actor = await authenticate(env.ctx, which === 'production' ? w.keys.delivery : w.keys.preview, 'delivery');
      const log = new QueryLog();
      const db: Db = { kysely: env.ctx.db.kysely.withPlugin(log), dialect: env.ctx.db.dialect, close: async () => {}, memo: env.ctx.db.memo };
      await listEntries({ ...env.ctx, db }, actor, { type: 'post', sort: 'views:desc', filters: { 'filter[views][eq]': '7' }, limit: 2 });
      const executor = env.ctx.db.kysely.getExecutor();
      const pageQuery = log.queries
        .flatMap((q) => (q ? [executor.compileQuery(q.node, q.queryId)] : []))
        .find((c) => /from "entries"/.test(c.sql) && /order by/.test(c.sql))!;
      expect(pageQuery.sql).toContain(dialect === 'sqlite' ? `json_extract("entries"."${column}", '$.views')` : `(("entries"."${column}"->>'views')::numeric)`);
      let plan: string;
      if (dialect === 'sqlite') {
        const r = await env.ctx.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${pageQuery.sql}`, [...pageQuery.parameters]));
        plan = r.rows.map((x) => x.detail).join('\n');
      } else {
        plan = await env.ctx.db.kysely.connection().execute(async (conn) => {
          await conn.executeQuery(CompiledQuery.raw('SET enable_seqscan = off'));
          try {
            const r = await conn.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN ${pageQuery.sql}`, [...pageQuery.parameters]));
            return r.rows.map((x) => x['QUERY PLAN']).join('\n');
          } finally {
            await conn.executeQuery(CompiledQuery.raw('RESET enable_seqscan'));
          }
        });
      }
      expect(plan).toContain(index);
    });
  });
});
