/**
 * Media storage in a local folder (STORAGE_DRIVER=local, the default: DATA_DIR/media).
 *
 * Writes go to a temporary file under `<root>/.tmp` (a segment no key can name) and are renamed
 * into place once complete, so readers never see a partial file and a failed or oversized write
 * leaves nothing. Every path is resolved and checked to stay inside the root, on top of the key
 * shape check (docs/media.md "Storage" (D52)).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ObjectNotFoundError, ObjectTooLargeError, type ByteRange, type ObjectStream, type PutOptions, type StorageBackend } from './backend.js';
import { assertSafeKey, byteLimit } from './keys.js';

function isErrno(err: unknown, code: string): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === code;
}

/** StorageBackend over a local folder (see the module comment). */
export class LocalStorage implements StorageBackend {
  readonly driver = 'local' as const;
  private readonly root: string;
  private readonly tmpDir: string;

  /** `root` is created on first write; `<root>/.tmp` holds writes in progress. */
  constructor(root: string) {
    this.root = path.resolve(root);
    this.tmpDir = path.join(this.root, '.tmp');
  }

  /** The absolute path of `key`, refusing anything that would resolve outside the root. */
  pathOf(key: string): string {
    assertSafeKey(key);
    const full = path.resolve(this.root, ...key.split('/'));
    if (!full.startsWith(this.root + path.sep)) throw new Error(`storage key escapes the root: ${key}`);
    return full;
  }

  private async tempPath(): Promise<string> {
    await fsp.mkdir(this.tmpDir, { recursive: true });
    return path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}`);
  }

  /**
   * Renames `source` to `target`, creating the target's folder. A concurrent delete may prune
   * that folder between mkdir and rename, so a missing folder is created again (a few times).
   */
  private async renameInto(source: string, target: string): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      try {
        await fsp.rename(source, target);
        return;
      } catch (err) {
        const sourceThere =
          isErrno(err, 'ENOENT') &&
          (await fsp.stat(source).then(
            () => true,
            () => false,
          ));
        if (!sourceThere || attempt >= 3) throw err;
      }
    }
  }

  /** Renames a finished temporary file into place (copying across filesystems if needed). */
  private async install(tmp: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    try {
      await this.renameInto(tmp, target);
    } catch (err) {
      if (!isErrno(err, 'EXDEV')) throw err;
      const staged = await this.tempPath();
      await fsp.copyFile(tmp, staged);
      await this.renameInto(staged, target);
      await fsp.rm(tmp, { force: true });
    }
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<{ size: number }> {
    this.pathOf(key);
    const tmp = await this.tempPath();
    const limit = byteLimit(options.maxBytes ?? Number.MAX_SAFE_INTEGER);
    try {
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      await pipeline(source, limit, fs.createWriteStream(tmp, { flags: 'wx' }));
      await this.install(tmp, key);
      return { size: limit.bytes };
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async putFile(key: string, filePath: string, options: PutOptions = {}): Promise<{ size: number }> {
    this.pathOf(key);
    const { size } = await fsp.stat(filePath);
    if (options.maxBytes !== undefined && size > options.maxBytes) {
      await fsp.rm(filePath, { force: true });
      throw new ObjectTooLargeError(options.maxBytes);
    }
    await this.install(filePath, key);
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<ObjectStream | null> {
    const full = this.pathOf(key);
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(full, 'r');
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return null;
      throw err;
    }
    // Reading through the handle opened above: a concurrent delete or move cannot swap the file.
    const { size } = await handle.stat();
    const body = handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    return { body, totalSize: size, range: range ?? null };
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await fsp.stat(this.pathOf(key))).isFile();
    } catch (err) {
      if (isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) return false;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const full = this.pathOf(key);
    await fsp.rm(full, { force: true });
    await this.pruneEmptyParents(full);
  }

  async deletePrefix(prefix: string): Promise<void> {
    const full = this.pathOf(prefix);
    await fsp.rm(full, { recursive: true, force: true });
    await this.pruneEmptyParents(full);
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.pathOf(from);
    const target = this.pathOf(to);
    if (source === target) {
      if (!(await this.exists(from))) throw new ObjectNotFoundError(from);
      return;
    }
    try {
      await this.renameInto(source, target);
    } catch (err) {
      if (isErrno(err, 'ENOENT')) throw new ObjectNotFoundError(from);
      throw err;
    }
    await this.pruneEmptyParents(source);
  }

  async close(): Promise<void> {}

  /** Removes folders left empty by a delete or move, up to (not including) the root. */
  private async pruneEmptyParents(full: string): Promise<void> {
    let dir = path.dirname(full);
    while (dir.startsWith(this.root + path.sep)) {
      try {
        await fsp.rmdir(dir);
      } catch {
        return; // not empty (or already gone): stop climbing
      }
      dir = path.dirname(dir);
    }
  }
}
