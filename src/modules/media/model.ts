/**
 * The media asset (docs/media.md "The record") in its two shapes: the management record (every
 * column) and the delivery object (`id, url, mime_type, width, height, alt_text, title,
 * description, focal_x, focal_y`, D41: also what media fields of entries and blocks resolve to). Plus the media types
 * accepted on upload (docs/media.md "Uploading" (D50): image, video, PDF, judged by the bytes).
 */
import type { Config } from '../../config.js';
import { mediaUrl } from './locations.js';
import type { MediaRecord } from './repository.js';

/** Where media URLs are computed from (locations.ts mediaUrl). */
export type MediaUrlConfig = Pick<Config, 'publicUrl' | 'mediaPublicUrl'>;

/**
 * A media record as the management API returns it: every column but the storage key, remote URL
 * and deletion time, plus `url` computed from the configuration (D51).
 */
export type MediaAsset = Omit<MediaRecord, 'storage_key' | 'remote_url' | 'deleted_at'> & { url: string };

/** The delivery media object (docs/api.md "GET /api/v1/public/media/{id}"; D41). */
export interface DeliveryMedia {
  id: string;
  url: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt_text: string | null;
  title: string | null;
  description: string | null;
  focal_x: number | null;
  focal_y: number | null;
}

/** The management API shape of a record under `config` (storage key, remote URL and deletion time left out; `url` computed). */
export function toManagementMedia(config: MediaUrlConfig, m: MediaRecord): MediaAsset {
  const { storage_key: _storageKey, remote_url: _remoteUrl, deleted_at: _deletedAt, ...asset } = m;
  return { ...asset, url: mediaUrl(config, m) };
}

/** The delivery media object of a record under `config` (D41; `url` computed, D51). */
export function toDeliveryMedia(
  config: MediaUrlConfig,
  m: Pick<MediaRecord, Exclude<keyof DeliveryMedia, 'url'> | 'storage_key' | 'remote_url'>,
): DeliveryMedia {
  return {
    id: m.id,
    url: mediaUrl(config, m),
    mime_type: m.mime_type,
    width: m.width,
    height: m.height,
    alt_text: m.alt_text,
    title: m.title,
    description: m.description,
    focal_x: m.focal_x,
    focal_y: m.focal_y,
  };
}

/** How an accepted file is handled: raster images and SVG get dimensions and transforms. */
export type MediaKind = 'image' | 'svg' | 'video' | 'pdf';

/**
 * Raster image types accepted (by sniffed MIME type) with the file extension they are stored
 * under: the formats sharp reads, so every accepted image has exact dimensions (D51) and can be
 * transformed. Other image formats (HEIC, BMP, PSD, RAW, …) answer 415.
 */
export const RASTER_IMAGE_TYPES: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/apng': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/tiff': 'tif',
};

export const SVG_MIME = 'image/svg+xml';
export const PDF_MIME = 'application/pdf';

/** Largest SVG accepted: sanitizing builds a DOM of the whole document in memory. */
export const SVG_MAX_BYTES = 2 * 1024 * 1024;

/** What the API says it accepts, for 415 messages. */
export const ACCEPTED_TYPES_TEXT = 'JPEG, PNG, GIF, WebP, AVIF, TIFF and SVG images, video files (MP4, WebM, MOV, …) and PDF';
