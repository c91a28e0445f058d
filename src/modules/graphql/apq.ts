/**
 * Automatic persisted queries of the GraphQL delivery endpoint (docs/graphql.md "Persisted
 * queries" (D103)), Apollo's protocol, so GET URLs stay short enough for CDNs:
 *
 * - a request carrying `extensions.persistedQuery {version: 1, sha256Hash}` without `query` runs
 *   the query registered under that hash; an unknown hash answers 200 with the error code
 *   `PERSISTED_QUERY_NOT_FOUND` (Apollo Client, urql and graphql-request then send the query with
 *   its hash once);
 * - a request carrying both registers the query under its hash once it has parsed and validated
 *   (a query that does not is never kept); a hash that is not the SHA-256 of the query (lowercase
 *   hex of its UTF-8 bytes) answers 400 `PERSISTED_QUERY_MISMATCH`; a version other than 1 answers
 *   400 `PERSISTED_QUERY_NOT_SUPPORTED`, a hash that is not a string 400 `BAD_REQUEST`.
 *
 * Where queries are kept: in the context's memory (`ctx.caches.persistedQueries`: at most
 * MEMORY_MAX_QUERIES queries and MEMORY_MAX_BYTES of query text, the least recently used dropped
 * first), and with REDIS_URL also in Redis under `apq:<hash>` (under the context's prefix) for
 * REDIS_TTL_SECONDS from their last use, so a query registered on one instance runs on every
 * other. While Redis is unreachable each instance knows what it saw itself; a client sent
 * `PERSISTED_QUERY_NOT_FOUND` registers again. Queries are not secret (whoever knows the hash
 * knows the query), so one store serves every workspace.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../../context.js';

/** Queries kept in memory per context. */
export const MEMORY_MAX_QUERIES = 1000;
/** Characters of query text kept in memory per context (about 8 MiB at 2 bytes a character). */
export const MEMORY_MAX_BYTES = 4 * 1024 * 1024;
/** Seconds a query stays in Redis after it was last registered or read. */
export const REDIS_TTL_SECONDS = 7 * 24 * 3600;

/** Where registered queries are found by their hash. */
export interface PersistedQueryStore {
  get(hash: string): Promise<string | null>;
  set(hash: string, query: string): Promise<void>;
}

/** The SHA-256 of `query` as APQ names it: lowercase hex of its UTF-8 bytes. */
export function queryHash(query: string): string {
  return createHash('sha256').update(query, 'utf8').digest('hex');
}

/** `extensions.persistedQuery` of a request, when present. */
export interface PersistedQueryExtension {
  version: unknown;
  sha256Hash: unknown;
}

/**
 * The persisted-query hash a request names: null when it names none (`extensions.persistedQuery`
 * absent), else the hash. Throws the 400 errors of the module comment for an unsupported version
 * or a hash that is not a string.
 */
export function persistedHashOf(extensions: unknown): string | null {
  if (extensions === null || typeof extensions !== 'object') return null;
  const ext = (extensions as { persistedQuery?: unknown }).persistedQuery;
  if (ext === undefined || ext === null) return null;
  if (typeof ext !== 'object' || (ext as PersistedQueryExtension).version !== 1) {
    throw apqError('Unsupported persisted query version: only version 1 is supported', 'PERSISTED_QUERY_NOT_SUPPORTED', 400);
  }
  const hash = (ext as PersistedQueryExtension).sha256Hash;
  if (typeof hash !== 'string' || hash === '') throw apqError('extensions.persistedQuery.sha256Hash must be a string', 'BAD_REQUEST', 400);
  return hash;
}

function apqError(message: string, code: string, status: number): GraphQLError {
  return new GraphQLError(message, { extensions: { code, http: { status } } });
}

/**
 * The query a request runs and the registration it asks for. `params` are the request's
 * `query` and `extensions`; `store` is looked up only when the query is absent. Throws
 * `PERSISTED_QUERY_NOT_FOUND` (200), `PERSISTED_QUERY_MISMATCH` (400) and the errors of
 * persistedHashOf.
 */
export async function resolvePersistedQuery(
  store: PersistedQueryStore,
  params: { query?: string | null; extensions?: unknown },
): Promise<{ query: string | null; register: { hash: string; query: string } | null }> {
  const hash = persistedHashOf(params.extensions);
  const query = typeof params.query === 'string' ? params.query : null;
  if (hash === null) return { query, register: null };
  if (query === null) {
    const found = await store.get(hash);
    if (found === null) throw apqError('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND', 200);
    return { query: found, register: null };
  }
  if (queryHash(query) !== hash) throw apqError('provided sha256Hash does not match query', 'PERSISTED_QUERY_MISMATCH', 400);
  return { query, register: { hash, query } };
}

/**
 * Registered queries in memory: at most `maxQueries` and `maxChars` characters of text, the least
 * recently used dropped first. Lives on the context (`ctx.caches.persistedQueries`).
 */
export class PersistedQueryMemory {
  readonly #queries = new Map<string, string>();
  #chars = 0;

  constructor(
    readonly maxQueries = MEMORY_MAX_QUERIES,
    readonly maxChars = MEMORY_MAX_BYTES,
  ) {}

  get size(): number {
    return this.#queries.size;
  }

  get(hash: string): string | null {
    const query = this.#queries.get(hash);
    if (query === undefined) return null;
    this.#queries.delete(hash);
    this.#queries.set(hash, query);
    return query;
  }

  set(hash: string, query: string): void {
    this.delete(hash);
    if (query.length > this.maxChars) return;
    this.#queries.set(hash, query);
    this.#chars += query.length;
    while (this.#queries.size > this.maxQueries || this.#chars > this.maxChars) this.delete(this.#queries.keys().next().value as string);
  }

  delete(hash: string): void {
    const query = this.#queries.get(hash);
    if (query === undefined) return;
    this.#chars -= query.length;
    this.#queries.delete(hash);
  }
}

/** Memory first, then Redis (a query found there is kept in memory too); a Redis failure is a miss. */
class SharedStore implements PersistedQueryStore {
  constructor(
    readonly memory: PersistedQueryMemory,
    readonly redis: Redis | null,
  ) {}

  async get(hash: string): Promise<string | null> {
    const local = this.memory.get(hash);
    if (local !== null || !this.redis) return local;
    let shared: string | null;
    try {
      shared = await this.redis.getex(`apq:${hash}`, 'EX', REDIS_TTL_SECONDS);
    } catch {
      return null;
    }
    if (shared !== null) this.memory.set(hash, shared);
    return shared;
  }

  async set(hash: string, query: string): Promise<void> {
    this.memory.set(hash, query);
    try {
      await this.redis?.set(`apq:${hash}`, query, 'EX', REDIS_TTL_SECONDS);
    } catch {
      // Unreachable: this instance still knows it; another one answers NOT_FOUND and the client registers again.
    }
  }
}

/** The persisted-query store of `ctx`: its memory, and Redis when the context has one. */
export function persistedQueryStore(ctx: Pick<Context, 'caches' | 'redis'>): PersistedQueryStore {
  return new SharedStore(ctx.caches.persistedQueries, ctx.redis);
}

/**
 * A GraphQL Yoga plugin implementing the protocol above over `store`: the query is resolved from
 * the hash before parsing (onParams), and a query sent with its hash is registered once it has
 * parsed and validated (onExecute, which only runs then).
 */
export function useAutomaticPersistedQueries(store: PersistedQueryStore): Plugin<Record<string, unknown>> {
  const pending = new WeakMap<object, { hash: string; query: string }>();
  return {
    async onParams({ params, setParams, request }) {
      const { query, register } = await resolvePersistedQuery(store, params);
      if (register) pending.set(request, register);
      else if (query !== null && query !== params.query) setParams({ ...params, query });
    },
    async onExecute({ args }) {
      const request = (args.contextValue as { request?: object } | undefined)?.request;
      const register = request ? pending.get(request) : undefined;
      if (register) {
        pending.delete(request!);
        await store.set(register.hash, register.query);
      }
    },
  };
}
