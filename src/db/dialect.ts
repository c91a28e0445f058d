/**
 * Where SQL differs between SQLite and PostgreSQL, in src/db/ only: modules call a named helper
 * and never test the dialect themselves (test/dialect-boundary.test.ts keeps it so). This file:
 * JSON field access on entry data (used by filters, sorts and their expression indexes, which
 * must be the very same expression), index DDL, text in byte order, and whether the database is
 * embedded. Beside it: lock.ts (row and write locks), transaction.ts (retries, snapshot reads),
 * catalog.ts (index state, planner statistics, sequences), bulk.ts (batched updates, settings
 * for large writes), planner.ts (planner behaviour queries are written around), notify.ts
 * (announcements to other instances on commit), and the
 * migrations' column types. Everything else is one Kysely code path.
 */
import { sql, type RawBuilder } from 'kysely';
import { parseDatetime } from '../lib/time.js';
import type { Dialect } from './types.js';

/**
 * The two JSON columns of an entry that delivery reads: `data` is the working copy (management,
 * preview keys), `published_data` the published version (production keys; docs/api.md "Working
 * copies, publishing changes and history" (D70)).
 * Each has its own expression indexes.
 */
export type DataColumn = 'data' | 'published_data';

/** Field types stored as JSON numbers, compared numerically. */
const NUMERIC_TYPES = new Set(['number', 'integer']);

/** Field names are validated (`^[a-z][a-zA-Z0-9_]{0,63}$`, D31) before they reach SQL. */
function assertFieldName(name: string): void {
  if (!/^[a-z][a-zA-Z0-9_]{0,63}$/.test(name)) throw new Error(`unsafe field name: ${name}`);
}

/**
 * The UTC instant of a datetime value as text, `YYYY-MM-DDTHH:MM:SS.sssZ`, whatever offset the
 * value was written with (values keep their author's offset: lib/time.ts parseDatetime), so text
 * order is time order. SQLite's date functions are deterministic, so allowed in expression
 * indexes; PostgreSQL's text-to-timestamptz cast is not immutable (a value without a zone would
 * read the session's time zone), so migration 019 wraps it in `quire_utc` (DATETIME_FUNCTION_SQL).
 */
const SQLITE_UTC_FORMAT = `'%Y-%m-%dT%H:%M:%fZ'`;

/**
 * DDL of `quire_utc(text)`, PostgreSQL's datetime instant (see dataFieldText): declared
 * IMMUTABLE, which holds because a stored value always carries its offset. Text that does not
 * start like a date-time of years 0001-9999 (nothing Quire writes) yields NULL rather than failing
 * the statement, as SQLite's strftime does. PL/pgSQL with a LIKE guard: building an index over
 * 200,000 values took 1.5-1.7 s (load average 14), against 4.2-5.6 s for a SQL function with a regular-expression
 * guard (not inlined either way: the cast it wraps is only STABLE) and 0.4 s for the plain text.
 * Idempotent; migration 019 creates it, and the earlier migrations that build data indexes create
 * it first, in case they build a datetime field's index in the same upgrade.
 */
export const DATETIME_FUNCTION_SQL = `CREATE OR REPLACE FUNCTION quire_utc(value text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF value LIKE '____-__-__T__:__:__%' AND value NOT LIKE '0000%' THEN
    RETURN to_char(value::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');
  END IF;
  RETURN NULL;
END
$$`;

/** DDL of the SQL functions that data field expressions call (PostgreSQL's quire_utc), each idempotent. */
export function dataFunctionsSql(dialect: Dialect): string[] {
  return dialect === 'postgres' ? [DATETIME_FUNCTION_SQL] : [];
}

/**
 * The SQL expression reading `data.<name>` of an entry as a comparable scalar.
 * SQLite: `json_extract("data", '$.name')` (typed natively). PostgreSQL: `("data"->>'name')`,
 * cast to numeric or boolean for those field types. A `datetime` reads as its UTC instant
 * (`strftime(…)` / `quire_utc(…)`, see SQLITE_UTC_FORMAT), so values written with different
 * offsets compare, sort, page and collide by the moment they name. `table` qualifies the column
 * when joined.
 *
 * ### Examples
 * dataFieldSql('postgres', 'price', 'number') → `(("data"->>'price')::numeric)`
 * dataFieldSql('sqlite', 'starts', 'datetime') → `strftime('%Y-%m-%dT%H:%M:%fZ', json_extract("data", '$.starts'))`
 */
export function dataFieldText(dialect: Dialect, name: string, fieldType: string, table?: string, column: DataColumn = 'data'): string {
  assertFieldName(name);
  const col = table ? `"${table}"."${column}"` : `"${column}"`;
  if (dialect === 'sqlite') {
    const value = `json_extract(${col}, '$.${name}')`;
    return fieldType === 'datetime' ? `strftime(${SQLITE_UTC_FORMAT}, ${value})` : value;
  }
  if (NUMERIC_TYPES.has(fieldType)) return `((${col}->>'${name}')::numeric)`;
  if (fieldType === 'boolean') return `((${col}->>'${name}')::boolean)`;
  if (fieldType === 'datetime') return `quire_utc(${col}->>'${name}')`;
  return `(${col}->>'${name}')`;
}

export function dataFieldSql(dialect: Dialect, name: string, fieldType: string, table?: string, column: DataColumn = 'data'): RawBuilder<unknown> {
  return sql.raw(dataFieldText(dialect, name, fieldType, table, column));
}

/**
 * `data.<name>` as stored, for text matching (the entries list's `search` on the display field):
 * the value an editor reads, e.g. a datetime with its author's offset rather than its instant,
 * and text on both databases whatever the field's type.
 */
export function dataFieldStoredSql(dialect: Dialect, name: string, table?: string, column: DataColumn = 'data'): RawBuilder<unknown> {
  return sql.raw(dataFieldText(dialect, name, 'text', table, column));
}

/**
 * The JSON type of `data.<name>` as text (`'string'`, `'number'`/`'integer'`/`'real'`, `'null'`
 * for a JSON null, …), SQL NULL when the key is absent: SQLite `json_type("data", '$.name')`,
 * PostgreSQL `jsonb_typeof("data"->'name')`. "Holds a value" is: not NULL and not `'null'`.
 * `table` qualifies the column when joined.
 */
export function dataFieldJsonTypeSql(dialect: Dialect, name: string, table?: string): RawBuilder<unknown> {
  assertFieldName(name);
  const col = table ? `"${table}"."data"` : `"data"`;
  return sql.raw(dialect === 'sqlite' ? `json_type(${col}, '$.${name}')` : `jsonb_typeof(${col}->'${name}')`);
}

/**
 * `expr` (a text column) compared byte by byte, the order keyset paging and exports rely on to
 * be the same on both databases: PostgreSQL `<expr> COLLATE "C"` (its default collation follows
 * the locale); SQLite's default BINARY collation is byte order already, so `expr` as it is.
 */
export function inByteOrder(dialect: Dialect, expr: RawBuilder<unknown>): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`${expr} COLLATE "C"` : sql`${expr}`;
}

/**
 * True when the database is embedded in this process (SQLite, a file in DATA_DIR), false for a
 * database server (PostgreSQL): a first start on an embedded database may create demo content,
 * a server deployment starts empty.
 */
export function databaseIsEmbedded(dialect: Dialect): boolean {
  return dialect === 'sqlite';
}

/**
 * A stored value as dataFieldSql reads it, for binding against that expression (unique checks):
 * a datetime's UTC instant; any other value, or a datetime that does not parse, as it is.
 */
export function comparableValue<T>(fieldType: string, value: T): T | string {
  if (fieldType !== 'datetime') return value;
  return parseDatetime(value)?.instant ?? value;
}

/**
 * How a field type is compared in SQL: the index of a field is shared per (name, kind). A
 * datetime (`time`) is indexed on its instant, so it shares no index with text fields.
 */
export function dataFieldKind(fieldType: string): 'num' | 'bool' | 'time' | 'text' {
  if (NUMERIC_TYPES.has(fieldType)) return 'num';
  if (fieldType === 'boolean') return 'bool';
  if (fieldType === 'datetime') return 'time';
  return 'text';
}

/**
 * Name of the expression index serving `data.<name>` for one comparison kind. Content types that
 * share a field name and kind share the index; its leading content_type_id column keeps each
 * content type's entries together, so `WHERE content_type_id = ? ORDER BY <expr>` walks it.
 */
export function dataIndexName(fieldName: string, fieldType: string, column: DataColumn = 'data'): string {
  assertFieldName(fieldName);
  const prefix = column === 'data' ? 'entries_data' : 'entries_pub';
  return `${prefix}_${dataFieldKind(fieldType)}_${fieldName}`.toLowerCase().slice(0, 63);
}

/**
 * How an index column that may be NULL is declared: on PostgreSQL `NULLS FIRST`, the order delivery
 * queries ask for (a missing value is the smallest: `ASC NULLS FIRST` reads the index forwards,
 * `DESC NULLS LAST` backwards); a default-ordered (NULLS LAST) index serves neither, and the
 * planner sorts every row instead. SQLite always orders NULL first and takes no clause.
 */
export function nullsFirstSql(dialect: Dialect, expr: string): string {
  return dialect === 'postgres' ? `${expr} NULLS FIRST` : expr;
}

/**
 * Columns every list index ends with, after `id`: the visibility condition reads them (D21), so
 * a filtered count, and the rows an offset page skips, are decided from the index alone without
 * reading each entry (SQLite: a covering index; PostgreSQL: an index-only scan once vacuumed).
 */
export const VISIBILITY_COLUMNS = `"status", "publish_at"`;

/**
 * `CREATE INDEX`, or on PostgreSQL with `concurrently` `CREATE INDEX CONCURRENTLY`, which builds
 * without blocking writes (outside a transaction only; a failed build leaves an invalid index).
 */
function createIndexSql(dialect: Dialect, unique: boolean, concurrently: boolean): string {
  return `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${concurrently && dialect === 'postgres' ? 'CONCURRENTLY ' : ''}IF NOT EXISTS`;
}

/** DDL creating the expression index on `column` for a sortable or filterable field (idempotent). */
export function createDataIndexSql(dialect: Dialect, fieldName: string, fieldType: string, column: DataColumn = 'data', concurrently = false): string {
  const expr = dataFieldText(dialect, fieldName, fieldType, undefined, column);
  return `${createIndexSql(dialect, false, concurrently)} "${dataIndexName(fieldName, fieldType, column)}" ON "entries" ("content_type_id", ${nullsFirstSql(dialect, expr)}, "id", ${VISIBILITY_COLUMNS})`;
}

/**
 * The indexes of the entry column sorts (`created_at`, `updated_at`, `published_at`, `position`),
 * `(content_type_id, <column>, id, status, publish_at)`: migration 001 built them without the
 * visibility columns; migration 014 rebuilds them with these definitions.
 */
export function columnSortIndexSql(dialect: Dialect): { name: string; sql: string }[] {
  return (
    [
      ['entries_type_created', 'created_at'],
      ['entries_type_updated', 'updated_at'],
      ['entries_type_published', 'published_at'],
      ['entries_type_position', 'position'],
    ] as const
  ).map(([name, column]) => ({
    name,
    sql: `CREATE INDEX IF NOT EXISTS "${name}" ON "entries" ("content_type_id", ${column === 'published_at' ? nullsFirstSql(dialect, `"${column}"`) : `"${column}"`}, "id", ${VISIBILITY_COLUMNS})`,
  }));
}

/**
 * The sort keys production delivery reads that are expressions over several columns (D21, D70),
 * as index text; src/modules/publishing/status-sql.ts writes the very same expressions in queries.
 * - `published_at`: a scheduled row's publication time is its `publish_at` (it is visible to
 *   production only once due), any other row's its `published_at`.
 * - `updated_at`: production readers see the time of the published version.
 */
export const PRODUCTION_SORT_EXPRESSIONS = {
  published_at: `(CASE WHEN "status" = 'scheduled' THEN "publish_at" ELSE "published_at" END)`,
  updated_at: `COALESCE("published_at", "publish_at", "updated_at")`,
} as const;

/**
 * DDL of the indexes behind production sorts on `published_at` and `updated_at` (see
 * PRODUCTION_SORT_EXPRESSIONS), `(content_type_id, <expr>, id, status, publish_at)` like every
 * sort index. On PostgreSQL each also holds, as INCLUDE columns, the columns its expression reads
 * beyond those (`published_at`, `updated_at`): PostgreSQL never returns an expression from an
 * index, it computes it from columns, so only with them can an offset page skip its offset in an
 * index-only scan (migration 020). SQLite reads an indexed expression from the index itself.
 */
export function productionSortIndexSql(dialect: Dialect): { name: string; sql: string }[] {
  const include = (columns: string) => (dialect === 'postgres' ? ` INCLUDE (${columns})` : '');
  return [
    {
      name: 'entries_type_pub_published',
      sql: `CREATE INDEX IF NOT EXISTS "entries_type_pub_published" ON "entries" ("content_type_id", ${nullsFirstSql(dialect, PRODUCTION_SORT_EXPRESSIONS.published_at)}, "id", ${VISIBILITY_COLUMNS})${include(`"published_at"`)}`,
    },
    {
      name: 'entries_type_pub_updated',
      sql: `CREATE INDEX IF NOT EXISTS "entries_type_pub_updated" ON "entries" ("content_type_id", ${PRODUCTION_SORT_EXPRESSIONS.updated_at}, "id", ${VISIBILITY_COLUMNS})${include(`"published_at", "updated_at"`)}`,
    },
  ];
}

export function dropDataIndexSql(fieldName: string, fieldType: string, column: DataColumn = 'data'): string {
  return `DROP INDEX IF EXISTS "${dataIndexName(fieldName, fieldType, column)}"`;
}

/**
 * DDL dropping index `name` (one of the names made here); on PostgreSQL with `concurrently`
 * without taking the table's exclusive lock (outside a transaction only).
 */
export function dropIndexSql(dialect: Dialect, name: string, concurrently = false): string {
  if (!/^entries_[a-z0-9_]{1,55}$/.test(name)) throw new Error(`unsafe index name: ${name}`);
  return `DROP INDEX ${concurrently && dialect === 'postgres' ? 'CONCURRENTLY ' : ''}IF EXISTS "${name}"`;
}

/**
 * Name of the unique index backing one `is_unique` field (issue 13 "uniqueness that does not
 * scan"): one per field, named after the field's id, so it lives and dies with that field.
 */
export function uniqueIndexName(fieldId: string): string {
  if (!/^[0-9a-f-]{36}$/.test(fieldId)) throw new Error(`unsafe field id: ${fieldId}`);
  return `entries_uq_${fieldId.replace(/-/g, '')}`;
}

/**
 * DDL of the unique index backing `is_unique` field `fieldId` of content type `contentTypeId`: a
 * partial index over the working copy's value, holding only that type's entries, so the same
 * value may appear in other content types and entries without a value (NULL) never collide.
 * Queries use it when they name the content type as the same literal (see uniqueValueTaken).
 */
export function createUniqueIndexSql(
  dialect: Dialect,
  contentTypeId: string,
  fieldId: string,
  fieldName: string,
  fieldType: string,
  concurrently = false,
): string {
  if (!/^[0-9a-f-]{36}$/.test(contentTypeId)) throw new Error(`unsafe content type id: ${contentTypeId}`);
  const expr = dataFieldText(dialect, fieldName, fieldType);
  return `${createIndexSql(dialect, true, concurrently)} "${uniqueIndexName(fieldId)}" ON "entries" (${expr}) WHERE "content_type_id" = '${contentTypeId}'`;
}

export function dropUniqueIndexSql(fieldId: string): string {
  return `DROP INDEX IF EXISTS "${uniqueIndexName(fieldId)}"`;
}
