/**
 * The two storage backends behind one contract (src/storage): a local folder and an
 * S3-compatible bucket served by a real S3 server (s3rver on 127.0.0.1, started here; no SDK
 * mock). No database is involved, so these suites loop over backends, not dialects. Also the
 * media configuration variables of loadConfig.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createStorage, ObjectNotFoundError, ObjectTooLargeError, type StorageBackend } from '../src/storage/index.js';
import { isSafeKey } from '../src/storage/keys.js';
import { LocalStorage } from '../src/storage/local.js';
import { filesUnder, startS3, type S3Server } from './media-fixtures.js';

async function text(backend: StorageBackend, key: string, range?: { start: number; end: number }): Promise<string | null> {
  const obj = await backend.get(key, range);
  if (!obj) return null;
  const chunks: Buffer[] = [];
  for await (const c of obj.body) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A stream of `n` bytes in 64 KiB chunks, produced lazily. */
function bytes(n: number): Readable {
  let left = n;
  return new Readable({
    read() {
      if (left <= 0) return this.push(null);
      const size = Math.min(left, 65536);
      left -= size;
      this.push(Buffer.alloc(size, 0x61));
    },
  });
}

describe.each(['local', 's3'] as const)('storage backend: %s', (driver) => {
  let backend: StorageBackend;
  let s3: S3Server | null = null;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = path.join(os.tmpdir(), `quire-storage-${process.pid}-${randomBytes(4).toString('hex')}`);
    if (driver === 's3') s3 = await startS3();
    backend = createStorage(loadConfig({ DATA_DIR: dataDir }, { ...(s3?.config ?? {}) }));
  });
  afterAll(async () => {
    await backend?.close();
    await s3?.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('puts streams and buffers, reads them whole and by range, reports existence', async () => {
    expect(await backend.put('ws/a/one.txt', Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
    expect(await backend.put('ws/two.txt', Buffer.from('second'))).toEqual({ size: 6 });
    expect(await text(backend, 'ws/a/one.txt')).toBe('hello world');
    expect(await text(backend, 'ws/a/one.txt', { start: 6, end: 10 })).toBe('world');
    const obj = await backend.get('ws/a/one.txt', { start: 0, end: 4 });
    expect(obj).toMatchObject({ totalSize: 11, range: { start: 0, end: 4 } });
    obj?.body.resume();
    expect(await backend.exists('ws/a/one.txt')).toBe(true);
    expect(await backend.exists('ws/a/none.txt')).toBe(false);
    expect(await backend.get('ws/a/none.txt')).toBeNull();
  });

  it('refuses a body over maxBytes while it streams and keeps nothing', async () => {
    await expect(backend.put('ws/big.bin', bytes(300_000), { maxBytes: 200_000 })).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await backend.exists('ws/big.bin')).toBe(false);
    await expect(backend.put('ws/big.bin', Buffer.alloc(10), { maxBytes: 5 })).rejects.toBeInstanceOf(ObjectTooLargeError);
    expect(await backend.put('ws/ok.bin', bytes(200_000), { maxBytes: 200_000 })).toEqual({ size: 200_000 });
    expect(await filesUnder(path.join(dataDir, 'tmp'))).toEqual([]);
    if (driver === 'local') expect(await filesUnder(path.join(dataDir, 'media', '.tmp'))).toEqual([]);
  });

  it('putFile consumes a local file', async () => {
    const file = path.join(os.tmpdir(), `quire-putfile-${process.pid}-${driver}`);
    await fsp.writeFile(file, 'from a file');
    expect(await backend.putFile('ws/f/file.txt', file, { contentType: 'text/plain' })).toEqual({ size: 11 });
    expect(await text(backend, 'ws/f/file.txt')).toBe('from a file');
    await expect(fsp.stat(file)).rejects.toThrow();
  });

  it('moves objects (replacing the target) and reports a missing source', async () => {
    await backend.put('ws/m/from.txt', Buffer.from('moving'));
    await backend.move('ws/m/from.txt', 'ws/n/deep/to.txt');
    expect(await backend.exists('ws/m/from.txt')).toBe(false);
    expect(await text(backend, 'ws/n/deep/to.txt')).toBe('moving');
    await expect(backend.move('ws/m/from.txt', 'ws/x.txt')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('deletes objects and whole prefixes; deleting nothing is fine', async () => {
    await backend.put('_derived/ws/id1/a.webp', Buffer.from('a'));
    await backend.put('_derived/ws/id1/b.png', Buffer.from('b'));
    await backend.put('_derived/ws/id10/c.png', Buffer.from('c'));
    await backend.deletePrefix('_derived/ws/id1');
    expect(await backend.exists('_derived/ws/id1/a.webp')).toBe(false);
    expect(await backend.exists('_derived/ws/id1/b.png')).toBe(false);
    expect(await backend.exists('_derived/ws/id10/c.png')).toBe(true);
    await backend.delete('_derived/ws/id10/c.png');
    expect(await backend.exists('_derived/ws/id10/c.png')).toBe(false);
    await backend.delete('_derived/ws/none.png');
    await backend.deletePrefix('_derived/none');
  });

  it('refuses keys that could leave the storage root', async () => {
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', '.hidden', 'a/./b', 'a\\b', '%2e%2e/x', '', 'a/']) {
      expect(isSafeKey(key)).toBe(false);
      await expect(backend.put(key, Buffer.from('x'))).rejects.toThrow(/unsafe storage key/);
      await expect(backend.get(key)).rejects.toThrow(/unsafe storage key/);
    }
  });
});

describe('local storage stays inside its root', () => {
  it('resolves keys under the root only', () => {
    const local = new LocalStorage('/srv/quire/media');
    expect(local.pathOf('ws/a/b.png')).toBe('/srv/quire/media/ws/a/b.png');
    expect(() => local.pathOf('../media-other/x')).toThrow();
  });
});

describe('media configuration', () => {
  it('defaults to local storage and a 10 MB limit', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ storageDriver: 'local', mediaMaxBytes: 10 * 1024 * 1024, s3Bucket: null, s3Region: 'us-east-1' });
  });

  it('reads the S3 variables and checks them', () => {
    const c = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_BUCKET: 'media',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
      MEDIA_MAX_BYTES: '5000000',
    });
    expect(c).toMatchObject({
      storageDriver: 's3',
      s3Endpoint: 'http://127.0.0.1:9000',
      s3Bucket: 'media',
      s3ForcePathStyle: true,
      s3AccessKeyId: 'k',
      mediaMaxBytes: 5_000_000,
    });
    expect(loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'false' }).s3ForcePathStyle).toBe(false);
    expect(() => loadConfig({ STORAGE_DRIVER: 'ftp' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET/);
    expect(() => loadConfig({ STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' })).toThrow(/together/);
    expect(() => loadConfig({ S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
    expect(() => loadConfig({ S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(/S3_FORCE_PATH_STYLE/);
    expect(() => loadConfig({ MEDIA_MAX_BYTES: '10MB' })).toThrow(/MEDIA_MAX_BYTES/);
  });
});
