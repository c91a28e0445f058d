/**
 * Width and height of a video as its container states them (docs/media.md "URLs" (D51)), read from the
 * file's headers without decoding anything:
 * - ISO base media files (MP4, M4V, MOV, 3GP): the track header (`moov/trak/tkhd`) of the first
 *   track with a visual size, its 16.16 fixed-point width and height, swapped when the track
 *   matrix rotates by 90° or 270° (phone videos);
 * - Matroska and WebM: `Segment/Tracks/TrackEntry/Video/PixelWidth` and `PixelHeight` of the
 *   first video track.
 * Anything else, or a container that does not state a size, gives null.
 *
 * No maintained small library reads these two fields (the media libraries decode streams or are
 * audio-only), so this file is a bounded reader: it seeks through box/element headers, reads at
 * most the `moov` box (capped) or the Tracks element, and never loops more than a fixed count.
 */
import fsp from 'node:fs/promises';

export interface Dimensions {
  width: number;
  height: number;
}

/** Random access to a file: `read(pos, len)` returns fewer bytes at its end. */
interface Source {
  size: number;
  read(pos: number, len: number): Promise<Buffer>;
}

const MAX_HEADER_BYTES = 64 * 1024 * 1024;
const MAX_STEPS = 10_000;

/** Dimensions of the video at `filePath`, or null when its container does not state them. */
export async function videoDimensions(filePath: string): Promise<Dimensions | null> {
  const handle = await fsp.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const source: Source = {
      size,
      async read(pos, len) {
        const n = Math.max(0, Math.min(len, size - pos));
        const buf = Buffer.alloc(n);
        if (n > 0) await handle.read(buf, 0, n, pos);
        return buf;
      },
    };
    return await videoDimensionsOf(source);
  } finally {
    await handle.close();
  }
}

/** Same as videoDimensions over bytes in memory (tests, small files). */
export async function videoDimensionsOfBuffer(bytes: Buffer): Promise<Dimensions | null> {
  return videoDimensionsOf({ size: bytes.length, read: async (pos, len) => bytes.subarray(pos, Math.min(bytes.length, pos + len)) });
}

async function videoDimensionsOf(source: Source): Promise<Dimensions | null> {
  const head = await source.read(0, 12);
  if (head.length >= 8 && head.toString('latin1', 4, 8) === 'ftyp') return isoBmffDimensions(source);
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return matroskaDimensions(source);
  return null;
}

// ---------------------------------------------------------------------------------------------
// ISO base media file format (ISO/IEC 14496-12)

interface Box {
  type: string;
  /** Offset of the payload (after the header) and its end, both absolute in the buffer/file. */
  start: number;
  end: number;
}

/** Reads the box header at `pos` of a buffer; null when it does not fit. */
function boxAt(buf: Buffer, pos: number, limit: number): Box | null {
  if (pos + 8 > limit) return null;
  let size = buf.readUInt32BE(pos);
  const type = buf.toString('latin1', pos + 4, pos + 8);
  let header = 8;
  if (size === 1) {
    if (pos + 16 > limit) return null;
    size = Number(buf.readBigUInt64BE(pos + 8));
    header = 16;
  } else if (size === 0) {
    size = limit - pos;
  }
  if (size < header || pos + size > limit) return null;
  return { type, start: pos + header, end: pos + size };
}

function childBoxes(buf: Buffer, start: number, end: number): Box[] {
  const out: Box[] = [];
  let pos = start;
  while (pos < end && out.length < MAX_STEPS) {
    const box = boxAt(buf, pos, end);
    if (!box) break;
    out.push(box);
    pos = box.end;
  }
  return out;
}

async function isoBmffDimensions(source: Source): Promise<Dimensions | null> {
  // Walk the top-level boxes (ftyp, moov, mdat, free, …) by their headers to find moov, which
  // may come before or after the media data.
  let pos = 0;
  for (let step = 0; step < MAX_STEPS && pos + 8 <= source.size; step++) {
    const header = await source.read(pos, 16);
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerLen = 8;
    if (size === 1) {
      if (header.length < 16) return null;
      size = Number(header.readBigUInt64BE(8));
      headerLen = 16;
    } else if (size === 0) {
      size = source.size - pos;
    }
    if (size < headerLen) return null;
    if (type === 'moov') {
      const len = Math.min(size - headerLen, source.size - pos - headerLen);
      if (len > MAX_HEADER_BYTES) return null;
      const moov = await source.read(pos + headerLen, len);
      return moovDimensions(moov);
    }
    pos += size;
  }
  return null;
}

function moovDimensions(moov: Buffer): Dimensions | null {
  for (const trak of childBoxes(moov, 0, moov.length).filter((b) => b.type === 'trak')) {
    const tkhd = childBoxes(moov, trak.start, trak.end).find((b) => b.type === 'tkhd');
    if (!tkhd) continue;
    const dims = tkhdDimensions(moov.subarray(tkhd.start, tkhd.end));
    if (dims) return dims;
  }
  return null;
}

/** Width and height of a tkhd payload (version 0 or 1), rotated by its matrix; null if zero. */
export function tkhdDimensions(p: Buffer): Dimensions | null {
  const version = p[0];
  const fixed = version === 1 ? 4 + 32 : 4 + 20;
  const matrixAt = fixed + 8 + 2 + 2 + 2 + 2;
  const widthAt = matrixAt + 36;
  if (p.length < widthAt + 8) return null;
  const width = Math.round(p.readUInt32BE(widthAt) / 65536);
  const height = Math.round(p.readUInt32BE(widthAt + 4) / 65536);
  if (width <= 0 || height <= 0) return null;
  // The matrix {a b u; c d v; x y w}: a quarter turn has a = d = 0 and b, c = ±1 (16.16).
  const a = p.readInt32BE(matrixAt);
  const b = p.readInt32BE(matrixAt + 4);
  const c = p.readInt32BE(matrixAt + 12);
  const d = p.readInt32BE(matrixAt + 16);
  const quarterTurn = a === 0 && d === 0 && Math.abs(b) === 65536 && Math.abs(c) === 65536;
  return quarterTurn ? { width: height, height: width } : { width, height };
}

// ---------------------------------------------------------------------------------------------
// Matroska / WebM (EBML)

const EBML_ID = {
  segment: 0x18538067,
  tracks: 0x1654ae6b,
  cluster: 0x1f43b675,
  trackEntry: 0xae,
  trackType: 0x83,
  video: 0xe0,
  pixelWidth: 0xb0,
  pixelHeight: 0xba,
};

interface Element {
  id: number;
  /** Payload start; size null means "unknown" (streamed files). */
  start: number;
  size: number | null;
}

/** Reads an EBML variable-length integer; `keepMarker` for element ids. */
function readVint(buf: Buffer, pos: number, keepMarker: boolean): { value: number; length: number; unknown: boolean } | null {
  if (pos >= buf.length) return null;
  const first = buf[pos];
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8 || pos + length > buf.length) return null;
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    value = value * 256 + buf[pos + i];
    if (buf[pos + i] !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

function elementAt(buf: Buffer, pos: number, base = 0): Element | null {
  const id = readVint(buf, pos, true);
  if (!id || id.length > 4) return null;
  const size = readVint(buf, pos + id.length, false);
  if (!size) return null;
  return { id: id.value, start: base + pos + id.length + size.length, size: size.unknown ? null : size.value };
}

function readUint(buf: Buffer, start: number, size: number): number {
  let v = 0;
  for (let i = 0; i < size && i < 8; i++) v = v * 256 + buf[start + i];
  return v;
}

async function matroskaDimensions(source: Source): Promise<Dimensions | null> {
  // Top level: the EBML header, then the Segment. Inside the Segment, skip elements by size
  // until Tracks; Clusters (media data) come after Tracks, so meeting one first means no sizes.
  let pos = 0;
  let end = source.size;
  for (let step = 0; step < MAX_STEPS && pos < end; step++) {
    const head = await source.read(pos, 12);
    const el = elementAt(head, 0, pos);
    if (!el) return null;
    if (el.id === EBML_ID.segment) {
      end = el.size === null ? source.size : Math.min(source.size, el.start + el.size);
      pos = el.start;
      continue;
    }
    if (el.id === EBML_ID.tracks) {
      if (el.size === null || el.size > MAX_HEADER_BYTES) return null;
      const tracks = await source.read(el.start, el.size);
      return tracksDimensions(tracks);
    }
    if (el.id === EBML_ID.cluster || el.size === null) return null;
    pos = el.start + el.size;
  }
  return null;
}

function children(buf: Buffer, start: number, end: number): Element[] {
  const out: Element[] = [];
  let pos = start;
  while (pos < end && out.length < MAX_STEPS) {
    const el = elementAt(buf, pos);
    if (!el || el.size === null || el.start + el.size > end) break;
    out.push(el);
    pos = el.start + el.size;
  }
  return out;
}

function tracksDimensions(tracks: Buffer): Dimensions | null {
  for (const entry of children(tracks, 0, tracks.length).filter((e) => e.id === EBML_ID.trackEntry)) {
    const fields = children(tracks, entry.start, entry.start + (entry.size ?? 0));
    const type = fields.find((e) => e.id === EBML_ID.trackType);
    if (type && readUint(tracks, type.start, type.size ?? 0) !== 1) continue;
    const video = fields.find((e) => e.id === EBML_ID.video);
    if (!video) continue;
    const props = children(tracks, video.start, video.start + (video.size ?? 0));
    const w = props.find((e) => e.id === EBML_ID.pixelWidth);
    const h = props.find((e) => e.id === EBML_ID.pixelHeight);
    if (!w || !h) continue;
    const width = readUint(tracks, w.start, w.size ?? 0);
    const height = readUint(tracks, h.start, h.size ?? 0);
    if (width > 0 && height > 0) return { width, height };
  }
  return null;
}
