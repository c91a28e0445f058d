/**
 * What every entry and page row has in common (docs/api.md "ETag and If-Match" (D5), "States and
 * scheduling" (D20), "Working copies, publishing changes and history" (D70, D71), "History" (D72)):
 * identity, slug,
 * navigation position, publication columns, the ETag counter and the history pointers. Entries
 * add their content type and `data`, pages their `seo`; each module's record extends ItemRecord,
 * and both read their rows through toItemRecord, so the two can never disagree on a column.
 */
import type { Status } from './states.js';

/** The columns of ItemRecord, in the order repositories select them. */
export const ITEM_COLUMNS = [
  'id',
  'workspace_id',
  'slug',
  'status',
  'position',
  'publish_at',
  'published_at',
  'version',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
  'published_by',
  'published_version',
  'latest_version',
  'has_pending_changes',
] as const;

/** An entry's or page's row as the modules use it. */
export interface ItemRecord {
  id: string;
  workspace_id: string;
  slug: string;
  status: Status;
  /** Order among its siblings (entries of an orderable type; a workspace's pages), 0-based. */
  position: number;
  publish_at: string | null;
  published_at: string | null;
  /** Counts writes; feeds the ETag (D5). Not on the wire. */
  version: number;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
  /** Who made the published version; production readers see it as `updated_by` (D70). */
  published_by: number | null;
  /** The history version production readers see; null when not published (D72). */
  published_version: number | null;
  /** The newest history version (its snapshot is the working copy). */
  latest_version: number;
  /** The working copy differs from the published version (D70). */
  has_pending_changes: boolean;
}

/** The same columns as the drivers return them (PostgreSQL bigints as strings, SQLite booleans as 0/1). */
export type ItemRow = {
  [K in keyof ItemRecord]: K extends 'status'
    ? string
    : ItemRecord[K] extends number
      ? unknown
      : ItemRecord[K] extends number | null
        ? unknown
        : K extends 'has_pending_changes'
          ? unknown
          : ItemRecord[K];
};

const intOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** Reads the common columns of an entry or page row. */
export function toItemRecord(row: ItemRow): ItemRecord {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    slug: row.slug,
    status: row.status as Status,
    position: Number(row.position),
    publish_at: row.publish_at,
    published_at: row.published_at,
    version: Number(row.version),
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: intOrNull(row.created_by),
    updated_by: intOrNull(row.updated_by),
    published_by: intOrNull(row.published_by),
    published_version: intOrNull(row.published_version),
    latest_version: Number(row.latest_version),
    has_pending_changes: Boolean(Number(row.has_pending_changes)),
  };
}
