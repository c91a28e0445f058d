/**
 * The media storage of an installation, chosen by STORAGE_DRIVER (src/config.ts): the local
 * folder DATA_DIR/media (default) or an S3-compatible bucket. Each Context holds one
 * ContextStorage (Context.storage), whose backend is created on first use and shared by the HTTP
 * routes, the CLI and the importer running on that context; the app closes it on close.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import type { StorageBackend } from './backend.js';
import { LocalStorage } from './local.js';
import { S3Storage } from './s3.js';

export type { ByteRange, ObjectStream, PutOptions, StorageBackend } from './backend.js';
export { ObjectNotFoundError, ObjectTooLargeError } from './backend.js';

type StorageConfig = Pick<
  Config,
  'dataDir' | 'storageDriver' | 's3Endpoint' | 's3Bucket' | 's3Region' | 's3AccessKeyId' | 's3SecretAccessKey' | 's3ForcePathStyle'
>;

/** Where uploads are spooled and temporary files live, whatever the driver: DATA_DIR/tmp. */
export function tmpDirOf(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'tmp');
}

/** A new backend for `config` (callers normally want their context's, `ctx.storage.backend()`). */
export function createStorage(config: StorageConfig): StorageBackend {
  if (config.storageDriver === 's3') {
    if (!config.s3Bucket) throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET');
    return new S3Storage({
      bucket: config.s3Bucket,
      region: config.s3Region,
      endpoint: config.s3Endpoint,
      forcePathStyle: config.s3ForcePathStyle,
      credentials: config.s3AccessKeyId && config.s3SecretAccessKey ? { accessKeyId: config.s3AccessKeyId, secretAccessKey: config.s3SecretAccessKey } : null,
      tmpDir: tmpDirOf(config),
    });
  }
  return new LocalStorage(path.join(config.dataDir, 'media'));
}

/**
 * The storage of one Context. The backend (and, for S3, its connection pool) is created on first
 * use, so a context that never touches media needs no usable storage settings, and is then
 * shared by every operation on the context.
 */
export class ContextStorage {
  private current: StorageBackend | null = null;

  constructor(private readonly config: StorageConfig) {}

  /** The backend, created on first use. Throws when the storage settings are unusable. */
  backend(): StorageBackend {
    this.current ??= createStorage(this.config);
    return this.current;
  }

  /** Closes the backend if one was opened; a later backend() opens a new one. */
  async close(): Promise<void> {
    const backend = this.current;
    this.current = null;
    await backend?.close();
  }
}
