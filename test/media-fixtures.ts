/**
 * Test files for the media suites, all made by the tests: images drawn with sharp, a minimal
 * MP4 (ftyp + moov/trak/tkhd with a known size + mdat), a minimal WebM (EBML header, Segment,
 * Tracks with PixelWidth/PixelHeight), a minimal valid PDF (xref offsets computed), a multipart
 * body builder for inject(), and an S3-compatible server (s3rver) on 127.0.0.1 in-process.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../src/config.js';
import type { Res } from './helpers.js';

// ---------------------------------------------------------------------------------------------
// Images

/** A PNG of w×h filled with one colour. */
export function png(w: number, h: number, color = '#3366cc'): Promise<Buffer> {
  return sharp({ create: { width: w, height: h, channels: 3, background: color } })
    .png()
    .toBuffer();
}

/** A JPEG of w×h; `orientation` writes that EXIF orientation (6 = rotated 90°: displayed h×w). */
export function jpeg(w: number, h: number, orientation?: number): Promise<Buffer> {
  const img = sharp({ create: { width: w, height: h, channels: 3, background: '#cc6633' } });
  return (orientation ? img.withMetadata({ orientation }) : img).jpeg().toBuffer();
}

/** A w×h PNG whose left half is red and right half blue (to see where a crop landed). */
export async function halves(w: number, h: number): Promise<Buffer> {
  const left = await sharp({ create: { width: Math.floor(w / 2), height: h, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: w, height: h, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/** The average colour of an image: 'red', 'blue' or 'mixed'. */
export async function dominant(image: Buffer): Promise<'red' | 'blue' | 'mixed'> {
  const { channels } = await sharp(image).stats();
  const [r, , b] = channels.map((c) => c.mean);
  if (r > 200 && b < 55) return 'red';
  if (b > 200 && r < 55) return 'blue';
  return 'mixed';
}

// ---------------------------------------------------------------------------------------------
// MP4 (ISO base media)

function box(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(8 + body.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, body]);
}

/** A box with a 64-bit size (size field 1, then largesize). */
function largeBox(type: string, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.write(type, 4, 'latin1');
  head.writeBigUInt64BE(BigInt(16 + body.length), 8);
  return Buffer.concat([head, body]);
}

function tkhd(width: number, height: number, version: 0 | 1, rotate90: boolean): Buffer {
  const times = version === 1 ? 32 : 20;
  const p = Buffer.alloc(4 + times + 8 + 8 + 36 + 8);
  p[0] = version;
  p.writeUIntBE(0x000003, 1, 3); // enabled, in movie
  const matrixAt = 4 + times + 8 + 8;
  // Identity {1,0,0; 0,1,0; 0,0,1} or a quarter turn {0,1,0; -1,0,0; 0,0,1} (16.16 / 2.30).
  const m = rotate90 ? [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000] : [0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000];
  m.forEach((v, i) => p.writeInt32BE(v, matrixAt + i * 4));
  p.writeUInt32BE(width * 65536, matrixAt + 36);
  p.writeUInt32BE(height * 65536, matrixAt + 40);
  return box('tkhd', p);
}

function hdlr(kind: 'vide' | 'soun'): Buffer {
  const p = Buffer.alloc(4 + 4 + 4 + 12 + 1);
  p.write(kind, 8, 'latin1');
  return box('hdlr', p);
}

export interface Mp4Options {
  width: number;
  height: number;
  /** moov after mdat (files not prepared for streaming). */
  moovLast?: boolean;
  version?: 0 | 1;
  rotate90?: boolean;
  /** An audio track (0×0) before the video track. */
  audioFirst?: boolean;
  /** Only an audio track: no visual size stated. */
  audioOnly?: boolean;
  /** mdat written with a 64-bit size. */
  largeMdat?: boolean;
  /** Bytes of (dummy) media data. */
  mdatBytes?: number;
  brand?: string;
}

/** A minimal MP4 file (ftyp, moov with mvhd and track headers, mdat) of the given size. */
export function mp4(o: Mp4Options): Buffer {
  const ftyp = box('ftyp', Buffer.from(`${o.brand ?? 'isom'}\0\0\x02\0isomiso2mp41`, 'latin1'));
  const mvhd = box('mvhd', Buffer.alloc(100));
  const audio = box('trak', tkhd(0, 0, o.version ?? 0, false), box('mdia', hdlr('soun')));
  const video = box('trak', tkhd(o.width, o.height, o.version ?? 0, o.rotate90 ?? false), box('mdia', hdlr('vide')));
  const traks = o.audioOnly ? [audio] : o.audioFirst ? [audio, video] : [video];
  const moov = box('moov', mvhd, ...traks);
  const data = randomBytes(o.mdatBytes ?? 2048);
  const mdat = o.largeMdat ? largeBox('mdat', data) : box('mdat', data);
  return Buffer.concat(o.moovLast ? [ftyp, mdat, moov] : [ftyp, moov, mdat]);
}

// ---------------------------------------------------------------------------------------------
// WebM (EBML)

function vintSize(n: number): Buffer {
  // 8-byte size: marker 0x01 then 7 bytes of value.
  const b = Buffer.alloc(8);
  b[0] = 0x01;
  b.writeUIntBE(n, 2, 6);
  return b;
}

function el(id: number, ...payload: Buffer[]): Buffer {
  const body = Buffer.concat(payload);
  const idBytes = Buffer.from(id.toString(16).padStart(id > 0xffffff ? 8 : id > 0xffff ? 6 : id > 0xff ? 4 : 2, '0'), 'hex');
  return Buffer.concat([idBytes, vintSize(body.length), body]);
}

function uint(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

/** A minimal WebM: EBML header (DocType webm), Segment (optionally of unknown size) with Info, Tracks, a Cluster. */
export function webm(o: { width: number; height: number; unknownSegmentSize?: boolean; noVideo?: boolean }): Buffer {
  const header = el(
    0x1a45dfa3,
    el(0x4286, Buffer.from([1])),
    el(0x42f7, Buffer.from([1])),
    el(0x4282, Buffer.from('webm')),
    el(0x4287, Buffer.from([2])),
    el(0x4285, Buffer.from([2])),
  );
  const info = el(0x1549a966, el(0x2ad7b1, Buffer.from([0x0f, 0x42, 0x40])));
  const audio = el(0xae, el(0xd7, Buffer.from([1])), el(0x83, Buffer.from([2])), el(0x86, Buffer.from('A_OPUS')));
  const video = el(
    0xae,
    el(0xd7, Buffer.from([2])),
    el(0x83, Buffer.from([1])),
    el(0x86, Buffer.from('V_VP9')),
    el(0xe0, el(0xb0, uint(o.width)), el(0xba, uint(o.height))),
  );
  const tracks = el(0x1654ae6b, audio, ...(o.noVideo ? [] : [video]));
  const cluster = el(0x1f43b675, el(0xe7, Buffer.from([0])), el(0xa3, randomBytes(512)));
  const body = Buffer.concat([info, tracks, cluster]);
  const segmentHead = Buffer.from('18538067', 'hex');
  const size = o.unknownSegmentSize ? Buffer.from('01ffffffffffffff', 'hex') : vintSize(body.length);
  return Buffer.concat([header, segmentHead, size, body]);
}

// ---------------------------------------------------------------------------------------------
// PDF

/** A minimal valid one-page PDF (with a correct xref table); `padTo` pads it with a comment. */
export function pdf(padTo?: number): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>',
  ];
  const stream = 'BT /F1 12 Tf 20 100 Td (Quire) Tj ET';
  objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xrefAt = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  let bytes = Buffer.from(out, 'latin1');
  if (padTo && padTo > bytes.length) {
    // A PDF comment after %%EOF: readers ignore it; it sets the exact file size.
    const pad = Buffer.alloc(padTo - bytes.length, 0x20);
    pad[0] = 0x25; // '%'
    pad[pad.length - 1] = 0x0a;
    bytes = Buffer.concat([bytes, pad]);
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Multipart bodies

export type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer; contentType?: string };

/** A multipart/form-data payload and its content-type header. */
export function multipart(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----quire${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('data' in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
      );
      chunks.push(p.data, Buffer.from('\r\n'));
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

// ---------------------------------------------------------------------------------------------
// S3-compatible server

export interface S3Server {
  config: Partial<Config>;
  /** Keys of every object in the bucket, sorted (read from s3rver's directory). */
  keys(): Promise<string[]>;
  close(): Promise<void>;
}

/** s3rver on 127.0.0.1 (random port) with one bucket; `config` points Quire at it. */
export async function startS3(): Promise<S3Server> {
  const directory = path.join(os.tmpdir(), `quire-s3-${process.pid}-${randomBytes(4).toString('hex')}`);
  const bucket = 'quire-media';
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  return {
    config: {
      storageDriver: 's3',
      s3Endpoint: `http://127.0.0.1:${port}`,
      s3Bucket: bucket,
      s3Region: 'us-east-1',
      s3AccessKeyId: 'S3RVER',
      s3SecretAccessKey: 'S3RVER',
      s3ForcePathStyle: true,
    },
    keys: async () =>
      (await filesUnder(path.join(directory, bucket)))
        .filter((f) => f.endsWith('._S3rver_object'))
        .map((f) => f.slice(0, -'._S3rver_object'.length))
        .sort(),
    close: async () => {
      await server.close();
      await fsp.rm(directory, { recursive: true, force: true });
    },
  };
}

/** Files under `dir` (recursively), relative; [] when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
      .sort();
  } catch {
    return [];
  }
}

/** Keys of every stored object of a test environment, whatever its storage driver. */
export async function storedKeys(config: Pick<Config, 'dataDir' | 'storageDriver'>, s3: S3Server | null): Promise<string[]> {
  if (config.storageDriver === 's3' && s3) return s3.keys();
  return (await filesUnder(path.join(config.dataDir, 'media'))).filter((f) => !f.startsWith('.tmp')).sort();
}

/** POST /api/v1/manage/media/upload with a multipart body built from `parts`. */
export async function upload(app: FastifyInstance, opts: { key: string; workspaceId?: string; parts: Part[]; headers?: Record<string, string> }): Promise<Res> {
  const { payload, contentType } = multipart(opts.parts);
  const headers: Record<string, string> = { 'x-api-key': opts.key, 'content-type': contentType, ...(opts.headers ?? {}) };
  if (opts.workspaceId) headers['x-workspace-id'] = opts.workspaceId;
  const res = await app.inject({ method: 'POST', url: '/api/v1/manage/media/upload', headers, payload });
  let body: unknown = res.body;
  try {
    body = JSON.parse(res.body);
  } catch {
    /* keep text */
  }
  return { status: res.statusCode, body, headers: res.headers as Res['headers'] };
}
