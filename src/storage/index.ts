/**
 * The media storage of an installation, chosen by STORAGE_DRIVER (src/config.ts): the local
 * folder DATA_DIR/media (default) or an S3-compatible bucket. One backend per configuration,
 * created on first use and shared by the HTTP routes, the CLI and the importer; closeStorage
 * releases it (the app calls it on close).
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

/** A new backend for `config` (callers normally want storageFor, which shares one). */
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

// Keyed by the frozen Config object: every context built from one configuration shares a
// backend (and its connection pool), and a test with its own configuration gets its own.
const shared = new WeakMap<object, StorageBackend>();

/** The shared backend of `config`. */
export function storageFor(config: StorageConfig): StorageBackend {
  let backend = shared.get(config);
  if (!backend) {
    backend = createStorage(config);
    shared.set(config, backend);
  }
  return backend;
}

/** Closes and forgets the shared backend of `config` (a later storageFor opens a new one). */
export async function closeStorage(config: StorageConfig): Promise<void> {
  const backend = shared.get(config);
  if (!backend) return;
  shared.delete(config);
  await backend.close();
}
