/**
 * HTTP caching and compression of delivery answers (docs/front-ends.md "HTTP caching and
 * compression" (D81)): strong entity tags, `If-None-Match`, `Accept-Encoding` negotiation
 * and the compressors. Pure functions; src/http/delivery-cache.ts applies them to every delivery
 * GET and keeps the encoded bodies with its cached responses.
 *
 * Entity tags: `"<h>"` for the identity body, where h is the SHA-1 of its bytes in base64url, and
 * `"<h>-br"` / `"<h>-gz"` for its brotli and gzip encodings: a strong tag names one exact byte
 * sequence, so each content-coding has its own (RFC 9110 8.8.3). All three derive from the same
 * identity bytes, so `If-None-Match` carrying any of them means the client holds current content.
 */
import { hash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';

/** The content-codings delivery answers come in. */
export type Coding = 'br' | 'gzip' | 'identity';

/** Bodies of this many bytes or fewer are sent as they are: compressing them saves too little. */
export const MIN_COMPRESS_BYTES = 1024;

/**
 * Brotli quality 4 and gzip level 6: measured on delivery JSON (`npm run bench`, bench/run.js), quality
 * 4 compresses a list of posts within a few percent of quality 11 at a small fraction of its cost,
 * and compressed bodies of cached answers are made once per cached response and coding.
 */
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;
/** Bodies up to this size are compressed on the event loop (tens of µs); larger ones on the thread pool. */
const SYNC_COMPRESS_BYTES = 64 * 1024;

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);
const unbrotliAsync = promisify(zlib.brotliDecompress);
const gunzipAsync = promisify(zlib.gunzip);

/** The strong entity-tag hash of an identity body (SHA-1, base64url; not a security boundary). */
export function bodyHash(body: Buffer): string {
  return hash('sha1', body, 'base64url');
}

/** The quoted entity tag of the `coding` representation of a body whose hash is `h`. */
export function entityTagFor(h: string, coding: Coding): string {
  return coding === 'br' ? `"${h}-br"` : coding === 'gzip' ? `"${h}-gz"` : `"${h}"`;
}

const TAG = /[\s,]*(?:(\*)|(?:W\/)?"([^"]*)")\s*(?:,|$)/y;

/**
 * Evaluates `If-None-Match` against a body whose hash is `h` (RFC 9110 13.1.2: weak comparison,
 * `*` matches any current representation). Returns the entity tag to answer 304 with (the one the
 * client named, so its stored response is the one refreshed; for `*`, `fallback`), or null when
 * the request must get the full answer. A malformed header counts as no match.
 */
export function notModifiedTag(ifNoneMatch: string | string[] | undefined, h: string, fallback: string): string | null {
  if (ifNoneMatch === undefined) return null;
  const header = Array.isArray(ifNoneMatch) ? ifNoneMatch.join(',') : ifNoneMatch;
  TAG.lastIndex = 0;
  while (TAG.lastIndex < header.length) {
    const m = TAG.exec(header);
    if (!m) return null;
    if (m[1] === '*') return fallback;
    const opaque = m[2];
    if (opaque === h || opaque === `${h}-br` || opaque === `${h}-gz`) return `"${opaque}"`;
  }
  return null;
}

const QVALUE = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

/**
 * The coding to send, chosen from an `Accept-Encoding` header (RFC 9110 12.5.3): the highest
 * q-value among br, gzip and identity, br first on a tie, then gzip. A coding not listed takes the
 * q of `*` if present, otherwise it is not acceptable, except identity, which stays acceptable
 * (least preferred) unless `identity;q=0` or `*;q=0` excludes it. No header, an empty header or
 * nothing acceptable: identity (rather than 406, which no client handles usefully).
 */
export function negotiateCoding(acceptEncoding: string | string[] | undefined): Coding {
  if (acceptEncoding === undefined) return 'identity';
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding;
  return chooseCoding(header);
}

function chooseCoding(header: string): Coding {
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    let value = 1;
    for (const p of params) {
      const m = QVALUE.exec(p.replace(/\s+/g, ''));
      if (m) value = Number(m[1]);
      else if (/^q=/i.test(p)) value = -1;
    }
    if (value < 0) continue; // a malformed q-value: the entry is ignored
    const coding = name.toLowerCase() === 'x-gzip' ? 'gzip' : name.toLowerCase();
    q.set(coding, Math.max(value, q.get(coding) ?? 0));
  }
  const star = q.get('*');
  const br = q.get('br') ?? star ?? 0;
  const gzip = q.get('gzip') ?? star ?? 0;
  const identity = q.get('identity') ?? star ?? 0.0001;
  const best = Math.max(br, gzip, identity);
  if (best <= 0) return 'identity';
  return br === best ? 'br' : gzip === best ? 'gzip' : 'identity';
}

/** The bytes of `body` in `coding` (identity: the body itself). */
export async function encodeBody(body: Buffer, coding: Coding): Promise<Buffer> {
  if (coding === 'identity') return body;
  const sync = body.length <= SYNC_COMPRESS_BYTES;
  if (coding === 'br') {
    const params = {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    };
    return sync ? zlib.brotliCompressSync(body, { params }) : brotliAsync(body, { params });
  }
  return sync ? zlib.gzipSync(body, { level: GZIP_LEVEL }) : gzipAsync(body, { level: GZIP_LEVEL });
}

/**
 * The identity bytes of `body`, encoded in `coding`; `length` is their size, which decides, as for
 * encodeBody, whether the work runs on the event loop or on the thread pool.
 */
export async function decodeBody(body: Buffer, coding: 'br' | 'gzip', length: number): Promise<Buffer> {
  const sync = length <= SYNC_COMPRESS_BYTES;
  if (coding === 'br') return sync ? zlib.brotliDecompressSync(body) : unbrotliAsync(body);
  return sync ? zlib.gunzipSync(body) : gunzipAsync(body);
}

/** Adds `names` to the reply's `Vary` header, keeping what is there and naming each once. */
export function addVary(reply: FastifyReply, ...names: string[]): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('Vary', names.join(', '));
    return;
  }
  const list =
    current === undefined
      ? []
      : String(current)
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const lower = new Set(list.map((s) => s.toLowerCase()));
  if (lower.has('*')) return;
  for (const n of names) if (!lower.has(n.toLowerCase())) list.push(n);
  reply.header('Vary', list.join(', '));
}
