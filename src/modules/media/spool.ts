/**
 * Spooling an incoming file to a temporary file in DATA_DIR/tmp/uploads while it streams in:
 * the bytes go to disk in small chunks (memory stays flat whatever the size), the stream is cut
 * off with 413 PAYLOAD_TOO_LARGE as soon as it passes the limit, and the temporary file is
 * removed on every failure. The upload operation then sniffs, measures and stores that file.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { ObjectTooLargeError, tmpDirOf } from '../../storage/index.js';
import { byteLimit } from '../../storage/keys.js';

/** A file received into temporary storage; dispose() removes it (safe to call twice). */
export interface SpooledFile {
  readonly path: string;
  size: number;
  /** SHA-256 of the bytes, hex (an upload's identity for Idempotency-Key). */
  readonly sha256: string;
  dispose(): Promise<void>;
}

/** 413 for an upload over `maxBytes` (api.md Limits: 10 MB). */
export function tooLarge(maxBytes: number): AppError {
  const mb = maxBytes / (1024 * 1024);
  const text = Number.isInteger(mb) ? `${mb} MB` : `${maxBytes} bytes`;
  return new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${text}`);
}

/** Writes `stream` to a new temporary file, refusing more than `maxBytes` (413). */
export async function spoolStream(config: Pick<Config, 'dataDir'>, stream: Readable, maxBytes: number): Promise<SpooledFile> {
  const dir = path.join(tmpDirOf(config), 'uploads');
  await fsp.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  const limit = byteLimit(maxBytes);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(stream, limit, hashing, fs.createWriteStream(file, { flags: 'wx' }));
  } catch (err) {
    await fsp.rm(file, { force: true });
    if (err instanceof ObjectTooLargeError) throw tooLarge(maxBytes);
    throw err;
  }
  return { path: file, size: limit.bytes, sha256: hash.digest('hex'), dispose: () => fsp.rm(file, { force: true }) };
}
