/**
 * @quire/client: the official TypeScript client of Quire's delivery and management APIs, for
 * Node.js 20+ and browsers (global fetch, no Node.js built-ins).
 *
 * ```ts
 * const quire = createClient({ url: 'https://cms.example.com', apiKey: process.env.QUIRE_DELIVERY_KEY });
 * for await (const post of quire.entries.iterate('post', { sort: 'published_at:desc' })) console.log(post.data.title);
 * ```
 */
import { Delivery } from './delivery.js';
import { Live } from './live.js';
import { Management } from './manage.js';
import { Transport, type TransportOptions } from './transport.js';

/** Options of createClient (all optional; a key or a session is needed for most calls). */
export type ClientOptions = TransportOptions;

/** A Quire client: delivery reads at the top level, management under `manage`, raw requests with `request`. */
export class QuireClient extends Delivery {
  /** The management API (needs a management key or a Studio session). */
  readonly manage: Management;
  /** The transport: `request(method, path, options)` for endpoints without a method here. */
  readonly http: Transport;
  /** The Live Content API: `live.subscribe(handler)` (D142). */
  readonly live: Live;

  constructor(options: ClientOptions = {}) {
    const transport = new Transport(options);
    super(transport);
    this.http = transport;
    this.manage = new Management(transport);
    this.live = new Live(transport);
  }
}

/** A client for the server at `options.url` with `options.apiKey`. */
export function createClient(options: ClientOptions = {}): QuireClient {
  return new QuireClient(options);
}

export { QuireError, isQuireError, type GraphqlError, type QuireErrorCode, type QuireErrorDetail } from './errors.js';
export type { DocumentTypeDecoration, GraphqlDocumentNode, GraphqlOptions, GraphqlQuery, GraphqlResult } from './graphql.js';
export { Transport, parseRetryAfter, newIdempotencyKey } from './transport.js';
export type { ApiResponse, HeadersOption, HttpMethod, QueryValue, RequestOptions, TransportOptions } from './transport.js';
export { parseData } from './parse.js';
export { filterQuery, isSyncEntry, isSyncItem } from './delivery.js';
export type * from './delivery.js';
export type * from './manage.js';
export type * from './pages.js';
export type * from './releases.js';
export type * from './session.js';
export type * from './webhooks.js';
export type * from './workspace.js';
export type * from './query.js';
export type * from './types.js';
export type { UploadSource } from './upload.js';
export type { LiveEvent, LiveSubscribeOptions } from './live.js';
export type { PageMeta } from './wire.js';
export type { paths as ApiPaths } from './generated/openapi.js';
