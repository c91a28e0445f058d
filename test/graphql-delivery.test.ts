/**
 * GraphQL delivery (docs/graphql.md "Requests and answers", "Types", "Root fields", "Errors";
 * D100–D102) on the demo content: the schema's names and types, answers and their media types,
 * every error code with its status, visibility per key (production, preview, whitelist), locale
 * and fallback, Relay pagination both ways, pages with their block trees, and the SDL endpoint.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { updateEntry } from '../src/modules/entries/operations.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';
import { GRAPHQL, gql, seedDemoContent } from './graphql-fixtures.js';

describe.each(dialects())('GraphQL delivery on %s', (dialect) => {
  let env: TestEnv;
  let seeded: Awaited<ReturnType<typeof seedDemoContent>>;
  let live: string;
  let preview: string;
  let postsOnly: string;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    seeded = await seedDemoContent(env.ctx);
    live = seeded.keys.delivery;
    preview = seeded.keys.preview;
    postsOnly = (await createApiKey(env.ctx, seeded.workspace.id, seeded.user.id, { keyClass: 'delivery', name: 'posts only', contentTypes: ['post'] })).key;
    // A draft change of one post: preview keys see it, production keys the published version.
    const actor = systemActor(seeded.workspace.id, seeded.user.id);
    await updateEntry(env.ctx, actor, 'post', { id: seeded.postIds.get('welcome-to-quire')! }, { data: { title: 'Draft title' } });
  });
  afterAll(async () => env?.close());

  it('serves the SDL of the workspace: names and types of D101 for the demo model', async () => {
    const res = await env.app.inject({ method: 'GET', url: `${GRAPHQL}/schema.graphql`, headers: { 'x-api-key': live } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const sdl = res.body;
    for (const line of [
      'type Post implements Entry {',
      '  author: Author',
      '  body: RichText',
      '  published_on: Date',
      '  reading_minutes: Int',
      '  tags: [String!]!',
      '  sys: Sys!',
      'type HeroBlock implements Block {',
      '  featured_post: Post',
      '  children: [Block!]!',
      'interface Entry {',
      'scalar DateTime',
      'scalar JSON',
      '  url(transform: AssetTransform): String!',
      '  blocks: [Block!]!',
      '  keywords: [String!]!',
      '  post(id: ID, locale: String, slug: String): Post',
      '  postCollection(after: String, before: String, first: Int = 10, last: Int, locale: String, order: [PostOrder!], where: PostFilter): PostConnection!',
      '  page(locale: String, slug: String!): Page',
      '  pageCollection(after: String, first: Int = 10, locale: String): PageConnection!',
      '  assetCollection(after: String, first: Int = 10, where: AssetFilter): AssetConnection!',
      '  published_on: DateFilter',
      '  published_on_DESC',
      '  sys_publishedAt_ASC',
      '  publishedVersion: Int',
    ])
      expect(sdl).toContain(line);
    // Only filterable fields are in the filter input; only sortable ones in the order enum.
    expect(sdl).not.toMatch(/input PostFilter \{[^}]*title:/);
    expect(sdl).not.toContain('reading_minutes_ASC');
    expect((await call(env.app, 'GET', `${GRAPHQL}/schema.graphql`)).status).toBe(401);
  });

  it('answers application/graphql-response+json when accepted, else application/json; GET and POST alike', async () => {
    const q = '{ postCollection(first: 1) { nodes { sys { slug } } } }';
    const post = await gql(env.app, live, q, undefined, { headers: { accept: 'application/graphql-response+json' } });
    expect(post.status).toBe(200);
    expect(post.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    const get = await gql(env.app, live, q, undefined, { get: true });
    expect(get.headers['content-type']).toMatch(/^application\/json/);
    expect(get.body).toEqual(post.body);
    expect(Object.keys(post.body)).toEqual(['data']);
  });

  it('gives every error its code and status (D100, D103)', async () => {
    const code = (res: { body: any }) => res.body.errors?.[0]?.extensions?.code;
    const cases: [Promise<any>, number, string][] = [
      [gql(env.app, undefined, '{ __typename }'), 401, 'UNAUTHORIZED'],
      [gql(env.app, 'svc_live_nope', '{ __typename }'), 401, 'UNAUTHORIZED'],
      [gql(env.app, live, '{ post( { title } }'), 400, 'GRAPHQL_PARSE_FAILED'],
      [gql(env.app, live, '{ nope }'), 400, 'GRAPHQL_VALIDATION_FAILED'],
      [gql(env.app, live, '{ nope }', undefined, { headers: { accept: 'application/graphql-response+json' } }), 400, 'GRAPHQL_VALIDATION_FAILED'],
      [gql(env.app, live, 'mutation { nope }', undefined, { get: true }), 405, 'METHOD_NOT_ALLOWED'],
      [gql(env.app, live, 'mutation { nope }'), 400, 'GRAPHQL_VALIDATION_FAILED'],
      [call(env.app, 'GET', GRAPHQL, { key: live }), 400, 'BAD_REQUEST'],
      [call(env.app, 'POST', GRAPHQL, { key: live }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [call(env.app, 'POST', GRAPHQL, { key: live, raw: 'query={__typename}', headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [gql(env.app, live, 'query($n: Int) { postCollection(first: $n) { totalCount } }', { n: 'ten' }), 400, 'BAD_REQUEST'],
      [gql(env.app, live, '{ postCollection(locale: "fr") { totalCount } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ postCollection(first: 101) { totalCount } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ postCollection(last: -1) { totalCount } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ postCollection(after: "bogus") { totalCount } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ postCollection(where: {published_on: {gt: "soon"}}) { totalCount } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ postCollection(where: {sys: {publishedAt: {gt: "x"}}}) { totalCount } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ postCollection(order: [title_ASC, title_DESC]) { totalCount } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ post(slug: "a", id: "b") { title } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ post { title } }'), 200, 'BAD_USER_INPUT'],
      [gql(env.app, live, '{ asset(id: "x") { url(transform: {width: 9000}) } }'), 200, undefined as unknown as string],
      [gql(env.app, postsOnly, '{ author(slug: "mara-lindqvist") { name } }'), 200, 'FORBIDDEN'],
    ];
    for (const [pending, status, expected] of cases) {
      const res = await pending;
      expect({ status: res.status, code: code(res) }).toEqual({ status, code: expected });
      if (status === 200 && expected) expect(res.body.data === null || Object.values(res.body.data).every((v) => v === null)).toBe(true);
      expect(JSON.stringify(res.body)).not.toMatch(/select |stack|\.ts:/i);
    }
    // The 401 carries no data; a collection's BAD_USER_INPUT nulls the whole answer (its field is non-null).
    expect((await gql(env.app, live, '{ postCollection(first: 101) { totalCount } }')).body.data).toBeNull();
  });

  it('reads published versions with a production key and working copies with a preview key', async () => {
    const q = '{ post(slug: "welcome-to-quire") { title sys { status publishedVersion } } }';
    expect((await gql(env.app, live, q)).body.data.post.title).not.toBe('Draft title');
    const p = (await gql(env.app, preview, q)).body.data.post;
    expect(p.title).toBe('Draft title');
    expect(p.sys.status).toBe('published');
  });

  it('resolves a type outside the whitelist to null with FORBIDDEN, and relations to it to null', async () => {
    const res = await gql(env.app, postsOnly, '{ post(slug: "welcome-to-quire") { title author { name } } authorCollection { totalCount } }');
    expect(res.body.data).toBeNull(); // authorCollection is non-null: its error nulls the answer
    const one = await gql(env.app, postsOnly, '{ post(slug: "welcome-to-quire") { title author { name } } }');
    expect(one.body.data.post.author).toBeNull();
    expect(one.body.errors).toBeUndefined();
  });

  it('applies a root locale to everything below it, with fallback and isFallback as REST', async () => {
    const res = await gql(
      env.app,
      live,
      '{ postCollection(first: 1, locale: "de", order: [sys_slug_ASC]) { nodes { title sys { locale isFallback } author { role sys { locale } } } } }',
    );
    const node = res.body.data.postCollection.nodes[0];
    expect(node.sys).toEqual({ locale: 'de', isFallback: false });
    expect(node.author.sys.locale).toBe('de');
    const rest = await call(env.app, 'GET', '/api/v1/public/entries/mara-lindqvist?type=author&locale=de', { key: live });
    const maraRole = JSON.parse(rest.body.data.entry.data).role;
    const mara = await gql(env.app, live, '{ author(slug: "mara-lindqvist", locale: "de") { role sys { isFallback } } }');
    expect(mara.body.data.author.role).toBe(maraRole);
  });

  it('pages through a collection with first/after and last/before, and binds cursors to their query', async () => {
    const all = (await gql(env.app, live, '{ postCollection(first: 100, order: [sys_slug_ASC]) { nodes { sys { slug } } totalCount } }')).body.data
      .postCollection;
    const slugs = all.nodes.map((n: any) => n.sys.slug);
    expect(all.totalCount).toBe(slugs.length);
    const forward: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = (
        await gql(
          env.app,
          live,
          'query($after: String) { postCollection(first: 2, after: $after, order: [sys_slug_ASC]) { edges { cursor node { sys { slug } } } pageInfo { hasNextPage endCursor } } }',
          { after },
        )
      ).body.data.postCollection;
      forward.push(...page.edges.map((e: any) => e.node.sys.slug));
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    expect(forward).toEqual(slugs);
    const backward: string[] = [];
    let before: string | null = null;
    for (;;) {
      const page: any = (
        await gql(
          env.app,
          live,
          'query($before: String) { postCollection(last: 2, before: $before, order: [sys_slug_ASC]) { nodes { sys { slug } } pageInfo { hasPreviousPage startCursor } } }',
          { before },
        )
      ).body.data.postCollection;
      backward.unshift(...page.nodes.map((n: any) => n.sys.slug));
      if (!page.pageInfo.hasPreviousPage) break;
      before = page.pageInfo.startCursor;
    }
    expect(backward).toEqual(slugs);
    const first = (await gql(env.app, live, '{ postCollection(first: 1, order: [sys_slug_ASC]) { pageInfo { endCursor } } }')).body.data.postCollection.pageInfo
      .endCursor;
    const other = await gql(env.app, live, 'query($c: String) { postCollection(after: $c, order: [sys_slug_DESC]) { totalCount } }', { c: first });
    expect(other.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('delivers pages with SEO and their block trees, relations inside blocks resolved', async () => {
    const res = await gql(
      env.app,
      live,
      '{ pageCollection { totalCount nodes { slug seo { title keywords } blocks { __typename type position ... on HeroBlock { headline featured_post { sys { slug } title } } children { __typename position } } } } page(slug: "home") { slug isFallback blocks { type } } }',
    );
    expect(res.body.errors).toBeUndefined();
    const { pageCollection, page } = res.body.data;
    const rest = await call(env.app, 'GET', '/api/v1/public/pages', { key: live });
    expect(pageCollection.nodes.map((p: any) => p.slug)).toEqual(rest.body.data.map((p: any) => p.slug));
    expect(pageCollection.totalCount).toBe(rest.body.meta.total_data);
    const home = await call(env.app, 'GET', '/api/v1/public/pages/home', { key: live });
    const roots = home.body.data.blocks;
    expect(page.blocks.map((b: any) => b.type)).toEqual(roots.map((b: any) => b.type));
    const hero = pageCollection.nodes[0].blocks.find((b: any) => b.__typename === 'HeroBlock');
    const restHero = roots.find((b: any) => b.type === 'hero');
    expect(hero.featured_post?.sys.slug ?? null).toBe(JSON.parse(restHero.data).featured_post?.slug ?? null);
    const grid = pageCollection.nodes[0].blocks.find((b: any) => b.type === 'feature-grid');
    const restGrid = roots.find((b: any) => b.type === 'feature-grid');
    expect(grid.children.map((c: any) => c.position)).toEqual(restGrid.children.map((c: any) => c.position));
  });

  it('resolves assets with transforms, and lists them', async () => {
    const { insertMediaRow } = await import('./helpers.js');
    const id = await insertMediaRow(env.ctx, seeded.workspace.id, seeded.user.id);
    const res = await gql(
      env.app,
      live,
      `{ asset(id: "${id}") { id mimeType width url plain: url(transform: {width: 320, format: webp}) altText focalX } assetCollection(where: {mimeType: "image/*"}) { totalCount nodes { id } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.asset).toMatchObject({
      id,
      mimeType: 'image/png',
      width: 640,
      url: `http://quire.test/media/files/${id}.png`,
      altText: 'An image',
      focalX: 0.5,
    });
    expect(res.body.data.asset.plain).toBe(`http://quire.test/media/files/${id}.png?w=320&fm=webp`);
    expect(res.body.data.assetCollection.nodes.map((n: any) => n.id)).toContain(id);
    const bad = await gql(env.app, live, `{ asset(id: "${id}") { url(transform: {width: 9000}) } }`);
    expect(bad.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });
});

describe.each(dialects())('GraphQL rate limits on %s', (dialect) => {
  let env: TestEnv;
  afterAll(async () => env?.close());

  it('counts GraphQL requests against the key’s delivery limit and answers 429 RATE_LIMITED as REST', async () => {
    env = await createTestEnv(dialect, { config: { rateLimitDelivery: 2 } });
    const { seedWorkspace } = await import('./helpers.js');
    const { keys } = await seedWorkspace(env.ctx);
    expect((await gql(env.app, keys.delivery, '{ __typename }')).status).toBe(200);
    expect((await call(env.app, 'GET', '/api/v1/public/pages', { key: keys.delivery })).status).toBe(200);
    const refused = await gql(env.app, keys.delivery, '{ __typename }');
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].extensions.code).toBe('RATE_LIMITED');
    expect(refused.headers['retry-after']).toBeDefined();
  });
});
