/**
 * Storage keys and the byte-limit stream shared by both backends.
 *
 * A key is `segment(/segment)*` where a segment is letters, digits, `_`, `-` and `.` but never
 * starts with a dot: `..`, `.`, absolute paths, backslashes, `%` escapes and empty segments are
 * all impossible, so a key cannot leave the storage root (docs/media.md "Storage" (D52)). Keys are built by
 * src/modules/media from generated names and validated folders; this check is the last guard.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { ObjectTooLargeError } from './backend.js';

const SEGMENT = '[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}';
const KEY_PATTERN = new RegExp(`^${SEGMENT}(?:/${SEGMENT}){0,31}$`);

/** True for a key of the safe shape described above (at most 1,024 characters). */
export function isSafeKey(key: string): boolean {
  return key.length <= 1024 && KEY_PATTERN.test(key);
}

/** Throws unless `key` is safe; a programming error, never a client's (clients never send keys). */
export function assertSafeKey(key: string): void {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${JSON.stringify(key)}`);
}

/**
 * A pass-through stream that fails with ObjectTooLargeError as soon as more than `maxBytes`
 * went through, so an oversized upload is cut off while it streams instead of after it landed.
 */
export function byteLimit(maxBytes: number): Transform & { readonly bytes: number } {
  let bytes = 0;
  const t = new Transform({
    transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
      bytes += chunk.length;
      if (bytes > maxBytes) return cb(new ObjectTooLargeError(maxBytes));
      cb(null, chunk);
    },
  });
  Object.defineProperty(t, 'bytes', { get: () => bytes });
  return t as Transform & { readonly bytes: number };
}
