/**
 * Replay of repeated delivery answers: the first hook of every request (src/app.ts) answers a GET
 * that repeats, byte for byte, a request the delivery cache has just answered from memory, with
 * the same status, headers and body, without running the CORS, authentication and cache hooks
 * again (docs/scaling.md "Repeated requests"). Those hooks cost more than the cached answer
 * itself: a hot GraphQL GET took 48 µs of server CPU through them against 33 µs replayed
 * (`npm run bench`, `gql-hot`).
 *
 * What a replay depends on is exactly what the answer and its headers depend on:
 * - the request: its URL, the key (by its SHA-256 digest, as the key cache knows it), and the
 *   `Accept`, `Accept-Encoding` and `Origin` headers (the GraphQL answer's media type, the body's
 *   coding, the CORS headers); a request with `If-None-Match` or `Range`, a HEAD or any method but
 *   GET takes the full path;
 * - the key: the key cache (src/modules/auth/key-cache.ts) must still hold the very actor the
 *   answer was served to, which it does only while the workspace's revision is unchanged (a
 *   revoked key, a changed role or any content write drops it), and the key must not have expired;
 * - the cached answer: still in the delivery cache, computed under the actor's current revision,
 *   valid until the workspace's next scheduled publication, with the same entity tag.
 * Anything else (a miss, a changed revision, a release read, whose actor is made per request)
 * falls through to the hooks, which answer as they always do. With per-key rate limits on the
 * delivery API (RATE_LIMIT_DELIVERY) nothing is replayed: every request must be counted.
 *
 * Memory: at most SPELLINGS remembered requests, each holding its header list and the cache key,
 * never a body (the body is the cache's, read at replay time, so eviction frees it), and the last
 * key digest of each open connection.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { cachedActor, cachedActorNow } from '../modules/auth/key-cache.js';
import type { CachedKey } from '../caches.js';
import { hashKey } from '../modules/auth/keys.js';
import type { Actor } from '../modules/auth/permissions.js';
import { iso } from '../lib/time.js';
import type { Coding } from './http-cache.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's replay of repeated delivery answers (its `replayed` count for tests and diagnostics). */
    deliveryReplay: DeliveryReplay;
  }
}

/** Requests remembered, the oldest forgotten first. */
const SPELLINGS = 2_000;
/** Longest URL (path and query) remembered, in characters. */
const MAX_URL = 2_048;
const PREFIX = '/api/v1/public/';
/** Headers never replayed: each request has its own id; Fastify sets the length of the body it sends. */
const OWN_HEADERS = new Set(['x-request-id', 'content-length']);

/** The part of the delivery cache a replay reads (src/http/delivery-cache.ts: ResponseCache). */
export interface ReplayableCache {
  get(key: string): { revision: number; validUntil: number; hash: string; identity?: Buffer; br?: Buffer; gzip?: Buffer } | undefined;
}

interface Remembered {
  /** The key cache's actor the answer was served to. */
  actor: Actor;
  cacheKey: string;
  hash: string;
  coding: Coding;
  headers: [string, string | number | string[]][];
}

/** Marks replayed requests, so the cache's onSend hook does not remember them again. */
const REPLAYED = Symbol('quire.replayed');

/**
 * Whether two strings are equal, in time that depends on their length only (a key presented on a
 * connection against the one presented before it).
 */
function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The remembered requests of one app and the cache they replay from. Created by buildApp; the
 * delivery cache attaches itself (attach) and remembers what it answered (remember).
 *
 * Remembered by URL, then key digest, then the three headers: a lookup hashes strings the request
 * already has instead of building one long key (this runs on every delivery GET). A connection
 * keeps the digest of the key it presented last, so a client repeating its key on a kept-alive
 * connection is not hashed again.
 */
export class DeliveryReplay {
  readonly #byUrl = new Map<string, Map<string, Map<string, Remembered>>>();
  #count = 0;
  readonly #digests = new WeakMap<object, { key: string; digest: string }>();
  #cache: ReplayableCache | null = null;
  /** Requests answered by replay since the app started (tests and diagnostics). */
  replayed = 0;

  constructor(private readonly ctx: Context) {}

  /** Whether replays happen at all: not with per-key delivery rate limits, nor without a cache. */
  get enabled(): boolean {
    return this.#cache !== null && this.ctx.config.rateLimitDelivery <= 0 && this.ctx.config.deliveryCacheBytes > 0;
  }

  attach(cache: ReplayableCache): void {
    this.#cache = cache;
  }

  /**
   * Answers `request` from a remembered request's headers and the cached body, when every
   * condition of the module comment holds; false (nothing sent) otherwise. The answer is given
   * at once where the key cache's revision check needs no wait (SQLite: cachedActorNow), else as
   * a promise; that promise rejects with what the revision check throws (a database that cannot
   * be reached), as the hooks would. A replay is the cheapest answer the server gives, and every
   * promise it does not make is a measurable share of it (docs/scaling.md "Repeated requests").
   */
  answer(request: FastifyRequest, reply: FastifyReply): boolean | Promise<boolean> {
    const byKey = this.#candidate(request) ? this.#byUrl.get(request.url) : undefined;
    if (byKey === undefined) return false;
    const digest = this.#digestOf(request);
    const variants = byKey.get(digest);
    const variant = variantOf(request);
    const remembered = variants?.get(variant);
    if (remembered === undefined) return false;
    const known = cachedActorNow(this.ctx, digest);
    if (known !== undefined) return this.#send(request, reply, remembered, variants!, variant, known);
    return cachedActor(this.ctx, digest).then((actor) => this.#send(request, reply, remembered, variants!, variant, actor));
  }

  /** Sends the remembered answer if `known` (the key cache's entry) and the cached body still hold; else forgets it. */
  #send(
    request: FastifyRequest,
    reply: FastifyReply,
    remembered: Remembered,
    variants: Map<string, Remembered>,
    variant: string,
    known: CachedKey | null,
  ): boolean {
    const entry = this.#cache!.get(remembered.cacheKey);
    const body = entry?.[remembered.coding];
    if (
      known === null ||
      known.actor !== remembered.actor ||
      (known.expiresAt !== null && known.expiresAt <= iso(this.ctx.clock())) ||
      entry === undefined ||
      body === undefined ||
      entry.hash !== remembered.hash ||
      entry.revision !== known.actor.revision ||
      this.ctx.clock().getTime() >= entry.validUntil
    ) {
      if (variants.delete(variant)) this.#count--;
      return false;
    }
    (request as unknown as Record<symbol, boolean>)[REPLAYED] = true;
    this.replayed++;
    reply.code(200);
    for (const [name, value] of remembered.headers) reply.header(name, value);
    reply.send(body);
    return true;
  }

  /**
   * Remembers how `request` was answered from the cache: its headers as they are now (the cache's
   * onSend hook, the last to set any), the cache key and entity tag of the body and its coding.
   * Only 200 answers to requests answer() would consider, served to `actor` as the key cache
   * holds it.
   */
  remember(request: FastifyRequest, reply: FastifyReply, cacheKey: string, hash: string): void {
    if (!this.enabled || reply.statusCode !== 200 || (request as unknown as Record<symbol, boolean>)[REPLAYED] || !this.#candidate(request)) return;
    const headers: Remembered['headers'] = [];
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && !OWN_HEADERS.has(name)) headers.push([name, value]);
    }
    const coding = String(reply.getHeader('content-encoding') ?? 'identity') as Coding;
    if (this.#count >= SPELLINGS) {
      // The URL remembered first goes, with every key and variant of it.
      const [oldest, byKey] = this.#byUrl.entries().next().value as [string, Map<string, Map<string, Remembered>>];
      for (const variants of byKey.values()) this.#count -= variants.size;
      this.#byUrl.delete(oldest);
    }
    let byKey = this.#byUrl.get(request.url);
    if (byKey === undefined) this.#byUrl.set(request.url, (byKey = new Map()));
    const digest = this.#digestOf(request);
    let variants = byKey.get(digest);
    if (variants === undefined) byKey.set(digest, (variants = new Map()));
    const variant = variantOf(request);
    if (!variants.has(variant)) this.#count++;
    variants.set(variant, { actor: request.actor, cacheKey, hash, coding, headers });
  }

  /** Whether answer() considers `request` at all (see the module comment). */
  #candidate(request: FastifyRequest): boolean {
    const h = request.headers;
    return (
      request.method === 'GET' &&
      request.url.length <= MAX_URL &&
      request.url.startsWith(PREFIX) &&
      typeof h['x-api-key'] === 'string' &&
      h['if-none-match'] === undefined &&
      h.range === undefined
    );
  }

  /** The SHA-256 digest of the request's key (hashKey), remembered per connection. */
  #digestOf(request: FastifyRequest): string {
    const key = (request.headers['x-api-key'] as string).trim();
    const socket = request.raw.socket as object | undefined;
    const last = socket && this.#digests.get(socket);
    if (last && sameSecret(last.key, key)) return last.digest;
    const digest = hashKey(key);
    if (socket) this.#digests.set(socket, { key, digest });
    return digest;
  }
}

/** The headers besides the key an answer depends on: media type, coding, origin. */
function variantOf(request: FastifyRequest): string {
  const h = request.headers;
  return `${h.accept ?? ''}\n${h['accept-encoding'] ?? ''}\n${h.origin ?? ''}`;
}
