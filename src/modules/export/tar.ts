/**
 * A small streaming tar (POSIX ustar) writer and reader for workspace exports, so an export can be
 * one file without a dependency. Only what exports need: regular files with relative names of at
 * most 100 bytes, written with fixed metadata (mode 0644, owner 0, time 0) so equal contents make
 * equal archives. Files stream through in chunks; nothing is held whole in memory. Reading treats
 * the file as hostile (unpackTo).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { printable, sizeText } from './confined.js';

const BLOCK = 512;

function header(name: string, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: file name too long: ${name}`);
  h.write(name, 0, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write('0', 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}

async function write(out: fs.WriteStream, chunk: Buffer): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** Writes `files` (paths relative to `dir`, in this order) into the tar file `target`. */
export async function packDirectory(dir: string, files: readonly string[], target: string): Promise<void> {
  const out = fs.createWriteStream(target);
  const closed = once(out, 'close');
  try {
    for (const name of files) {
      const full = path.join(dir, ...name.split('/'));
      const size = fs.statSync(full).size;
      await write(out, header(name, size));
      for await (const chunk of fs.createReadStream(full)) await write(out, chunk as Buffer);
      const pad = (BLOCK - (size % BLOCK)) % BLOCK;
      if (pad) await write(out, Buffer.alloc(pad));
    }
    await write(out, Buffer.alloc(BLOCK * 2));
  } finally {
    out.end();
    await closed;
  }
}

function field(h: Buffer, start: number, length: number): string {
  const raw = h.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? length : end).toString('utf8');
}

/** A numeric header field: octal digits, padded with spaces or NULs; null when it is anything else (base-256 included). */
function octal(h: Buffer, start: number, length: number): number | null {
  const text = h
    .subarray(start, start + length)
    .toString('latin1')
    .replace(/[\0 ]+$/, '')
    .replace(/^ +/, '');
  return /^[0-7]{1,12}$/.test(text) ? parseInt(text, 8) : null;
}

/** True when the header's checksum (the unsigned sum of its bytes, the checksum field as spaces) holds. */
function checksumHolds(h: Buffer): boolean {
  const stored = octal(h, 148, 8);
  if (stored === null) return false;
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : h[i];
  return sum === stored;
}

/** A tar file that cannot be unpacked under the rules of unpackTo; the message says why in one line. */
export class TarError extends Error {}

const COPY_CHUNK = 1024 * 1024;

/**
 * Extracts the tar file `source` into the new, empty directory `dir`, treating it as hostile:
 * only regular files (and directory entries, skipped) whose names `limitOf` knows are taken,
 * each at most `limitOf(name)` bytes. Every header is checked (checksum, octal size, type) and
 * each entry's declared size against its limit and against what is left of the file before a
 * byte of it is written; a name given twice, a link, a device, an unknown name, a damaged header
 * or a file that ends before its end-of-archive marker throws TarError with one line saying
 * which. Files are created exclusively (never through an existing file or link). Returns the
 * names extracted. Reads and writes 1 MiB at a time.
 */
export async function unpackTo(source: string, dir: string, limitOf: (name: string) => number | null): Promise<string[]> {
  const names: string[] = [];
  const input = await fsp.open(source, 'r');
  try {
    const total = (await input.stat()).size;
    let offset = 0;
    const header = Buffer.alloc(BLOCK);
    const chunk = Buffer.alloc(COPY_CHUNK);
    for (;;) {
      if (offset + BLOCK > total) throw new TarError(`the tar file is truncated (it ends at byte ${total} without its end-of-archive marker)`);
      const { bytesRead } = await input.read(header, 0, BLOCK, offset);
      if (bytesRead < BLOCK) throw new TarError('the tar file is truncated');
      offset += BLOCK;
      if (header.every((b) => b === 0)) return names;
      if (!checksumHolds(header)) throw new TarError(`the file is not a tar archive or is damaged (bad header at byte ${offset - BLOCK})`);
      const magic = header.subarray(257, 262).toString('latin1');
      const prefix = magic === 'ustar' ? field(header, 345, 155) : '';
      const name = (prefix ? `${prefix}/` : '') + field(header, 0, 100);
      const shown = printable(name);
      const size = octal(header, 124, 12);
      if (size === null) throw new TarError(`the tar file is damaged: the entry '${shown}' has a size this reader does not take`);
      const type = String.fromCharCode(header[156] || 48);
      if (type === '5') {
        offset += Math.ceil(size / BLOCK) * BLOCK;
        continue;
      }
      const limit = type === '0' ? limitOf(name) : null;
      if (limit === null) throw new TarError(`the tar file holds '${shown}', which is not part of a Quire export`);
      if (names.includes(name)) throw new TarError(`the tar file holds '${shown}' twice`);
      if (size > limit) throw new TarError(`the tar file's entry '${shown}' declares ${sizeText(size)}, more than the limit of ${sizeText(limit)}`);
      if (offset + size > total) throw new TarError(`the tar file is truncated: its entry '${shown}' declares ${sizeText(size)}, more than the file holds`);
      const full = path.join(dir, ...name.split('/'));
      await fsp.mkdir(path.dirname(full), { recursive: true });
      const out = await fsp.open(full, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0), 0o600);
      names.push(name);
      try {
        let left = size;
        while (left > 0) {
          const { bytesRead: got } = await input.read(chunk, 0, Math.min(COPY_CHUNK, left), offset);
          if (!got) throw new TarError('the tar file is truncated');
          await out.write(chunk, 0, got);
          offset += got;
          left -= got;
        }
      } finally {
        await out.close();
      }
      offset += (BLOCK - (size % BLOCK)) % BLOCK;
    }
  } finally {
    await input.close();
  }
}
