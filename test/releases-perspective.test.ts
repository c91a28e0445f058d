/**
 * The release perspective (docs/releases.md "Reading the workspace as a release will make it";
 * D111), on SQLite and PostgreSQL: a preview key reading `?release={id}` sees, on REST entries
 * (lists with filters, sorts and locales, one entry with its relations), pages (list, block trees,
 * translations and fallback) and GraphQL, exactly what production keys read once the release is
 * published: the answers are compared byte for byte after publishing it at the same instant.
 * Also: unpublish items absent, items outside the release at their published version, the
 * refusals (production key 403, unknown release 404, bad id 400, published release 409), the
 * delivery cache keeping each perspective apart and forgetting a release's answers when its
 * release version changes, and sync tokens bound to the perspective they were issued for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type Res, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const T0 = Date.parse('2026-11-21T10:00:00.000Z');

describe.each(dialects())('release perspective on %s', (dialect) => {
  let env: TestEnv;
  let now = T0;
  let keys: { management: string; delivery: string; preview: string };

  const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    call(env.app, method, `${M}${url}`, { key: keys.management, body });
  const ok = async (res: Promise<Res>, status = 200): Promise<Res> => {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    return r;
  };
  const entry = async (type: string, slug: string, data: Record<string, unknown>, opts: { publish?: boolean; translations?: Record<string, unknown> } = {}) => {
    const res = await ok(req('POST', `/content-types/${type}/entries`, { slug, data, ...(opts.translations ? { translations: opts.translations } : {}) }), 201);
    if (opts.publish !== false) await ok(req('PATCH', `/content-types/${type}/entries/${slug}/publish`));
    return res.body.data.id as string;
  };
  const pub = (url: string, key = keys.delivery) => call(env.app, 'GET', `${P}${url}`, { key });
  /** What a reader compares: the data, and the meta without cursors (which are bound to their perspective). */
  const answer = (res: Res) => {
    if (res.status !== 200) throw new Error(`expected 200, got ${res.status} ${JSON.stringify(res.body)}`);
    const meta = res.body.meta === null || res.body.meta === undefined ? null : { ...res.body.meta, next_cursor: undefined, prev_cursor: undefined };
    return JSON.stringify({ data: res.body.data, meta });
  };

  let rel: string;
  let ids: Record<string, string>;

  const READS = [
    '/entries?type=post',
    '/entries?type=post&locale=de',
    '/entries?type=post&sort=rank:desc&filter[rank][gte]=2',
    '/entries?type=post&sort=title:asc&locale=de&limit=2',
    '/entries?type=post&page=2&limit=2',
    '/entries/p-change?type=post&locale=de',
    '/entries/p-new?type=post',
    '/entries/p-keep?type=post&locale=de',
    '/entries?type=author',
    '/pages',
    '/pages?locale=de',
    '/pages/home',
    '/pages/home?locale=de',
    '/pages/autumn?locale=de',
  ];
  const GRAPHQL = `{ postCollection(order: [rank_ASC], locale: "de") { totalCount nodes { sys { slug status publishedAt } title rank author { name } } }
    page(slug: "home", locale: "de") { slug seo { title } blocks { type ... on HeroBlock { headline author { name } } } } }`;
  const graphql = (key: string, release?: string) => pub(`/graphql?query=${encodeURIComponent(GRAPHQL)}${release ? `&release=${release}` : ''}`, key);

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    const s = await seedWorkspace(env.ctx);
    keys = s.keys;
    for (const body of [
      { name: 'Author', display_field: 'name', fields: [{ name: 'name', field_type: 'text' }] },
      {
        name: 'Post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', required: true, localizable: true, sortable: true },
          { name: 'rank', field_type: 'integer', sortable: true, filterable: true },
          { name: 'author', field_type: 'relation', options: JSON.stringify(['author']) },
        ],
      },
      {
        name: 'Hero',
        slug: 'hero',
        is_block: true,
        fields: [
          { name: 'headline', field_type: 'text', required: true, localizable: true },
          { name: 'author', field_type: 'relation', options: JSON.stringify(['author']) },
        ],
      },
    ]) {
      await ok(req('POST', '/content-types', body), 201);
    }
    ids = {};
    ids.ann = await entry('author', 'ann', { name: 'Ann' });
    ids.bob = await entry('author', 'bob', { name: 'Bob' }, { publish: false });
    ids.keep = await entry('post', 'p-keep', { title: 'Keep', rank: 1, author: null }, { translations: { de: { data: { title: 'Bleibt' } } } });
    // A pending working-copy edit: the release perspective, like production, shows the published version.
    await ok(req('PUT', '/content-types/post/entries/p-keep', { data: { title: 'Keep (draft edit)', rank: 9 } }));
    ids.change = await entry('post', 'p-change', { title: 'Change', rank: 2, author: null }, { translations: { de: { data: { title: 'Ändern' } } } });
    ids.new = await entry('post', 'p-new', { title: 'New', rank: 3 }, { publish: false });
    ids.gone = await entry('post', 'p-gone', { title: 'Gone', rank: 4 });
    ids.draft = await entry('post', 'p-draft', { title: 'Draft', rank: 5 }, { publish: false });
    const home = await ok(
      req('POST', '/pages', {
        slug: 'home',
        seo: { title: 'Home' },
        blocks: [{ type: 'hero', data: { headline: 'Welcome', author: ids.ann }, translations: { de: { data: { headline: 'Willkommen' } } } }],
      }),
      201,
    );
    await ok(req('PATCH', '/pages/home/publish'));
    const autumn = await ok(req('POST', '/pages', { slug: 'autumn', seo: { title: 'Autumn' }, blocks: [{ type: 'hero', data: { headline: 'Autumn' } }] }), 201);
    ids.home = home.body.data.page?.id ?? home.body.data.id;
    ids.autumn = autumn.body.data.page?.id ?? autumn.body.data.id;

    rel = (await ok(req('POST', '/releases', { title: 'Autumn campaign' }), 201)).body.data.id;
    for (const [kind, id, action] of [
      ['entry', ids.bob, 'publish'],
      ['entry', ids.change, 'publish'],
      ['entry', ids.new, 'publish'],
      ['entry', ids.gone, 'unpublish'],
      ['page', ids.home, 'publish'],
      ['page', ids.autumn, 'publish'],
    ] as const) {
      await ok(req('POST', `/releases/${rel}/items`, { kind, id, action }));
    }
    await ok(
      req('PUT', `/content-types/post/entries/p-change?release=${rel}`, {
        data: { title: 'Changed by the release', rank: 6, author: ids.bob },
        translations: { de: { data: { title: 'Von der Freigabe geändert' } } },
      }),
    );
    await ok(
      req('PUT', `/pages/home?release=${rel}`, {
        seo: { title: 'Home for autumn' },
        blocks: [
          { type: 'hero', data: { headline: 'Autumn is here', author: ids.bob }, translations: { de: { data: { headline: 'Der Herbst ist da' } } } },
          { type: 'hero', data: { headline: 'Second' } },
        ],
      }),
    );
    now += 60_000;
  });
  afterAll(async () => env?.close());

  it('refuses production keys (403), a bad id (400) and an unknown release (404)', async () => {
    expectError(await pub(`/entries?type=post&release=${rel}`, keys.delivery), 403, 'FORBIDDEN');
    expectError(await pub(`/pages/home?release=${rel}`, keys.delivery), 403, 'FORBIDDEN');
    expectError(await pub(`/entries?type=post&release=nope`, keys.preview), 400, 'VALIDATION_FAILED');
    expectError(await pub(`/entries?type=post&release=00000000-0000-4000-8000-000000000000`, keys.preview), 404, 'NOT_FOUND');
    const gql = await graphql(keys.delivery, rel);
    expect(gql.status).toBe(403);
    expect(gql.body.errors[0].extensions.code).toBe('FORBIDDEN');
  });

  it('shows release versions, leaves unpublish items out and every other item at its published version', async () => {
    const list = await pub(`/entries?type=post&release=${rel}`, keys.preview);
    const bySlug = new Map<string, Record<string, unknown>>(list.body.data.map((e: { slug: string; data: string }) => [e.slug, JSON.parse(e.data)]));
    expect([...bySlug.keys()].sort()).toEqual(['p-change', 'p-keep', 'p-new']);
    expect(bySlug.get('p-change')).toMatchObject({ title: 'Changed by the release', rank: 6 });
    expect(bySlug.get('p-keep')).toMatchObject({ title: 'Keep', rank: 1 });
    const one = await pub(`/entries/p-change?type=post&locale=de&release=${rel}`, keys.preview);
    expect(JSON.parse(one.body.data.entry.data)).toMatchObject({ title: 'Von der Freigabe geändert', author: { slug: 'bob' } });
    // The key's own perspectives are untouched: production and the preview key's working copies.
    expect((await pub('/entries?type=post', keys.delivery)).body.data.map((e: { slug: string }) => e.slug).sort()).toEqual(['p-change', 'p-gone', 'p-keep']);
    expect(JSON.parse((await pub('/entries/p-keep?type=post', keys.preview)).body.data.entry.data).title).toBe('Keep (draft edit)');
    const page = await pub(`/pages/home?locale=de&release=${rel}`, keys.preview);
    expect(page.body.data.page.seo.title).toBe('Home for autumn');
    expect(page.body.data.blocks.map((b: { data: string }) => JSON.parse(b.data).headline)).toEqual(['Der Herbst ist da', 'Second']);
    expect(page.headers['cache-control']).toBe('private, no-cache');
  });

  it('keeps each perspective apart in the delivery cache and forgets a release answer when its release version changes', async () => {
    const url = `/entries/p-new?type=post&release=${rel}`;
    expect((await pub(url, keys.preview)).headers['x-cache']).toBe('MISS');
    const hit = await pub(url, keys.preview);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(JSON.parse(hit.body.data.entry.data).title).toBe('New');
    // The same URL without the release is another entry (the working copy).
    expect((await pub('/entries/p-new?type=post', keys.preview)).headers['x-cache']).toBe('MISS');
    await ok(req('PUT', `/content-types/post/entries/p-new?release=${rel}`, { data: { title: 'New, edited in the release', rank: 3 } }));
    const after = await pub(url, keys.preview);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(JSON.parse(after.body.data.entry.data).title).toBe('New, edited in the release');
    // Removing an item from the release shows it as published again (a draft: absent).
    const gql1 = await graphql(keys.preview, rel);
    expect(gql1.status).toBe(200);
    expect(gql1.body.errors).toBeUndefined();
    expect((await graphql(keys.preview, rel)).headers['x-cache']).toBe('HIT');
    await ok(req('DELETE', `/releases/${rel}/items/entry/${ids.new}`));
    expect((await graphql(keys.preview, rel)).headers['x-cache']).toBe('MISS');
    expectError(await pub(url, keys.preview), 404, 'NOT_FOUND');
    await ok(req('POST', `/releases/${rel}/items`, { kind: 'entry', id: ids.new, action: 'publish' }));
    await ok(req('PUT', `/content-types/post/entries/p-new?release=${rel}`, { data: { title: 'New', rank: 3 } }));
  });

  it('binds sync tokens to the perspective and the release as it was', async () => {
    const first = await pub(`/sync?initial=true&release=${rel}`, keys.preview);
    expect(first.status).toBe(200);
    const slugs = first.body.data.filter((i: { sys: { type: string } }) => i.sys.type === 'entry').map((i: { sys: { slug: string } }) => i.sys.slug);
    expect(slugs.sort()).toEqual(['ann', 'bob', 'p-change', 'p-keep', 'p-new']);
    const token = first.body.meta.next_sync_token as string;
    expect((await pub(`/sync?sync_token=${token}&release=${rel}`, keys.preview)).status).toBe(200);
    const other = expectError(await pub(`/sync?sync_token=${token}`, keys.preview), 400, 'VALIDATION_FAILED');
    expect(other.errors[0].path).toBe('query.sync_token');
    const plain = (await pub('/sync?initial=true', keys.preview)).body.meta.next_sync_token as string;
    expectError(await pub(`/sync?sync_token=${plain}&release=${rel}`, keys.preview), 400, 'VALIDATION_FAILED');
    await ok(req('PUT', `/content-types/post/entries/p-new?release=${rel}`, { data: { title: 'New', rank: 3 } }));
    const changed = expectError(await pub(`/sync?sync_token=${token}&release=${rel}`, keys.preview), 400, 'VALIDATION_FAILED');
    expect(changed.errors[0].message).toMatch(/release's items or release versions changed/);
  });

  it('answers, byte for byte, what production keys read once the release is published', async () => {
    const before = await Promise.all(READS.map((u) => pub(`${u}${u.includes('?') ? '&' : '?'}release=${rel}`, keys.preview)));
    const gqlBefore = await graphql(keys.preview, rel);
    expect(gqlBefore.body.errors).toBeUndefined();
    await ok(req('POST', `/releases/${rel}/publish`));
    const after = await Promise.all(READS.map((u) => pub(u, keys.delivery)));
    READS.forEach((u, i) => expect(answer(before[i]), u).toBe(answer(after[i])));
    expect(JSON.stringify(gqlBefore.body.data)).toBe(JSON.stringify((await graphql(keys.delivery)).body.data));
    // A published release is no perspective any more: production keys read what it made.
    expectError(await pub(`/entries?type=post&release=${rel}`, keys.preview), 409, 'INVALID_STATE_TRANSITION');
  });
});
