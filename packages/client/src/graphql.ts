/**
 * GraphQL delivery for the client (the repository's docs/graphql.md, "Requests and answers" and
 * "Errors"): `client.graphql(query, variables?, options?)` sends a query to
 * `/api/v1/public/graphql` with the client's key and returns the answer's `{data, errors}`.
 *
 * - Typed results: a TypedDocumentNode or TypedDocumentString (graphql-codegen's client preset;
 *   any value carrying `__apiType`) types `data` and the variables; a plain string takes the
 *   result type as a type argument.
 * - HTTP refusals (401 UNAUTHORIZED, 400 GRAPHQL_PARSE_FAILED / GRAPHQL_VALIDATION_FAILED /
 *   QUERY_TOO_COMPLEX, 405, 429 RATE_LIMITED) throw QuireError whose `code` is the first error's
 *   `extensions.code` and whose `graphqlErrors` holds every error. Errors answered with 200 (a
 *   field's BAD_USER_INPUT or FORBIDDEN) are returned in `errors` beside the partial `data`.
 * - `method: 'GET'` sends the query in the URL (answers go through the delivery cache);
 *   `persisted: true` sends only its SHA-256 (Apollo's automatic persisted queries, by GET) and
 *   the full query once more when the server does not know the hash yet.
 */
import { QuireError, type GraphqlError } from './errors.js';
import { readJson, toError, type ErrorEnvelope, type QueryValue, type Transport } from './transport.js';

export const GRAPHQL_PATH = '/api/v1/public/graphql';

/**
 * What graphql-codegen's documents carry (`TypedDocumentNode`, `TypedDocumentString` of the client
 * preset; the `@graphql-typed-document-node/core` shape): the result and variables types.
 */
export interface DocumentTypeDecoration<TResult, TVariables> {
  __apiType?: (variables: TVariables) => TResult;
}

/** A parsed document (graphql-js DocumentNode); its text is its source (`loc`) when it kept one. */
export interface GraphqlDocumentNode {
  readonly kind: 'Document' | (string & {});
  readonly loc?: { readonly source: { readonly body: string } } | undefined;
  readonly definitions: readonly unknown[];
}

/** A query: its text, a TypedDocumentString, or a DocumentNode that kept its source. */
export type GraphqlQuery<TResult = Record<string, unknown>, TVariables = Record<string, unknown>> =
  string | (DocumentTypeDecoration<TResult, TVariables> & (GraphqlDocumentNode | { toString(): string }));

/** A GraphQL answer: `data` (null when a non-null field failed) and the errors of fields that failed. */
export interface GraphqlResult<TResult> {
  data: TResult | null;
  errors?: GraphqlError[];
  extensions?: Record<string, unknown>;
}

export interface GraphqlOptions {
  /** `POST` (default) or `GET` (cacheable: the delivery cache, ETags, CDNs). */
  method?: 'GET' | 'POST';
  /** Send the query's SHA-256 instead of its text (automatic persisted queries, always by GET). */
  persisted?: boolean;
  /** Which operation of a document with several to run. */
  operationName?: string;
  /** Extra headers of this request. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /**
   * Hide each text string's origin in it (`extensions.stega`, D140): `@vercel/stega`'s invisible
   * encoding, read by `@quire/client/visual-editing`. Preview keys only (else 400 BAD_REQUEST).
   */
  stega?: boolean;
  /** Ask for the Content Source Map (`extensions.sourceMaps`): the answer's `extensions.sourceMap`. Preview keys only. */
  sourceMaps?: boolean;
}

/** The trace switches of `options` as request `extensions` (only those asked for). */
function traceExtensions(options: GraphqlOptions): Record<string, true> {
  return { ...(options.stega ? { stega: true as const } : {}), ...(options.sourceMaps ? { sourceMaps: true as const } : {}) };
}

/** The text of a query (a DocumentNode without its source cannot be sent: print it first). */
export function queryText(query: GraphqlQuery<unknown, unknown>): string {
  if (typeof query === 'string') return query;
  if (!('kind' in query)) return query.toString();
  if (query.loc?.source.body) return query.loc.source.body;
  throw new TypeError(
    "This DocumentNode kept no source text: pass print(document) from 'graphql', or generate documents as strings (graphql-codegen client preset: documentMode: 'string')",
  );
}

/** Lowercase hex SHA-256 of the UTF-8 text (Web Crypto: browsers and Node.js 20+). */
async function sha256(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

function isGraphqlAnswer(body: unknown): body is { data?: unknown; errors?: GraphqlError[]; extensions?: Record<string, unknown> } {
  return typeof body === 'object' && body !== null && ('data' in body || Array.isArray((body as { errors?: unknown }).errors));
}

/**
 * A GraphQL answer read off `res`: the result for a 2xx with `data` or `errors`, else a QuireError
 * carrying the first error's `extensions.code` (or the REST envelope's code, or the status).
 */
async function readAnswer<TResult>(res: Response): Promise<{ value: GraphqlResult<TResult> } | { error: QuireError }> {
  const body = await readJson(res);
  if (res.ok && isGraphqlAnswer(body)) {
    const value: GraphqlResult<TResult> = { data: (body.data ?? null) as TResult | null };
    if (body.errors) value.errors = body.errors;
    if (body.extensions) value.extensions = body.extensions;
    return { value };
  }
  if (isGraphqlAnswer(body) && body.errors?.length) {
    const first = body.errors[0];
    const error = new QuireError({
      code: first.extensions?.code ?? (res.status === 429 ? 'RATE_LIMITED' : 'INVALID_RESPONSE'),
      status: res.status,
      message: first.message,
      traceId: res.headers.get('X-Request-Id'),
      retryAfterMs: toError(res, null).retryAfterMs,
      graphqlErrors: body.errors,
    });
    return { error };
  }
  return { error: toError(res, body as ErrorEnvelope | null) };
}

/**
 * Runs one query (see the module comment). `variables` are sent as given; `data` is typed by the
 * document, or by `TResult` for a string.
 */
export async function runGraphql<TResult, TVariables>(
  t: Transport,
  query: GraphqlQuery<TResult, TVariables>,
  variables: TVariables | undefined,
  options: GraphqlOptions = {},
): Promise<GraphqlResult<TResult>> {
  const text = queryText(query as GraphqlQuery<unknown, unknown>);
  const common = { headers: options.headers, signal: options.signal, readOnly: true };
  const read = (res: Response) => readAnswer<TResult>(res);
  const params = (extra: Record<string, QueryValue>): Record<string, QueryValue> => ({
    variables: variables === undefined ? undefined : JSON.stringify(variables),
    operationName: options.operationName,
    ...extra,
  });
  const trace = traceExtensions(options);
  const traced = Object.keys(trace).length > 0;
  if (options.persisted) {
    const extensions = JSON.stringify({ ...trace, persistedQuery: { version: 1, sha256Hash: await sha256(text) } });
    const first = await t.send('GET', GRAPHQL_PATH, { ...common, query: params({ extensions }) }, read);
    if (!first.errors?.some((e) => e.extensions?.code === 'PERSISTED_QUERY_NOT_FOUND')) return first;
    // Unknown hash: the query with its hash registers it; the hash alone works from then on.
    return t.send('GET', GRAPHQL_PATH, { ...common, query: params({ query: text, extensions }) }, read);
  }
  if (options.method === 'GET') {
    const query = params({ query: text, extensions: traced ? JSON.stringify(trace) : undefined });
    return t.send('GET', GRAPHQL_PATH, { ...common, query }, read);
  }
  const body: Record<string, unknown> = { query: text };
  if (variables !== undefined) body.variables = variables;
  if (options.operationName) body.operationName = options.operationName;
  if (traced) body.extensions = trace;
  return t.send('POST', GRAPHQL_PATH, { ...common, body }, read);
}

/** The workspace's schema in the GraphQL schema language (`GET /api/v1/public/graphql/schema.graphql`). */
export async function readGraphqlSchema(t: Transport, options: { signal?: AbortSignal } = {}): Promise<string> {
  return t.send('GET', `${GRAPHQL_PATH}/schema.graphql`, { signal: options.signal, headers: { Accept: 'text/plain' } }, async (res) => {
    if (res.ok) return { value: await res.text() };
    const answer = await readAnswer<never>(res);
    return 'error' in answer ? answer : { error: toError(res, null) };
  });
}
