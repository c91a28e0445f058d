/**
 * Reading the multipart form of POST /media/upload (docs/media.md "Uploading" (D50)): parts `file`
 * (required, exactly one), `alt_text`, `title`, `description`, `folder`, `focal_x`, `focal_y`, in
 * any order. The file is
 * spooled to disk as it arrives (src/modules/media/spool.ts), so fields after it are still read
 * and validated before anything is stored. Unknown or repeated parts answer 400, as unknown keys
 * of JSON bodies do; problems are reported with paths like `body.folder`.
 *
 * The parts come from @fastify/multipart's iterator; only the structural shape below is used,
 * so this module does not depend on Fastify.
 */
import type { Readable } from 'node:stream';
import type { Config } from '../../config.js';
import { AppError, invalid, validationError, type ErrorDetail } from '../../errors.js';
import { parseFolder } from './folders.js';
import { spoolStream, tooLarge, type SpooledFile, type SpoolOptions } from './spool.js';

/** One multipart part as the iterator yields it. */
export type FormPart =
  | { type: 'file'; fieldname: string; filename: string; file: Readable & { truncated?: boolean } }
  | { type: 'field'; fieldname: string; value: unknown; valueTruncated?: boolean };

export const FORM_FIELDS = ['alt_text', 'title', 'description', 'folder', 'focal_x', 'focal_y'] as const;
/** Longest alt text, title and description, in characters. */
export const MAX_ALT_TEXT = 1000;
export const MAX_TITLE = 1000;
export const MAX_DESCRIPTION = 10_000;

/** The text parts with their limits. */
const TEXT_LIMITS = { alt_text: MAX_ALT_TEXT, title: MAX_TITLE, description: MAX_DESCRIPTION } as const;

/** Limits handed to the multipart parser: one file, a few fields (a description of up to 4 bytes a character). */
export function multipartLimits(maxBytes: number) {
  return {
    fields: FORM_FIELDS.length,
    fieldSize: MAX_DESCRIPTION * 4,
    fieldNameSize: 100,
    files: 1,
    parts: FORM_FIELDS.length + 1,
    headerPairs: 50,
    // One byte over the limit reaches the spooler, which answers 413 for it.
    fileSize: maxBytes + 1,
  };
}

/** The validated non-file parts of an upload. */
export interface UploadFields {
  alt_text: string | null;
  title: string | null;
  description: string | null;
  folder: string | null;
  focal_x: number | null;
  focal_y: number | null;
}

export interface UploadForm {
  file: SpooledFile;
  /** The client's file name, kept as `original_name` only (never used on disk). */
  originalName: string;
  fields: UploadFields;
}

/** Parses `focal_x`/`focal_y` text: a number from 0 to 1. */
function focal(raw: string | undefined, path: string, errors: ErrorDetail[]): number | null {
  if (raw === undefined || raw === '') return null;
  const n = Number(raw);
  if (!/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(raw) || !Number.isFinite(n) || n < 0 || n > 1) {
    errors.push({ path, message: 'must be a number from 0 to 1' });
    return null;
  }
  return n;
}

/** Validates the text fields of an upload (400 with every problem at once). */
export function validateUploadFields(raw: Partial<Record<(typeof FORM_FIELDS)[number], string>>): UploadFields {
  const errors: ErrorDetail[] = [];
  let folder: string | null = null;
  try {
    folder = parseFolder(raw.folder, 'body.folder');
  } catch (err) {
    if (err instanceof AppError && err.errors) errors.push(...err.errors);
    else throw err;
  }
  const text = (name: keyof typeof TEXT_LIMITS): string | null => {
    const value = raw[name] ?? null;
    if (value !== null && value.length > TEXT_LIMITS[name]) errors.push({ path: `body.${name}`, message: `must be at most ${TEXT_LIMITS[name]} characters` });
    return value;
  };
  const altText = text('alt_text');
  const title = text('title');
  const description = text('description');
  const fx = focal(raw.focal_x, 'body.focal_x', errors);
  const fy = focal(raw.focal_y, 'body.focal_y', errors);
  if ((fx === null) !== (fy === null) && !errors.some((e) => e.path.startsWith('body.focal'))) {
    errors.push({ path: fx === null ? 'body.focal_x' : 'body.focal_y', message: 'focal_x and focal_y are given together' });
  }
  if (errors.length > 0) throw validationError(errors);
  return { alt_text: altText, title, description, folder, focal_x: fx, focal_y: fy };
}

/** Multipart parser failures as client errors in the envelope (never a 500). */
export function multipartError(err: unknown, maxBytes: number): AppError | null {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(maxBytes);
    case 'FST_FILES_LIMIT':
      return invalid('body.file', 'send exactly one file per upload');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return invalid('body', `too many parts: the form takes file, ${FORM_FIELDS.join(', ')}`);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the upload as multipart/form-data');
    case 'FST_PROTO_VIOLATION':
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return invalid('body', 'is not a valid upload form');
    default:
      break;
  }
  // busboy's own parse errors (malformed framing, a body that ends mid-part).
  if (
    err instanceof Error &&
    /^(Unexpected end of (form|file|multipart data)|Malformed (part header|content type)|Multipart: Boundary not found|Part terminated early)/i.test(
      err.message,
    )
  ) {
    return invalid('body', 'is not valid multipart/form-data (malformed or interrupted)');
  }
  return null;
}

/**
 * Consumes the parts: spools the `file` part to disk (413 past `maxBytes`; `options.hash`: its
 * SHA-256 too), collects and validates the fields. On any failure the spooled file is removed
 * before the error leaves.
 */
export async function readUploadForm(
  config: Pick<Config, 'dataDir'>,
  parts: AsyncIterable<FormPart>,
  maxBytes: number,
  options: SpoolOptions = {},
): Promise<UploadForm> {
  let file: SpooledFile | null = null;
  let originalName = '';
  const raw: Partial<Record<(typeof FORM_FIELDS)[number], string>> = {};
  const seen = new Set<string>();
  try {
    for await (const part of parts) {
      if (seen.has(part.fieldname)) {
        if (part.type === 'file') part.file.resume();
        throw invalid(`body.${part.fieldname}`, 'is given more than once');
      }
      seen.add(part.fieldname);
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw invalid(`body.${part.fieldname}`, 'is not a known part; the file goes in the part named file');
        }
        originalName = part.filename ?? '';
        try {
          file = await spoolStream(config, part.file, maxBytes, options);
        } catch (err) {
          // A system error writing the temporary file (disk full, permissions) is ours: a 500.
          if (/^E[A-Z]+$/.test((err as { code?: string } | null)?.code ?? '')) throw err;
          throw multipartError(err, maxBytes) ?? invalid('body.file', 'the upload was interrupted');
        }
        if (part.file.truncated) throw tooLarge(maxBytes);
        continue;
      }
      if (part.fieldname === 'file') throw invalid('body.file', 'must be a file');
      const name = part.fieldname as (typeof FORM_FIELDS)[number];
      if (!(FORM_FIELDS as readonly string[]).includes(name)) throw invalid(`body.${part.fieldname}`, 'is not a known part');
      if (part.valueTruncated) throw invalid(`body.${name}`, 'is too long');
      raw[name] = typeof part.value === 'string' ? part.value : String(part.value);
    }
    if (!file) throw invalid('body.file', 'is required');
    if (file.size === 0) throw invalid('body.file', 'is empty');
    return { file, originalName: originalName.slice(0, 255), fields: validateUploadFields(raw) };
  } catch (err) {
    await file?.dispose();
    throw multipartError(err, maxBytes) ?? err;
  }
}
