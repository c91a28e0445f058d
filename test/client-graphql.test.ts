/**
 * `client.graphql()` and `client.graphqlSchema()` of the TypeScript client (packages/client/src/
 * graphql.ts; docs/graphql.md "Requests and answers", "Errors") against a live server on a real
 * socket, both databases, on the demo content: typed answers by POST and GET, variables, documents
 * given as text, String objects (TypedDocumentString) or parsed DocumentNodes, automatic persisted
 * queries (hash first, the query once when unknown, the hash alone after), field errors returned
 * beside `data`, and HTTP refusals (401, 400 parse and validation, 405, 429) thrown as QuireError
 * carrying `extensions.code`.
 */
import type net from 'node:net';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, QuireError, type DocumentTypeDecoration, type QuireClient } from '../packages/client/src/index.js';
import { seedDemoContent } from './graphql-fixtures.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

interface PostsQuery {
  postCollection: { totalCount: number; nodes: { title: string | null; author: { name: string | null } | null }[] };
}
interface PostsVariables {
  first: number;
  locale?: string;
}
const POSTS = `query Posts($first: Int!, $locale: String) {
  postCollection(first: $first, locale: $locale, order: [published_on_ASC]) { totalCount nodes { title author { name } } }
}`;

/** What graphql-codegen's client preset generates with `documentMode: 'string'`. */
class TypedDocumentString<TResult, TVariables> extends String implements DocumentTypeDecoration<TResult, TVariables> {
  __apiType?: (variables: TVariables) => TResult;
}

async function thrown(p: Promise<unknown>): Promise<QuireError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof QuireError) return err;
    throw err;
  }
  throw new Error('expected a QuireError');
}

describe.each(dialects())('client.graphql on %s', (dialect) => {
  let env: TestEnv;
  let url: string;
  let seeded: Awaited<ReturnType<typeof seedDemoContent>>;
  let client: QuireClient;
  const sent: { method: string; url: string }[] = [];

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    seeded = await seedDemoContent(env.ctx);
    const recording: typeof fetch = async (input, init) => {
      sent.push({ method: init?.method ?? 'GET', url: String(input) });
      return fetch(input, init);
    };
    client = createClient({ url, apiKey: seeded.keys.delivery, fetch: recording });
  });
  afterAll(async () => env?.close());

  it('POSTs a query with variables and returns typed data with relations resolved', async () => {
    const res = await client.graphql<PostsQuery, PostsVariables>(POSTS, { first: 2, locale: 'de' });
    expect(res.errors).toBeUndefined();
    const nodes = res.data!.postCollection.nodes;
    expect(nodes).toHaveLength(2);
    expect(res.data!.postCollection.totalCount).toBe(5);
    expect(nodes.every((n) => typeof n.title === 'string' && typeof n.author?.name === 'string')).toBe(true);
    const en = await client.graphql<PostsQuery>(POSTS, { first: 2 });
    expect(en.data!.postCollection.nodes.map((n) => n.title)).not.toEqual(nodes.map((n) => n.title));
  });

  it('takes a TypedDocumentString and a parsed DocumentNode; a DocumentNode without its source is refused before sending', async () => {
    const doc = new TypedDocumentString<PostsQuery, PostsVariables>(POSTS);
    const fromString = await client.graphql(doc, { first: 1 });
    const title: string | null = fromString.data!.postCollection.nodes[0].title;
    expect(title).toBeTruthy();
    const fromNode = await client.graphql<PostsQuery, PostsVariables>(parse(POSTS), { first: 1 });
    expect(fromNode.data).toEqual(fromString.data);
    const noSource = parse(POSTS, { noLocation: true });
    sent.length = 0;
    await expect(client.graphql(noSource, { first: 1 })).rejects.toThrow(/print\(document\)/);
    expect(sent).toEqual([]);
  });

  it('sends GET with the query in the URL, and persisted queries by hash (the query once while unknown)', async () => {
    const query = '{ author(slug: "mara-lindqvist") { name sys { slug } } }';
    sent.length = 0;
    const byGet = await client.graphql(query, undefined, { method: 'GET' });
    expect(byGet.data).toEqual({ author: { name: 'Mara Lindqvist', sys: { slug: 'mara-lindqvist' } } });
    expect(sent).toHaveLength(1);
    expect(sent[0].method).toBe('GET');
    expect(new URL(sent[0].url).searchParams.get('query')).toBe(query);

    // Another query: the delivery cache keys GET answers by the query's hash, so the one above is cached.
    const persisted = '{ author(slug: "mara-lindqvist") { sys { slug } name } }';
    sent.length = 0;
    const first = await client.graphql(persisted, undefined, { persisted: true });
    expect(first.data).toEqual({ author: { sys: { slug: 'mara-lindqvist' }, name: 'Mara Lindqvist' } });
    expect(sent.map((s) => s.method)).toEqual(['GET', 'GET']);
    expect(new URL(sent[0].url).searchParams.get('query')).toBeNull();
    expect(JSON.parse(new URL(sent[0].url).searchParams.get('extensions')!)).toMatchObject({ persistedQuery: { version: 1 } });
    expect(new URL(sent[1].url).searchParams.get('query')).toBe(persisted);
    sent.length = 0;
    const again = await client.graphql(persisted, undefined, { persisted: true });
    expect(again.data).toEqual(first.data);
    expect(sent).toHaveLength(1);
    expect(new URL(sent[0].url).searchParams.get('query')).toBeNull();
  });

  it('returns field errors (BAD_USER_INPUT) beside data instead of throwing', async () => {
    const res = await client.graphql('{ author(slug: "mara-lindqvist") { name } post(slug: "a", id: "b") { title } }');
    expect(res.data).toEqual({ author: { name: 'Mara Lindqvist' }, post: null });
    expect(res.errors?.map((e) => [e.path, e.extensions?.code])).toEqual([[['post'], 'BAD_USER_INPUT']]);
  });

  it('throws QuireError with extensions.code on 401, 400 and 405 answers', async () => {
    const noKey = await thrown(createClient({ url, apiKey: 'svc_live_wrong' }).graphql('{ __typename }'));
    expect(noKey).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
    expect(noKey.graphqlErrors?.[0].extensions?.code).toBe('UNAUTHORIZED');
    const parseFailed = await thrown(client.graphql('{ postCollection('));
    expect(parseFailed).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', status: 400 });
    const invalid = await thrown(client.graphql('{ postCollection { nope } }'));
    expect(invalid).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED', status: 400 });
    expect(invalid.message).toMatch(/nope/);
    const mutation = await thrown(client.graphql('mutation { x }', undefined, { method: 'GET' }));
    expect(mutation).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
  });

  it('reads the SDL of the workspace', async () => {
    const sdl = await client.graphqlSchema();
    expect(sdl).toContain('type Post implements Entry {');
    const bad = await thrown(createClient({ url, apiKey: 'svc_live_wrong' }).graphqlSchema());
    expect(bad).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });
});

describe('client.graphql rate limits', () => {
  let env: TestEnv;
  afterAll(async () => env?.close());

  it('throws 429 RATE_LIMITED with Retry-After once its retries are spent', async () => {
    env = await createTestEnv('sqlite', { config: { rateLimitDelivery: 1 } });
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const { keys } = await seedWorkspace(env.ctx);
    const client = createClient({ url: `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`, apiKey: keys.delivery, retries: 0 });
    expect((await client.graphql('{ __typename }')).data).toEqual({ __typename: 'Query' });
    const limited = await thrown(client.graphql('{ __typename }'));
    expect(limited).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(limited.retryAfterMs).toBeGreaterThan(0);
    expect(limited.graphqlErrors?.[0].extensions?.code).toBe('RATE_LIMITED');
  });
});
