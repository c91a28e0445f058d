/**
 * Where a media file lives and the URL it is served at (docs/media.md "URLs" (D51), "Storage" (D52)).
 *
 * Storage keys: originals are `<workspace id>/[<folder>/]<media id>.<ext>`; derived images
 * (transforms) are `_derived/<workspace id>/<media id>/<variant>.<ext>` (no workspace id starts
 * with `_`, so the two never meet). File names are generated from the media id: a client's file
 * name never reaches the disk or the bucket.
 *
 * URLs: `{PUBLIC_URL}/media/files/<storage key>`, served by GET /media/files/* (see
 * src/http/routes/media-files.ts), or `{MEDIA_PUBLIC_URL}/<storage key>` when media are served
 * through a CDN. They are computed by mediaUrl whenever a record is read and never stored, so a
 * server answers with its own configured address whatever process (another server, the CLI
 * with another PUBLIC_URL) uploaded or imported the file; moving an asset to another folder
 * changes its URL. Transform URLs are a media URL with query parameters, so they follow it.
 */
import type { Config } from '../../config.js';
import { isUuid } from '../../lib/ids.js';
import { isSafeKey } from '../../storage/keys.js';

/** Path prefix of the file-serving route. */
export const FILES_PATH = '/media/files';

/** Generated file name of a stored original: `<media id>.<ext>`. */
export function storedFilename(id: string, ext: string): string {
  return `${id}.${ext}`;
}

/** Storage key of an original: `<workspace>/[<folder>/]<file name>`. */
export function originalKey(workspaceId: string, folder: string | null, filename: string): string {
  return folder ? `${workspaceId}/${folder}/${filename}` : `${workspaceId}/${filename}`;
}

/** The storage folder holding every derived image of one asset. */
export function derivedPrefix(workspaceId: string, mediaId: string): string {
  return `_derived/${workspaceId}/${mediaId}`;
}

/** The base a storage key is appended to: MEDIA_PUBLIC_URL, else `{PUBLIC_URL}/media/files`. */
export function mediaBaseUrl(config: Pick<Config, 'publicUrl' | 'mediaPublicUrl'>): string {
  return config.mediaPublicUrl ?? `${config.publicUrl}${FILES_PATH}`;
}

/**
 * The absolute URL of a media asset (D51, computed on every read, see the module comment): its
 * stored file under mediaBaseUrl, or for a remote asset (imported by URL, no stored file) the
 * remote original's URL as imported.
 */
export function mediaUrl(config: Pick<Config, 'publicUrl' | 'mediaPublicUrl'>, media: { storage_key: string | null; remote_url: string | null }): string {
  if (media.storage_key) return `${mediaBaseUrl(config)}/${media.storage_key}`;
  return media.remote_url ?? '';
}

/**
 * The media id named by a requested file path (the part after /media/files/), or null when the
 * path cannot be an original's key. The caller still checks that it is that asset's current key.
 */
export function mediaIdOfKey(key: string): string | null {
  if (!isSafeKey(key) || key.startsWith('_')) return null;
  const last = key.slice(key.lastIndexOf('/') + 1);
  const m = /^([0-9a-f-]{36})\.[a-z0-9]{1,8}$/.exec(last);
  return m && isUuid(m[1]) ? m[1] : null;
}
