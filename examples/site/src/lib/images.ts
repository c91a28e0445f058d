/**
 * Responsive images from Quire media URLs (`/media/files/…`), which resize on the fly with `w`,
 * `h`, `fit` (cover crops around the editor's focal point) and `fm`. Widths are taken from Quire's
 * default MEDIA_TRANSFORM_SIZES list, so every variant is exactly the size asked for and each is
 * rendered once, then served from Quire's derived-image cache (or a CDN in front of it).
 */
import { isRecord, type Fields } from './values.js';

export interface Media {
  id: string;
  url: string;
  mimeType: string;
  width: number | null;
  height: number | null;
  alt: string;
}

export type Fit = 'cover' | 'contain' | 'inside';

/** Candidate widths for srcset: all in Quire's default transform size list. */
export const SRCSET_WIDTHS: readonly number[] = [320, 480, 640, 800, 1024, 1280, 1600];

/** The delivery media object (`{id, url, mime_type, width, height, alt_text}`) of a media field, or null. */
export function toMedia(value: unknown): Media | null {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.url !== 'string' || typeof value.mime_type !== 'string') return null;
  return {
    id: value.id,
    url: value.url,
    mimeType: value.mime_type,
    width: typeof value.width === 'number' ? value.width : null,
    height: typeof value.height === 'number' ? value.height : null,
    alt: typeof value.alt_text === 'string' ? value.alt_text : '',
  };
}

/** The media field `name` of `fields`, when it holds an image. */
export function imageField(fields: Fields, name: string): Media | null {
  const media = toMedia(fields[name]);
  return media && media.mimeType.startsWith('image/') ? media : null;
}

/** The file URL with a transform: width `w`, and with `aspect` (width / height) a height and `fit`. */
export function transformUrl(media: Media, w: number, aspect: number | null, fit: Fit): string {
  const url = new URL(media.url);
  url.searchParams.set('w', String(w));
  if (aspect !== null) {
    url.searchParams.set('h', String(Math.round(w / aspect)));
    url.searchParams.set('fit', fit);
  }
  return url.href;
}

export interface ImageSources {
  src: string;
  srcset: string;
  width: number;
  height: number;
}

/**
 * `src`, `srcset` and intrinsic size for an <img> shown at most `maxWidth` CSS pixels wide.
 * Widths above the original's are left out (Quire never enlarges), so the largest candidate is
 * the original's width or the 2x of maxWidth, whichever is smaller.
 */
export function imageSources(media: Media, maxWidth: number, aspect: number | null, fit: Fit = 'cover'): ImageSources {
  const original = media.width ?? maxWidth * 2;
  const limit = Math.min(original, maxWidth * 2);
  const widths: number[] = SRCSET_WIDTHS.filter((w) => w <= limit);
  if (widths.length === 0) widths.push(Math.min(original, SRCSET_WIDTHS[0] ?? 320));
  const naturalAspect = media.width && media.height ? media.width / media.height : 16 / 9;
  const shownWidth = Math.min(maxWidth, original);
  const fallback = widths.find((w) => w >= shownWidth) ?? widths[widths.length - 1] ?? shownWidth;
  return {
    src: transformUrl(media, fallback, aspect, fit),
    srcset: widths.map((w) => `${transformUrl(media, w, aspect, fit)} ${w}w`).join(', '),
    width: shownWidth,
    height: Math.round(shownWidth / (aspect ?? naturalAspect)),
  };
}
