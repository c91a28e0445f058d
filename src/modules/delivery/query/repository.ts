/**
 * SQL of the delivery API's entry reads. Each function is one query, whatever the number of rows:
 * a list page (with its translations joined), its total, entries by slug, the related entries of
 * a whole page (all relation fields together) and the media of a whole page.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../../db/types.js';
import type { CursorPosition } from '../cursor.js';
import type { FilterCondition } from '../filters.js';
import type { DeliveryMedia, EntryRow, RelatedRow, Visibility } from '../model.js';
import type { SortSpec } from '../sort.js';
import { filterCondition, keysetCondition, sortExpression, visibleCondition } from './conditions.js';

const ENTRY_COLUMNS = [
  'entries.id',
  'entries.workspace_id',
  'entries.content_type_id',
  'entries.slug',
  'entries.status',
  'entries.data',
  'entries.position',
  'entries.publish_at',
  'entries.published_at',
  'entries.created_at',
  'entries.updated_at',
  'entries.created_by',
  'entries.updated_by',
] as const;

export interface EntryListQuery {
  contentTypeId: string;
  visibility: Visibility;
  /** ISO time of the request (D21 visibility of scheduled rows). */
  now: string;
  /** Locale whose translation is joined; null when the default locale is asked for. */
  locale: string | null;
  filters: FilterCondition[];
  sort: SortSpec;
}

function whereList(db: Db, q: EntryListQuery): Expression<SqlBool>[] {
  return [sql<SqlBool>`"entries"."content_type_id" = ${q.contentTypeId}`, visibleCondition(q.visibility, q.now), ...q.filters.map((f) => filterCondition(db.dialect, f))];
}

/**
 * One page of entries in the order of `q.sort` (then id), after `after` (cursor mode) or from
 * `offset` (offset mode), each with its translation in `q.locale` and its sort value.
 */
export async function listEntryRows(db: Db, q: EntryListQuery, page: { limit: number; offset?: number; after?: CursorPosition }): Promise<EntryRow[]> {
  const key = sortExpression(db.dialect, q.sort, q.now);
  const conditions = whereList(db, q);
  if (page.after) conditions.push(keysetCondition(key, q.sort, page.after));
  const dir = q.sort.direction;
  let query = db.kysely
    .selectFrom('entries')
    .leftJoin('entry_translations as t', (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? ''))
    .select(ENTRY_COLUMNS)
    .select([sql<unknown>`${q.locale === null ? sql`null` : sql.ref('t.data')}`.as('tr_data'), sql<EntryRow['sort_value']>`${key}`.as('sort_value')])
    .where((eb) => eb.and(conditions))
    .orderBy(key, (ob) => {
      const o = dir === 'asc' ? ob.asc() : ob.desc();
      if (!q.sort.nullable) return o;
      return dir === 'asc' ? o.nullsFirst() : o.nullsLast();
    })
    .orderBy('entries.id', dir)
    .limit(page.limit);
  if (page.offset) query = query.offset(page.offset);
  return (await query.execute()) as EntryRow[];
}

/** The number of entries a list query matches (offset mode's `total_data`). */
export async function countEntryRows(db: Db, q: EntryListQuery): Promise<number> {
  const row = await db.kysely
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.and(whereList(db, q)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Visible entries of the workspace with this slug (of one content type when given), each with
 * its translation in `locale`. Several rows mean several content types share the slug (D42).
 */
export async function findEntryRowsBySlug(
  db: Db,
  q: { workspaceId: string; slug: string; contentTypeId: string | null; visibility: Visibility; now: string; locale: string | null },
): Promise<EntryRow[]> {
  let query = db.kysely
    .selectFrom('entries')
    .leftJoin('entry_translations as t', (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? ''))
    .select(ENTRY_COLUMNS)
    .select(sql<unknown>`${q.locale === null ? sql`null` : sql.ref('t.data')}`.as('tr_data'))
    .where('entries.workspace_id', '=', q.workspaceId)
    .where('entries.slug', '=', q.slug)
    .where(visibleCondition(q.visibility, q.now))
    .orderBy('entries.content_type_id')
    .limit(20);
  if (q.contentTypeId) query = query.where('entries.content_type_id', '=', q.contentTypeId);
  return (await query.execute()) as EntryRow[];
}

/**
 * The entries with these ids that a key of `visibility` may see (same workspace, visible
 * status), with their translations in `locale`: one query for every relation of a page (D41).
 */
export async function findRelatedRows(db: Db, q: { workspaceId: string; ids: string[]; visibility: Visibility; now: string; locale: string | null }): Promise<RelatedRow[]> {
  if (q.ids.length === 0) return [];
  return (await db.kysely
    .selectFrom('entries')
    .leftJoin('entry_translations as t', (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? ''))
    .select(['entries.id', 'entries.content_type_id', 'entries.slug', 'entries.data'])
    .select(sql<unknown>`${q.locale === null ? sql`null` : sql.ref('t.data')}`.as('tr_data'))
    .where('entries.workspace_id', '=', q.workspaceId)
    .where('entries.id', 'in', q.ids)
    .where(visibleCondition(q.visibility, q.now))
    .execute()) as RelatedRow[];
}

/** The non-deleted media of the workspace with these ids, as delivery media objects (one query). */
export async function findMediaRows(db: Db, workspaceId: string, ids: string[]): Promise<DeliveryMedia[]> {
  if (ids.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('media')
    .select(['id', 'url', 'mime_type', 'width', 'height', 'alt_text', 'focal_x', 'focal_y'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return rows.map((r) => ({
    ...r,
    width: r.width === null ? null : Number(r.width),
    height: r.height === null ? null : Number(r.height),
    focal_x: r.focal_x === null ? null : Number(r.focal_x),
    focal_y: r.focal_y === null ? null : Number(r.focal_y),
  }));
}
