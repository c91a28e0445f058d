/**
 * GraphQL GET answers through the delivery cache and HTTP caching like REST delivery
 * (docs/graphql.md "Caching", "Persisted queries" (D103)): ETag and 304 on the MISS and HIT
 * paths, Cache-Control by key type, Vary, br/gzip, freshness after a publish, one entry for a query
 * sent as text or as its persisted hash, answers with errors never kept, POST never cached; and
 * automatic persisted queries (register, then GET by hash; unknown hash; mismatch; shared by two
 * instances through Redis).
 */
import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { createContext } from '../src/context.js';
import { queryHash } from '../src/modules/graphql/apq.js';
import { createWorld, M, P, type DeliveryWorld } from './delivery-fixtures.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

const URL = `${P}/graphql`;
const LIST = '{ postCollection(first: 5) { nodes { sys { slug } title body author { name } } } }';
const para = (i: number) => `Paragraph ${i} of a post long enough to make a list of five posts weigh more than a kilobyte. `.repeat(3);
const persisted = (hash: string) => JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });

describe.each(dialects())('GraphQL GET caching and persisted queries on %s', (dialect) => {
  let env: TestEnv;
  let world: DeliveryWorld;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    world = await createWorld(env.ctx, env.app, [
      { name: 'Author', slug: 'author', display_field: 'name', fields: [{ name: 'name', field_type: 'text' }] },
      {
        name: 'Post',
        slug: 'post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'body', field_type: 'textarea' },
          { name: 'author', field_type: 'relation', options: '["author"]' },
        ],
      },
    ]);
    const author = await world.insertEntry({ type: 'author', slug: 'ada', data: { name: 'Ada' } });
    for (let i = 0; i < 5; i++) await world.insertEntry({ type: 'post', slug: `post-${i}`, data: { title: `Post ${i}`, body: para(i), author } });
  });
  afterAll(async () => {
    await env?.close();
  });

  const get = (query: Record<string, string>, headers: Record<string, string> = {}, key = world.keys.delivery, app = env.app) =>
    app.inject({ method: 'GET', url: URL, query, headers: { 'x-api-key': key, ...headers } });

  it('answers a GET with ETag, Cache-Control and Vary, then serves it from the cache; 304 on both paths', async () => {
    const query = { query: LIST, operationName: '', variables: '{}' };
    const miss = await get({ query: LIST });
    expect(miss.statusCode).toBe(200);
    expect(miss.headers['x-cache']).toBe('MISS');
    const body = JSON.parse(miss.body);
    expect(body.errors).toBeUndefined();
    expect(body.data.postCollection.nodes).toHaveLength(5);
    expect(body.data.postCollection.nodes[0].author).toEqual({ name: 'Ada' });
    const tag = String(miss.headers.etag);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(miss.headers['cache-control']).toBe('no-cache');
    expect(String(miss.headers.vary).split(', ')).toEqual(expect.arrayContaining(['Accept', 'X-API-Key', 'Accept-Encoding']));

    // The same question spelled with empty variables and operationName is the same entry.
    const hit = await get(query);
    expect(hit.statusCode).toBe(200);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.body).toBe(miss.body);
    expect(hit.headers.etag).toBe(tag);
    expect(hit.headers.vary).toBe(miss.headers.vary);
    expect(hit.headers['content-type']).toBe(miss.headers['content-type']);

    const notModified = await get({ query: LIST }, { 'if-none-match': tag });
    expect(notModified.statusCode).toBe(304);
    expect(notModified.headers['x-cache']).toBe('HIT');
    expect(notModified.body).toBe('');
    const fresh = await get({ query: `${LIST} ` }, { 'if-none-match': tag });
    expect(fresh.statusCode).toBe(304);
    expect(fresh.headers['x-cache']).toBe('MISS');
  });

  it('compresses with br or gzip as asked, the same bytes decompressed', async () => {
    const identity = await get({ query: LIST }, { 'accept-encoding': 'identity' });
    const br = await get({ query: LIST }, { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toBe(`${String(identity.headers.etag).slice(0, -1)}-br"`);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(identity.body);
    const gzip = await get({ query: LIST }, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(identity.body);
  });

  it('keeps answers per accepted media type (Vary: Accept)', async () => {
    const json = await get({ query: LIST }, { accept: 'application/json' });
    const gql = await get({ query: LIST }, { accept: 'application/graphql-response+json' });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(gql.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    const again = await get({ query: LIST }, { accept: 'application/graphql-response+json' });
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.headers['content-type']).toBe(gql.headers['content-type']);
  });

  it('answers afresh after a publish (the revision moved), with a new ETag', async () => {
    const before = await get({ query: LIST });
    const tag = String(before.headers.etag);
    expect((await get({ query: LIST })).headers['x-cache']).toBe('HIT');
    const put = await call(env.app, 'PUT', `${M}/content-types/post/entries/post-0`, {
      key: world.keys.management,
      body: { data: { title: 'Post 0 changed', body: para(0) } },
    });
    expect(put.status).toBe(200);
    // A working-copy save changes nothing production keys read: still a hit.
    expect((await get({ query: LIST })).headers['x-cache']).toBe('HIT');
    expect((await call(env.app, 'PATCH', `${M}/content-types/post/entries/post-0/publish`, { key: world.keys.management })).status).toBe(200);
    const after = await get({ query: LIST }, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(after.headers.etag).not.toBe(tag);
    expect(after.body).toContain('Post 0 changed');
  });

  it('gives preview keys private answers and keeps them apart from production ones', async () => {
    const preview = await get({ query: LIST }, {}, world.keys.preview);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['cache-control']).toBe('private, no-cache');
  });

  it('never caches POST answers nor answers holding errors', async () => {
    const post = await call(env.app, 'POST', URL, { key: world.keys.delivery, body: { query: LIST } });
    expect(post.status).toBe(200);
    expect(post.headers['x-cache']).toBeUndefined();
    const bad = { query: '{ postCollection(first: 1000) { nodes { title } } }' };
    for (let i = 0; i < 2; i++) {
      const res = await get(bad);
      expect(res.statusCode).toBe(200);
      expect(JSON.parse(res.body).errors[0].extensions.code).toBe('BAD_USER_INPUT');
      expect(res.headers['x-cache']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    }
  });

  it('registers a persisted query, then answers GETs by its hash from the cache it shares with the query text', async () => {
    const query = '{ postCollection(first: 2) { nodes { title } } }';
    const hash = queryHash(query);
    const unknown = await get({ extensions: persisted(hash) });
    expect(unknown.statusCode).toBe(200);
    expect(JSON.parse(unknown.body).errors[0]).toMatchObject({ message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });
    expect(unknown.headers['cache-control']).toBe('no-store');
    expect(unknown.headers['x-cache']).toBeUndefined();

    const register = await call(env.app, 'POST', URL, { key: world.keys.delivery, body: { query, extensions: JSON.parse(persisted(hash)) } });
    expect(register.status).toBe(200);
    expect(register.body.data.postCollection.nodes).toHaveLength(2);

    // GraphQL Yoga looks the hash up (its persisted-query plugin) on a miss, never on a hit: a
    // cached answer is sent before the request reaches Yoga.
    const lookups = vi.spyOn(env.ctx.caches.persistedQueries, 'get');
    const byHash = await get({ extensions: persisted(hash) });
    expect(byHash.statusCode).toBe(200);
    expect(byHash.headers['x-cache']).toBe('MISS');
    expect(JSON.parse(byHash.body)).toEqual(register.body);
    expect(lookups).toHaveBeenCalledTimes(1);
    expect((await get({ extensions: persisted(hash) })).headers['x-cache']).toBe('HIT');
    expect(lookups).toHaveBeenCalledTimes(1);
    lookups.mockRestore();
    const byText = await get({ query });
    expect(byText.headers['x-cache']).toBe('HIT');
    expect(byText.body).toBe(byHash.body);
  });

  it('refuses a hash that does not match its query with 400, and never registers a query that does not validate', async () => {
    const mismatch = await get({ query: LIST, extensions: persisted('0'.repeat(64)) });
    expect(mismatch.statusCode).toBe(400);
    expect(JSON.parse(mismatch.body).errors[0].extensions.code).toBe('PERSISTED_QUERY_MISMATCH');

    const invalid = '{ postCollection { nope } }';
    const sent = await call(env.app, 'POST', URL, {
      key: world.keys.delivery,
      body: { query: invalid, extensions: JSON.parse(persisted(queryHash(invalid))) },
    });
    expect(sent.status).toBe(400);
    const later = await get({ extensions: persisted(queryHash(invalid)) });
    expect(JSON.parse(later.body).errors[0].extensions.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });
});

const REDIS_URL = process.env.REDIS_URL;

describe.runIf(REDIS_URL).each(dialects())('persisted queries across instances sharing Redis on %s', (dialect) => {
  let env: TestEnv;
  let second: FastifyInstance;
  let world: DeliveryWorld;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { redisUrl: REDIS_URL, redisPrefix: `quire-test:${randomBytes(6).toString('hex')}:` } });
    second = await buildApp(await createContext(env.config, env.ctx.db, { log: pino({ level: 'silent' }) }), { logger: false });
    await second.ready();
    world = await createWorld(env.ctx, env.app, [{ name: 'Note', slug: 'note', display_field: 'title', fields: [{ name: 'title', field_type: 'text' }] }]);
    await world.insertEntry({ type: 'note', slug: 'n1', data: { title: 'Note 1' } });
  });
  afterAll(async () => {
    await second?.close();
    await env?.close();
  });

  it('runs on one instance a query registered on the other', async () => {
    const query = '{ noteCollection { nodes { title } } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: queryHash(query) } };
    const register = await call(env.app, 'POST', URL, { key: world.keys.delivery, body: { query, extensions } });
    expect(register.body.data.noteCollection.nodes).toEqual([{ title: 'Note 1' }]);
    const other = await second.inject({
      method: 'GET',
      url: URL,
      query: { extensions: JSON.stringify(extensions) },
      headers: { 'x-api-key': world.keys.delivery },
    });
    expect(other.statusCode).toBe(200);
    expect(JSON.parse(other.body)).toEqual(register.body);
  });
});
