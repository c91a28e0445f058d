/**
 * What an uploaded file is, judged by its bytes (docs/media.md "Uploading" (D50)), and its size in pixels
 * (D51): file-type sniffs the signature; accepted are the raster formats of
 * RASTER_IMAGE_TYPES, sanitized SVG, any video container and PDF; everything else answers
 * 415 UNSUPPORTED_MEDIA_TYPE. Images are measured by sharp (EXIF orientation applied), videos
 * by their container headers (src/modules/media/video-dimensions.ts), PDFs have no size.
 */
import fsp from 'node:fs/promises';
import { AppError } from '../../errors.js';
import { ACCEPTED_TYPES_TEXT, PDF_MIME, RASTER_IMAGE_TYPES, SVG_MAX_BYTES, SVG_MIME, type MediaKind } from './model.js';
import type { SpooledFile } from './spool.js';
import { looksLikeSvg, sanitizeSvg, UnsafeSvgError } from './svg.js';
import { videoDimensions } from './video-dimensions.js';
import { loadSharp } from './sharp.js';

/** The type and pixel size of a received file. */
export interface Probed {
  kind: MediaKind;
  mime: string;
  /** Extension of the generated file name. */
  ext: string;
  width: number | null;
  height: number | null;
}

/** Video MIME types (from file-type) and the extension their files are stored with. */
const VIDEO_EXT: Readonly<Record<string, string>> = {
  'video/mp4': 'mp4',
  'video/x-m4v': 'm4v',
  'video/quicktime': 'mov',
  'video/3gpp': '3gp',
  'video/3gpp2': '3g2',
  'video/webm': 'webm',
  'video/matroska': 'mkv',
  'video/x-matroska': 'mkv',
  'video/ogg': 'ogv',
  'video/mpeg': 'mpg',
  'video/mp2t': 'ts',
  'video/vnd.avi': 'avi',
  'video/x-msvideo': 'avi',
  'video/x-ms-asf': 'asf',
  'video/x-flv': 'flv',
};

function unsupported(detail: string): AppError {
  return new AppError('UNSUPPORTED_MEDIA_TYPE', `${detail}; accepted are ${ACCEPTED_TYPES_TEXT}`);
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Image width and height after EXIF orientation; 415 when sharp cannot read the image. */
export async function imageDimensions(input: string | Buffer): Promise<{ width: number; height: number }> {
  try {
    const sharp = await loadSharp();
    const meta = await sharp(input, { failOn: 'error' }).metadata();
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw new Error('no dimensions');
    return { width, height };
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The image could not be read: it is damaged or not what its signature says');
  }
}

/**
 * Identifies `file` and measures it. An SVG is sanitized in place (the spooled file is
 * rewritten and its size updated) before it is measured; an unsafe SVG answers 415.
 */
export async function probeFile(file: SpooledFile): Promise<Probed> {
  // Loaded on the first upload, not at start (docs/scaling.md "Memory").
  const { fileTypeFromFile } = await import('file-type');
  const detected = await fileTypeFromFile(file.path);
  const mime = detected?.mime;
  if (mime && RASTER_IMAGE_TYPES[mime]) {
    const { width, height } = await imageDimensions(file.path);
    return { kind: 'image', mime: mime === 'image/apng' ? 'image/png' : mime, ext: RASTER_IMAGE_TYPES[mime], width, height };
  }
  if (mime && VIDEO_EXT[mime]) {
    const dims = await videoDimensions(file.path).catch(() => null);
    return { kind: 'video', mime, ext: VIDEO_EXT[mime], width: dims?.width ?? null, height: dims?.height ?? null };
  }
  if (mime === PDF_MIME) return { kind: 'pdf', mime, ext: 'pdf', width: null, height: null };
  if (!mime || mime === 'application/xml' || mime === 'text/xml') {
    const head = (await readHead(file.path, 4096)).toString('utf8');
    if (looksLikeSvg(head)) return probeSvg(file);
  }
  if (mime?.startsWith('image/')) throw unsupported(`Image type ${mime} is not supported`);
  throw unsupported(mime ? `Files of type ${mime} are not accepted` : 'The file type could not be recognized from its content');
}

async function probeSvg(file: SpooledFile): Promise<Probed> {
  if (file.size > SVG_MAX_BYTES) {
    throw new AppError('PAYLOAD_TOO_LARGE', `SVG files are accepted up to ${SVG_MAX_BYTES / (1024 * 1024)} MB (they are sanitized in memory)`);
  }
  let clean: string;
  try {
    clean = await sanitizeSvg(await fsp.readFile(file.path, 'utf8'));
  } catch (err) {
    if (err instanceof UnsafeSvgError) throw new AppError('UNSUPPORTED_MEDIA_TYPE', `The SVG was refused: ${err.message}`);
    throw err;
  }
  const bytes = Buffer.from(clean, 'utf8');
  await fsp.writeFile(file.path, bytes);
  file.size = bytes.length;
  let width: number | null = null;
  let height: number | null = null;
  try {
    ({ width, height } = await imageDimensions(bytes));
  } catch {
    // An SVG without a size of its own (no width/height nor viewBox) is still a valid asset.
  }
  return { kind: 'svg', mime: SVG_MIME, ext: 'svg', width, height };
}
