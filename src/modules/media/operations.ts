/**
 * Media operations (docs/api.md "Media (management)"; docs/security.md "Limits and their settings";
 * docs/media.md "Uploading" (D50), "URLs" (D51),
 * "Storage" (D52)): upload, list, get,
 * update (alt text, title, description, focal point, folder: the file moves with it), soft delete, and the delivery
 * lookup. Plain functions of (ctx, actor, input), shared by the HTTP routes and the importer.
 *
 * A failed upload leaves no file and no row: the file is stored only after it was identified
 * and measured, the row is inserted after the file landed, and the file is removed again when
 * the insert fails. A folder move updates the row and moves the file inside one transaction
 * (the row is rolled back if the move fails, the file moved back if the commit fails).
 */
import path from 'node:path';
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { offsetPage, type OffsetPage } from '../../lib/pagination.js';
import { iso } from '../../lib/time.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import { noteMedia } from '../read/cache-tags.js';
import type { Actor } from '../auth/permissions.js';
import { folderProblem, parseFolder } from './folders.js';
import { originalKey, storedFilename } from './locations.js';
import { toDeliveryMedia, toManagementMedia, type DeliveryMedia, type MediaAsset } from './model.js';
import { probeFile } from './probe.js';
import {
  findMediaById,
  insertMedia,
  listMediaRecords,
  moveMediaRecord,
  softDeleteMediaRecord,
  updateMediaFields,
  upsertMedia,
  type MediaFieldChanges,
  type MediaRecord,
} from './repository.js';
import type { AssetKind } from './kinds.js';
import type { SpooledFile } from './spool.js';
import type { UploadFields } from './upload-form.js';
import { dropVariants } from './variants.js';
import { auditEntry, recordAudit, systemAuditActor, type AuditActor, type AuditEntry } from '../audit/record.js';
import { recordMediaEvent } from '../events/record.js';

/**
 * The `X-Workspace-ID` rule (docs/media.md "Uploading"; D50 as issue 28 item 6 changed it): a key
 * belongs to one workspace, so no media route needs the header (a session's workspace was
 * already taken from it or from the person's default by the auth hook); when sent it must be a
 * uuid (400) naming the actor's workspace (403).
 */
export function checkWorkspaceHeader(actor: Actor, header: string | undefined): void {
  const value = header?.trim();
  if (!value) return;
  if (!isUuid(value)) throw invalid('headers.x-workspace-id', 'must be a workspace id (uuid)');
  if (value.toLowerCase() !== actor.workspaceId.toLowerCase()) {
    throw new AppError('FORBIDDEN', "X-Workspace-ID names another workspace than the API key's");
  }
}

/** A client file name reduced to a plain name: no folders, no control characters, ≤ 255 chars. */
export function cleanOriginalName(name: string): string {
  const base =
    name
      .split(/[\\/]/)
      .pop()
      // eslint-disable-next-line no-control-regex -- control characters are what this removes
      ?.replace(/[\u0000-\u001f\u007f]/g, '')
      .trim() ?? '';
  return (base || 'upload').slice(0, 255);
}

/** Who owns a new media record: the workspace and the user it is attributed to. */
export interface MediaOwner {
  workspaceId: string;
  userId: number | null;
  /** Who the audit log names (D122); absent: the importer. */
  actor?: Actor | AuditActor;
}

export interface StoreMediaInput extends UploadFields {
  /** The received file; consumed (removed) whatever the outcome. */
  file: SpooledFile;
  /** The client's (or source's) file name, kept as `original_name`. */
  originalName: string;
}

export interface StoreMediaOptions {
  /** A given id (imports derive stable ids); the record is then inserted or replaced. */
  id?: string;
  /** The live record being replaced, if any: its old file and derived images are removed. */
  replace?: MediaRecord | null;
}

/**
 * Identifies, measures and stores a received file and inserts its record (the upload core, also
 * used by the importer). Errors: 415 for a type that is not accepted or an unsafe SVG, 413 for an
 * SVG over its limit.
 */
export async function storeMedia(ctx: Context, owner: MediaOwner, input: StoreMediaInput, options: StoreMediaOptions = {}): Promise<MediaRecord> {
  const storage = ctx.storage.backend();
  try {
    const probed = await probeFile(input.file);
    const id = options.id ?? newId();
    const filename = storedFilename(id, probed.ext);
    const key = originalKey(owner.workspaceId, input.folder, filename);
    const now = iso(ctx.clock());
    const record: MediaRecord = {
      id,
      workspace_id: owner.workspaceId,
      storage_key: key,
      remote_url: null,
      mime_type: probed.mime,
      width: probed.width,
      height: probed.height,
      alt_text: input.alt_text,
      title: input.title,
      description: input.description,
      focal_x: input.focal_x,
      focal_y: input.focal_y,
      filename,
      original_name: cleanOriginalName(input.originalName),
      folder: input.folder,
      size: input.file.size,
      uploaded_by: owner.userId,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await storage.putFile(key, input.file.path, { contentType: probed.mime });
    try {
      // A given id may already have a record (an import run before): it is replaced.
      await withTransaction(ctx.db, async (tx) => {
        await (options.id ? upsertMedia(tx, record) : insertMedia(tx, record));
        await recordMediaEvent(tx, now, owner.workspaceId, id, options.replace ? 'updated' : 'created');
        await recordAudit(tx, {
          workspaceId: owner.workspaceId,
          at: now,
          actor: owner.actor ?? systemAuditActor('import'),
          action: options.replace ? 'media.updated' : 'media.created',
          target: { kind: 'media', id, slug: record.original_name },
        });
      });
    } catch (err) {
      if (options.replace?.storage_key !== key) {
        await storage.delete(key).catch((e: unknown) => ctx.log.error({ err: e, key }, 'could not remove the file of a failed upload'));
      }
      throw err;
    }
    const old = options.replace;
    if (old) {
      if (old.storage_key && old.storage_key !== key)
        await storage.delete(old.storage_key).catch((e: unknown) => ctx.log.warn({ err: e, key: old.storage_key }, 'could not remove a replaced media file'));
      await dropVariants(ctx, owner.workspaceId, id);
      return { ...record, created_at: old.created_at };
    }
    return record;
  } finally {
    await input.file.dispose();
  }
}

/** POST /media/upload: scope media:write; the workspace is the actor's, X-Workspace-ID optional and checked (D50, issue 28 item 6). */
export async function uploadMedia(ctx: Context, actor: Actor, workspaceHeader: string | undefined, input: StoreMediaInput): Promise<MediaAsset> {
  try {
    authorize(actor, 'media:write');
    authorizeItem(actor, { resource: 'media', action: 'create' });
    checkWorkspaceHeader(actor, workspaceHeader);
  } catch (err) {
    await input.file.dispose();
    throw err;
  }
  return toManagementMedia(ctx.config, await storeMedia(ctx, { workspaceId: actor.workspaceId, userId: actor.userId, actor }, input));
}

async function requireMedia(ctx: Context, workspaceId: string, id: string): Promise<MediaRecord> {
  const media = isUuid(id) ? await findMediaById(ctx.db, workspaceId, id) : null;
  if (!media) throw notFound(`media '${id}'`);
  return media;
}

export interface ListMediaQuery {
  page?: number;
  limit?: number;
  /** Exact folder; '' lists the root (assets without a folder). */
  folder?: string;
  /** Kinds (kinds.ts): one, or several separated by commas (`image,video`): assets of any of them. */
  type?: string;
  /** Case-insensitive substring of the original file name, alt text, title or description (blank: no filter). */
  search?: string;
  /** true: only assets without alt text, the ones a site would show to nobody who cannot see them. */
  missing_alt?: boolean;
}

/** GET /media: newest first, with offset pagination; optional folder, kind, text search and missing-alt-text filters. */
export async function listMedia(
  ctx: Context,
  actor: Actor,
  workspaceHeader: string | undefined,
  q: ListMediaQuery,
): Promise<{ items: MediaAsset[]; total: number; window: OffsetPage }> {
  checkWorkspaceHeader(actor, workspaceHeader);
  const window = offsetPage(q.page, q.limit);
  let folder: string | null | undefined;
  if (q.folder !== undefined) {
    const problem = q.folder === '' ? null : folderProblem(q.folder);
    if (problem) throw invalid('query.folder', problem);
    folder = q.folder === '' ? null : q.folder;
  }
  const { items, total } = await listMediaRecords(ctx.db, actor.workspaceId, {
    folder,
    // The route's schema admits only known kinds (MediaListQuery).
    types: q.type ? [...new Set(q.type.split(','))].map((k) => k as AssetKind) : undefined,
    search: q.search?.trim() || undefined,
    missingAlt: q.missing_alt === true,
    offset: window.offset,
    limit: window.limit,
  });
  return { items: items.map((m) => toManagementMedia(ctx.config, m)), total, window };
}

/** GET /media/{id}: one asset of the key's workspace (404 otherwise or when deleted). */
export async function getMedia(ctx: Context, actor: Actor, workspaceHeader: string | undefined, id: string): Promise<MediaAsset> {
  checkWorkspaceHeader(actor, workspaceHeader);
  return toManagementMedia(ctx.config, await requireMedia(ctx, actor.workspaceId, id));
}

export interface UpdateMediaInput {
  /** The shown name (`original_name`), cleaned like an uploaded file's name. */
  original_name?: string;
  alt_text?: string | null;
  title?: string | null;
  description?: string | null;
  folder?: string | null;
  focal_x?: number | null;
  focal_y?: number | null;
}

/**
 * PUT /media/{id}: changes the shown name, alt text, title, description, focal point and/or folder. A new folder moves the stored
 * file and changes `storage_key` (so the computed `url`) atomically with the row (see the module comment).
 * A concurrent move of the same asset is detected (the row's key changed) and retried.
 */
export async function updateMedia(ctx: Context, actor: Actor, workspaceHeader: string | undefined, id: string, input: UpdateMediaInput): Promise<MediaAsset> {
  authorize(actor, 'media:write');
  checkWorkspaceHeader(actor, workspaceHeader);
  const folder = input.folder === undefined ? undefined : parseFolder(input.folder, 'body.folder');
  if ((input.focal_x === undefined) !== (input.focal_y === undefined) || (input.focal_x === null) !== (input.focal_y === null)) {
    throw invalid(input.focal_x === undefined || input.focal_x === null ? 'body.focal_x' : 'body.focal_y', 'focal_x and focal_y are given together');
  }
  if (Object.values(input).every((v) => v === undefined)) return toManagementMedia(ctx.config, await requireMedia(ctx, actor.workspaceId, id));
  const storage = ctx.storage.backend();
  for (let attempt = 0; attempt < 5; attempt++) {
    const current = await requireMedia(ctx, actor.workspaceId, id);
    authorizeItem(actor, { resource: 'media', action: 'update', createdBy: current.uploaded_by });
    const now = iso(ctx.clock());
    const fields: MediaFieldChanges = {
      ...(input.original_name !== undefined ? { original_name: cleanOriginalName(input.original_name) } : {}),
      ...(input.alt_text !== undefined ? { alt_text: input.alt_text } : {}),
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.focal_x !== undefined ? { focal_x: input.focal_x, focal_y: input.focal_y ?? null } : {}),
    };
    const moving = folder !== undefined && folder !== current.folder;
    if (!moving) {
      await withTransaction(ctx.db, async (tx) => {
        await updateMediaFields(tx, current.id, fields, now);
        await recordMediaEvent(tx, now, current.workspace_id, current.id, 'updated');
        await recordAudit(tx, mediaUpdated(actor, current, now, moving ? [...Object.keys(fields), 'folder'] : Object.keys(fields)));
      });
    } else if (current.storage_key === null) {
      // A remote asset (imported by URL) has no file: only its folder label changes.
      await withTransaction(ctx.db, async (tx) => {
        await moveMediaRecord(tx, current.id, null, { ...fields, folder, storage_key: null }, now);
        await recordMediaEvent(tx, now, current.workspace_id, current.id, 'updated');
        await recordAudit(tx, mediaUpdated(actor, current, now, moving ? [...Object.keys(fields), 'folder'] : Object.keys(fields)));
      });
    } else {
      const from = current.storage_key;
      const to = originalKey(current.workspace_id, folder, path.posix.basename(from));
      let moved = false;
      try {
        const updated = await withTransaction(ctx.db, async (tx) => {
          const n = await moveMediaRecord(tx, current.id, from, { ...fields, folder, storage_key: to }, now);
          if (n === 0) return false; // moved meanwhile by another request: read again
          await recordMediaEvent(tx, now, current.workspace_id, current.id, 'updated');
          await recordAudit(tx, mediaUpdated(actor, current, now, [...Object.keys(fields), 'folder']));
          await storage.move(from, to);
          moved = true;
          return true;
        });
        if (!updated) continue;
      } catch (err) {
        if (moved) await storage.move(to, from).catch((e: unknown) => ctx.log.error({ err: e, from: to, to: from }, 'could not move a media file back'));
        throw err;
      }
    }
    if (fields.focal_x !== undefined && (fields.focal_x !== current.focal_x || fields.focal_y !== current.focal_y)) {
      // Cover crops of the old focal point are no longer reachable: drop them.
      await dropVariants(ctx, current.workspace_id, current.id);
    }
    return toManagementMedia(ctx.config, await requireMedia(ctx, actor.workspaceId, id));
  }
  throw new AppError('INTERNAL_ERROR', 'The media asset kept changing while it was being moved');
}

/**
 * DELETE /media/{id}: soft-deletes the record (it disappears from every read) and removes its
 * file and derived images from storage. X-Workspace-ID optional and checked, as on upload.
 */
export async function deleteMedia(ctx: Context, actor: Actor, workspaceHeader: string | undefined, id: string): Promise<void> {
  authorize(actor, 'media:write');
  checkWorkspaceHeader(actor, workspaceHeader);
  const media = await requireMedia(ctx, actor.workspaceId, id);
  authorizeItem(actor, { resource: 'media', action: 'delete', createdBy: media.uploaded_by });
  const deleted = await withTransaction(ctx.db, async (tx) => {
    const at = iso(ctx.clock());
    const done = await softDeleteMediaRecord(tx, media.workspace_id, media.id, at);
    if (done) {
      await recordMediaEvent(tx, at, media.workspace_id, media.id, 'deleted');
      await recordAudit(tx, {
        workspaceId: media.workspace_id,
        at,
        actor,
        action: 'media.deleted',
        target: { kind: 'media', id: media.id, slug: media.original_name },
      });
    }
    return done;
  });
  if (!deleted) throw notFound(`media '${id}'`);
  // After the commit: a failure here leaves an unreachable file (logged), never a live record
  // without its file.
  const storage = ctx.storage.backend();
  if (media.storage_key)
    await storage.delete(media.storage_key).catch((e: unknown) => ctx.log.error({ err: e, key: media.storage_key }, 'could not remove a deleted media file'));
  await dropVariants(ctx, media.workspace_id, media.id);
}

/** Delivery GET /media/{id}: metadata of the key's workspace only; 404 for others or deleted. */
export async function getDeliveryMedia(ctx: Context, actor: Actor, id: string): Promise<DeliveryMedia> {
  noteMedia(ctx, actor.workspaceId, [id]);
  return toDeliveryMedia(ctx.config, await requireMedia(ctx, actor.workspaceId, id));
}

/** The audit row of a media update (D122): the names of the fields it changed. */
function mediaUpdated(actor: Actor, current: MediaRecord, at: string, changedFields: string[]): AuditEntry {
  return auditEntry(current.workspace_id, at, actor, 'media.updated', { kind: 'media', id: current.id, slug: current.original_name }, changedFields);
}
