/**
 * SQL for media records (docs/media.md "The record"). A record either points at a stored file
 * (`storage_key` set, `remote_url` null) or at a remote original (`storage_key` null,
 * `remote_url` absolute), as the Contentful importer creates them (no download). No record holds
 * the URL of its stored file: that is computed on read from the configuration (locations.ts
 * mediaUrl; migration 015 dropped the stored `url`). Soft-deleted records (`deleted_at` set) are
 * invisible to every lookup here. The media library (issue 4) adds listing, the file route's
 * lookup by id, field updates, folder moves guarded by the expected storage key, soft deletes.
 */
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/types.js';
import type { AssetKind } from './kinds.js';

export interface MediaRecord {
  id: string;
  workspace_id: string;
  /** Path inside the media storage; null for a remote file. */
  storage_key: string | null;
  /** Absolute URL of a remote original (storage_key null); null for a stored file. */
  remote_url: string | null;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt_text: string | null;
  /** Free text shown with the asset (migration 018); null when unset. */
  title: string | null;
  description: string | null;
  focal_x: number | null;
  focal_y: number | null;
  filename: string;
  original_name: string;
  folder: string | null;
  /** Bytes. */
  size: number;
  uploaded_by: number | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

type MediaRow = Omit<MediaRecord, 'size' | 'focal_x' | 'focal_y'> & { size: number | string; focal_x: number | string | null; focal_y: number | string | null };

/** PostgreSQL may hand back `bigint` and `real` as strings; records hold numbers. */
function toMedia(row: MediaRow): MediaRecord {
  const num = (v: number | string | null) => (v === null ? null : Number(v));
  return { ...row, size: Number(row.size), focal_x: num(row.focal_x), focal_y: num(row.focal_y) };
}

export async function insertMedia(db: Db, media: MediaRecord): Promise<void> {
  await db.kysely.insertInto('media').values(media).execute();
}

/** The (not deleted) media record `id` of the workspace, or null. */
export async function findMediaById(db: Db, workspaceId: string, id: string): Promise<MediaRecord | null> {
  const row = await db.kysely
    .selectFrom('media')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row ? toMedia(row) : null;
}

/** The workspace's (not deleted) media records among `ids`, by id. */
export async function findMediaByIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<Map<string, MediaRecord>> {
  const out = new Map<string, MediaRecord>();
  if (ids.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('media')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', [...ids])
    .where('deleted_at', 'is', null)
    .execute();
  for (const row of rows) out.set(row.id, toMedia(row));
  return out;
}

/**
 * Inserts the record or, when its id exists, replaces every column but `id` and `created_at`
 * (an import refreshing a record it created before; a soft-deleted one comes back).
 */
export async function upsertMedia(db: Db, media: MediaRecord): Promise<void> {
  const { id: _id, created_at: _created, ...changes } = media;
  await db.kysely
    .insertInto('media')
    .values(media)
    .onConflict((oc) => oc.column('id').doUpdateSet(changes))
    .execute();
}

// ---------------------------------------------------------------------------------------------
// The media library (issue 4): listing, the file route's lookup, updates and soft deletes.

export interface MediaListFilter {
  /** undefined: every folder; null: the root only; a string: exactly that folder. */
  folder?: string | null;
  /** Assets of any of these kinds (kinds.ts, by MIME type); undefined or empty: every kind. */
  types?: readonly AssetKind[];
  /** Case-insensitive substring of `original_name`, `alt_text`, `title` or `description`. */
  search?: string;
  /** Only assets whose `alt_text` is null, empty or spaces. */
  missingAlt?: boolean;
  offset: number;
  limit: number;
}

/** The workspace's live media, newest first (ties by id), with the total count. */
export async function listMediaRecords(db: Db, workspaceId: string, filter: MediaListFilter): Promise<{ items: MediaRecord[]; total: number }> {
  let q = db.kysely.selectFrom('media').where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null);
  if (filter.folder === null) q = q.where('folder', 'is', null);
  else if (filter.folder !== undefined) q = q.where('folder', '=', filter.folder);
  const types = filter.types ?? [];
  if (types.length) {
    // The kinds of kinds.ts assetKindOf, as conditions on the MIME type.
    q = q.where((eb) =>
      eb.or(
        types.map((kind) => {
          if (kind === 'pdf') return eb('mime_type', '=', 'application/pdf');
          if (kind === 'other')
            return eb.and([eb('mime_type', 'not like', 'image/%'), eb('mime_type', 'not like', 'video/%'), eb('mime_type', '<>', 'application/pdf')]);
          return eb('mime_type', 'like', `${kind}/%`);
        }),
      ),
    );
  }
  if (filter.search) {
    // lower() on both sides: SQLite's LIKE ignores ASCII case, PostgreSQL's does not.
    const pattern = `%${filter.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: 'original_name' | 'alt_text' | 'title' | 'description') => sql`lower(coalesce(${sql.ref(column)}, '')) like ${pattern} escape '\\'`;
    q = q.where(() => sql<SqlBool>`(${like('original_name')} or ${like('alt_text')} or ${like('title')} or ${like('description')})`);
  }
  // trim() is the same function in both dialects (spaces only, which is what an empty alt text holds).
  if (filter.missingAlt) q = q.where(sql<SqlBool>`trim(coalesce(alt_text, '')) = ''`);
  const [rows, count] = await Promise.all([
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).offset(filter.offset).execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toMedia), total: Number(count.n) };
}

/** The folders holding live assets of the workspace, by path, with how many each holds directly. */
export async function mediaFolderCounts(db: Db, workspaceId: string): Promise<{ folder: string; count: number }[]> {
  const rows = await db.kysely
    .selectFrom('media')
    .select(['folder', (eb) => eb.fn.countAll<number>().as('n')])
    .where('workspace_id', '=', workspaceId)
    .where('deleted_at', 'is', null)
    .where('folder', 'is not', null)
    .groupBy('folder')
    .orderBy('folder')
    .execute();
  return rows.map((r) => ({ folder: r.folder as string, count: Number(r.n) }));
}

/** A live media record by id in any workspace (the file route: the URL names the asset). */
export async function findLiveMediaById(db: Db, id: string): Promise<MediaRecord | null> {
  const row = await db.kysely.selectFrom('media').selectAll().where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  return row ? toMedia(row) : null;
}

/** The fields PUT /media/{id} changes in place (a folder move goes through moveMediaRecord). */
export interface MediaFieldChanges {
  original_name?: string;
  alt_text?: string | null;
  title?: string | null;
  description?: string | null;
  focal_x?: number | null;
  focal_y?: number | null;
}

/** Changes the shown name, alt text, title, description and/or focal point of a live record. */
export async function updateMediaFields(db: Db, id: string, fields: MediaFieldChanges, now: string): Promise<void> {
  await db.kysely
    .updateTable('media')
    .set({ ...fields, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/**
 * Moves a live record to another folder (new storage key) provided its storage key is
 * still `expectedKey` (null for a remote asset); returns the rows changed (0: it changed meanwhile).
 */
export async function moveMediaRecord(
  db: Db,
  id: string,
  expectedKey: string | null,
  changes: MediaFieldChanges & { folder: string | null; storage_key: string | null },
  now: string,
): Promise<number> {
  let q = db.kysely
    .updateTable('media')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  q = expectedKey === null ? q.where('storage_key', 'is', null) : q.where('storage_key', '=', expectedKey);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** Soft-deletes a live record; false when there was none. */
export async function softDeleteMediaRecord(db: Db, workspaceId: string, id: string, now: string): Promise<boolean> {
  const res = await db.kysely
    .updateTable('media')
    .set({ deleted_at: now, updated_at: now })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** A delivery list of media: live assets, optionally of one MIME type (`image/*`: a family) and one folder (`''`: the root). */
export interface DeliveryMediaQuery {
  mimeType?: string;
  folder?: string;
  /** Resume after this asset (keyset on created_at, id, both descending). */
  after?: { createdAt: string; id: string };
  limit: number;
}

function deliveryMediaWhere(db: Db, workspaceId: string, q: Omit<DeliveryMediaQuery, 'limit' | 'after'>) {
  let query = db.kysely.selectFrom('media').where('workspace_id', '=', workspaceId).where('deleted_at', 'is', null);
  if (q.mimeType !== undefined) {
    query = q.mimeType.endsWith('/*')
      ? query.where('mime_type', 'like', `${q.mimeType.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
      : query.where('mime_type', '=', q.mimeType);
  }
  if (q.folder !== undefined) query = q.folder === '' ? query.where('folder', 'is', null) : query.where('folder', '=', q.folder);
  return query;
}

/** Up to `limit` live assets of the workspace, newest first (ties by id), after `after`: one query. */
export async function listDeliveryMediaRows(db: Db, workspaceId: string, q: DeliveryMediaQuery): Promise<MediaRecord[]> {
  let query = deliveryMediaWhere(db, workspaceId, q);
  if (q.after) {
    const { createdAt, id } = q.after;
    query = query.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  const rows = await query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.limit).execute();
  return rows.map(toMedia);
}

/** The number of live assets listDeliveryMediaRows would list without a limit. */
export async function countDeliveryMediaRows(db: Db, workspaceId: string, q: Omit<DeliveryMediaQuery, 'limit' | 'after'>): Promise<number> {
  const row = await deliveryMediaWhere(db, workspaceId, q)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
