/**
 * SQL for media records (api.md "Media asset"). A record either points at a stored file
 * (`storage_key` set) or at a remote original (`storage_key` null, `url` absolute), as the
 * Contentful importer creates them (no download). Soft-deleted records (`deleted_at` set) are
 * invisible to every lookup here.
 */
import type { Db } from '../../db/types.js';

export interface MediaRecord {
  id: string;
  workspace_id: string;
  /** Absolute URL of the file. */
  url: string;
  /** Path inside the media storage; null for a remote file. */
  storage_key: string | null;
  mime_type: string;
  width: number | null;
  height: number | null;
  alt_text: string | null;
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
