/**
 * The client's `stega` read option (packages/client: delivery reads and `client.graphql()`;
 * docs/visual-editing.md, D140) against a live server on a real socket, both databases, on the demo
 * content: entries and pages read with `stega: true` by a preview key carry their origin
 * (`readEditTarget` of `@quire/client/visual-editing` decodes it to the field) and clean to the
 * plain answer; GraphQL sends the switches in `extensions` by POST, GET and persisted hash, and
 * `sourceMaps` brings back `extensions.sourceMap`; a production key asking for stega is refused
 * with 400 before anything is read.
 */
import type net from 'node:net';
import { vercelStegaClean } from '@vercel/stega';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, QuireError, type QuireClient } from '../packages/client/src/index.js';
import { readEditTarget } from '../packages/client/src/visual-editing.js';
import { seedDemoContent } from './graphql-fixtures.js';
import { createTestEnv, dialects, type TestEnv } from './helpers.js';

const POSTS = `query Posts($first: Int!, $locale: String) {
  postCollection(first: $first, locale: $locale, order: [published_on_ASC]) { nodes { sys { slug } title } }
}`;
interface PostsQuery {
  postCollection: { nodes: { sys: { slug: string }; title: string }[] };
}

describe.each(dialects())('client stega option on %s', (dialect) => {
  let env: TestEnv;
  let preview: QuireClient;
  let production: QuireClient;
  const sent: { method: string; url: string; body: string | null }[] = [];

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    const seeded = await seedDemoContent(env.ctx);
    const recording: typeof fetch = async (input, init) => {
      sent.push({ method: init?.method ?? 'GET', url: String(input), body: typeof init?.body === 'string' ? init.body : null });
      return fetch(input, init);
    };
    preview = createClient({ url, apiKey: seeded.keys.preview, fetch: recording });
    production = createClient({ url, apiKey: seeded.keys.delivery });
  });
  afterAll(async () => env?.close());

  it('entries.list and entries.get carry each text field’s origin; cleaned they are the plain answer, slugs untouched', async () => {
    const plain = await preview.entries.list('post', { locale: 'de', limit: 3 });
    const traced = await preview.entries.list('post', { locale: 'de', limit: 3, stega: true });
    expect(new URL(sent[sent.length - 1].url).searchParams.get('stega')).toBe('true');
    expect(traced.items.map((e) => e.slug)).toEqual(plain.items.map((e) => e.slug));
    const first = traced.items[0];
    expect(readEditTarget(first.data.title as string)).toMatchObject({ origin: 'quire', kind: 'entry', id: first.id, field: 'title', locale: 'de' });
    expect(readEditTarget(plain.items[0].data.title as string)).toBeNull();
    expect(vercelStegaClean(traced.items.map((e) => e.data))).toEqual(plain.items.map((e) => e.data));

    const one = await preview.entries.get(first.slug, { type: 'post', locale: 'de', stega: true });
    expect(new URL(sent[sent.length - 1].url).searchParams.get('stega')).toBe('true');
    expect(readEditTarget(one.data.title as string)?.href).toContain(`/content/post/${first.slug}?field=title&locale=de`);
    // Without the option nothing is asked for.
    await preview.entries.get(first.slug, { type: 'post' });
    expect(new URL(sent[sent.length - 1].url).searchParams.has('stega')).toBe(false);
  });

  it('pages.get and pages.list carry the origin of block fields and SEO titles', async () => {
    const tree = await preview.pages.get('home', { locale: 'de', stega: true });
    const hero = tree.blocks.find((b) => b.type === 'hero');
    if (!hero || hero.type !== 'hero') throw new Error('the demo home page has a hero');
    expect(readEditTarget(hero.data.headline as string)).toMatchObject({ kind: 'block', id: hero.id, field: 'headline', locale: 'de', path: 'blocks.0' });
    expect(vercelStegaClean(hero.data.headline)).toBe('Inhalte für jeden Kanal');
    const pages = await preview.pages.list({ locale: 'de', stega: true });
    const home = pages.items.find((p) => p.slug === 'home');
    expect(readEditTarget(home?.seo.title)).toMatchObject({ kind: 'page', field: 'seo.title', locale: 'de' });
  });

  it('client.graphql sends stega and sourceMaps in extensions by POST, GET and persisted hash', async () => {
    const post = await preview.graphql<PostsQuery>(POSTS, { first: 2, locale: 'de' }, { stega: true, sourceMaps: true });
    expect(JSON.parse(sent[sent.length - 1].body ?? '{}').extensions).toEqual({ stega: true, sourceMaps: true });
    expect(post.errors).toBeUndefined();
    const node = post.data!.postCollection.nodes[0];
    expect(readEditTarget(node.title)).toMatchObject({ kind: 'entry', field: 'title', locale: 'de' });
    expect(post.extensions?.sourceMap).toMatchObject({ mappings: { '$.postCollection.nodes[0].title': { kind: 'entry', field: 'title' } } });

    const get = await preview.graphql<PostsQuery>(POSTS, { first: 2, locale: 'de' }, { method: 'GET', stega: true });
    expect(JSON.parse(new URL(sent[sent.length - 1].url).searchParams.get('extensions') ?? '{}')).toEqual({ stega: true });
    expect(get.data).toEqual(post.data);
    expect(get.extensions?.sourceMap).toBeUndefined();

    const persisted = await preview.graphql<PostsQuery>(POSTS, { first: 2, locale: 'de' }, { persisted: true, stega: true });
    expect(JSON.parse(new URL(sent[sent.length - 1].url).searchParams.get('extensions') ?? '{}')).toMatchObject({
      stega: true,
      persistedQuery: { version: 1 },
    });
    expect(persisted.data).toEqual(post.data);
    const plain = await preview.graphql<PostsQuery>(POSTS, { first: 2, locale: 'de' }, { method: 'GET' });
    expect(new URL(sent[sent.length - 1].url).searchParams.has('extensions')).toBe(false);
    expect(readEditTarget(plain.data!.postCollection.nodes[0].title)).toBeNull();
  });

  it('a production key asking for stega is refused with 400, REST and GraphQL', async () => {
    const rest = await production.entries.list('post', { stega: true }).catch((err: unknown) => err);
    expect(rest).toBeInstanceOf(QuireError);
    expect(rest).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    const page = await production.pages.get('home', { stega: true }).catch((err: unknown) => err);
    expect(page).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    const gql = await production.graphql(POSTS, { first: 1 }, { stega: true }).catch((err: unknown) => err);
    expect(gql).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });
});
