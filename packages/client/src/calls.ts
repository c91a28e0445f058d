/**
 * What every management method shares: its options (`ifMatch`, `idempotencyKey`, `signal`), the
 * request options they become, path segments, and the unwrapping of single records and list
 * pages (docs/api.md "The envelope", "Pagination").
 */
import { followPages, listPage } from './lists.js';
import type { ApiResponse, HttpMethod, QueryValue, RequestOptions, Transport } from './transport.js';
import type { ListPage } from './types.js';
import type { PageMeta } from './wire.js';

/** Options of every management write. */
export interface WriteOptions {
  /** Only write if the item's ETag is still this one (else 412 PRECONDITION_FAILED). */
  ifMatch?: string | null;
  /** The request's Idempotency-Key (default: a new uuid, reused by the automatic retries). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface ReadOptions {
  signal?: AbortSignal;
}

/** The request options of a write. */
export function write(options: WriteOptions | undefined, extra: Partial<RequestOptions> = {}): RequestOptions {
  return { ifMatch: options?.ifMatch, idempotencyKey: options?.idempotencyKey, signal: options?.signal, ...extra };
}

/** A path segment, encoded. */
export const seg = encodeURIComponent;

/** A query object as the transport takes it (its values strings, numbers, booleans or absent). */
export function queryOf(query: object | undefined): Record<string, QueryValue> {
  return { ...(query as Record<string, QueryValue> | undefined) };
}

/** `data` of a read. */
export async function readData<T>(t: Transport, path: string, query?: object, options?: ReadOptions): Promise<T> {
  return (await t.request<T>('GET', path, { query: queryOf(query), signal: options?.signal })).data;
}

/** One page of a list read. */
export async function readPage<T>(t: Transport, path: string, query?: object, options?: ReadOptions): Promise<ListPage<T>> {
  const res = await t.request<T[], PageMeta>('GET', path, { query: queryOf(query), signal: options?.signal });
  return listPage(res.data, res.meta);
}

/** `data` of a write (`body` sent as JSON when given). */
export async function writeData<T>(t: Transport, method: Exclude<HttpMethod, 'GET'>, path: string, body?: unknown, options?: WriteOptions): Promise<T> {
  const res: ApiResponse<T> = await t.request<T>(method, path, write(options, body === undefined ? {} : { body }));
  return res.data;
}

/**
 * `data` of a write that answers a secret shown once (a webhook's signing secret, an API key's
 * value). The server keeps no replay of such answers, so the write goes without an
 * Idempotency-Key and is never resent: a resend would make a second webhook or key, or rotate
 * twice and drop the secret receivers still hold, and its answer would be lost.
 */
export async function writeOnce<T>(t: Transport, path: string, body: unknown, options?: WriteOptions): Promise<T> {
  return (await t.request<T>('POST', path, { ...write(options, { body }), idempotencyKey: false })).data;
}

/**
 * A collection of records under `base` with ids (`{base}/{id}`): offset-paged lists (`page`,
 * `limit` and filters in `Q`), one record, and deletion. Resources add their own writes.
 */
export class Collection<T, Q extends { page?: number }> {
  constructor(
    protected readonly t: Transport,
    protected readonly base: string,
  ) {}

  /** The path of one record, or of something under it (`rest`). */
  protected at(id: string, rest = ''): string {
    return `${this.base}/${seg(id)}${rest}`;
  }

  /** One page of the list. */
  async list(query: Q = {} as Q, options?: ReadOptions): Promise<ListPage<T>> {
    return readPage(this.t, this.base, query, options);
  }

  /** Every record matching `query`, page after page. */
  iterate(query: Omit<Q, 'page'> = {} as Omit<Q, 'page'>, options?: ReadOptions): AsyncGenerator<T, void, undefined> {
    return followPages((page) => this.list({ ...query, page } as Q, options));
  }

  /** One record by id (404 NOT_FOUND when the workspace has none). */
  async get(id: string, options?: ReadOptions): Promise<T> {
    return readData(this.t, this.at(id), undefined, options);
  }

  /** Deletes a record. */
  async delete(id: string, options?: WriteOptions): Promise<void> {
    await writeData(this.t, 'DELETE', this.at(id), undefined, options);
  }
}
