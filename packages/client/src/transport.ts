/**
 * The one way the client talks to the server: global `fetch` (or the one given), the envelope
 * unwrapped, refusals turned into QuireError, and automatic retries.
 *
 * Retries: a request is sent again after a network failure, 429 RATE_LIMITED, 503
 * SERVICE_UNAVAILABLE, or 409 IDEMPOTENCY_KEY_IN_USE (the first attempt is still running on the
 * server), at most `retries` times. The wait is the answer's `Retry-After` (seconds or an HTTP
 * date) when it has one, else an exponential backoff with jitter; a wait longer than
 * `maxRetryDelayMs` is not attempted and the error is thrown. Reads are always safe to resend;
 * writes are resent only with an `Idempotency-Key`, the SAME key on every attempt, so the server
 * applies the write once and replays its answer (docs/api.md "Idempotency").
 *
 * Nothing here uses Node.js built-ins: it runs in browsers, Node.js 20+, Deno, Bun and workers.
 */
import { QuireError, type QuireErrorDetail } from './errors.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A query parameter value; undefined and null leave the parameter out. */
export type QueryValue = string | number | boolean | null | undefined;

/** Extra headers for every request: a record, or a function of the request (e.g. a CSRF token). */
export type HeadersOption = Record<string, string> | ((request: { method: HttpMethod; path: string }) => Record<string, string> | undefined);

export interface TransportOptions {
  /** Base URL of the server, e.g. `https://cms.example.com`; omit (or '') for the page's own origin. */
  url?: string;
  /** An API key (`svc_live_...` delivery, `svc_mgmt_...` management), sent as `X-API-Key`. */
  apiKey?: string;
  /** The workspace id, sent as `X-Workspace-ID`: a Studio session's workspace when the person has several (a key belongs to one and needs none). */
  workspaceId?: string;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Extra headers for every request. */
  headers?: HeadersOption;
  /** fetch's `credentials` (e.g. 'same-origin' or 'include' for a session cookie). */
  credentials?: RequestCredentials;
  /** How many times a failed request is sent again (default 2). */
  retries?: number;
  /** First backoff wait in milliseconds, doubled each time (default 250). */
  retryDelayMs?: number;
  /** Longest wait before a retry, Retry-After included (default 30 000 ms). */
  maxRetryDelayMs?: number;
  /** Send an automatic `Idempotency-Key` with every management write (default true). */
  idempotency?: boolean;
}

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  body?: unknown;
  /** A multipart body (uploads); sent as is. Must be re-sendable for retries (Blob parts). */
  form?: FormData;
  /** The write's `Idempotency-Key`; false sends none; default: a new uuid for management writes. */
  idempotencyKey?: string | false;
  /** `If-Match`: the ETag the write expects (412 PRECONDITION_FAILED when the item changed). */
  ifMatch?: string | null;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The request only reads, whatever its method (a GraphQL query sent by POST): resent like a GET. */
  readOnly?: boolean;
}

/** A success answer: the envelope's `data` and `meta`, and what the headers said. */
export interface ApiResponse<T, M = unknown> {
  data: T;
  meta: M | null;
  status: number;
  /** The `ETag` header (management items: use it as `ifMatch`). */
  etag: string | null;
  /** `X-Request-Id` of the answer. */
  requestId: string | null;
  /** True when the server replayed the stored answer of an earlier request with the same key. */
  replayed: boolean;
  headers: Headers;
}

/** The error envelope of the REST APIs. */
export interface ErrorEnvelope {
  success: false;
  message?: string;
  code?: string;
  errors?: QuireErrorDetail[] | null;
  traceId?: string;
}

const RETRY_STATUSES = new Set([429, 503]);
/** Codes for answers without the envelope (a proxy's or load balancer's page). */
const NO_ENVELOPE_CODES: Record<number, string> = { 429: 'RATE_LIMITED', 502: 'SERVICE_UNAVAILABLE', 503: 'SERVICE_UNAVAILABLE', 504: 'SERVICE_UNAVAILABLE' };

/** Milliseconds a Retry-After header asks for (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A random uuid v4 (Web Crypto: global in browsers and Node.js 20+). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

function isAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: string }).name === 'AbortError';
}

/** Sends requests and unwraps the envelope (see the module comment for the retry rules). */
export class Transport {
  readonly options: Readonly<TransportOptions>;

  constructor(options: TransportOptions = {}) {
    this.options = { ...options, url: (options.url ?? '').replace(/\/+$/, '') };
  }

  /** The absolute (or, without `url`, origin-relative) address of `path` with `query`. */
  url(path: string, query?: Record<string, QueryValue>): string {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) qs.append(k, String(v));
    const s = qs.toString();
    return `${this.options.url}${path}${s ? `?${s}` : ''}`;
  }

  /**
   * Sends `method path` and returns the envelope's data and meta. Throws QuireError for every
   * refusal and for a failure to get an answer (after the retries), and the signal's reason when
   * aborted.
   */
  async request<T, M = unknown>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<ApiResponse<T, M>> {
    return this.send<ApiResponse<T, M>>(method, path, options, async (res) => {
      const envelope = await readJson(res);
      if (res.ok && envelope && (envelope as { success?: unknown }).success === true) {
        const ok = envelope as { data: T; meta?: M | null };
        return {
          value: {
            data: ok.data,
            meta: ok.meta ?? null,
            status: res.status,
            etag: res.headers.get('ETag'),
            requestId: res.headers.get('X-Request-Id'),
            replayed: res.headers.get('Idempotent-Replayed') === 'true',
            headers: res.headers,
          },
        };
      }
      return { error: toError(res, envelope as ErrorEnvelope | null) };
    });
  }

  /**
   * Sends `method path` with the headers, idempotency and retries of `request`, and hands each
   * answer to `read`, which turns it into a value or a QuireError (retried like `request`'s on
   * 429, 503 and IDEMPOTENCY_KEY_IN_USE). For answers that are not the API envelope: GraphQL
   * (`{data, errors}`) and the SDL (text).
   */
  async send<T>(
    method: HttpMethod,
    path: string,
    options: RequestOptions,
    read: (res: Response) => Promise<{ value: T; error?: undefined } | { error: QuireError }>,
  ): Promise<T> {
    const o = this.options;
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (o.apiKey) headers['X-API-Key'] = o.apiKey;
    if (o.workspaceId) headers['X-Workspace-ID'] = o.workspaceId;
    Object.assign(headers, typeof o.headers === 'function' ? o.headers({ method, path }) : o.headers);
    Object.assign(headers, options.headers);
    if (options.ifMatch) headers['If-Match'] = options.ifMatch;
    const write = method !== 'GET';
    let key = options.idempotencyKey;
    if (key === undefined && write && o.idempotency !== false && path.startsWith('/api/v1/manage/')) key = newIdempotencyKey();
    if (key) headers['Idempotency-Key'] = key;
    let body: BodyInit | undefined;
    if (options.form) body = options.form;
    else if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const canRetry = !write || Boolean(key) || options.readOnly === true;
    const retries = canRetry ? Math.max(0, o.retries ?? 2) : 0;
    const doFetch = o.fetch ?? globalThis.fetch;
    const url = this.url(path, options.query);

    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await doFetch(url, { method, headers, body, credentials: o.credentials, signal: options.signal });
      } catch (err) {
        if (isAbort(err) || options.signal?.aborted) throw err;
        const failure = new QuireError({ code: 'NETWORK_ERROR', status: 0, message: `${method} ${path}: the server could not be reached`, cause: err });
        if (attempt < retries) {
          await sleep(this.backoff(attempt), options.signal);
          continue;
        }
        throw failure;
      }
      const answer = await read(res);
      if (answer.error === undefined) return answer.value;
      const error = answer.error;
      const retryable = RETRY_STATUSES.has(res.status) || (Boolean(key) && error.code === 'IDEMPOTENCY_KEY_IN_USE');
      if (retryable && attempt < retries) {
        const wait = error.retryAfterMs ?? this.backoff(attempt);
        if (wait <= (o.maxRetryDelayMs ?? 30_000)) {
          await sleep(wait, options.signal);
          continue;
        }
      }
      throw error;
    }
  }

  /** Exponential backoff with full jitter: up to retryDelayMs * 2^attempt, capped. */
  private backoff(attempt: number): number {
    const base = this.options.retryDelayMs ?? 250;
    const cap = this.options.maxRetryDelayMs ?? 30_000;
    return Math.min(cap, Math.round(base * 2 ** attempt * (0.5 + Math.random() / 2)));
  }
}

/** The answer's JSON body; null when it has none or it does not parse. */
export async function readJson(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 304) return null;
  try {
    return await res.json();
  } catch {
    return null;
  }
}

/** The QuireError of a refusal answered with the envelope (or without one: a proxy's page). */
export function toError(res: Response, envelope: ErrorEnvelope | null): QuireError {
  const retryAfterMs = parseRetryAfter(res.headers.get('Retry-After'));
  const traceId = envelope?.traceId ?? res.headers.get('X-Request-Id');
  if (!envelope || typeof envelope.code !== 'string') {
    return new QuireError({
      code: NO_ENVELOPE_CODES[res.status] ?? (res.status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_RESPONSE'),
      status: res.status,
      message: `The server answered ${res.status} without the API envelope`,
      traceId,
      retryAfterMs,
    });
  }
  return new QuireError({
    code: envelope.code,
    status: res.status,
    message: envelope.message ?? `The server answered ${res.status}`,
    traceId,
    details: envelope.errors ?? null,
    retryAfterMs,
  });
}
