/**
 * Image transforms on file URLs (issue 4 item 5): `?w=&h=&fit=&fm=&q=`.
 * - `w`, `h`: 1 to 4,000 pixels; with one of them the other follows the aspect ratio.
 * - `fit` (needs `w` or `h`; default `cover`): `cover` fills w×h and crops around the asset's
 *   focal point (centre when it has none), `contain` letterboxes, `fill` stretches, `inside`
 *   and `outside` keep the aspect ratio within / around the box.
 * - `fm`: `jpg`, `png`, `webp`, `avif`; default: the original's format (TIFF → JPEG, SVG and
 *   GIF → PNG).
 * - `q`: 1 to 100 for jpg, webp and avif (defaults 80, 80, 50); ignored for png.
 * Raster images and SVG can be transformed; a transform of a video or PDF answers 400.
 * Each distinct result has a canonical variant name, under which it is cached in storage.
 *
 * Bounds (issue 8: an anonymous client must not fill the disk or burn the CPU with one variant
 * per pixel; boundTransform): a requested width is rounded up to the next of the configured sizes
 * (MEDIA_TRANSFORM_SIZES) and the height follows the requested aspect ratio (a height alone is
 * rounded up likewise); `q` is rounded up to a multiple of 5; a raster image is never enlarged
 * (the box shrinks to fit the original, keeping its aspect ratio). Requests that round to the same
 * result share one variant.
 */
import { AppError, invalid, validationError, type ErrorDetail } from '../../errors.js';
import type { MediaKind } from './model.js';
import { loadSharp } from './sharp.js';

export const FITS = ['cover', 'contain', 'fill', 'inside', 'outside'] as const;
export const FORMATS = ['jpg', 'png', 'webp', 'avif'] as const;
export type Fit = (typeof FITS)[number];
export type OutputFormat = (typeof FORMATS)[number];
export const MAX_DIMENSION = 4000;
/** Largest source image (in pixels) a transform decodes: 100 megapixels. */
export const MAX_INPUT_PIXELS = 100_000_000;

/** The query parameters of a transform, as the route's schema let them through. */
export interface TransformQuery {
  w?: number;
  h?: number;
  fit?: string;
  fm?: string;
  q?: number;
}

export interface TransformSpec {
  w: number | null;
  h: number | null;
  fit: Fit;
  fm: OutputFormat;
  q: number | null;
}

const MIME_OF: Record<OutputFormat, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', avif: 'image/avif' };
const DEFAULT_QUALITY: Partial<Record<OutputFormat, number>> = { jpg: 80, webp: 80, avif: 50 };

/** The Content-Type of an output format. */
export function mimeOfFormat(fm: OutputFormat): string {
  return MIME_OF[fm];
}

/** The output format when `fm` is not given: the source's own where it is a web format. */
function defaultFormat(sourceMime: string): OutputFormat {
  switch (sourceMime) {
    case 'image/jpeg':
    case 'image/tiff':
      return 'jpg';
    case 'image/webp':
      return 'webp';
    case 'image/avif':
      return 'avif';
    default:
      return 'png';
  }
}

/**
 * The transform asked for by `query` for an asset of `kind`/`mime`, or null when the query asks
 * for none (the original is served). Throws 400 VALIDATION_FAILED with `query.<param>` paths.
 */
export function parseTransform(query: TransformQuery, kind: MediaKind, mime: string): TransformSpec | null {
  const given = (['w', 'h', 'fit', 'fm', 'q'] as const).filter((k) => query[k] !== undefined);
  if (given.length === 0) return null;
  if (kind !== 'image' && kind !== 'svg') throw invalid(`query.${given[0]}`, 'only images can be transformed');
  const errors: ErrorDetail[] = [];
  const dim = (name: 'w' | 'h'): number | null => {
    const v = query[name];
    if (v === undefined) return null;
    if (!Number.isInteger(v) || v < 1 || v > MAX_DIMENSION) errors.push({ path: `query.${name}`, message: `must be an integer from 1 to ${MAX_DIMENSION}` });
    return v;
  };
  const w = dim('w');
  const h = dim('h');
  if (query.fit !== undefined && !(FITS as readonly string[]).includes(query.fit))
    errors.push({ path: 'query.fit', message: `must be one of ${FITS.join(', ')}` });
  if (query.fit !== undefined && w === null && h === null) errors.push({ path: 'query.fit', message: 'needs w or h' });
  if (query.fm !== undefined && !(FORMATS as readonly string[]).includes(query.fm))
    errors.push({ path: 'query.fm', message: `must be one of ${FORMATS.join(', ')}` });
  if (query.q !== undefined && (!Number.isInteger(query.q) || query.q < 1 || query.q > 100))
    errors.push({ path: 'query.q', message: 'must be an integer from 1 to 100' });
  if (errors.length > 0) throw validationError(errors);
  const fm = (query.fm as OutputFormat | undefined) ?? defaultFormat(mime);
  return { w, h, fit: (query.fit as Fit | undefined) ?? 'cover', fm, q: fm === 'png' ? null : (query.q ?? DEFAULT_QUALITY[fm] ?? null) };
}

/** Default MEDIA_TRANSFORM_SIZES: common layout, device and thumbnail widths. */
export const DEFAULT_TRANSFORM_SIZES: readonly number[] = [
  16, 24, 32, 48, 50, 64, 80, 96, 100, 128, 150, 160, 200, 240, 256, 300, 320, 360, 384, 400, 480, 500, 512, 600, 640, 720, 750, 768, 800, 828, 900, 960, 1000,
  1024, 1080, 1200, 1280, 1366, 1440, 1500, 1536, 1600, 1920, 2048, 2560, 3000, 3200, 3840, 4000,
];

/** The smallest of `sizes` (ascending) at least `n`, or the largest when none is. */
function snapUp(n: number, sizes: readonly number[]): number {
  for (const size of sizes) if (size >= n) return size;
  return sizes[sizes.length - 1];
}

/**
 * `spec` within the bounds above for a source of `width`×`height` (null: unknown, then only the
 * sizes apply). `sizes` is ascending. SVG is vector: it may be rasterized larger than its
 * intrinsic size, still within the sizes. Pure.
 */
export function boundTransform(
  spec: TransformSpec,
  source: { width: number | null; height: number | null },
  kind: MediaKind,
  sizes: readonly number[],
): TransformSpec {
  let { w, h } = spec;
  if (w !== null) {
    const snapped = snapUp(w, sizes);
    if (h !== null) h = Math.max(1, Math.min(MAX_DIMENSION, Math.round((h * snapped) / w)));
    w = snapped;
  } else if (h !== null) {
    h = snapUp(h, sizes);
  }
  const W = source.width;
  const H = source.height;
  if (kind !== 'svg' && W && H) {
    if (w !== null && h !== null) {
      if (spec.fit === 'fill') {
        w = Math.min(w, W);
        h = Math.min(h, H);
      } else {
        // cover, contain, inside, outside: shrink the box (keeping its shape) to fit the original.
        const over = Math.max(w / W, h / H);
        if (over > 1) {
          w = Math.max(1, Math.round(w / over));
          h = Math.max(1, Math.round(h / over));
        }
      }
    } else if (w !== null) w = Math.min(w, W);
    else if (h !== null) h = Math.min(h, H);
  }
  const q = spec.q === null ? null : Math.min(100, Math.ceil(spec.q / 5) * 5);
  return { ...spec, w, h, q };
}

/** Whether the focal point changes the result: only a cover crop to a w×h box uses it. */
function usesFocal(spec: TransformSpec): boolean {
  return spec.fit === 'cover' && spec.w !== null && spec.h !== null;
}

/**
 * The canonical name of a result, e.g. `w400-h300-cover-fp0.25x0.5-q80.webp`: equal requests
 * (whatever their parameter order) share one cached file, and a new focal point gets new ones.
 */
export function variantName(spec: TransformSpec, focal: { x: number | null; y: number | null }): string {
  const parts: string[] = [];
  if (spec.w !== null) parts.push(`w${spec.w}`);
  if (spec.h !== null) parts.push(`h${spec.h}`);
  if (spec.w !== null || spec.h !== null) parts.push(spec.fit);
  if (usesFocal(spec)) parts.push(`fp${focal.x ?? 0.5}x${focal.y ?? 0.5}`);
  if (spec.q !== null) parts.push(`q${spec.q}`);
  return `${parts.length > 0 ? parts.join('-') : 'orig'}.${spec.fm}`;
}

/** Where the top-left corner of a w×h window centred on `focal` lands inside a length. */
function cropOffset(full: number, window: number, focal: number): number {
  return Math.min(Math.max(Math.round(focal * full - window / 2), 0), full - window);
}

export interface RenderSource {
  /** Width and height after EXIF orientation, as recorded at upload (null: unknown). */
  width: number | null;
  height: number | null;
  focal_x: number | null;
  focal_y: number | null;
}

/**
 * Renders `spec` from the original's bytes. A cover crop with both sides given scales the
 * image to cover the box and cuts the box out around the focal point (clamped to the edges).
 * Throws 400 for a source above MAX_INPUT_PIXELS, 415 when the original cannot be decoded.
 */
export async function renderVariant(input: Buffer, spec: TransformSpec, source: RenderSource): Promise<Buffer> {
  // rotate() with no angle applies the EXIF orientation, so sizes match the recorded ones.
  const sharp = await loadSharp();
  const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'none' }).rotate();
  if (usesFocal(spec) && source.width && source.height) {
    const w = spec.w as number;
    const h = spec.h as number;
    const scale = Math.max(w / source.width, h / source.height);
    const rw = Math.max(w, Math.round(source.width * scale));
    const rh = Math.max(h, Math.round(source.height * scale));
    const left = cropOffset(rw, w, source.focal_x ?? 0.5);
    const top = cropOffset(rh, h, source.focal_y ?? 0.5);
    image.resize(rw, rh, { fit: 'fill' }).extract({ left, top, width: w, height: h });
  } else if (spec.w !== null || spec.h !== null) {
    // withoutEnlargement: the last guard when the recorded size is unknown (boundTransform).
    image.resize(spec.w ?? undefined, spec.h ?? undefined, { fit: spec.fit, withoutEnlargement: source.width === null || source.height === null });
  }
  switch (spec.fm) {
    case 'jpg':
      // JPEG has no alpha: transparent areas become white rather than black.
      image.flatten({ background: '#ffffff' }).jpeg({ quality: spec.q ?? 80 });
      break;
    case 'webp':
      image.webp({ quality: spec.q ?? 80 });
      break;
    case 'avif':
      image.avif({ quality: spec.q ?? 50 });
      break;
    default:
      image.png();
  }
  try {
    return await image.toBuffer();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/pixel limit/i.test(message)) throw invalid('query', `the image is larger than ${MAX_INPUT_PIXELS / 1_000_000} megapixels and cannot be transformed`);
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The stored image could not be decoded for this transform');
  }
}
