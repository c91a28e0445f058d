/**
 * SQL fragments of delivery queries, shared by both dialects: the visibility condition (D21:
 * due scheduled rows count as published), sort keys, keyset conditions for cursors and list
 * filters. Data fields are read with dataFieldSql(dialect, name, type, 'entries'), the very
 * expression of their expression index, so filters and sorts on them can use it.
 *
 * Null ordering is the same on both databases: a missing value sorts as the smallest one
 * (NULLS FIRST ascending, NULLS LAST descending), and keyset conditions follow that order.
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { dataFieldSql } from '../../../db/dialect.js';
import type { Dialect } from '../../../db/types.js';
import type { CursorPosition } from '../cursor.js';
import type { FilterCondition, FilterScalar } from '../filters.js';
import type { Visibility } from '../model.js';
import type { SortSpec } from '../sort.js';

const ID = sql.ref('entries.id');

/**
 * Rows a key of `visibility` may see at `now`: production sees published rows and scheduled rows
 * whose `publish_at` has passed; preview also sees drafts and scheduled rows. Archived: never.
 */
export function visibleCondition(visibility: Visibility, now: string): Expression<SqlBool> {
  if (visibility === 'preview') return sql<SqlBool>`"entries"."status" in ('published', 'scheduled', 'draft')`;
  return sql<SqlBool>`("entries"."status" = 'published' or ("entries"."status" = 'scheduled' and "entries"."publish_at" <= ${now}))`;
}

/** The SQL value a sort key orders by. */
export function sortExpression(dialect: Dialect, sort: SortSpec, now: string): RawBuilder<unknown> {
  switch (sort.key.kind) {
    case 'column':
      return sql`${sql.ref(`entries.${sort.key.column}`)}`;
    case 'published_at':
      // D21: a due scheduled entry is published at its publish_at, before the job rewrites it.
      return sql`(case when "entries"."status" = 'scheduled' and "entries"."publish_at" <= ${now} then "entries"."publish_at" else "entries"."published_at" end)`;
    case 'data':
      return dataFieldSql(dialect, sort.key.field.name, sort.key.field.field_type, 'entries');
  }
}

/** better-sqlite3 binds no booleans; 1/0 compare equal to JSON true/false in SQLite and cast to boolean in PostgreSQL. */
function bindable(v: FilterScalar): string | number {
  return typeof v === 'boolean' ? (v ? 1 : 0) : v;
}

/** Rows strictly after `after` in the order of `sort` (ties broken by id in the same direction). */
export function keysetCondition(expr: RawBuilder<unknown>, sort: SortSpec, after: CursorPosition): Expression<SqlBool> {
  const asc = sort.direction === 'asc';
  if (after.value === null) {
    // Nulls come first ascending (so every non-null row follows) and last descending.
    return asc
      ? sql<SqlBool>`((${expr} is null and ${ID} > ${after.id}) or ${expr} is not null)`
      : sql<SqlBool>`(${expr} is null and ${ID} < ${after.id})`;
  }
  const v = bindable(after.value);
  const rowAfter = asc ? sql<SqlBool>`(${expr}, ${ID}) > (${v}, ${after.id})` : sql<SqlBool>`(${expr}, ${ID}) < (${v}, ${after.id})`;
  if (!sort.nullable || asc) return rowAfter;
  return sql<SqlBool>`(${rowAfter} or ${expr} is null)`;
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The SQL condition of one list filter (D43). */
export function filterCondition(dialect: Dialect, f: FilterCondition): Expression<SqlBool> {
  const e = dataFieldSql(dialect, f.field.name, f.field.field_type, 'entries');
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
