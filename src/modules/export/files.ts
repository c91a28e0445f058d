/**
 * File helpers of export (and tests): a hashing line writer with back-pressure, a file hash, and
 * the Quire version recorded in manifests. Restore reads through confined.ts instead.
 */
import { createHash, type Hash } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** A file being written line by line, hashed (SHA-256) and counted as it goes. */
export class HashingWriter {
  private readonly out: fs.WriteStream;
  private readonly hash: Hash = createHash('sha256');
  bytes = 0;
  lines = 0;

  constructor(readonly file: string) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.out = fs.createWriteStream(file);
  }

  /** Appends `chunk`, waiting when the stream's buffer is full (memory stays bounded). */
  async write(chunk: string | Buffer): Promise<void> {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.hash.update(buf);
    this.bytes += buf.length;
    if (!this.out.write(buf)) await once(this.out, 'drain');
  }

  /** Appends one line (`text` + newline). */
  async line(text: string): Promise<void> {
    this.lines += 1;
    await this.write(`${text}\n`);
  }

  /** Closes the file; returns its size and hex SHA-256. */
  async close(): Promise<{ bytes: number; sha256: string }> {
    const closed = once(this.out, 'close');
    this.out.end();
    await closed;
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  /** Closes and removes a file left unfinished. */
  abort(): void {
    this.out.destroy();
    fs.rmSync(this.file, { force: true });
  }
}

/** Size and hex SHA-256 of a file, read as a stream. */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

let version: string | null = null;
/** This installation's Quire version (package.json beside src/ or dist/src/). */
export function quireVersion(): string {
  if (version !== null) return version;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'quire') return (version = String(pkg.version ?? 'unknown'));
    }
    const parent = path.dirname(dir);
    if (parent === dir) return (version = 'unknown');
    dir = parent;
  }
}
