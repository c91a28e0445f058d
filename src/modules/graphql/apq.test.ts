import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createCaches } from '../../caches.js';
import { PersistedQueryMemory, persistedQueryStore, queryHash, resolvePersistedQuery, useAutomaticPersistedQueries, type PersistedQueryStore } from './apq.js';

const QUERY = '{ blogPostCollection { nodes { title } } }';
const HASH = queryHash(QUERY);

function memoryStore(): PersistedQueryStore {
  return persistedQueryStore({ caches: createCaches(), redis: null });
}

async function errorOf(p: Promise<unknown>): Promise<{ message: string; extensions: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    return e as { message: string; extensions: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}

describe('queryHash', () => {
  it('is the lowercase hex SHA-256 of the UTF-8 bytes, as Apollo clients compute it (sha256sum)', () => {
    expect(queryHash('{ __typename }')).toBe('7f56e67dd21ab3f30d1ff8b7bed08893f0a0db86449836189b361dd1e56ddb4b');
    expect(queryHash('{ a(s: "é") }')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('resolvePersistedQuery', () => {
  it('passes a request without the extension through', async () => {
    expect(await resolvePersistedQuery(memoryStore(), { query: QUERY })).toEqual({ query: QUERY, register: null });
    expect(await resolvePersistedQuery(memoryStore(), { query: QUERY, extensions: { other: 1 } })).toEqual({ query: QUERY, register: null });
  });

  it('answers an unknown hash with PERSISTED_QUERY_NOT_FOUND and status 200', async () => {
    const error = await errorOf(resolvePersistedQuery(memoryStore(), { extensions: { persistedQuery: { version: 1, sha256Hash: HASH } } }));
    expect(error.message).toBe('PersistedQueryNotFound');
    expect(error.extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 200 } });
  });

  it('asks to register a query sent with its hash, and then finds it', async () => {
    const store = memoryStore();
    const ext = { persistedQuery: { version: 1, sha256Hash: HASH } };
    const first = await resolvePersistedQuery(store, { query: QUERY, extensions: ext });
    expect(first).toEqual({ query: QUERY, register: { hash: HASH, query: QUERY } });
    await store.set(HASH, QUERY);
    expect(await resolvePersistedQuery(store, { extensions: ext })).toEqual({ query: QUERY, register: null });
  });

  it('refuses a hash that does not match the query with 400 PERSISTED_QUERY_MISMATCH', async () => {
    const error = await errorOf(
      resolvePersistedQuery(memoryStore(), { query: QUERY, extensions: { persistedQuery: { version: 1, sha256Hash: 'a'.repeat(64) } } }),
    );
    expect(error.extensions).toMatchObject({ code: 'PERSISTED_QUERY_MISMATCH', http: { status: 400 } });
  });

  it('refuses another version and a hash that is not a string with 400', async () => {
    const v2 = await errorOf(resolvePersistedQuery(memoryStore(), { extensions: { persistedQuery: { version: 2, sha256Hash: HASH } } }));
    expect(v2.extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_SUPPORTED', http: { status: 400 } });
    const bad = await errorOf(resolvePersistedQuery(memoryStore(), { extensions: { persistedQuery: { version: 1, sha256Hash: 42 } } }));
    expect(bad.extensions).toMatchObject({ code: 'BAD_REQUEST', http: { status: 400 } });
    const notObject = await errorOf(resolvePersistedQuery(memoryStore(), { extensions: { persistedQuery: 'x' } }));
    expect(notObject.extensions).toMatchObject({ code: 'PERSISTED_QUERY_NOT_SUPPORTED' });
  });
});

describe('PersistedQueryMemory', () => {
  it('keeps at most maxQueries, the least recently used dropped first', () => {
    const memory = new PersistedQueryMemory(2, 1000);
    memory.set('a', 'qa');
    memory.set('b', 'qb');
    expect(memory.get('a')).toBe('qa');
    memory.set('c', 'qc');
    expect(memory.get('b')).toBeNull();
    expect(memory.get('a')).toBe('qa');
    expect(memory.get('c')).toBe('qc');
    expect(memory.size).toBe(2);
  });

  it('keeps at most maxChars of text and never a query larger than that', () => {
    const memory = new PersistedQueryMemory(100, 10);
    memory.set('a', '12345');
    memory.set('b', '12345');
    memory.set('c', '1');
    expect(memory.get('a')).toBeNull();
    expect(memory.get('b')).toBe('12345');
    memory.set('huge', 'x'.repeat(11));
    expect(memory.get('huge')).toBeNull();
    expect(memory.get('b')).toBe('12345');
    memory.set('b', '12');
    memory.set('d', '12345678');
    expect(memory.get('b')).toBe('12');
  });
});

describe('useAutomaticPersistedQueries', () => {
  type Hooks = {
    onParams: (p: { params: Record<string, unknown>; setParams: (p: Record<string, unknown>) => void; request: object }) => Promise<void>;
    onExecute: (p: { args: { contextValue: { request: object } } }) => Promise<void>;
  };

  it('replaces the hash by its query and registers a query only once it executes', async () => {
    const store = memoryStore();
    const hooks = useAutomaticPersistedQueries(store) as unknown as Hooks;
    const ext = { persistedQuery: { version: 1, sha256Hash: HASH } };
    const request = {};
    await hooks.onParams({ params: { query: QUERY, extensions: ext }, setParams: () => undefined, request });
    expect(await store.get(HASH)).toBeNull();
    await hooks.onExecute({ args: { contextValue: { request } } });
    expect(await store.get(HASH)).toBe(QUERY);

    let set: Record<string, unknown> | null = null;
    await hooks.onParams({ params: { extensions: ext }, setParams: (p) => (set = p), request: {} });
    expect(set).toEqual({ extensions: ext, query: QUERY });
  });
});

const REDIS_URL = process.env.REDIS_URL;

describe.runIf(REDIS_URL)('persisted queries shared through Redis', () => {
  const prefix = `quire-test:${randomBytes(6).toString('hex')}:`;
  const clients: Redis[] = [];
  const open = () => {
    const client = new Redis(REDIS_URL!, { keyPrefix: prefix, lazyConnect: false, enableOfflineQueue: true });
    clients.push(client);
    return client;
  };
  afterAll(async () => {
    for (const c of clients) await c.quit();
  });

  it('finds on one instance what another registered, with an expiry', async () => {
    const a = persistedQueryStore({ caches: createCaches(), redis: open() });
    const b = persistedQueryStore({ caches: createCaches(), redis: open() });
    expect(await b.get(HASH)).toBeNull();
    await a.set(HASH, QUERY);
    expect(await b.get(HASH)).toBe(QUERY);
    const ttl = await clients[0].ttl(`apq:${HASH}`);
    expect(ttl).toBeGreaterThan(0);
  });
});

describe('a store whose Redis is unreachable', () => {
  it('keeps and finds queries in memory, never throwing', async () => {
    const redis = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    redis.on('error', () => undefined);
    const store = persistedQueryStore({ caches: createCaches(), redis });
    expect(await store.get(HASH)).toBeNull();
    await store.set(HASH, QUERY);
    expect(await store.get(HASH)).toBe(QUERY);
    redis.disconnect();
  });
});
