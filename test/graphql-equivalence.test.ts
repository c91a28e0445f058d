/**
 * REST and GraphQL give the same answer to the same question (docs/graphql.md "Root fields",
 * "Filters"; D102): over a matrix of keys (production, preview, a whitelisted key), locales,
 * orders and filters, GET /entries and `postCollection` list the same entries in the same order
 * with the same values, and page alike with each other's cursors (cursors are bound like REST's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createEntry, updateEntry } from '../src/modules/entries/operations.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';
import { gql, seedDemoContent } from './graphql-fixtures.js';

/** One order: REST `sort` and the GraphQL `order` value. */
const ORDERS: [string | null, string | null][] = [
  [null, null],
  ['title:asc', 'title_ASC'],
  ['published_on:desc', 'published_on_DESC'],
  ['slug:asc', 'sys_slug_ASC'],
  ['published_at:desc', 'sys_publishedAt_DESC'],
  ['updated_at:asc', 'sys_updatedAt_ASC'],
  ['created_at:asc', 'sys_createdAt_ASC'],
];

/** One filter: REST query parameters and the GraphQL `where`. */
const FILTERS: [Record<string, string>, Record<string, unknown> | null][] = [
  [{}, null],
  [{ 'filter[published_on][gte]': '2026-02-01' }, { published_on: { gte: '2026-02-01' } }],
  [{ 'filter[published_on][in]': '2026-01-12,2026-02-23' }, { published_on: { in: ['2026-01-12', '2026-02-23'] } }],
  [{ 'filter[published_on][exists]': 'false' }, { published_on: { exists: false } }],
  [
    { 'filter[published_on][lt]': '2026-03-01', 'filter[published_on][ne]': '2026-01-26' },
    { AND: [{ published_on: { lt: '2026-03-01' } }, { published_on: { ne: '2026-01-26' } }] },
  ],
];

const QUERY = `query($locale: String, $order: [PostOrder!], $where: PostFilter, $first: Int, $after: String) {
  postCollection(first: $first, after: $after, locale: $locale, order: $order, where: $where) {
    totalCount
    pageInfo { hasNextPage endCursor }
    nodes { title excerpt tags published_on reading_minutes author { name role } body { json }
      sys { id slug status publishedAt updatedAt createdAt isFallback locale } }
  }
}`;

describe.each(dialects())('REST and GraphQL equivalence on %s', (dialect) => {
  let env: TestEnv;
  const keys: Record<string, string> = {};
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const seeded = await seedDemoContent(env.ctx);
    keys.production = seeded.keys.delivery;
    keys.preview = seeded.keys.preview;
    keys.whitelisted = (await createApiKey(env.ctx, seeded.workspace.id, seeded.user.id, { keyClass: 'delivery', name: 'posts', contentTypes: ['post'] })).key;
    const actor = systemActor(seeded.workspace.id, seeded.user.id);
    // A draft without a date (only preview keys see it) and a pending change of a published post.
    await createEntry(env.ctx, actor, 'post', { slug: 'draft-post', data: { title: 'A draft', author: seeded.authorIds.values().next().value } });
    await updateEntry(env.ctx, actor, 'post', { id: seeded.postIds.get('welcome-to-quire')! }, { data: { title: 'Changed, not published' } });
  });
  afterAll(async () => env?.close());

  /** REST's entries as GraphQL would show them. */
  function fromRest(items: any[], locale: string | null) {
    return items.map((e) => {
      const d = JSON.parse(e.data);
      return {
        title: d.title ?? null,
        excerpt: d.excerpt ?? null,
        tags: d.tags ?? [],
        published_on: d.published_on ?? null,
        reading_minutes: d.reading_minutes ?? null,
        author: d.author ? { name: d.author.name ?? null, role: d.author.role ?? null } : null,
        body: d.body === undefined ? null : { json: d.body },
        sys: {
          id: e.id,
          slug: e.slug,
          status: e.status,
          publishedAt: e.published_at,
          updatedAt: e.updated_at,
          createdAt: e.created_at,
          isFallback: e.is_fallback ?? false,
          locale: locale ?? 'en',
        },
      };
    });
  }

  it('lists the same entries in the same order with the same values over keys × locales × orders × filters', async () => {
    let compared = 0;
    for (const [keyName, key] of Object.entries(keys)) {
      for (const locale of [null, 'de']) {
        for (const [sort, order] of ORDERS) {
          for (const [restFilter, where] of FILTERS) {
            const params = new URLSearchParams({ type: 'post', limit: '100', ...restFilter });
            if (locale) params.set('locale', locale);
            if (sort) params.set('sort', sort);
            const rest = await call(env.app, 'GET', `/api/v1/public/entries?${params}`, { key });
            expect(rest.status, JSON.stringify(rest.body)).toBe(200);
            const g = await gql(env.app, key, QUERY, { locale, order: order ? [order] : null, where, first: 100 });
            expect(g.body.errors, `${keyName} ${locale} ${sort} ${JSON.stringify(where)}`).toBeUndefined();
            const conn = g.body.data.postCollection;
            expect(conn.nodes, `${keyName} ${locale} ${sort} ${JSON.stringify(where)}`).toEqual(fromRest(rest.body.data, locale));
            expect(conn.totalCount).toBe(rest.body.meta.total_data);
            compared += 1;
          }
        }
      }
    }
    expect(compared).toBe(3 * 2 * ORDERS.length * FILTERS.length);
    // The preview key sees the draft and the pending change; production keys neither.
    const titles = async (key: string) =>
      (await gql(env.app, key, '{ postCollection(first: 100) { nodes { title } } }')).body.data.postCollection.nodes.map((n: any) => n.title);
    expect(await titles(keys.preview)).toEqual(expect.arrayContaining(['A draft', 'Changed, not published']));
    expect(await titles(keys.production)).not.toEqual(expect.arrayContaining(['A draft']));
    expect(await titles(keys.production)).not.toEqual(expect.arrayContaining(['Changed, not published']));
  });

  it('pages alike, and takes REST cursors as `after` (bound to the same query)', async () => {
    for (const [sort, order] of ORDERS.slice(1, 4)) {
      const restIds: string[] = [];
      let cursor: string | null = null;
      const restCursors: string[] = [];
      do {
        const params: URLSearchParams = new URLSearchParams({ type: 'post', limit: '2', sort: sort!, 'filter[published_on][exists]': 'true' });
        if (cursor) params.set('cursor', cursor);
        const page: any = (await call(env.app, 'GET', `/api/v1/public/entries?${params}`, { key: keys.production })).body;
        restIds.push(...page.data.map((e: any) => e.id));
        cursor = page.meta.next_cursor;
        if (cursor) restCursors.push(cursor);
      } while (cursor);
      const gqlIds: string[] = [];
      let after: string | null = null;
      for (;;) {
        const conn: any = (await gql(env.app, keys.production, QUERY, { order: [order], where: { published_on: { exists: true } }, first: 2, after })).body.data
          .postCollection;
        gqlIds.push(...conn.nodes.map((n: any) => n.sys.id));
        if (!conn.pageInfo.hasNextPage) break;
        after = conn.pageInfo.endCursor;
      }
      expect(gqlIds).toEqual(restIds);
      // A REST cursor resumes the same GraphQL list at the same place.
      const resumed = (
        await gql(env.app, keys.production, QUERY, { order: [order], where: { published_on: { exists: true } }, first: 100, after: restCursors[0] })
      ).body.data.postCollection;
      expect(resumed.nodes.map((n: any) => n.sys.id)).toEqual(restIds.slice(2));
    }
  });

  it('answers a filter REST cannot say (OR, columns) with the same rows as the REST lists it combines', async () => {
    const ids = async (params: Record<string, string>) =>
      (
        await call(env.app, 'GET', `/api/v1/public/entries?${new URLSearchParams({ type: 'post', limit: '100', sort: 'slug:asc', ...params })}`, {
          key: keys.production,
        })
      ).body.data.map((e: any) => e.id);
    const early = await ids({ 'filter[published_on][lt]': '2026-01-20' });
    const late = await ids({ 'filter[published_on][gt]': '2026-03-01' });
    const g = await gql(env.app, keys.production, QUERY, {
      order: ['sys_slug_ASC'],
      where: { OR: [{ published_on: { lt: '2026-01-20' } }, { published_on: { gt: '2026-03-01' } }] },
      first: 100,
    });
    const all = await ids({});
    expect(g.body.data.postCollection.nodes.map((n: any) => n.sys.id)).toEqual(all.filter((id: string) => early.includes(id) || late.includes(id)));
    const slug = (await call(env.app, 'GET', `/api/v1/public/entries?type=post&limit=100&sort=slug:asc`, { key: keys.production })).body.data[1].slug;
    const bySlug = await gql(env.app, keys.production, QUERY, { where: { sys: { slug: { eq: slug } } }, first: 100 });
    expect(bySlug.body.data.postCollection.nodes.map((n: any) => n.sys.slug)).toEqual([slug]);
  });
});
