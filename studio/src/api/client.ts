/**
 * The Studio's one way to the management API (/api/v1/manage): same-origin fetch with the
 * session cookie, the CSRF token on every state-changing request, and the workspace named by
 * X-Workspace-ID. Every answer is the API envelope; a refusal becomes an ApiError carrying the
 * envelope's code, message, per-field errors and trace id, so screens can show them. The requests
 * themselves go through the official TypeScript client (@quire/client, packages/client).
 */
import { createClient, QuireError } from '../../../packages/client/src/index.js';

/** One entry of an error envelope's `errors` (VALIDATION_FAILED only). */
export interface FieldError {
  path: string;
  message: string;
}

/** A refusal of the API (or of the network), in the envelope's terms. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[] | null;
  readonly traceId: string | null;
  constructor(status: number, code: string, message: string, errors: FieldError[] | null, traceId: string | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.traceId = traceId;
  }
}

/** What a response gave: the payload, its meta and its ETag (for If-Match). */
export interface ApiResult<T, M = null> {
  data: T;
  meta: M;
  etag: string | null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** multipart uploads: sent as is, without a JSON content type */
  form?: FormData;
  ifMatch?: string | null;
  signal?: AbortSignal;
}

const BASE = '/api/v1/manage';

/** Session state the client sends with each request; set by the session provider. */
const state: { csrfToken: string | null; workspaceId: string | null } = { csrfToken: null, workspaceId: null };

export function setCsrfToken(token: string | null): void {
  state.csrfToken = token;
}

export function setWorkspaceId(id: string | null): void {
  state.workspaceId = id;
}

export function currentWorkspaceId(): string | null {
  return state.workspaceId;
}

/**
 * The official TypeScript client (packages/client) carries every request: same-origin, with the
 * session cookie, and the workspace and CSRF headers read from `state` at each request. It sends
 * no Idempotency-Key and retries nothing, so a write is sent exactly once as before.
 */
const quire = createClient({
  credentials: 'same-origin',
  idempotency: false,
  retries: 0,
  headers: ({ method }) => {
    const headers: Record<string, string> = {};
    if (state.workspaceId) headers['X-Workspace-ID'] = state.workspaceId;
    if (method !== 'GET' && state.csrfToken) headers['X-CSRF-Token'] = state.csrfToken;
    return headers;
  },
});

/** Query parameters as the Studio sends them: empty strings are left out. */
function cleanQuery(query: RequestOptions['query']): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out;
}

/**
 * Calls `path` (relative to /api/v1/manage) and returns the envelope's data, meta and ETag.
 * Throws ApiError for any refusal: the envelope's own, or NETWORK_ERROR when no answer came.
 */
export async function api<T, M = null>(path: string, options: RequestOptions = {}): Promise<ApiResult<T, M>> {
  try {
    const res = await quire.http.request<T, M>(options.method ?? 'GET', `${BASE}${path}`, {
      query: cleanQuery(options.query),
      body: options.form ? undefined : options.body,
      form: options.form,
      ifMatch: options.ifMatch,
      signal: options.signal,
    });
    return { data: res.data, meta: res.meta as M, etag: res.etag };
  } catch (err) {
    if (!(err instanceof QuireError)) throw err;
    if (err.code === 'NETWORK_ERROR') throw new ApiError(0, 'NETWORK_ERROR', 'Quire could not be reached: check your connection and try again.', null, null);
    throw new ApiError(err.status, err.code, err.message, err.details, err.traceId);
  }
}

/** `data` of entries, blocks and translations is a JSON-encoded string on the wire (D1). */
export function parseData<T = Record<string, unknown>>(value: string | null | undefined): T {
  if (!value) return {} as T;
  try {
    return JSON.parse(value) as T;
  } catch {
    return {} as T;
  }
}
