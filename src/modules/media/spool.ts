/**
 * Spooling an incoming file to a temporary file in DATA_DIR/tmp/uploads while it streams in:
 * the bytes go to disk in small chunks (memory stays flat whatever the size), the stream is cut
 * off with 413 PAYLOAD_TOO_LARGE as soon as it passes the limit, and the temporary file is
 * removed on every failure. The upload operation then sniffs, measures and stores that file.
 *
 * Uploads never stall the event loop (docs/media.md "Streaming and failures"): every chunk of an
 * upload is parsed, counted and handed to the file system on the main thread, so the work one turn
 * of the event loop does grows with the uploads receiving at once. An upload gate lets a few
 * uploads read their bodies at a time (the others wait, their bytes held back by TCP), and the
 * SHA-256 of the bytes is computed only when asked for (an upload with an Idempotency-Key).
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
  /** SHA-256 of the bytes, hex (an upload's identity for Idempotency-Key); null when not asked for. */
  readonly sha256: string | null;
  dispose(): Promise<void>;
}

/** 413 for an upload over `maxBytes` (docs/security.md "Limits and their settings": 10 MB). */
export function tooLarge(maxBytes: number): AppError {
  const mb = maxBytes / (1024 * 1024);
  const text = Number.isInteger(mb) ? `${mb} MB` : `${maxBytes} bytes`;
  return new AppError('PAYLOAD_TOO_LARGE', `The file is larger than the upload limit of ${text}`);
}

export interface SpoolOptions {
  /** Compute the SHA-256 of the bytes (default true); hashing costs main-thread time per byte. */
  hash?: boolean;
}

/**
 * Writes `stream` to a new temporary file, refusing more than `maxBytes` (413). Writes go out in
 * chunks of up to 1 MiB (fewer file-system calls per upload than one per network chunk).
 */
export async function spoolStream(config: Pick<Config, 'dataDir'>, stream: Readable, maxBytes: number, options: SpoolOptions = {}): Promise<SpooledFile> {
  const dir = path.join(tmpDirOf(config), 'uploads');
  await fsp.mkdir(dir, { recursive: true });
  const file = path.join(dir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  const limit = byteLimit(maxBytes);
  const hash = options.hash === false ? null : createHash('sha256');
  const stages: NodeJS.ReadWriteStream[] = [limit];
  if (hash) {
    stages.push(
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          hash.update(chunk);
          done(null, chunk);
        },
      }),
    );
  }
  const out = fs.createWriteStream(file, { flags: 'wx', highWaterMark: 1024 * 1024 });
  try {
    await pipeline([stream, ...stages, out]);
  } catch (err) {
    // The file is opened asynchronously: when the upload fails early (413 at once, a client gone)
    // the stream may still be opening it, and a removal before it closed would leave the file
    // behind once the open completes. The pipeline destroyed the stream, so 'close' follows.
    if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
    await fsp.rm(file, { force: true });
    if (err instanceof ObjectTooLargeError) throw tooLarge(maxBytes);
    throw err;
  }
  return { path: file, size: limit.bytes, sha256: hash ? hash.digest('hex') : null, dispose: () => fsp.rm(file, { force: true }) };
}

/** How many uploads read their bodies at once, per server (see the module comment). */
export const UPLOADS_AT_ONCE = 4;
/**
 * The longest an upload waits for a place before it goes ahead anyway: clients that trickle
 * their bodies hold places, and must not keep the others out for more than this.
 */
export const UPLOAD_GATE_MAX_WAIT_MS = 2000;

/**
 * A counting gate: run() waits for one of `limit` places (at most `maxWaitMs`; no longer once
 * `signal` aborts, e.g. the client went away), runs `fn`, and gives the place on.
 */
export interface UploadGate {
  run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Uploads receiving now (a few more than the limit after waits that ran out), and waiting. */
  readonly state: { running: number; waiting: number };
}

/** A gate of `limit` places, first come first served; a wait longer than `maxWaitMs` goes ahead. */
export function createUploadGate(limit: number = UPLOADS_AT_ONCE, maxWaitMs: number = UPLOAD_GATE_MAX_WAIT_MS): UploadGate {
  const queue: (() => void)[] = [];
  const state = { running: 0, waiting: 0 };
  // Resolves when a finishing upload hands its place on (running unchanged), or when patience runs
  // out or the signal aborts (one more runs: `fn` then meets the aborted request at once).
  const waitForPlace = (signal?: AbortSignal) =>
    new Promise<void>((resolve) => {
      state.waiting += 1;
      const admit = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', overflow);
        state.waiting -= 1;
        resolve();
      };
      const overflow = () => {
        queue.splice(queue.indexOf(admit), 1);
        state.running += 1;
        admit();
      };
      const timer = setTimeout(overflow, maxWaitMs);
      timer.unref();
      signal?.addEventListener('abort', overflow, { once: true });
      queue.push(admit);
      if (signal?.aborted) overflow();
    });
  return {
    state,
    async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      if (state.running >= limit) await waitForPlace(signal);
      else state.running += 1;
      try {
        return await fn();
      } finally {
        const next = state.running <= limit ? queue.shift() : undefined;
        if (next) next();
        else state.running -= 1;
      }
    },
  };
}
