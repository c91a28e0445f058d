/**
 * SQL fragments of delivery queries, shared by both dialects: sort keys, keyset conditions for
 * cursors and list filters (which rows a key sees is the read model's visibleCondition,
 * src/modules/read/resolver.ts). Data fields are read with dataFieldSql(dialect, name, type, 'entries'), the very
 * expression of their expression index, so filters and sorts on them can use it.
 *
 * Null ordering is the same on both databases: a missing value sorts as the smallest one
 * (NULLS FIRST ascending, NULLS LAST descending), and keyset conditions follow that order.
 *
 * Sort keys and keysets also serve the `pages` table (same publication columns),
 * named by the optional `table` argument; data-field sorts and filters exist for entries only.
 */
import { sql, type Expression, type OrderByItemBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { dataFieldSql, type DataColumn } from '../../../db/dialect.js';
import { plannerKnowsSelectivity } from '../../../db/planner.js';
import { effectivePublishedAt, productionPublishedAt, publishedUpdatedAt, type ItemTable } from '../../publishing/status-sql.js';
import type { Dialect } from '../../../db/types.js';
import type { Perspective } from '../../read/perspective.js';
import { readSource } from '../../read/resolver.js';
import type { CursorPosition } from '../cursor.js';
import type { FilterCondition, FilterScalar } from '../filters.js';
import { isFieldCondition, type FilterNode, type SysColumn } from '../filter-tree.js';
import { columnSort, type SortSpec } from '../../publishing/sort.js';

/** Tables with the publication columns (status, publish_at, published_at) and an id. */
export type DeliveryTable = ItemTable;

const col = (table: DeliveryTable, name: string) => sql.ref(`${table}.${name}`);

/**
 * The SQL value a sort key orders by, as `copy` (a perspective) reads it: on the working copy
 * (management, preview keys) or on the published version (production keys, D70): there `updated_at` is the publication time and data
 * fields are read from `published_data`, exactly what those readers are shown.
 */
export function sortExpression(
  dialect: Dialect,
  sort: SortSpec,
  now: string,
  table: DeliveryTable = 'entries',
  copy: Perspective = 'working',
): RawBuilder<unknown> {
  switch (sort.key.kind) {
    case 'column':
      if (copy === 'published' && sort.key.column === 'updated_at') return publishedUpdatedAt(table);
      return sql`${col(table, sort.key.column)}`;
    case 'published_at':
      // D21: a due scheduled item is published at its publish_at, before the job rewrites it.
      // Production sees only published and due rows, for which an indexed expression says the same.
      return copy === 'published' ? productionPublishedAt(table) : effectivePublishedAt(now, table);
    case 'data':
      return dataFieldSql(dialect, sort.key.field.name, sort.key.field.field_type, table, readSource(copy).entryData);
  }
}

/**
 * ORDER BY direction for `sort` with explicit null placement: missing values are the smallest
 * (NULLS FIRST ascending, NULLS LAST descending) on both databases, whose defaults differ.
 */
export function nullsOrdered(ob: OrderByItemBuilder, sort: SortSpec): OrderByItemBuilder {
  const o = sort.direction === 'asc' ? ob.asc() : ob.desc();
  if (!sort.nullable) return o;
  return sort.direction === 'asc' ? o.nullsFirst() : o.nullsLast();
}

/** better-sqlite3 binds no booleans; 1/0 compare equal to JSON true/false in SQLite and cast to boolean in PostgreSQL. */
function bindable(v: FilterScalar): string | number {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

/**
 * Rows strictly after `after` in the order of `sort` (ties broken by id in the same direction),
 * as consecutive ranges of that order: reading the first range, then the next, and so on, gives
 * the rows in order. Each range is one index range (the sort index `(content_type_id, key, id)`):
 * a plain `key >= v` / `key <= v` bound beside the row comparison, which SQLite does not turn into
 * a range by itself, and the missing values (NULL), which sort first ascending and last
 * descending, in a range of their own instead of an `OR key IS NULL` no index can serve.
 *
 * A position resumed by row (a sort value too long for the cursor) compares against that row's
 * current value, read by a scalar subquery over the same table: inside it `entries`/`pages`
 * names the subquery's own row, so `expr` evaluates there. A row deleted since yields no value,
 * and the non-missing values end (no row compares after an unknown value).
 */
export function keysetRanges(expr: RawBuilder<unknown>, sort: SortSpec, after: CursorPosition, table: DeliveryTable = 'entries'): KeysetRange[] {
  const id = col(table, 'id');
  const asc = sort.direction === 'asc';
  const nulls = (idBound?: Expression<SqlBool>): KeysetRange => ({
    condition: idBound ? sql<SqlBool>`(${expr} is null and ${idBound})` : sql<SqlBool>`${expr} is null`,
    missingOnly: true,
  });
  if (!after.byRow && after.value === null) {
    // Nulls come first ascending (so every non-null row follows) and last descending.
    if (!asc) return [nulls(sql<SqlBool>`${id} < ${after.id}`)];
    return [nulls(sql<SqlBool>`${id} > ${after.id}`), { condition: sql<SqlBool>`${expr} is not null`, missingOnly: false }];
  }
  const v = after.byRow ? sql`(select ${expr} from ${sql.table(table)} where ${id} = ${after.id})` : sql`${bindable(after.value as FilterScalar)}`;
  const rowAfter = asc
    ? sql<SqlBool>`(${expr} >= ${v} and (${expr}, ${id}) > (${v}, ${after.id}))`
    : sql<SqlBool>`(${expr} <= ${v} and (${expr}, ${id}) < (${v}, ${after.id}))`;
  const ranges: KeysetRange[] = [{ condition: rowAfter, missingOnly: false }];
  if (sort.nullable && !asc) ranges.push(nulls());
  return ranges;
}

/**
 * One range of keysetRanges. `missingOnly`: every row in it has no sort value, so it may be
 * ordered by id alone (SQLite sorts `ORDER BY <expr>` in a temporary B-tree even when
 * `<expr> IS NULL` holds).
 */
export interface KeysetRange {
  condition: Expression<SqlBool>;
  missingOnly: boolean;
}

/** keysetRanges as one condition (lists whose tables stay small: management, pages). */
export function keysetCondition(expr: RawBuilder<unknown>, sort: SortSpec, after: CursorPosition, table: DeliveryTable = 'entries'): Expression<SqlBool> {
  const ranges = keysetRanges(expr, sort, after, table).map((r) => r.condition);
  return ranges.length === 1 ? ranges[0] : sql<SqlBool>`(${sql.join(ranges, sql` or `)})`;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The SQL condition of one list filter (D43). With `rangeByOrder`, where the planner keeps no
 * statistics (SQLite, src/db/planner.ts), a filter that is not an equality is written so that no
 * index serves it (`+expr`): SQLite would otherwise walk the filter's index range and sort every match, however many;
 * read in the order of the sort index instead, a page stops after its rows.
 */
export function filterCondition(dialect: Dialect, f: FilterCondition, column: DataColumn = 'data', rangeByOrder = false): Expression<SqlBool> {
  const indexed = dataFieldSql(dialect, f.field.name, f.field.field_type, 'entries', column);
  const e = rangeByOrder && !plannerKnowsSelectivity(dialect) && f.op !== 'eq' && f.op !== 'in' ? sql`+${indexed}` : indexed;
  return compare(e, f);
}

/** `e` compared by one operator (the table of filters.ts); booleans bound as 1/0. */
type Comparison =
  { op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains'; value: FilterScalar } | { op: 'in'; value: FilterScalar[] } | { op: 'exists'; value: boolean };

function compare(e: RawBuilder<unknown>, f: Comparison): Expression<SqlBool> {
  switch (f.op) {
    case 'eq':
      return sql<SqlBool>`${e} = ${bindable(f.value)}`;
    case 'ne':
      return sql<SqlBool>`(${e} <> ${bindable(f.value)} or ${e} is null)`;
    case 'lt':
      return sql<SqlBool>`${e} < ${bindable(f.value)}`;
    case 'lte':
      return sql<SqlBool>`${e} <= ${bindable(f.value)}`;
    case 'gt':
      return sql<SqlBool>`${e} > ${bindable(f.value)}`;
    case 'gte':
      return sql<SqlBool>`${e} >= ${bindable(f.value)}`;
    case 'in':
      return sql<SqlBool>`${e} in (${sql.join(f.value.map(bindable))})`;
    case 'contains':
      return sql<SqlBool>`lower(${e}) like lower(${likePattern(String(f.value))}) escape '\\'`;
    case 'exists':
      return f.value ? sql<SqlBool>`${e} is not null` : sql<SqlBool>`${e} is null`;
  }
}

const SYS_SORT: Record<SysColumn, SortSpec> = {
  slug: columnSort('slug', 'asc'),
  created_at: columnSort('created_at', 'asc'),
  updated_at: columnSort('updated_at', 'asc'),
  published_at: { key: { kind: 'published_at' }, direction: 'asc', nullable: true, text: 'published_at:asc' },
};

/**
 * The SQL condition of a filter tree (filter-tree.ts) on entries read from `perspective`: field
 * filters as filterCondition, column conditions on the column as the list sorts by it
 * (sortExpression), AND and OR as such; an empty AND or OR adds no condition.
 */
export function treeCondition(dialect: Dialect, node: FilterNode, perspective: Perspective, now: string): Expression<SqlBool> {
  if (isFieldCondition(node)) return filterCondition(dialect, node, readSource(perspective).entryData);
  if ('sys' in node) return compare(sortExpression(dialect, SYS_SORT[node.sys], now, 'entries', perspective), node);
  const parts = ('and' in node ? node.and : node.or).map((n) => treeCondition(dialect, n, perspective, now));
  if (parts.length === 0) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`(${sql.join(parts, 'and' in node ? sql` and ` : sql` or `)})`;
}
