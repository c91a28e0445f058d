/**
 * Media storage in an S3-compatible bucket (STORAGE_DRIVER=s3: AWS S3, MinIO, Cloudflare R2,
 * Ceph, …) through @aws-sdk/client-s3. Configuration: S3_ENDPOINT, S3_BUCKET, S3_REGION,
 * S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY (else the SDK's default chain), S3_FORCE_PATH_STYLE.
 *
 * A PUT needs its length up front. A stream of unknown length is first written to a temporary
 * file (never buffered in memory, cut off at maxBytes) and then uploaded from that file, so an
 * upload holds at most a few stream chunks of RAM whatever its size. PUT is atomic in S3: an
 * object appears whole or not at all. move() is CopyObject then DeleteObject.
 *
 * The SDK is loaded on first use (about 24 MiB of memory), so installations on the local driver
 * never pay for it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { ObjectNotFoundError, ObjectTooLargeError, type ByteRange, type ObjectStream, type PutOptions, type StorageBackend } from './backend.js';
import { assertSafeKey, byteLimit } from './keys.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** null: AWS S3 itself. */
  endpoint: string | null;
  forcePathStyle: boolean;
  /** null: the SDK's default credential chain. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** A local folder for uploads of unknown length on their way to the bucket. */
  tmpDir: string;
}

type Sdk = typeof import('@aws-sdk/client-s3');
let sdkModule: Promise<Sdk> | null = null;
function loadSdk(): Promise<Sdk> {
  sdkModule ??= import('@aws-sdk/client-s3');
  return sdkModule;
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** StorageBackend over an S3-compatible bucket (see the module comment). */
export class S3Storage implements StorageBackend {
  readonly driver = 's3' as const;
  private readonly options: S3StorageOptions;
  private readonly bucket: string;
  private readonly tmpDir: string;
  private connection: Promise<{ client: S3Client; sdk: Sdk }> | null = null;

  constructor(options: S3StorageOptions) {
    this.options = options;
    this.bucket = options.bucket;
    this.tmpDir = options.tmpDir;
  }

  /** The client, created on first use. */
  private connect(): Promise<{ client: S3Client; sdk: Sdk }> {
    this.connection ??= loadSdk().then((sdk) => ({ sdk, client: this.createClient(sdk) }));
    return this.connection;
  }

  private createClient(sdk: Sdk): S3Client {
    const options = this.options;
    return new sdk.S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires them: many S3-compatible stores do not understand the
      // aws-chunked trailers the SDK would otherwise add to every streamed PUT.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<{ size: number }> {
    assertSafeKey(key);
    if (Buffer.isBuffer(body)) {
      const { client, sdk } = await this.connect();
      if (options.maxBytes !== undefined && body.length > options.maxBytes) throw new ObjectTooLargeError(options.maxBytes);
      await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: body.length, ContentType: options.contentType }));
      return { size: body.length };
    }
    await fsp.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `s3-${Date.now()}-${randomBytes(8).toString('hex')}`);
    try {
      await pipeline(body, byteLimit(options.maxBytes ?? Number.MAX_SAFE_INTEGER), fs.createWriteStream(tmp, { flags: 'wx' }));
      return await this.putFile(key, tmp, options);
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  async putFile(key: string, filePath: string, options: PutOptions = {}): Promise<{ size: number }> {
    assertSafeKey(key);
    try {
      const { client, sdk } = await this.connect();
      const { size } = await fsp.stat(filePath);
      if (options.maxBytes !== undefined && size > options.maxBytes) throw new ObjectTooLargeError(options.maxBytes);
      const body = fs.createReadStream(filePath);
      try {
        await client.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentLength: size, ContentType: options.contentType }));
      } finally {
        body.destroy();
      }
      return { size };
    } finally {
      await fsp.rm(filePath, { force: true });
    }
  }

  async get(key: string, range?: ByteRange): Promise<ObjectStream | null> {
    assertSafeKey(key);
    const { client, sdk } = await this.connect();
    try {
      const res = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key, ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      const body = res.Body as Readable;
      let totalSize = Number(res.ContentLength ?? 0);
      const m = /\/(\d+)$/.exec(res.ContentRange ?? '');
      if (range && m) totalSize = Number(m[1]);
      return { body, totalSize, range: range ?? null };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    assertSafeKey(key);
    const { client, sdk } = await this.connect();
    try {
      await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    const { client, sdk } = await this.connect();
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertSafeKey(prefix);
    const { client, sdk } = await this.connect();
    let token: string | undefined;
    do {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${prefix}/`, ContinuationToken: token }));
      const keys = (page.Contents ?? []).map((o) => o.Key).filter((k): k is string => typeof k === 'string');
      if (keys.length > 0) {
        await client.send(new sdk.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true } }));
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async move(from: string, to: string): Promise<void> {
    assertSafeKey(from);
    assertSafeKey(to);
    if (from === to) {
      if (!(await this.exists(from))) throw new ObjectNotFoundError(from);
      return;
    }
    const { client, sdk } = await this.connect();
    try {
      // Keys are of the safe shape (no characters needing escapes), so the source is literal.
      await client.send(new sdk.CopyObjectCommand({ Bucket: this.bucket, Key: to, CopySource: `${this.bucket}/${from}` }));
    } catch (err) {
      if (isNotFound(err)) throw new ObjectNotFoundError(from);
      throw err;
    }
    await client.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: from }));
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = null;
    if (connection) (await connection).client.destroy();
  }
}
