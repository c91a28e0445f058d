/**
 * Response cache of the delivery API. A GET answered 200 is kept under deliveryCacheKey (what
 * the answer depends on: workspace, perspective, the key's scopes and content-type whitelist,
 * the operation and its arguments, not the key itself or the spelling of the URL), together
 * with the workspace revision it was computed under (the key's perspective's revision, which the
 * read model names: actorRevision in src/modules/read/resolver.ts; database triggers bump it on
 * every write that can change what the key reads) and the moment it stops being true on its own
 * (the workspace's next scheduled publication, D21). A later request with the same cache key, by
 * this key or another of the same workspace, perspective, scopes and whitelist, is served from
 * memory only while both still hold, so every instance sharing the database serves
 * fresh content on the next request after any write, and a scheduled item appears on time.
 *
 * Routes opt out with `config: { cache: false }` (preview tokens: their answer depends on a
 * token's lifetime). Memory is bounded by DELIVERY_CACHE_BYTES (config.deliveryCacheBytes, 0 turns
 * the cache off); least recently used responses go first. The bound counts what a response really
 * keeps alive: each body in memory of its own (ownedBytes) plus an estimate of its key and objects.
 *
 * HTTP caching and compression (D81, rules in src/http/http-cache.ts) happen here too, for every
 * delivery GET and HEAD answered 200, cached or not: a strong `ETag`, 304 on a matching
 * `If-None-Match`, `Cache-Control` by key type and DELIVERY_MAX_AGE, `Vary: X-API-Key,
 * Accept-Encoding`, and bodies over 1 KB in br or gzip as `Accept-Encoding` asks. A route may
 * name the arguments its answers depend on (`config.cacheArgs`, the GraphQL endpoint) and mark one
 * answer not to be kept by answering it with `Cache-Control: no-store`, which it then keeps. A cached
 * response keeps the hash of its identity bytes and its body in each coding asked for so far: the
 * requested one when it is stored, others on their first request (the identity bytes decoded from
 * a stored encoding when they were not kept), all counted against the bound, so a hit sends
 * stored bytes without hashing or compressing. Keeping only what was asked for matters: most
 * clients ask for br or gzip, whose bodies are a fifth to a quarter of the identity bytes of
 * delivery JSON. Error answers get `Cache-Control: no-store`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { stableStringify } from '../lib/json.js';
import { iso } from '../lib/time.js';
import type { Actor } from '../modules/auth/permissions.js';
import { addVary, bodyHash, decodeBody, encodeBody, entityTagFor, MIN_COMPRESS_BYTES, negotiateCoding, notModifiedTag, type Coding } from './http-cache.js';
import { nextScheduledAt } from '../modules/publishing/scheduler-repository.js';
import { registerAnswerTags, setTagHeaders } from './cache-tags.js';
import { perspectiveOf } from '../modules/read/perspective.js';
import type { DeliveryReplay } from './delivery-replay.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * false: never serve this route's responses from the delivery cache; their answers also get
     * `Cache-Control: private, no-store` (they depend on more than the URL and the content, e.g.
     * a preview token's lifetime).
     */
    cache?: boolean;
    /**
     * The arguments this route's GET answers depend on, in place of its path parameters and query
     * string as they are (the GraphQL endpoint: the query's hash, its variables, operationName,
     * the media types accepted); null: this request's answer is not cached.
     */
    cacheArgs?: (request: FastifyRequest) => { params: unknown; query: unknown } | null;
  }
}

/**
 * The cache key of a delivery answer: everything the answer depends on besides the content (whose
 * changes the revision catches). The workspace; the perspective (published, working, or the
 * release read with `?release`, whose answers the release's writes invalidate through
 * `draft_revision`, migration 025); the
 * key's effective scopes and content-type whitelist, which decide which types a listing, the
 * schema or a sync includes (both as sets, so their order does not matter); the operation (the
 * route's pattern); and its arguments (path parameters and query, objects with sorted keys, so
 * `?a=1&b=2` and `?b=2&a=1` share an entry; the order of a repeated parameter's values is kept).
 * The key's id is not part of it: no delivery answer names the key (cursors and sync tokens are
 * bound to the query, workspace and visibility, not to a key), so keys with the same perspective,
 * scopes and whitelist share answers.
 */
export function deliveryCacheKey(
  actor: Pick<Actor, 'workspaceId' | 'keyClass' | 'environment' | 'scopes' | 'contentTypes'>,
  operation: string,
  args: { params: unknown; query: unknown },
): string {
  return `${rightsPart(actor)}${operation}\n${flatArgsKey(args.params) ?? stableStringify(args.params)}\n${flatArgsKey(args.query) ?? stableStringify(args.query)}`;
}

/**
 * The part of a cache key an actor gives (workspace, perspective, scopes and whitelist as sets),
 * kept per actor object: a delivery key's actor is resolved once and reused by every request
 * until the key or the workspace changes (src/modules/auth/key-cache.ts), so a cache hit sorts
 * nothing.
 */
const rightsParts = new WeakMap<object, string>();
function rightsPart(actor: Pick<Actor, 'workspaceId' | 'keyClass' | 'environment' | 'scopes' | 'contentTypes'>): string {
  let part = rightsParts.get(actor);
  if (part === undefined) {
    const scopes = [...actor.scopes].sort().join(' ');
    const whitelist = [...actor.contentTypes].sort().join(' ');
    part = `${actor.workspaceId}\n${perspectiveOf(actor)}\n${scopes}\n${whitelist}\n`;
    rightsParts.set(actor, part);
  }
  return part;
}

/**
 * A canonical string for an object of strings or lists of strings (path parameters and a parsed
 * query string: the form every REST delivery request has): keys sorted, every key and value
 * prefixed by its length (a list by its count), so no two different objects give the same
 * string. Null for anything else (the caller then uses stableStringify, which handles any JSON).
 * It runs on every cache hit, hence no JSON.stringify with a replacer (microseconds a call).
 */
function flatArgsKey(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length > 1) keys.sort(byCodeUnits);
  let out = '';
  for (const key of keys) {
    const v = record[key];
    out += `${key.length}:${key}`;
    if (typeof v === 'string') out += `=${v.length}:${v}`;
    else if (Array.isArray(v)) {
      out += `[${v.length}]`;
      for (const item of v) {
        if (typeof item !== 'string') return null;
        out += `${item.length}:${item}`;
      }
    } else return null;
  }
  return out;
}

/** Orders strings by UTF-16 code units, as Array#sort does by default, without its string conversions. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The longest a response is kept without being asked for. */
const MAX_AGE_MS = 5 * 60_000;

/**
 * What a cached response holds besides its bodies and its key: the entry, its Buffer objects and
 * its Map slot. Measured with a heap snapshot after `npm run bench:scale`: 4,812 cached responses
 * retained 5.0 MiB beyond their bodies' 32.0 MiB, about 1 KiB each with their keys.
 */
export const ENTRY_OVERHEAD_BYTES = 1024;

/**
 * One answer body: the length and hash (the entity tag) of its identity bytes, and the body in
 * each coding made so far; at least one of them is present.
 */
export interface Representation {
  length: number;
  hash: string;
  identity?: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

const CODINGS = ['identity', 'br', 'gzip'] as const;

/** A response to keep: its bodies, and the workspace revision and moment it is valid until. */
export interface ResponseToKeep extends Representation {
  revision: number;
  validUntil: number;
  contentType: string;
  /** The `Vary` the route answered with, sent again with each hit (the cache adds its own names). */
  vary?: string;
  /** The answer's cache tags (src/http/cache-tags.ts), sent again with each hit. */
  tags?: readonly string[];
}

/** A response as ResponseCache keeps it. */
export interface CachedResponse extends ResponseToKeep {
  /** Its bodies, its key and ENTRY_OVERHEAD_BYTES, as counted against the cache's bound. */
  size: number;
}

interface WorkspaceHorizon {
  revision: number;
  computedAt: number;
  until: number;
}

/**
 * `Cache-Control` of a delivery answer (D81): preview tokens (routes with `cache: false`)
 * `private, no-store`; preview keys (the working perspective, or a release with `?release`)
 * `private, no-cache` (drafts never in a shared cache, the browser revalidates with the ETag); production keys `no-cache`, or
 * `public, max-age=N` with DELIVERY_MAX_AGE.
 */
function cacheControlOf(ctx: Context, request: FastifyRequest): string {
  if (request.routeOptions.config?.cache === false) return 'private, no-store';
  if (request.actor && perspectiveOf(request.actor) !== 'published') return 'private, no-cache';
  const maxAge = ctx.config.deliveryMaxAge;
  return maxAge === null ? 'no-cache' : `public, max-age=${maxAge}`;
}

/** The coding to answer `request` in, for an identity body of `length` bytes. */
function codingFor(request: FastifyRequest, length: number): Coding {
  return length > MIN_COMPRESS_BYTES ? negotiateCoding(request.headers['accept-encoding']) : 'identity';
}

/**
 * The body of `rep` in `coding`: the stored one, else one made now from the identity bytes
 * (decoded from a stored encoding when identity is not kept) and handed to `remember`.
 */
async function bodyIn(rep: Representation, coding: Coding, remember?: (coding: Coding, bytes: Buffer) => void): Promise<Buffer> {
  const stored = rep[coding];
  if (stored) return stored;
  const identity = rep.identity ?? (rep.br ? await decodeBody(rep.br, 'br', rep.length) : await decodeBody(rep.gzip!, 'gzip', rep.length));
  const bytes = coding === 'identity' ? identity : await encodeBody(identity, coding);
  remember?.(coding, bytes);
  return bytes;
}

/**
 * Sets the D81 headers for `rep` on a 200 answer and returns the bytes to send: null with status
 * 304 when `If-None-Match` names a current tag, else the body in the negotiated coding (made now
 * if `rep` does not hold it, and then handed to `remember`, so a cached response keeps it).
 */
async function represent(
  ctx: Context,
  request: FastifyRequest,
  reply: FastifyReply,
  rep: Representation,
  remember?: (coding: Coding, bytes: Buffer) => void,
): Promise<Buffer | null> {
  reply.header('Cache-Control', cacheControlOf(ctx, request));
  addVary(reply, 'X-API-Key', 'Accept-Encoding');
  const coding = codingFor(request, rep.length);
  const tag = entityTagFor(rep.hash, coding);
  const matched = notModifiedTag(request.headers['if-none-match'], rep.hash, tag);
  if (matched) {
    reply.code(304).header('ETag', matched);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return null;
  }
  reply.header('ETag', tag);
  if (coding !== 'identity') reply.header('Content-Encoding', coding);
  return bodyIn(rep, coding, remember);
}

/**
 * `bytes` in memory of their own, exactly their size: the buffer itself when it already is, else a
 * copy. zlib returns a view into its 16 KiB output chunk and `Buffer.from` of a short string a view
 * into a shared 8 KiB pool; a cache keeping such a view keeps the whole chunk alive, which made a
 * cache counting 32 MiB of bodies hold about 100 MiB (measured with `npm run bench:scale`).
 */
export function ownedBytes(bytes: Buffer): Buffer {
  if (bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.length) return bytes;
  const copy = Buffer.allocUnsafeSlow(bytes.length);
  bytes.copy(copy);
  return copy;
}

/**
 * The cached responses of one app, least recently used first, within `maxBytes`: each response
 * counts its bodies, its key and ENTRY_OVERHEAD_BYTES, and every body it keeps is ownedBytes.
 * A response whose identity body is larger than a sixteenth of the bound is not kept (it would
 * evict many others).
 */
export class ResponseCache {
  readonly #responses = new Map<string, CachedResponse>();
  /** When each entry was last moved to the end of #responses, in placements (see get). */
  readonly #placedAt = new WeakMap<CachedResponse, number>();
  #placed = 0;
  #bytes = 0;

  constructor(readonly maxBytes: number) {}

  /** Bytes counted against maxBytes now. */
  get bytes(): number {
    return this.#bytes;
  }

  get size(): number {
    return this.#responses.size;
  }

  /** Whether a response with an identity body of `length` bytes would be kept. */
  accepts(length: number): boolean {
    return length <= this.maxBytes / 16 && this.maxBytes > 0;
  }

  /**
   * The response under `key`, moved among the most recently used unless it is there already;
   * undefined when none. Map order is the eviction order; an entry is moved to its end unless it
   * is among the last half of the entries placed there (`#placed` counts placements), so a hot
   * answer costs one Map lookup per hit instead of a delete and an insert, and what eviction takes
   * first was still not used within the last half of the cache's placements.
   */
  get(key: string): CachedResponse | undefined {
    const hit = this.#responses.get(key);
    if (hit && this.#placed - (this.#placedAt.get(hit) ?? 0) >= Math.floor(this.#responses.size / 2)) {
      this.#responses.delete(key);
      this.#responses.set(key, hit);
      this.#placedAt.set(hit, ++this.#placed);
    }
    return hit;
  }

  /** Keeps `response` under `key` (replacing any) unless accepts() refuses it; returns the kept entry or null. */
  set(key: string, response: ResponseToKeep): CachedResponse | null {
    this.drop(key);
    if (!this.accepts(response.length)) return null;
    const entry: CachedResponse = { ...response, size: key.length + ENTRY_OVERHEAD_BYTES };
    for (const coding of CODINGS) {
      const body = response[coding];
      if (body) {
        entry[coding] = ownedBytes(body);
        entry.size += body.length;
      }
    }
    this.#responses.set(key, entry);
    this.#placedAt.set(entry, ++this.#placed);
    this.#bytes += entry.size;
    this.#evict();
    return this.#responses.get(key) === entry ? entry : null;
  }

  /** Adds the body in `coding` to `entry`, if it is still the response cached under `key`. */
  remember(key: string, entry: CachedResponse, coding: Coding, body: Buffer): void {
    if (this.#responses.get(key) !== entry || entry[coding]) return;
    entry[coding] = ownedBytes(body);
    entry.size += body.length;
    this.#bytes += body.length;
    this.#evict();
  }

  drop(key: string): void {
    const hit = this.#responses.get(key);
    if (hit) {
      this.#bytes -= hit.size;
      this.#responses.delete(key);
    }
  }

  /**
   * The bytes the cached responses keep alive: the full memory behind each body (a view keeps
   * its whole buffer) plus each key and ENTRY_OVERHEAD_BYTES. Equal to `bytes` when every body
   * owns its memory.
   */
  heldBytes(): number {
    let held = 0;
    for (const [key, entry] of this.#responses) {
      held += key.length + ENTRY_OVERHEAD_BYTES;
      for (const coding of CODINGS) held += entry[coding]?.buffer.byteLength ?? 0;
    }
    return held;
  }

  #evict(): void {
    while (this.#bytes > this.maxBytes && this.#responses.size > 0) this.drop(this.#responses.keys().next().value as string);
  }
}

/** Request spellings whose cache key registerDeliveryCache remembers, the oldest forgotten first. */
const SPELLINGS = 2_000;
/** Longest URL (path and query) whose spelling is remembered, in characters. */
const SPELLING_MAX_URL = 2_048;

/**
 * Adds the response cache and the D81 headers to the delivery plugin `app` (hooks; see above).
 * With `replay`, answers served from the cache are remembered for src/http/delivery-replay.ts; a
 * hook that adds headers to delivery answers must therefore run before this plugin's onSend hook.
 */
export function registerDeliveryCache(app: FastifyInstance, ctx: Context, replay?: DeliveryReplay): void {
  const cache = new ResponseCache(ctx.config.deliveryCacheBytes);
  replay?.attach(cache);
  const answerTags = registerAnswerTags(app);
  const horizons = new Map<string, WorkspaceHorizon>();

  const rememberFor = (key: string, entry: CachedResponse) => (coding: Coding, body: Buffer) => cache.remember(key, entry, coding, body);

  // Taken in onRequest, before validation coerces and defaults the query in place, so the
  // answer is stored under the key its lookup used; null when the route's cacheArgs refuses it.
  const keys = new WeakMap<FastifyRequest, string | null>();
  // A client repeating a request spells it the same way, so the key a spelling gave is kept
  // (SPELLINGS of them, URLs up to SPELLING_MAX_URL): the key depends on nothing but the actor's
  // rights, the route, the URL's path and query, and `Accept` for routes with cacheArgs (the
  // GraphQL endpoint, which hashes its query); a hit then neither hashes nor sorts its arguments.
  const spellings = new Map<string, string | null>();
  const cacheKey = (request: FastifyRequest): string | null => {
    let key = keys.get(request);
    if (key === undefined) {
      const argsOf = request.routeOptions.config?.cacheArgs;
      const spelling =
        request.url.length <= SPELLING_MAX_URL
          ? `${rightsPart(request.actor)}${request.routeOptions.url}\n${request.url}${argsOf ? `\n${request.headers.accept ?? ''}` : ''}`
          : null;
      key = spelling === null ? undefined : spellings.get(spelling);
      if (key === undefined) {
        const args = argsOf ? argsOf(request) : { params: request.params ?? {}, query: request.query ?? {} };
        key = args === null ? null : deliveryCacheKey(request.actor, request.routeOptions.url!, args);
        if (spelling !== null) {
          if (spellings.size >= SPELLINGS) spellings.delete(spellings.keys().next().value as string);
          spellings.set(spelling, key);
        }
      }
      keys.set(request, key);
    }
    return key;
  };
  const cacheable = (request: FastifyRequest) =>
    request.method === 'GET' &&
    request.routeOptions.url !== undefined &&
    request.routeOptions.config?.cache !== false &&
    request.actor?.revision !== undefined &&
    cacheKey(request) !== null;

  /** When responses of this workspace computed now stop being true without a write. */
  const horizon = async (workspaceId: string, revision: number, now: number): Promise<number> => {
    const known = horizons.get(workspaceId);
    if (known && known.revision === revision && now < known.until && now - known.computedAt < MAX_AGE_MS) return known.until;
    const next = await nextScheduledAt(ctx.db, workspaceId, iso(new Date(now)));
    const until = Math.min(now + MAX_AGE_MS, next ? Date.parse(next) : Infinity);
    horizons.set(workspaceId, { revision, computedAt: now, until });
    return until;
  };

  // Runs after the auth hook (registered first), so request.actor and its revision are known.
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!cacheable(request)) return;
    const key = cacheKey(request)!;
    const hit = cache.get(key);
    if (!hit) return;
    if (hit.revision !== request.actor.revision || ctx.clock().getTime() >= hit.validUntil) {
      cache.drop(key);
      return;
    }
    reply.header('X-Cache', 'HIT');
    if (hit.vary) reply.header('Vary', hit.vary);
    if (hit.tags) setTagHeaders(reply, hit.tags);
    reply.code(200).type(hit.contentType);
    const body = await represent(ctx, request, reply, hit, rememberFor(key, hit));
    return reply.send(body ?? undefined);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (reply.getHeader('X-Cache') === 'HIT') {
      const key = replay && keys.get(request);
      const hit = key ? cache.get(key) : undefined;
      if (hit) replay!.remember(request, reply, key!, hit.hash);
      return payload;
    }
    if (reply.statusCode !== 200) {
      if (reply.statusCode >= 400) reply.header('Cache-Control', 'no-store');
      return payload;
    }
    const tags = answerTags(request);
    if (tags) setTagHeaders(reply, tags);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || typeof payload !== 'string') return payload;
    const identity = Buffer.from(payload, 'utf8');
    const rep: Representation = { length: identity.length, hash: bodyHash(identity), identity };
    // The route said its answer must not be kept (a GraphQL answer holding errors): it is still
    // tagged and compressed, and keeps its Cache-Control.
    if (reply.getHeader('cache-control') === 'no-store') {
      const bytes = await represent(ctx, request, reply, rep);
      reply.header('Cache-Control', 'no-store');
      return bytes;
    }
    if (!cacheable(request) || !cache.accepts(identity.length)) return represent(ctx, request, reply, rep);
    const now = ctx.clock().getTime();
    const revision = request.actor.revision as number;
    const validUntil = await horizon(request.actor.workspaceId, revision, now);
    if (validUntil <= now) return represent(ctx, request, reply, rep);
    const key = cacheKey(request)!;
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    const vary = reply.getHeader('vary');
    // Kept: the body in the coding this request asks for, not the identity bytes it came from.
    const coding = codingFor(request, identity.length);
    const body = await bodyIn(rep, coding);
    const entry = cache.set(key, {
      length: rep.length,
      hash: rep.hash,
      [coding]: body,
      revision,
      validUntil,
      contentType,
      ...(vary === undefined ? {} : { vary: String(vary) }),
      ...(tags ? { tags } : {}),
    });
    if (!entry) return represent(ctx, request, reply, { ...rep, [coding]: body });
    reply.header('X-Cache', 'MISS');
    return represent(ctx, request, reply, entry, rememberFor(key, entry));
  });
}
