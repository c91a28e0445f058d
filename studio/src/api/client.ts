/**
 * The Studio's one way to the management API (/api/v1/manage): same-origin fetch with the
 * session cookie, the CSRF token on every state-changing request, and the workspace named by
 * X-Workspace-ID. Every answer is the API envelope; a refusal becomes an ApiError carrying the
 * envelope's code, message, per-field errors and trace id, so screens can show them.
 */

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

interface Envelope<T, M> {
  success: boolean;
  message: string;
  data: T;
  meta: M;
  code?: string;
  errors?: FieldError[] | null;
  traceId?: string;
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

function buildUrl(path: string, query: RequestOptions['query']): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
  const s = qs.toString();
  return `${BASE}${path}${s ? `?${s}` : ''}`;
}

/**
 * Calls `path` (relative to /api/v1/manage) and returns the envelope's data, meta and ETag.
 * Throws ApiError for any refusal: the envelope's own, or NETWORK_ERROR when no answer came.
 */
export async function api<T, M = null>(path: string, options: RequestOptions = {}): Promise<ApiResult<T, M>> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (state.workspaceId) headers['X-Workspace-ID'] = state.workspaceId;
  if (method !== 'GET' && state.csrfToken) headers['X-CSRF-Token'] = state.csrfToken;
  if (options.ifMatch) headers['If-Match'] = options.ifMatch;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.query), { method, headers, body, credentials: 'same-origin', signal: options.signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK_ERROR', 'Quire could not be reached: check your connection and try again.', null, null);
  }
  let envelope: Envelope<T, M> | null;
  try {
    envelope = (await res.json()) as Envelope<T, M>;
  } catch {
    envelope = null;
  }
  if (!res.ok || !envelope || envelope.success === false) {
    throw new ApiError(
      res.status,
      envelope?.code ?? 'INTERNAL_ERROR',
      envelope?.message ?? `The server answered ${res.status}.`,
      envelope?.errors ?? null,
      envelope?.traceId ?? res.headers.get('X-Request-Id'),
    );
  }
  return { data: envelope.data, meta: envelope.meta, etag: res.headers.get('ETag') };
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
