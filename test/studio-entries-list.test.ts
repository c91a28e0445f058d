/**
 * The management entries list's `search` and `cursor` (the Studio contract, "Entries list
 * additions"): case-insensitive substring of the display field's default-locale value or of the
 * slug, LIKE wildcards taken literally; keyset pages that walk the same order as offset pages,
 * bound to their query; on every dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapResult } from '../src/modules/auth/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('management entries list: search and cursor on %s', (dialect) => {
  let env: TestEnv;
  let ws: BootstrapResult;
  const get = (url: string) => call(env.app, 'GET', `${M}${url}`, { key: ws.keys.management });

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    ws = await seedWorkspace(env.ctx);
    const key = ws.keys.management;
    await call(env.app, 'POST', `${M}/content-types`, {
      key,
      body: {
        name: 'Post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', localizable: true },
          { name: 'rank', field_type: 'integer', sortable: true },
        ],
      },
    });
    const titles = ['Hello World', 'Say HELLO', 'Goodbye', '100% sure', 'under_score', 'Ünïcode hello', 'Plain'];
    for (let i = 0; i < 23; i++) {
      const title = titles[i % titles.length];
      const res = await call(env.app, 'POST', `${M}/content-types/post/entries`, {
        key,
        body: { slug: `post-${String(i).padStart(2, '0')}`, data: { title, rank: i % 5 }, translations: { de: { data: { title: `Deutsch ${i}` } } } },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => env?.close());

  const slugsOf = (res: { body: { data: { slug: string }[] } }) => res.body.data.map((e) => e.slug);

  it('searches the display field (default locale) and the slug, ignoring case', async () => {
    const hello = await get('/content-types/post/entries?search=hello&limit=100');
    expect(hello.status).toBe(200);
    // "Hello World" (4 entries), "Say HELLO" (4) and "Ünïcode hello" (3) match.
    expect(hello.body.data).toHaveLength(11);
    expect(hello.body.meta.total_data).toBe(11);
    expect(slugsOf(await get('/content-types/post/entries?search=POST-1&limit=100')).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `post-1${i}`));
    // Translations are not searched.
    expect((await get('/content-types/post/entries?search=deutsch')).body.data).toEqual([]);
    // LIKE's wildcards are literal.
    expect((await get('/content-types/post/entries?search=100%25&limit=100')).body.meta.total_data).toBe(3);
    expect((await get('/content-types/post/entries?search=%25&limit=100')).body.meta.total_data).toBe(3);
    expect((await get('/content-types/post/entries?search=o_e&limit=100')).body.meta.total_data).toBe(0);
    expect((await get('/content-types/post/entries?search=r_sc&limit=100')).body.meta.total_data).toBe(3);
    // Blank search lists everything; with a status filter both apply.
    expect((await get('/content-types/post/entries?search=%20&limit=100')).body.meta.total_data).toBe(23);
    expect((await get('/content-types/post/entries?search=hello&status=published')).body.meta.total_data).toBe(0);
    const long = expectError(await get(`/content-types/post/entries?search=${'x'.repeat(201)}`), 400, 'VALIDATION_FAILED');
    expect(long.errors[0].path).toBe('query.search');
  });

  it('walks cursor pages in the same order as offset pages, for several sorts, with and without search', async () => {
    for (const query of ['', '&sort=rank:asc', '&sort=rank:desc', '&sort=slug:asc', '&search=hello', '&search=o&sort=updated_at:asc']) {
      const all = slugsOf(await get(`/content-types/post/entries?limit=100${query}`));
      const first = await get(`/content-types/post/entries?limit=4${query}`);
      const walked = slugsOf(first);
      let cursor: string | null = first.body.meta.next_cursor;
      let pages = 1;
      while (cursor) {
        const res = await get(`/content-types/post/entries?limit=4${query}&cursor=${encodeURIComponent(cursor)}`);
        expect(res.status).toBe(200);
        expect(Object.keys(res.body.meta).sort()).toEqual(['next_cursor', 'page_size']);
        expect(res.body.meta.page_size).toBe(res.body.data.length);
        walked.push(...slugsOf(res));
        cursor = res.body.meta.next_cursor;
        pages += 1;
        expect(pages).toBeLessThan(20);
      }
      expect(walked).toEqual(all);
      expect(new Set(walked).size).toBe(walked.length);
    }
  });

  it('binds a cursor to its type, sort, status and search', async () => {
    const first = await get('/content-types/post/entries?limit=2&search=hello');
    const cursor = encodeURIComponent(first.body.meta.next_cursor);
    expect((await get(`/content-types/post/entries?limit=2&search=hello&cursor=${cursor}`)).status).toBe(200);
    for (const other of ['&search=world', '', '&sort=slug:asc&search=hello', '&status=draft&search=hello']) {
      const e = expectError(await get(`/content-types/post/entries?limit=2${other}&cursor=${cursor}`), 400, 'VALIDATION_FAILED');
      expect(e.errors[0].path).toBe('query.cursor');
    }
    expectError(await get('/content-types/post/entries?cursor=garbage'), 400, 'VALIDATION_FAILED');
  });
});
