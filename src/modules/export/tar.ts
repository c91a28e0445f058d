/**
 * A small streaming tar (POSIX ustar) writer and reader for workspace exports, so an export can be
 * one file without a dependency. Only what exports need: regular files with relative names of at
 * most 100 bytes, written with fixed metadata (mode 0644, owner 0, time 0) so equal contents make
 * equal archives. Files stream through in chunks; nothing is held whole in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';

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

/**
 * Extracts the tar file `source` into `dir`, accepting only regular files (and directories) whose
 * names `accept` allows; anything else (links, absolute or `..` names) throws. Returns the names.
 */
export async function unpackTo(source: string, dir: string, accept: (name: string) => boolean): Promise<string[]> {
  const names: string[] = [];
  let buffered: Buffer = Buffer.alloc(0);
  let current: { out: fs.WriteStream; left: number; pad: number } | null = null;
  let skip = 0;
  let ended = false;
  const input = fs.createReadStream(source);
  for await (const chunk of input) {
    buffered = buffered.length ? Buffer.concat([buffered, chunk as Buffer]) : (chunk as Buffer);
    for (;;) {
      if (ended) break;
      if (current) {
        const take = Math.min(current.left, buffered.length);
        if (take) await write(current.out, buffered.subarray(0, take));
        buffered = buffered.subarray(take);
        current.left -= take;
        if (current.left > 0) break;
        const done = once(current.out, 'close');
        current.out.end();
        await done;
        skip = current.pad;
        current = null;
      }
      if (skip) {
        const take = Math.min(skip, buffered.length);
        buffered = buffered.subarray(take);
        skip -= take;
        if (skip) break;
      }
      if (buffered.length < BLOCK) break;
      const h = buffered.subarray(0, BLOCK);
      buffered = buffered.subarray(BLOCK);
      if (h.every((b) => b === 0)) {
        ended = true;
        break;
      }
      const prefix = field(h, 345, 155);
      const name = (prefix ? `${prefix}/` : '') + field(h, 0, 100);
      const size = parseInt(field(h, 124, 12).trim() || '0', 8);
      const type = String.fromCharCode(h[156] || 48);
      if (!Number.isFinite(size) || size < 0) throw new Error('the tar file is damaged (bad size field)');
      if (type === '5') continue;
      if (type !== '0' || !accept(name)) throw new Error(`the tar file holds '${name}', which is not part of a Quire export`);
      const full = path.join(dir, ...name.split('/'));
      fs.mkdirSync(path.dirname(full), { recursive: true });
      names.push(name);
      current = { out: fs.createWriteStream(full), left: size, pad: (BLOCK - (size % BLOCK)) % BLOCK };
      if (size === 0) {
        const done = once(current.out, 'close');
        current.out.end();
        await done;
        current = null;
      }
    }
    if (ended) break;
  }
  input.destroy();
  if (current) {
    current.out.destroy();
    throw new Error('the tar file is truncated');
  }
  return names;
}
