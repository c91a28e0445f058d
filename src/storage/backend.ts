/**
 * The media storage contract (issue 4 item 3): one interface, two implementations (a local
 * folder in DATA_DIR and an S3-compatible bucket, src/storage/local.ts and s3.ts). Keys are
 * relative, `/`-separated paths checked by assertSafeKey (src/storage/keys.ts), so no key can
 * name anything outside the storage root (docs/media.md "Storage" (D52)).
 *
 * Objects are written whole or not at all: a put that fails or exceeds its limit leaves nothing
 * behind, and a reader never sees a half-written object.
 */
import type { Readable } from 'node:stream';

/** An inclusive byte range of an object (HTTP `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A stored object being read: its bytes (all, or the range asked for) and its full size. */
export interface ObjectStream {
  body: Readable;
  /** Size of the whole object in bytes. */
  totalSize: number;
  /** The range being returned, or null for the whole object. */
  range: ByteRange | null;
}

export interface PutOptions {
  /** Refuse (ObjectTooLargeError) and keep nothing when the body exceeds this many bytes. */
  maxBytes?: number;
  /** MIME type recorded with the object where the backend can (S3 Content-Type). */
  contentType?: string;
}

export interface StorageBackend {
  /** `local` or `s3`: how the files are reached (shown by the readiness probe and logs). */
  readonly driver: 'local' | 's3';
  /** Writes `body` (a stream is read once, never held whole in memory) under `key`; returns its size. */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<{ size: number }>;
  /**
   * Stores the local file at `filePath` under `key` and consumes it (the file is gone afterwards):
   * the local backend renames it into place, S3 uploads it with a known length.
   */
  putFile(key: string, filePath: string, options?: PutOptions): Promise<{ size: number }>;
  /** Opens `key` for reading (optionally a byte range inside it); null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<ObjectStream | null>;
  exists(key: string): Promise<boolean>;
  /** Removes `key`; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object whose key starts with `prefix/` (a folder of derived images). */
  deletePrefix(prefix: string): Promise<void>;
  /** Renames `from` to `to` (replacing `to`); ObjectNotFoundError when `from` does not exist. */
  move(from: string, to: string): Promise<void>;
  /** Releases connections; the backend is unusable afterwards. */
  close(): Promise<void>;
}

/** A body went over PutOptions.maxBytes; nothing was stored. */
export class ObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`object exceeds ${maxBytes} bytes`);
    this.name = 'ObjectTooLargeError';
  }
}

/** move() of a key that holds no object. */
export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`no stored object '${key}'`);
    this.name = 'ObjectNotFoundError';
  }
}
