/**
 * SQL of the delivery API's entry reads. Production keys read published versions
 * (`published_data`, published_entry_translations; DECISIONS.md D70), preview keys working copies
 * (`data`, entry_translations): the same queries on the other columns, each side with its own
 * expression indexes. Production readers see the publication's time and author as
 * `updated_at`/`updated_by`, so saving a working copy changes nothing they can see. Each function is one query, whatever the number of rows:
 * a list page (with its translations joined), its total, entries by slug, the related entries of
 * a whole page (all relation fields together) and the media of a whole page.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../../db/types.js';
import type { CursorPosition } from '../cursor.js';
import type { FilterCondition } from '../filters.js';
import type { EntryRow, RelatedRow, Visibility } from '../model.js';
import type { SortSpec } from '../sort.js';
import type { DataColumn } from '../../../db/dialect.js';
import { publishedUpdatedAt } from '../../publishing/status-sql.js';
import { filterCondition, keysetCondition, nullsOrdered, sortExpression, visibleCondition, visibleStatusTerms } from './conditions.js';

/** The entry columns every delivery read selects (content and updated_* depend on the key). */
export const COMMON_COLUMNS = [
  'entries.id',
  'entries.workspace_id',
  'entries.content_type_id',
  'entries.slug',
  'entries.status',
  'entries.position',
  'entries.publish_at',
  'entries.published_at',
  'entries.created_at',
  'entries.created_by',
] as const;

/** Where each kind of key reads an entry's content (D70). */
interface Source {
  column: DataColumn;
  translations: 'entry_translations' | 'published_entry_translations';
}

function sourceOf(visibility: Visibility): Source {
  return visibility === 'production'
    ? { column: 'published_data', translations: 'published_entry_translations' }
    : { column: 'data', translations: 'entry_translations' };
}

/** The content and the updated_* columns as a key of `visibility` sees them. */
function contentColumns(visibility: Visibility) {
  if (visibility === 'preview')
    return [
      sql<unknown>`${sql.ref('entries.data')}`.as('data'),
      sql<string>`${sql.ref('entries.updated_at')}`.as('updated_at'),
      sql<number | null>`${sql.ref('entries.updated_by')}`.as('updated_by'),
    ];
  return [
    sql<unknown>`${sql.ref('entries.published_data')}`.as('data'),
    // A due scheduled entry is published at its publish_at before the job writes published_at.
    publishedUpdatedAt('entries').as('updated_at'),
    sql<number | null>`${sql.ref('entries.published_by')}`.as('updated_by'),
  ];
}

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

/** A non-negative integer for inlining into SQL; anything else is a programming error. */
function intOf(n: number): number {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return n;
}

/** The joined translation's data, or null when no translation is joined (default locale). */
function trData(locale: string | null) {
  return (locale === null ? sql<unknown>`null` : sql<unknown>`${sql.ref('t.data')}`).as('tr_data');
}

function whereList(db: Db, q: EntryListQuery): Expression<SqlBool>[] {
  const { column } = sourceOf(q.visibility);
  return [
    sql<SqlBool>`"entries"."content_type_id" = ${q.contentTypeId}`,
    visibleCondition(q.visibility, q.now),
    ...q.filters.map((f) => filterCondition(db.dialect, f, column)),
  ];
}

/**
 * One page of entries in the order of `q.sort` (then id), after `after` (cursor mode) or from
 * `offset` (offset mode), each with its translation in `q.locale` and its sort value. With
 * `withTotal`, every row also carries `total`, the number of entries the query matches (an
 * uncorrelated subquery, evaluated once per statement on both databases), which saves offset
 * mode a second statement.
 */
export async function listEntryRows(
  db: Db,
  q: EntryListQuery,
  page: { limit: number; offset?: number; after?: CursorPosition; withTotal?: boolean },
): Promise<(EntryRow & { total?: number })[]> {
  const src = sourceOf(q.visibility);
  const key = sortExpression(db.dialect, q.sort, q.now, 'entries', q.visibility === 'production' ? 'published' : 'working');
  const conditions = whereList(db, q);
  if (page.after) conditions.push(keysetCondition(key, q.sort, page.after));
  const dir = q.sort.direction;
  let query = db.kysely
    .selectFrom('entries')
    .$if(q.locale !== null, (qb) =>
      qb.leftJoin(`${src.translations} as t`, (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? '')),
    )
    .select(COMMON_COLUMNS)
    .select(contentColumns(q.visibility))
    .select([trData(q.locale), sql<EntryRow['sort_value']>`${key}`.as('sort_value')])
    .$if(page.withTotal === true, (qb) => qb.select(countExpression(db, q).as('total')))
    .where((eb) => eb.and(conditions))
    .orderBy(key, (ob) => nullsOrdered(ob, q.sort))
    .orderBy('entries.id', dir)
    // Validated integers, inlined: SQLite runs `LIMIT 10` measurably faster than `LIMIT ?`.
    .limit(sql.lit(intOf(page.limit)));
  if (page.offset) query = query.offset(sql.lit(intOf(page.offset)));
  return (await query.execute()) as (EntryRow & { total?: number })[];
}

/**
 * SQL counting the entries a list query matches. Without filters it sums one index range per
 * visible status (covering index `entries_type_status`); with filters every candidate row is
 * tested. Inside these subqueries the unaliased "entries" of the conditions is their own table.
 */
function countExpression(db: Db, q: EntryListQuery): RawBuilder<number> {
  const type = sql<SqlBool>`"entries"."content_type_id" = ${q.contentTypeId}`;
  if (q.filters.length === 0) {
    const parts = visibleStatusTerms(q.visibility, q.now).map((term) => sql`(select count(*) from "entries" where ${type} and ${term})`);
    return sql<number>`(${sql.join(parts, sql` + `)})`;
  }
  return sql<number>`(select count(*) from "entries" where ${sql.join(whereList(db, q), sql` and `)})`;
}

/** The number of entries a list query matches (offset mode's `total_data` past the last page). */
export async function countEntryRows(db: Db, q: EntryListQuery): Promise<number> {
  const res = await sql<{ n: number }>`select ${countExpression(db, q)} as "n"`.execute(db.kysely);
  return Number(res.rows[0].n);
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
    .$if(q.locale !== null, (qb) =>
      qb.leftJoin(`${sourceOf(q.visibility).translations} as t`, (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? '')),
    )
    .select(COMMON_COLUMNS)
    .select(contentColumns(q.visibility))
    .select(trData(q.locale))
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
 * The lookup goes by primary key only (a `workspace_id` term would lead SQLite to walk the
 * workspace's slug index instead); the workspace is checked on the rows found.
 */
export async function findRelatedRows(
  db: Db,
  q: { workspaceId: string; ids: string[]; visibility: Visibility; now: string; locale: string | null },
): Promise<RelatedRow[]> {
  if (q.ids.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('entries')
    .$if(q.locale !== null, (qb) =>
      qb.leftJoin(`${sourceOf(q.visibility).translations} as t`, (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? '')),
    )
    .select(['entries.id', 'entries.workspace_id', 'entries.content_type_id', 'entries.slug'])
    .select(sql<unknown>`${sql.ref(`entries.${sourceOf(q.visibility).column}`)}`.as('data'))
    .select(trData(q.locale))
    .where('entries.id', 'in', q.ids)
    .where(visibleCondition(q.visibility, q.now))
    .execute();
  return rows.filter((r) => r.workspace_id === q.workspaceId) as RelatedRow[];
}
