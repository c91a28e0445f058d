/**
 * Serving media files at their URL (issue 4 items 4 and 5): GET /media/files/<storage key>.
 * Files are public, like the asset URLs of other headless CMSes: whoever has the URL may fetch
 * it, and URLs are unguessable (they contain the asset's UUID). Both storage backends are
 * streamed through Quire (no redirect), so headers, transforms and caching are the same.
 *
 * - The key must be the current key of a live (not deleted) asset: an old URL after a folder
 *   move, or a deleted asset, answers 404.
 * - Responses carry `Cache-Control: public, max-age=31536000, immutable` (a URL's bytes never
 *   change: a new upload is a new id), a strong ETag (304 on If-None-Match) and `nosniff`. The
 *   route adds the Content-Security-Policy of every media file (`default-src 'none'`, `sandbox`:
 *   an SVG or PDF visited on this origin runs no script; src/http/security-headers.ts).
 * - Originals honour a single `Range` (video seeking); unsatisfiable or multiple ranges get the
 *   whole file (RFC 9110 lets a server ignore Range).
 * - With transform parameters (src/modules/media/transform.ts) the derived image is looked up in
 *   storage under `_derived/…/<variant>`; on a miss it is rendered once (concurrent identical
 *   requests share one rendering; at most one rendering per core runs at a time, per context:
 *   ctx.caches.renders), stored, and served. `X-Cache: HIT|MISS` tells which. Sizes are bounded
 *   and the stored results held to a count per asset and a total budget (transform.ts
 *   boundTransform, variants.ts).
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import type { Readable } from 'node:stream';
import type { RenderState } from '../../caches.js';
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import type { ByteRange } from '../../storage/index.js';
import { derivedPrefix, mediaIdOfKey } from './locations.js';
import { PDF_MIME, RASTER_IMAGE_TYPES, SVG_MIME, type MediaKind } from './model.js';
import { findLiveMediaById, type MediaRecord } from './repository.js';
import { boundTransform, mimeOfFormat, parseTransform, renderVariant, variantName, type TransformQuery } from './transform.js';
import { recordVariant, touchVariant } from './variants.js';

export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

export interface FileRequest {
  /** The path after /media/files/. */
  key: string;
  query: TransformQuery;
  ifNoneMatch?: string;
  range?: string;
}

export interface FileResponse {
  status: 200 | 206 | 304;
  headers: Record<string, string>;
  body: Readable | Buffer | null;
}

function kindOf(mime: string): MediaKind {
  if (mime === SVG_MIME) return 'svg';
  if (RASTER_IMAGE_TYPES[mime]) return 'image';
  if (mime === PDF_MIME) return 'pdf';
  return 'video';
}

function etagOf(media: MediaRecord, variant: string | null): string {
  const tag = createHash('sha256')
    .update(`${media.id}\n${media.storage_key}\n${media.size}\n${variant ?? ''}`)
    .digest('base64url')
    .slice(0, 27);
  return `"${tag}"`;
}

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });
}

/** A single satisfiable `bytes=` range of an object of `size` bytes, else null (serve it whole). */
export function parseRange(header: string | undefined, size: number): ByteRange | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!m || size === 0 || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) return null;
  return { start, end };
}

function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * At most one rendering per core at a time: each decodes a whole image (up to 100 megapixels),
 * so a burst of cache misses queues in `state` instead of multiplying memory and thrashing the CPU.
 */
const MAX_RENDERS = Math.max(1, os.availableParallelism());

async function withRenderSlot<T>(state: RenderState, fn: () => Promise<T>): Promise<T> {
  if (state.running >= MAX_RENDERS) await new Promise<void>((resolve) => state.queue.push(resolve));
  else state.running += 1;
  try {
    return await fn();
  } finally {
    const next = state.queue.shift();
    if (next) next();
    else state.running -= 1;
  }
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Resolves a file request to a response (status, headers, body); 404 NOT_FOUND when none. */
export async function serveMediaFile(ctx: Context, req: FileRequest): Promise<FileResponse> {
  const id = mediaIdOfKey(req.key);
  const media = id ? await findLiveMediaById(ctx.db, id) : null;
  if (!media || media.storage_key !== req.key) throw notFound('file');
  const kind = kindOf(media.mime_type);
  const asked = parseTransform(req.query, kind, media.mime_type);
  const spec = asked ? boundTransform(asked, media, kind, ctx.config.mediaTransformSizes) : null;
  const variant = spec ? variantName(spec, { x: media.focal_x, y: media.focal_y }) : null;
  const etag = etagOf(media, variant);
  const headers: Record<string, string> = {
    'cache-control': IMMUTABLE_CACHE,
    etag,
    'x-content-type-options': 'nosniff',
  };
  if (matches(req.ifNoneMatch, etag)) return { status: 304, headers, body: null };
  const storage = ctx.storage.backend();

  if (!spec || !variant) {
    const range = parseRange(req.range, media.size);
    const object = await storage.get(media.storage_key, range ?? undefined);
    if (!object) {
      ctx.log.error({ key: media.storage_key, id: media.id }, 'media file missing from storage');
      throw notFound('file');
    }
    headers['content-type'] = media.mime_type;
    headers['accept-ranges'] = 'bytes';
    // Documents a browser would run (SVG, PDF) are sandboxed by the route's CSP and, unless the
    // configured policy says inline, downloaded rather than opened on this origin when visited
    // directly; <img> and <a download> ignore the disposition (issue 8).
    const active = kind === 'svg' || kind === 'pdf';
    headers['content-disposition'] = contentDisposition(
      active && ctx.config.mediaActiveDisposition === 'attachment' ? 'attachment' : 'inline',
      media.original_name,
    );
    if (object.range) {
      headers['content-range'] = `bytes ${object.range.start}-${object.range.end}/${object.totalSize}`;
      headers['content-length'] = String(object.range.end - object.range.start + 1);
      return { status: 206, headers, body: object.body };
    }
    headers['content-length'] = String(object.totalSize);
    return { status: 200, headers, body: object.body };
  }

  const derivedKey = `${derivedPrefix(media.workspace_id, media.id)}/${variant}`;
  headers['content-type'] = mimeOfFormat(spec.fm);
  const renders = ctx.caches.renders;
  // A rendering under way is awaited before storage is read: its file may be half written.
  let rendering = renders.inFlight.get(derivedKey);
  if (!rendering) {
    const cached = await storage.get(derivedKey);
    if (cached) {
      await touchVariant(ctx, { media_id: media.id, variant, storage_key: derivedKey, size: cached.totalSize });
      headers['content-length'] = String(cached.totalSize);
      headers['x-cache'] = 'HIT';
      return { status: 200, headers, body: cached.body };
    }
    rendering = renders.inFlight.get(derivedKey);
  }
  if (!rendering) {
    rendering = withRenderSlot(renders, async () => {
      const original = await storage.get(media.storage_key as string);
      if (!original) throw notFound('file');
      const output = await renderVariant(await readAll(original.body), spec, media);
      await storage.put(derivedKey, output, { contentType: headers['content-type'] });
      await recordVariant(ctx, { media_id: media.id, variant, storage_key: derivedKey, size: output.length });
      return output;
    }).finally(() => renders.inFlight.delete(derivedKey));
    renders.inFlight.set(derivedKey, rendering);
  }
  const output = await rendering;
  headers['content-length'] = String(output.length);
  headers['x-cache'] = 'MISS';
  return { status: 200, headers, body: output };
}
