/**
 * Management lists of entries and pages sort the same on SQLite and PostgreSQL (one sort parser,
 * one list query in the publishing core): a key that can be missing (`published_at`) sorts
 * missing values first ascending and last descending, ties fall back to the id in the same
 * direction, and a due scheduled item counts as published at its `publish_at` (D21, D43).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const MIN = 60_000;

describe.each(dialects())('management list order on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let now = T0;
  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    key = (await seedWorkspace(env.ctx)).keys.management;
    expect((await req('POST', '/content-types', { name: 'Note', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
  });
  afterAll(async () => env?.close());

  /**
   * Creates, in this order: two drafts, `late` published at T0+2, `early` published at T0+1, and
   * `due` scheduled for T0+3, a time that has passed when the lists are read (T0+10).
   */
  async function seed(create: (slug: string) => Promise<void>, base: string): Promise<void> {
    for (const slug of ['draft-a', 'draft-b', 'late', 'early', 'due']) await create(slug);
    now = T0 + MIN;
    expect((await req('PATCH', `${base}/early/publish`)).status).toBe(200);
    now = T0 + 2 * MIN;
    expect((await req('PATCH', `${base}/late/publish`)).status).toBe(200);
    expect((await req('PATCH', `${base}/due/schedule`, { publish_at: new Date(T0 + 3 * MIN).toISOString() })).status).toBe(200);
    now = T0 + 10 * MIN;
  }

  const slugs = async (url: string): Promise<string[]> => {
    const res = await req('GET', url);
    expect(res.status).toBe(200);
    return res.body.data.map((x: { slug: string }) => x.slug);
  };

  it('entries: published_at ascending puts unpublished first (by id), descending last', async () => {
    now = T0;
    await seed(async (slug) => {
      expect((await req('POST', '/content-types/note/entries', { slug, data: { title: slug } })).status).toBe(201);
    }, '/content-types/note/entries');
    // Ids are time-ordered uuids, so the drafts' tie-break follows their creation order.
    expect(await slugs('/content-types/note/entries?sort=published_at:asc&limit=100')).toEqual(['draft-a', 'draft-b', 'early', 'late', 'due']);
    expect(await slugs('/content-types/note/entries?sort=published_at:desc&limit=100')).toEqual(['due', 'late', 'early', 'draft-b', 'draft-a']);
    expect(await slugs('/content-types/note/entries?sort=published_at:asc&status=published&limit=100')).toEqual(['early', 'late', 'due']);
    // Offset pages cut the same order.
    expect([
      ...(await slugs('/content-types/note/entries?sort=published_at:asc&limit=2&page=1')),
      ...(await slugs('/content-types/note/entries?sort=published_at:asc&limit=2&page=2')),
    ]).toEqual(['draft-a', 'draft-b', 'early', 'late']);
  });

  it('pages: the same rules through the same list query', async () => {
    now = T0;
    await seed(async (slug) => {
      expect((await req('POST', '/pages', { slug })).status).toBe(201);
    }, '/pages');
    expect(await slugs('/pages?sort=published_at:asc&limit=100')).toEqual(['draft-a', 'draft-b', 'early', 'late', 'due']);
    expect(await slugs('/pages?sort=published_at:desc&limit=100')).toEqual(['due', 'late', 'early', 'draft-b', 'draft-a']);
    expect(await slugs('/pages?sort=published_at:desc&status=draft&limit=100')).toEqual(['draft-b', 'draft-a']);
  });
});
