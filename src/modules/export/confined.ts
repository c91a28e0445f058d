/**
 * Reading an export as hostile input (issue 23; docs/cli.md "What a restore refuses"): every file
 * a restore reads goes through here, so no name, link or special file in an export can make it
 * read anything outside the export or more bytes than its limit.
 *
 * - Names: only the names an export can hold (exportName): `manifest.json`, the table files of
 *   format.ts, `members.ndjson` and `media/<uuid>`. No other name is ever joined to the root.
 * - Links: the root is resolved once (realpath); a file is opened with O_NOFOLLOW (a symbolic
 *   link as the file itself is refused), its resolved path must be the expected path under the
 *   root (a linked `media` folder is refused), and the opened file must be the one at that path.
 * - Kinds: only regular files. FIFOs and devices are opened non-blocking and refused by their
 *   kind, so an export cannot hang the restore on a pipe nor read a device.
 * - Sizes: the file's size is checked against its limit before a byte is read, and reads stop at
 *   the size found then (a file growing afterwards adds nothing).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { isUuid } from '../../lib/ids.js';
import { MANIFEST_FILE, MEDIA_DIR, MEMBERS_FILE, ROLES_FILE, TABLES, WORKFLOWS_FILE, WORKSPACE_SPEC, tableFile } from './format.js';

/** The largest manifest.json read (32 MiB: about 250,000 media files listed). */
export const MANIFEST_MAX_BYTES = 32 * 1024 * 1024;
/** The longest line of a table file (16 MiB: a row is one line; API bodies are at most 1 MB). */
export const LINE_MAX_BYTES = 16 * 1024 * 1024;

/** A file of the export that cannot be read under these rules; the message names the file. */
export class ExportFileError extends Error {}

const TABLE_FILES = new Set([WORKSPACE_SPEC, ...TABLES, { file: MEMBERS_FILE }, { file: ROLES_FILE }, { file: WORKFLOWS_FILE }].map((s) => tableFile(s)));

/** The kind of file an export path names, or null when no export holds such a name. */
export function exportName(name: string): 'manifest' | 'table' | 'media' | null {
  if (name === MANIFEST_FILE) return 'manifest';
  if (TABLE_FILES.has(name)) return 'table';
  const prefix = `${MEDIA_DIR}/`;
  if (name.startsWith(prefix) && isUuid(name.slice(prefix.length))) return 'media';
  return null;
}

/** `n` bytes in words (MiB above 1 MiB). */
export function sizeText(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB` : `${n} bytes`;
}

/**
 * `text` safe to print in one error line: control characters (a newline among them) and line
 * separators as JSON escapes, at most 200 characters. Names and values in refusals come from the
 * export, which must not be able to forge lines on the operator's terminal.
 */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}

/** The real path of an export directory given by the operator (links in it resolved once). */
export function exportRoot(dir: string): string {
  return fs.realpathSync(dir);
}

/** An export file opened for reading: its handle and its size when opened. */
export interface OpenedFile {
  handle: FileHandle;
  size: number;
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * Opens `name` (an export name) under `root` (from exportRoot) under the rules above, refusing
 * it with ExportFileError when it is larger than `maxBytes`. Returns null when the file does not
 * exist. The caller closes the handle.
 */
export async function openConfined(root: string, name: string, maxBytes: number): Promise<OpenedFile | null> {
  if (!exportName(name)) throw new ExportFileError(`'${printable(name)}' is not a file of a Quire export`);
  const full = path.join(root, ...name.split('/'));
  let handle: FileHandle;
  try {
    handle = await fsp.open(full, fs.constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    if (code === 'ELOOP' || code === 'EMLINK') throw new ExportFileError(`'${name}' is a symbolic link: an export holds regular files only`);
    if (code === 'ENOTDIR') throw new ExportFileError(`'${name}' is not inside a folder of the export`);
    throw new ExportFileError(`'${name}' cannot be read (${code ?? 'error'})`);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ExportFileError(`'${name}' is not a regular file`);
    // A linked folder on the way (e.g. `media` pointing elsewhere) resolves to another path; the
    // opened file must also still be the one at the expected path.
    const real = await fsp.realpath(full);
    const atPath = await fsp.lstat(full);
    if (real !== full || atPath.ino !== stat.ino || atPath.dev !== stat.dev)
      throw new ExportFileError(`'${name}' lies outside the export (a symbolic link on its path)`);
    if (stat.size > maxBytes) throw new ExportFileError(`'${name}' is ${sizeText(stat.size)}, more than the limit of ${sizeText(maxBytes)}`);
    return { handle, size: stat.size };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** A read stream over an opened file, stopping at the size it had when opened. */
export function streamOf(file: OpenedFile): Readable {
  if (file.size === 0) {
    void file.handle.close();
    return Readable.from([]);
  }
  return file.handle.createReadStream({ start: 0, end: file.size - 1, autoClose: true });
}

/** The whole of an opened file (at most its size when opened), closing it. */
export async function readWhole(file: OpenedFile): Promise<Buffer> {
  try {
    const buf = Buffer.alloc(file.size);
    let at = 0;
    while (at < file.size) {
      const { bytesRead } = await file.handle.read(buf, at, file.size - at, at);
      if (!bytesRead) break;
      at += bytesRead;
    }
    return buf.subarray(0, at);
  } finally {
    await file.handle.close();
  }
}

/** Size and hex SHA-256 of an opened file, closing it. */
export async function hashOpened(file: OpenedFile): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of streamOf(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * The non-empty lines of an opened text file, one at a time, refusing a line longer than
 * LINE_MAX_BYTES before it is held whole (a file without newlines cannot fill the memory).
 */
export async function* linesOf(file: OpenedFile, name: string): AsyncGenerator<string> {
  const stream = streamOf(file);
  let parts: Buffer[] = [];
  let pending = 0;
  try {
    for await (const chunk of stream) {
      let buf = chunk as Buffer;
      for (let nl = buf.indexOf(10); nl !== -1; nl = buf.indexOf(10)) {
        if (pending + nl > LINE_MAX_BYTES) throw new ExportFileError(`'${name}' holds a line longer than ${sizeText(LINE_MAX_BYTES)}`);
        parts.push(buf.subarray(0, nl));
        const line = Buffer.concat(parts).toString('utf8');
        parts = [];
        pending = 0;
        buf = buf.subarray(nl + 1);
        if (line.trim()) yield line;
      }
      pending += buf.length;
      if (pending > LINE_MAX_BYTES) throw new ExportFileError(`'${name}' holds a line longer than ${sizeText(LINE_MAX_BYTES)}`);
      if (buf.length) parts.push(buf);
    }
    const last = Buffer.concat(parts).toString('utf8');
    if (last.trim()) yield last;
  } finally {
    stream.destroy();
  }
}
