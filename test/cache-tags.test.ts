/**
 * Cache tags on delivery answers (docs/front-ends.md "Cache tags and CDN purge", D142): REST
 * lists, entries, pages, assets and sync, and GraphQL (GET and POST), carry `Cache-Tag` and
 * `Surrogate-Key` naming each item and list they depend on, related entries and assets included;
 * a cached answer (X-Cache: HIT) carries the same tags; errors carry none; webhook bodies carry
 * the changed item's tags, which name what the answers carry. Concurrent requests each carry their
 * own tags (they travel with the request's context; test/no-async-hooks.test.ts checks that
 * collecting them turns on no async hooks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, insertMediaRow, seedWorkspace, type Res, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';

function tagsOf(res: Res): string[] {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const cacheTag = String(res.headers['cache-tag']);
  expect(String(res.headers['surrogate-key'])).toBe(cacheTag.split(',').join(' '));
  return cacheTag.split(',');
}

describe.each(dialects())('cache tags on %s', (dialect) => {
  let env: TestEnv;
  let ws: string;
  let keys: { management: string; delivery: string; preview: string };
  const ids: Record<string, string> = {};
  let mediaId: string;
  const m = (method: 'POST' | 'PATCH' | 'PUT', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key: keys.management, body });
  const get = (url: string, key = keys.delivery, headers: Record<string, string> = {}) => call(env.app, 'GET', `${P}${url}`, { key, headers });

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { webhookAllowPrivate: true } });
    const s = await seedWorkspace(env.ctx);
    ws = s.workspace.id;
    keys = s.keys;
    mediaId = await insertMediaRow(env.ctx, ws, s.user.id);
    for (const body of [
      { name: 'Author', slug: 'author', fields: [{ name: 'name', field_type: 'text' }] },
      {
        name: 'Post',
        slug: 'post',
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'author', field_type: 'relation', options: ['author'] },
          { name: 'cover', field_type: 'media' },
        ],
      },
      { name: 'Hero', slug: 'hero', is_block: true, fields: [{ name: 'feature', field_type: 'relation', options: ['post'] }] },
    ]) {
      const res = await m('POST', '/content-types', body);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const entry = async (type: string, slug: string, data: Record<string, unknown>) => {
      const res = await m('POST', `/content-types/${type}/entries`, { slug, data });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await m('PATCH', `/content-types/${type}/entries/${slug}/publish`)).status).toBe(200);
      ids[slug] = res.body.data.id;
    };
    await entry('author', 'ada', { name: 'Ada' });
    await entry('post', 'one', { title: 'One', author: ids.ada, cover: mediaId });
    await entry('post', 'two', { title: 'Two' });
    const page = await m('POST', '/pages', { slug: 'home', blocks: [{ type: 'hero', data: { feature: ids.one } }] });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    ids.home = page.body.data.page?.id ?? page.body.data.id;
    expect((await m('PATCH', '/pages/home/publish')).status).toBe(200);
  });
  afterAll(async () => env?.close());

  it('a list names its type list, the model, its items and what they resolved; a hit sends the same tags', async () => {
    const miss = await get('/entries?type=post&sort=slug:asc');
    expect(miss.headers['x-cache']).toBe('MISS');
    const tags = tagsOf(miss);
    expect(tags.sort()).toEqual([`e:${ids.ada}`, `e:${ids.one}`, `e:${ids.two}`, `m:${mediaId}`, `model:${ws}`, `t:${ws}:post`].sort());
    const hit = await get('/entries?type=post&sort=slug:asc');
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(tagsOf(hit).sort()).toEqual(tags.sort());
    // The list of another type names only its own.
    expect(tagsOf(await get('/entries?type=author')).sort()).toEqual([`e:${ids.ada}`, `model:${ws}`, `t:${ws}:author`].sort());
  });

  it('an entry, a page, an asset and the page list name their items; sync depends on any change', async () => {
    expect(tagsOf(await get('/entries/one')).sort()).toEqual([`e:${ids.ada}`, `e:${ids.one}`, `m:${mediaId}`, `model:${ws}`].sort());
    const page = tagsOf(await get('/pages/home'));
    expect(page).toContain(`p:${ids.home}`);
    // The block's relation, resolved.
    expect(page).toContain(`e:${ids.one}`);
    expect(tagsOf(await get('/pages'))).toEqual(expect.arrayContaining([`pages:${ws}`, `p:${ids.home}`]));
    expect(tagsOf(await get(`/media/${mediaId}`))).toEqual([`m:${mediaId}`]);
    expect(tagsOf(await get('/sync?initial=true'))).toContain(`any:${ws}`);
    // Errors carry no tags.
    const missing = await get('/entries/nope');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-tag']).toBeUndefined();
  });

  it('GraphQL answers carry the tags of what the query read, on GET (cached too) and POST', async () => {
    const query = '{ postCollection(order: [sys_slug_ASC]) { nodes { title author { name } } } }';
    const url = `/graphql?query=${encodeURIComponent(query)}`;
    const first = await get(url, keys.delivery, { accept: 'application/json' });
    const tags = tagsOf(first);
    expect(tags).toEqual(expect.arrayContaining([`t:${ws}:post`, `e:${ids.one}`, `e:${ids.two}`, `e:${ids.ada}`, `model:${ws}`]));
    const again = await get(url, keys.delivery, { accept: 'application/json' });
    expect(again.headers['x-cache']).toBe('HIT');
    expect(tagsOf(again).sort()).toEqual([...tags].sort());
    const post = await call(env.app, 'POST', `${P}/graphql`, { key: keys.delivery, body: { query: '{ author(slug: "ada") { name } }' } });
    expect(tagsOf(post).sort()).toEqual([`e:${ids.ada}`, `model:${ws}`].sort());
  });

  it('concurrent requests with different answers each carry their own tags, misses and hits alike', async () => {
    const gql = (query: string) => call(env.app, 'POST', `${P}/graphql`, { key: keys.delivery, body: { query } });
    for (const round of [1, 2, 3]) {
      // A `limit` per round makes each REST list a miss on its first round; later rounds of the
      // others are hits. GraphQL POSTs are never cached.
      const answers = await Promise.all([
        get(`/entries?type=author&limit=${round}`),
        get(`/entries?type=post&sort=slug:asc&limit=${10 + round}`),
        get('/entries/two'),
        get('/pages/home'),
        get(`/media/${mediaId}`),
        gql('{ author(slug: "ada") { name } }'),
        gql('{ post(slug: "two") { title } }'),
        get('/sync?initial=true'),
      ]);
      const [authors, posts, two, home, media, ada, postTwo, synced] = answers.map((a) => tagsOf(a).sort());
      expect(authors).toEqual([`e:${ids.ada}`, `model:${ws}`, `t:${ws}:author`].sort());
      expect(posts).toEqual([`e:${ids.ada}`, `e:${ids.one}`, `e:${ids.two}`, `m:${mediaId}`, `model:${ws}`, `t:${ws}:post`].sort());
      expect(two).toEqual([`e:${ids.two}`, `model:${ws}`].sort());
      expect(home).toContain(`p:${ids.home}`);
      expect(home).not.toContain(`e:${ids.two}`);
      expect(home).not.toContain(`t:${ws}:author`);
      expect(media).toEqual([`m:${mediaId}`]);
      expect(ada).toEqual([`e:${ids.ada}`, `model:${ws}`].sort());
      expect(postTwo).toEqual([`e:${ids.two}`, `model:${ws}`].sort());
      expect(synced).toContain(`any:${ws}`);
      expect(synced).not.toContain(`p:${ids.home}`);
    }
  });

  it('webhook bodies carry the changed item tags, which the answers that showed it carry', async () => {
    const hook = await m('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['entry.*'] });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    expect((await m('PUT', '/content-types/author/entries/ada', { data: { name: 'Ada L.' } })).status).toBe(200);
    expect((await m('PATCH', '/content-types/author/entries/ada/publish')).status).toBe(200);
    const rows = await env.ctx.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['payload', 'event_type'])
      .where('webhook_id', '=', hook.body.data.id)
      .execute();
    const published = rows.find((r) => r.event_type === 'entry.published');
    const body = JSON.parse(published!.payload);
    expect(body.tags).toEqual([`e:${ids.ada}`, `t:${ws}:author`, `any:${ws}`]);
    // The post list resolved Ada: a purge by the event's tags reaches it.
    const list = tagsOf(await get('/entries?type=post&sort=slug:asc'));
    expect(list.some((t) => body.tags.includes(t))).toBe(true);
  });
});
