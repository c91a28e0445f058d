/**
 * SQL of the delivery API's entry reads. Which columns, translations and statuses a key reads is
 * the read model's (src/modules/read/resolver.ts): production keys read published versions
 * (`published_data`, published_entry_translations; docs/api.md "Working copies, publishing changes
 * and history" (D70)), preview keys working copies
 * (`data`, entry_translations): the same queries on the other columns, each side with its own
 * expression indexes; a release perspective (D111) the published copies with the release's items
 * laid over them, tables the read model's readerOf and selectEntries add to the statement.
 * Queries name the perspective. Each function is one query, whatever the number of rows:
 * a list page (with its translations joined), its total, entries by slug, the related entries of
 * a whole page (all relation fields together) and the media of a whole page.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../../db/types.js';
import type { CursorPosition } from '../cursor.js';
import type { FilterCondition } from '../filters.js';
import type { EntryRow, RelatedRow } from '../model.js';
import type { SortSpec } from '../sort.js';
import { dataFieldSql } from '../../../db/dialect.js';
import { idListCondition, idListValue, runTemplate } from '../../../db/query-template.js';
import { cappedCountsNeedIndexOrder, sortsRowsPinnedByIndex } from '../../../db/planner.js';
import { releaseOf, type Perspective } from '../../read/perspective.js';
import { contentColumns, dueCondition, entriesTableSql, readerOf, readSource, selectEntries, visibleCondition } from '../../read/resolver.js';
import { filterCondition, keysetRanges, nullsOrdered, sortExpression, treeCondition, type KeysetRange } from './conditions.js';
import type { FilterNode } from '../filter-tree.js';

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
  'entries.published_version',
] as const;

/** The column and translation table `perspective` reads an entry's content from (D70). */
function sourceOf(perspective: Perspective) {
  const source = readSource(perspective);
  return { column: source.entryData, translations: source.entryTranslations, entries: source.entries };
}

/** The content and the updated_* columns as `perspective` sees them. */
function entryContent(perspective: Perspective) {
  return contentColumns(perspective, 'entries');
}

export interface EntryListQuery {
  contentTypeId: string;
  /** What the key reads (its perspective, src/modules/read/perspective.ts). */
  perspective: Perspective;
  /** ISO time of the request (D21 visibility of scheduled rows). */
  now: string;
  /** Locale whose translation is joined; null when the default locale is asked for. */
  locale: string | null;
  filters: FilterCondition[];
  /** Conditions beyond `filters` (GraphQL `where` with OR or column conditions: filter-tree.ts), ANDed with them. */
  where?: FilterNode | null;
  sort: SortSpec;
}

/** Whether the list is narrowed beyond its type and visibility. */
function filtered(q: EntryListQuery): boolean {
  return q.filters.length > 0 || (q.where !== undefined && q.where !== null);
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

/**
 * The conditions of a list. For a page (`page`), filters on another field than the sort key
 * read in the sort's order (filterCondition `rangeByOrder`); counts use the filters' indexes.
 */
function whereList(db: Db, q: EntryListQuery, page = false): Expression<SqlBool>[] {
  const { column } = sourceOf(q.perspective);
  const key = q.sort.key;
  const sortField = key.kind === 'data' ? key.field.name : null;
  return [
    sql<SqlBool>`"entries"."content_type_id" = ${q.contentTypeId}`,
    visibleCondition(q.perspective, q.now, 'entries', db.dialect),
    ...q.filters.map((f) => filterCondition(db.dialect, f, column, page && f.field.name !== sortField)),
    ...(q.where ? [treeCondition(db.dialect, q.where, q.perspective, q.now)] : []),
  ];
}

/**
 * Filtered lists count at most this many matching entries beyond the end of the page asked for;
 * past it `total_data` is a lower bound and `total_is_exact` false (docs/api.md "Pagination").
 * Each counted entry is one index entry and one row read, so the cap bounds a page's time.
 */
export const FILTERED_COUNT_CAP = 1000;

/** The number of entries a list matches, or a lower bound of it (`exact: false`). */
export interface ListTotal {
  total: number;
  exact: boolean;
}

/**
 * One page of entries in the order of `q.sort` (then id), after `after` (cursor mode) or from
 * `offset` (offset mode), each with its translation in `q.locale` and its sort value. With
 * `withTotal`, every row also carries `total`, the list's total as countExpression bounds it (a
 * subquery evaluated once per statement on both databases), which saves offset mode a second
 * statement. After a cursor the rows come from each keyset range in turn (keysetRanges), each
 * range one index range, until the page is full. An offset page past the first is a deferred
 * join (deferredPageQuery).
 */
export async function listEntryRows(
  db: Db,
  q: EntryListQuery,
  page: { limit: number; offset?: number; after?: CursorPosition; withTotal?: boolean },
): Promise<(EntryRow & { total?: number })[]> {
  const key = sortExpression(db.dialect, q.sort, q.now, 'entries', q.perspective);
  if (!page.after) return pageQuery(db, q, key, null, page.limit, page.offset ?? 0, page.withTotal === true ? countWindow(page) : null);
  const rows: (EntryRow & { total?: number })[] = [];
  for (const range of keysetRanges(key, q.sort, page.after)) {
    rows.push(...(await pageQuery(db, q, key, range, page.limit - rows.length, 0, null)));
    if (rows.length >= page.limit) break;
  }
  return rows;
}

/**
 * True when a filter holds the sort key at one value (`eq`, or `exists=false`: missing), so the
 * rows are in id order: SQLite does not see that an indexed expression equal to a constant (or
 * NULL) orders nothing and would sort the rows in a temporary B-tree, so on SQLite such pages
 * order by id alone. PostgreSQL keeps the full order, which its index path yields as it is, except
 * over the subquery of a deferred join, whose sort values it no longer knows to be one value.
 */
function sortKeyPinned(q: EntryListQuery): boolean {
  const key = q.sort.key;
  if (key.kind !== 'data') return false;
  return q.filters.some((f) => f.field.name === key.field.name && (f.op === 'eq' || (f.op === 'exists' && f.value === false)));
}

function isSlugSort(sort: SortSpec): boolean {
  return sort.key.kind === 'column' && sort.key.column === 'slug';
}

/** How far a filtered count looks: past the page's end by FILTERED_COUNT_CAP. */
function countWindow(page: { limit: number; offset?: number }): number {
  return (page.offset ?? 0) + page.limit + FILTERED_COUNT_CAP;
}

async function pageQuery(
  db: Db,
  q: EntryListQuery,
  key: RawBuilder<unknown>,
  range: KeysetRange | null,
  limit: number,
  offset: number,
  totalWindow: number | null,
): Promise<(EntryRow & { total?: number })[]> {
  if (offset > 0) return deferredPageQuery(db, q, key, limit, offset, totalWindow);
  const src = sourceOf(q.perspective);
  const query = selectEntries(db, q.perspective, q.now)
    .$if(q.locale !== null, (qb) =>
      qb.leftJoin(`${src.translations} as t`, (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? '')),
    )
    .select(COMMON_COLUMNS)
    .select(entryContent(q.perspective))
    .select([trData(q.locale), sql<EntryRow['sort_value']>`${key}`.as('sort_value')])
    .$if(totalWindow !== null, (qb) => qb.select(countExpression(db, q, totalWindow ?? 0).as('total')))
    .where((eb) => eb.and(range ? [...whereList(db, q, true), range.condition] : whereList(db, q, true)))
    .$if(ordersByKey(db, q, range), (qb) => qb.orderBy(key, (ob) => nullsOrdered(ob, q.sort)))
    // Slugs are unique per content type: the id adds nothing and no index holds (slug, id).
    .$if(!isSlugSort(q.sort), (qb) => qb.orderBy('entries.id', q.sort.direction))
    // Validated integers, inlined: SQLite runs `LIMIT 10` measurably faster than `LIMIT ?`.
    .limit(sql.lit(intOf(limit)));
  return (await query.execute()) as (EntryRow & { total?: number })[];
}

/** False where SQLite must order by id alone (sortKeyPinned, a range of missing values). */
function ordersByKey(db: Db, q: EntryListQuery, range: KeysetRange | null): boolean {
  return !(sortsRowsPinnedByIndex(db.dialect) && (range?.missingOnly === true || sortKeyPinned(q)));
}

/**
 * An offset page as a deferred join: a subquery picks the ids of the page (and their sort values)
 * from the sort index, skipping `offset` index entries there, then only those `limit` rows are
 * read and joined to their translations; the outer query keeps the subquery's order (a nested
 * loop on PostgreSQL, a scan of the subquery on SQLite: no sort of the page). In one statement
 * PostgreSQL reads the entry row of every entry it skips, since its index scan yields whole rows;
 * the subquery alone is an index-only scan where the sort index holds every column it reads (the
 * column sorts: sort key, id and the visibility columns, docs/scaling.md "Indexes"; an index on
 * an expression is never read index-only by PostgreSQL). SQLite reads a table row only when a
 * result column asks for it, but joins the translation of every skipped entry when a locale is
 * asked (page 1,000 in `de` at 100,000 entries: 5.5–8.2 ms in one statement, 1.3–1.9 ms deferred).
 */
async function deferredPageQuery(
  db: Db,
  q: EntryListQuery,
  key: RawBuilder<unknown>,
  limit: number,
  offset: number,
  totalWindow: number | null,
): Promise<(EntryRow & { total?: number })[]> {
  const src = sourceOf(q.perspective);
  const ids = selectEntries(db, q.perspective, q.now)
    .select(['entries.id', sql<unknown>`${key}`.as('sort_key')])
    .where((eb) => eb.and(whereList(db, q, true)))
    .$if(ordersByKey(db, q, null), (qb) => qb.orderBy(key, (ob) => nullsOrdered(ob, q.sort)))
    .$if(!isSlugSort(q.sort), (qb) => qb.orderBy('entries.id', q.sort.direction))
    .limit(sql.lit(intOf(limit)))
    .offset(sql.lit(intOf(offset)));
  const query = readerOf(db, q.perspective, q.now)
    .selectFrom(ids.as('page'))
    .innerJoin(`${src.entries} as entries`, 'entries.id', 'page.id')
    .$if(q.locale !== null, (qb) =>
      qb.leftJoin(`${src.translations} as t`, (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? '')),
    )
    .select(COMMON_COLUMNS)
    .select(entryContent(q.perspective))
    .select([trData(q.locale), sql<EntryRow['sort_value']>`${sql.ref('page.sort_key')}`.as('sort_value')])
    .$if(totalWindow !== null, (qb) => qb.select(countExpression(db, q, totalWindow ?? 0).as('total')))
    // A pinned key (sortKeyPinned) is one value on every row: PostgreSQL does not see that outside the subquery.
    .$if(!sortKeyPinned(q), (qb) => qb.orderBy(sql.ref('page.sort_key'), (ob) => nullsOrdered(ob, q.sort)))
    .$if(!isSlugSort(q.sort), (qb) => qb.orderBy('page.id', q.sort.direction));
  return (await query.execute()) as (EntryRow & { total?: number })[];
}

/**
 * SQL counting the entries a list query matches, without reading them all. Without filters:
 * the per-status counters of `entry_counts` (kept exact by triggers in every writing
 * transaction, migration 014), plus, for production, the scheduled entries already due (D21:
 * they are published before the job rewrites them), an index range that holds only the few
 * scheduled rows. With filters: the matching entries counted up to `window` + 1 (an index range
 * with LIMIT); the caller reads a result above `window` as "at least `window`".
 */
function countExpression(db: Db, q: EntryListQuery, window: number): RawBuilder<number> {
  const type = q.contentTypeId;
  // The counters hold the real tables' statuses: a release perspective counts its own rows.
  if (!filtered(q) && releaseOf(q.perspective) === null) {
    if (q.perspective === 'working') {
      return sql<number>`(select coalesce(sum("n"), 0) from "entry_counts" where "content_type_id" = ${type} and "status" in ('draft', 'published', 'scheduled'))`;
    }
    return sql<number>`(coalesce((select "n" from "entry_counts" where "content_type_id" = ${type} and "status" = 'published'), 0) + (select count(*) from "entries" where "entries"."content_type_id" = ${type} and ${dueCondition(q.now, 'entries')}))`;
  }
  // Inside the subquery the unaliased "entries" of the conditions is its own table.
  const order = cappedCountsNeedIndexOrder(db.dialect) ? countOrder(q) : null;
  return sql<number>`(select count(*) from (select 1 from ${entriesTableSql(q.perspective)} where ${sql.join(whereList(db, q), sql` and `)}${order ? sql` order by ${order}` : sql``} limit ${sql.lit(intOf(window + 1))}) "matching")`;
}

/** Filter operators that select one range of their field's index (`in` is several; `ne`, `contains` none). */
const RANGE_OPS = new Set<FilterCondition['op']>(['eq', 'lt', 'lte', 'gt', 'gte', 'exists']);

/**
 * The order of the index of the first filter that is one index range, for a capped count on
 * PostgreSQL: without an order, the planner counts the first matches by a sequential scan it
 * expects to stop early, and a sequential scan of a big table reads through a small ring of
 * buffers, so each count reads its pages again from the operating system (a filter matching
 * 1 entry in 7 at a million entries: about 800 pages, 10,500 rows tested; docs/scaling.md
 * "Counts"). In this order an index range yields the matches (kept in shared buffers like any
 * index read), and the planner can still take another filter's index and sort its matches when
 * that is cheaper. Null when no filter is a range.
 */
function countOrder(q: EntryListQuery): RawBuilder<unknown> | null {
  const f = q.filters.find((x) => RANGE_OPS.has(x.op));
  if (!f) return null;
  const expr = dataFieldSql('postgres', f.field.name, f.field.field_type, 'entries', sourceOf(q.perspective).column);
  return sql`${expr} nulls first, "entries"."id"`;
}

/** Reads a total computed by countExpression over `window`. */
export function listTotal(q: EntryListQuery, counted: number, page: { limit: number; offset?: number }): ListTotal {
  const window = countWindow(page);
  if (filtered(q) && counted > window) return { total: window, exact: false };
  return { total: counted, exact: true };
}

/** The total of a list query for a page past its end (offset mode), bounded like the page's. */
export async function countEntryRows(db: Db, q: EntryListQuery, page: { limit: number; offset?: number }): Promise<ListTotal> {
  const row = await readerOf(db, q.perspective, q.now)
    .selectNoFrom(countExpression(db, q, countWindow(page)).as('n'))
    .executeTakeFirstOrThrow();
  return listTotal(q, Number(row.n), page);
}

/** Entry rows `q.perspective` sees at `q.now`, with the list columns and the translation in `q.locale` joined. */
function visibleEntryRows(db: Db, q: { perspective: Perspective; now: string; locale: string | null }) {
  return selectEntries(db, q.perspective, q.now)
    .$if(q.locale !== null, (qb) =>
      qb.leftJoin(`${sourceOf(q.perspective).translations} as t`, (j) => j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', q.locale ?? '')),
    )
    .select(COMMON_COLUMNS)
    .select(entryContent(q.perspective))
    .select(trData(q.locale))
    .where(visibleCondition(q.perspective, q.now, 'entries', db.dialect));
}

/**
 * The query-template key (src/db/query-template.ts) of the delivery read `name` in `q`'s shape: the
 * perspective's tables, whether a translation is joined, and `more`. Null for a release
 * perspective, whose rows come from that release's own tables: built anew each time.
 */
function readKey(name: string, q: { perspective: Perspective; locale: string | null }, ...more: string[]): string | null {
  return releaseOf(q.perspective) !== null ? null : ['delivery', name, q.perspective, q.locale === null ? '' : 't', ...more].join(':');
}

/**
 * Visible entries of the workspace with this slug (of one content type when given), each with
 * its translation in `locale`. Several rows mean several content types share the slug (D42).
 */
export async function findEntryRowsBySlug(
  db: Db,
  q: { workspaceId: string; slug: string; contentTypeId: string | null; perspective: Perspective; now: string; locale: string | null },
): Promise<EntryRow[]> {
  return runTemplate<EntryRow>(
    db,
    readKey('entryBySlug', q, q.contentTypeId ? 'type' : ''),
    (value) => {
      let query = visibleEntryRows(db, { perspective: q.perspective, now: value('now'), locale: q.locale === null ? null : value('locale') })
        .where('entries.workspace_id', '=', value('workspaceId'))
        .where('entries.slug', '=', value('slug'))
        .orderBy('entries.content_type_id')
        .limit(20);
      if (q.contentTypeId) query = query.where('entries.content_type_id', '=', value('contentTypeId'));
      return query;
    },
    q,
  );
}

/**
 * The entries with these ids that `perspective` may see (same workspace, visible status), with their translations in `locale`: one query for every relation of a page (D41).
 * The lookup goes by primary key only (a `workspace_id` term would lead SQLite to walk the
 * workspace's slug index instead); the workspace is checked on the rows found.
 */
export async function findRelatedRows(
  db: Db,
  q: { workspaceId: string; ids: string[]; perspective: Perspective; now: string; locale: string | null },
): Promise<RelatedRow[]> {
  if (q.ids.length === 0) return [];
  const rows = await runTemplate<RelatedRow & { workspace_id: string }>(
    db,
    readKey('relatedByIds', q),
    (value) =>
      selectEntries(db, q.perspective, value('now'))
        .$if(q.locale !== null, (qb) =>
          qb.leftJoin(`${readSource(q.perspective).entryTranslations} as t`, (j) =>
            j.onRef('t.entry_id', '=', 'entries.id').on('t.locale', '=', value('locale')),
          ),
        )
        .select(['entries.id', 'entries.workspace_id', 'entries.content_type_id', 'entries.slug'])
        .select(sql<unknown>`${sql.ref(`entries.${readSource(q.perspective).entryData}`)}`.as('data'))
        .select(trData(q.locale))
        .where(idListCondition(db.dialect, 'entries.id', value('ids')))
        .where(visibleCondition(q.perspective, value('now'), 'entries', db.dialect)),
    { now: q.now, locale: q.locale, ids: idListValue(db.dialect, q.ids) },
  );
  return rows.filter((r) => r.workspace_id === q.workspaceId);
}

/**
 * The visible entries with these ids, as full list rows (columns of a list page, translation in
 * `locale` joined), in no particular order: one query for any number of ids (GraphQL's batched
 * relations, D102). Looked up by primary key; the workspace is checked on the rows found.
 */
export async function findEntryRowsByIds(
  db: Db,
  q: { workspaceId: string; ids: readonly string[]; perspective: Perspective; now: string; locale: string | null },
): Promise<EntryRow[]> {
  if (q.ids.length === 0) return [];
  // One statement whatever the number of ids (idListCondition).
  const rows = await runTemplate<EntryRow>(
    db,
    readKey('entriesByIds', q),
    (value) =>
      visibleEntryRows(db, { perspective: q.perspective, now: value('now'), locale: q.locale === null ? null : value('locale') }).where(
        idListCondition(db.dialect, 'entries.id', value('ids')),
      ),
    { now: q.now, locale: q.locale, ids: idListValue(db.dialect, q.ids) },
  );
  return rows.filter((r) => r.workspace_id === q.workspaceId);
}
