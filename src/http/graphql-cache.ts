/**
 * GraphQL GET answers in the delivery cache, exactly like REST delivery answers (docs/graphql.md
 * "Caching" (D103); the cache, its key and the HTTP caching headers are src/http/delivery-cache.ts):
 *
 * - graphqlCacheArgs is the route's `config.cacheArgs`: what a GET answer depends on besides the
 *   key's rights and the content. The query is named by its SHA-256 (the persisted hash, or the
 *   hash of the query sent, so both spellings share one entry), with its variables (keys sorted
 *   by deliveryCacheKey), `operationName`, the trace switches of `extensions` (`sourceMaps`,
 *   `stega`: D140, an answer with them is never served to a request without), and the `Accept` header (Yoga answers
 *   `application/graphql-response+json` or `application/json` by it, hence `Vary: Accept`). A
 *   request that cannot run (no query, variables or extensions that are not JSON, a hash that does
 *   not match its query) is not cached: GraphQL Yoga answers it.
 * - useDeliveryCacheHints is a GraphQL Yoga plugin: every answer varies by `Accept`, and an answer
 *   holding `errors` (an unknown persisted hash, a refused argument, a failure) gets
 *   `Cache-Control: no-store`, which the delivery cache sends as it is and never keeps.
 *
 * A GET found in the cache is answered in the delivery cache's onRequest hook, before the route's
 * handler: it never reaches GraphQL Yoga, nor is its query parsed.
 */
import type { FastifyRequest } from 'fastify';
import type { Plugin } from 'graphql-yoga';
import { stableStringify } from '../lib/json.js';
import { persistedHashOf, queryHash } from '../modules/graphql/apq.js';
import { traceFlags } from '../modules/graphql/source-maps.js';

/**
 * Arguments of a GraphQL GET as the delivery cache keys them, all strings (deliveryCacheKey's
 * fast path): `variables` is their JSON with object keys sorted (`{}` when absent or null).
 */
export interface GraphqlCacheArgs {
  hash: string;
  variables: string;
  operationName: string;
  accept: string;
  /**
   * The trace switches of `extensions` (D140): `sourceMaps` and `stega` change the answer (an
   * `extensions.sourceMap`, encoded strings), so `map`, `stega`, both (`map+stega`) or none (``).
   */
  trace: string;
}

/** `value` parsed as JSON when it is a string; undefined when absent; throws when not JSON or repeated. */
function jsonParam(value: unknown): unknown {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw new Error('repeated parameter');
  return JSON.parse(value);
}

/**
 * The cache arguments of a GraphQL GET from its query string (`query`, `variables`,
 * `operationName`, `extensions`) and `Accept` header, or null when its answer is not to be cached.
 */
export function graphqlCacheArgsOf(query: Record<string, unknown>, accept: string | undefined): GraphqlCacheArgs | null {
  try {
    const extensions = jsonParam(query.extensions);
    const text = query.query;
    if (text !== undefined && typeof text !== 'string') return null;
    const persisted = persistedHashOf(extensions);
    const hash = typeof text === 'string' && text !== '' ? queryHash(text) : persisted;
    if (hash === null || (persisted !== null && persisted !== hash)) return null;
    const variables = jsonParam(query.variables) ?? {};
    if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) return null;
    const operationName = query.operationName;
    if (operationName !== undefined && typeof operationName !== 'string') return null;
    const flags = traceFlags(extensions);
    const trace = [flags.sourceMaps ? 'map' : '', flags.stega ? 'stega' : ''].filter((f) => f !== '').join('+');
    return { hash, variables: stableStringify(variables), operationName: operationName ?? '', accept: (accept ?? '').toLowerCase().replace(/\s+/g, ''), trace };
  } catch {
    return null;
  }
}

/** `config.cacheArgs` of the GraphQL route: graphqlCacheArgsOf over the request. */
export function graphqlCacheArgs(request: FastifyRequest): { params: unknown; query: unknown } | null {
  const args = graphqlCacheArgsOf((request.query ?? {}) as Record<string, unknown>, request.headers.accept);
  return args && { params: {}, query: args };
}

/** Whether a GraphQL result (one result, or a batch) holds errors. */
function hasErrors(result: unknown): boolean {
  if (Array.isArray(result)) return result.some(hasErrors);
  if (result === null || typeof result !== 'object') return false;
  const errors = (result as { errors?: unknown[] }).errors;
  return Array.isArray(errors) && errors.length > 0;
}

/** The Yoga plugin described above: `Vary: Accept` always, `Cache-Control: no-store` on answers with errors. */
export function useDeliveryCacheHints(): Plugin<Record<string, unknown>> {
  const failed = new WeakSet<object>();
  return {
    onResultProcess({ request, result }) {
      if (hasErrors(result)) failed.add(request);
    },
    onResponse({ request, response }) {
      response.headers.append('Vary', 'Accept');
      if (failed.has(request)) response.headers.set('Cache-Control', 'no-store');
    },
  };
}
