/**
 * Importing asset files from a local folder (issue 4 item 6: `quire import contentful FILE
 * --assets-dir DIR`). Each asset whose file is present in DIR is uploaded through the same
 * operation as POST /media/upload (storeMedia: type from the bytes, real dimensions, sanitized
 * SVG, size limit), so the imported media are real files; the others stay remote URLs.
 *
 * Finding a file "by file name", in this order: the path of the asset's URL under DIR (the
 * layout of `contentful-export --download-assets`: DIR/images.ctfassets.net/<space>/<id>/…/
 * <name>), DIR/<name>, then any file named <name> below DIR (when several share the name, the one
 * whose path holds the asset's source id). Names are used as plain file names only: nothing
 * outside DIR is read.
 *
 * Re-running is idempotent: an asset already backed by a stored file with the same original
 * name is left as it is; one stored under another name is replaced (the old file removed).
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import { cleanOriginalName, storeMedia, type MediaOwner } from './operations.js';
import { findMediaByIds, type MediaRecord } from './repository.js';
import { spoolStream } from './spool.js';

/** One asset that may have a local file. */
export interface AssetFileSource {
  /** The media id the asset has (or will have) in Quire. */
  id: string;
  /** The file name to look for. */
  filename: string;
  /** The original URL (its path is tried under the folder first). */
  url?: string;
  /** The asset's id in the source system, to pick among files sharing a name. */
  sourceId?: string;
  alt_text: string | null;
  title: string | null;
  description: string | null;
}

export interface AssetFilesResult {
  /** Ids of the assets now backed by a stored file (uploaded now or before). */
  stored: Set<string>;
  /** Files uploaded now: new records, and records replaced (remote before, or another file). */
  created: number;
  updated: number;
  /** Assets already backed by a stored file, left as they are. */
  unchanged: number;
  warnings: string[];
}

const MAX_INDEXED_FILES = 200_000;

/** Every regular file below `dir` by base name (bounded). */
async function indexFolder(dir: string): Promise<Map<string, string[]>> {
  const index = new Map<string, string[]>();
  const entries = await fsp.readdir(dir, { recursive: true, withFileTypes: true });
  for (const e of entries.slice(0, MAX_INDEXED_FILES)) {
    if (!e.isFile()) continue;
    const list = index.get(e.name) ?? [];
    list.push(path.join(e.parentPath, e.name));
    index.set(e.name, list);
  }
  return index;
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The local file of `asset` inside `root`, or null. */
function locate(root: string, asset: AssetFileSource, index: Map<string, string[]>): string | null {
  const name = path.basename(asset.filename.replace(/\\/g, '/'));
  const inside = (p: string) => p.startsWith(root + path.sep);
  if (asset.url) {
    try {
      const u = new URL(asset.url);
      const candidate = path.resolve(root, u.host, ...decodeURIComponent(u.pathname).split('/').filter(Boolean));
      if (inside(candidate) && isFile(candidate)) return candidate;
    } catch {
      // not a URL: fall back to the name
    }
  }
  if (!name || name === '.' || name === '..') return null;
  const direct = path.join(root, name);
  if (inside(direct) && isFile(direct)) return direct;
  const matches = index.get(name) ?? [];
  if (matches.length <= 1) return matches[0] ?? null;
  return matches.find((m) => asset.sourceId && m.split(path.sep).includes(asset.sourceId)) ?? matches[0];
}

/** A local folder of asset files, indexed once by file name (see openAssetFolder). */
export interface AssetFolder {
  /** The folder as given (for messages). */
  dir: string;
  /** Its absolute path. */
  root: string;
  /** Every regular file below it by base name. */
  index: Map<string, string[]>;
}

/**
 * Checks that `dir` is a readable folder and indexes its files by name, once per import (an
 * import hands assets over in batches; scanning the folder per batch cost a full walk each time).
 * Throws 400 (path `assets_dir`) when `dir` is not a readable folder.
 */
export async function openAssetFolder(dir: string): Promise<AssetFolder> {
  const root = path.resolve(dir);
  try {
    if (!(await fsp.stat(root)).isDirectory()) throw new Error('not a folder');
    return { dir, root, index: await indexFolder(root) };
  } catch {
    throw new AppError('VALIDATION_FAILED', 'Validation failed', [{ path: 'assets_dir', message: `'${dir}' is not a readable folder` }]);
  }
}

/**
 * Uploads the files of `assets` found in `folder` (from openAssetFolder) for `owner` (see the
 * module comment). Without `folder` nothing is uploaded; the result still tells which assets
 * already have stored files, so that an import without the option leaves them as they are.
 * Per-asset problems (a file that is too large or not an accepted type) become warnings and the
 * asset stays remote.
 */
export async function storeAssetFiles(ctx: Context, owner: MediaOwner, assets: readonly AssetFileSource[], folder?: AssetFolder): Promise<AssetFilesResult> {
  const result: AssetFilesResult = { stored: new Set(), created: 0, updated: 0, unchanged: 0, warnings: [] };
  const current = await findMediaByIds(
    ctx.db,
    owner.workspaceId,
    assets.map((a) => a.id),
  );
  for (const [id, m] of current) if (m.storage_key) result.stored.add(id);
  if (folder !== undefined) await uploadFound(ctx, owner, assets, folder, current, result);
  result.unchanged = result.stored.size - result.created - result.updated;
  return result;
}

async function uploadFound(
  ctx: Context,
  owner: MediaOwner,
  assets: readonly AssetFileSource[],
  folder: AssetFolder,
  current: Map<string, MediaRecord>,
  result: AssetFilesResult,
): Promise<void> {
  const { root, index } = folder;

  for (const asset of assets) {
    const file = locate(root, asset, index);
    const existing = current.get(asset.id);
    if (!file) {
      if (!existing?.storage_key)
        result.warnings.push(`asset '${asset.sourceId ?? asset.id}': no file '${asset.filename}' in the assets folder; it stays a remote URL`);
      continue;
    }
    const originalName = cleanOriginalName(asset.filename);
    if (existing?.storage_key && existing.original_name === originalName) continue;
    try {
      const spooled = await spoolStream(ctx.config, fs.createReadStream(file), ctx.config.mediaMaxBytes);
      await storeMedia(
        ctx,
        { workspaceId: owner.workspaceId, userId: existing?.uploaded_by ?? owner.userId },
        {
          file: spooled,
          originalName,
          alt_text: asset.alt_text,
          title: asset.title,
          description: asset.description,
          folder: existing?.folder ?? null,
          focal_x: existing?.focal_x ?? null,
          focal_y: existing?.focal_y ?? null,
        },
        { id: asset.id, replace: existing ?? null },
      );
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      result.warnings.push(`asset '${asset.sourceId ?? asset.id}': file '${path.relative(root, file)}' was not uploaded: ${err.message}`);
      continue;
    }
    result.stored.add(asset.id);
    if (existing) result.updated += 1;
    else result.created += 1;
  }
}
