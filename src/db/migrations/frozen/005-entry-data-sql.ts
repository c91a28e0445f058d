/**
 * Frozen copy of the DDL helpers the migrations that build indexes over entry data run (005, 012,
 * 014, 019, 020): the SQL expression of `data.<name>` per dialect, the names and definitions of
 * the expression, sort and unique indexes, and PostgreSQL's `quire_utc` function, exactly as
 * src/db/dialect.ts wrote them when this copy was taken. Named for the first migration using it.
 *
 * Never edited: a migration must do the same thing on every database it ever runs on, whatever
 * src/db/dialect.ts later becomes (src/db/migrate.ts explains the rule). When the live index
 * definitions change, a new migration rebuilds the indexes with its own frozen copy.
 */
import type { Dialect } from '../../types.js';

type DataColumn = 'data' | 'published_data';

const NUMERIC_TYPES = new Set(['number', 'integer']);

/** Field names are validated before they reach SQL; this refuses anything else. */
function assertFieldName(name: string): void {
  if (!/^[a-z][a-zA-Z0-9_]{0,63}$/.test(name)) throw new Error(`unsafe field name: ${name}`);
}

const SQLITE_UTC_FORMAT = `'%Y-%m-%dT%H:%M:%fZ'`;

/** DDL of `quire_utc(text)`, PostgreSQL's datetime instant, declared IMMUTABLE (idempotent). */
const DATETIME_FUNCTION_SQL = `CREATE OR REPLACE FUNCTION quire_utc(value text) RETURNS text
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

/** The SQL expression reading `data.<name>` (or `published_data.<name>`) as a comparable scalar. */
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

/** How a field type is compared in SQL; the index of a field is shared per (name, kind). */
export function dataFieldKind(fieldType: string): 'num' | 'bool' | 'time' | 'text' {
  if (NUMERIC_TYPES.has(fieldType)) return 'num';
  if (fieldType === 'boolean') return 'bool';
  if (fieldType === 'datetime') return 'time';
  return 'text';
}

function dataIndexName(fieldName: string, fieldType: string, column: DataColumn = 'data'): string {
  assertFieldName(fieldName);
  const prefix = column === 'data' ? 'entries_data' : 'entries_pub';
  return `${prefix}_${dataFieldKind(fieldType)}_${fieldName}`.toLowerCase().slice(0, 63);
}

function nullsFirstSql(dialect: Dialect, expr: string): string {
  return dialect === 'postgres' ? `${expr} NULLS FIRST` : expr;
}

const VISIBILITY_COLUMNS = `"status", "publish_at"`;

function createIndexSql(dialect: Dialect, unique: boolean, concurrently: boolean): string {
  return `CREATE ${unique ? 'UNIQUE ' : ''}INDEX ${concurrently && dialect === 'postgres' ? 'CONCURRENTLY ' : ''}IF NOT EXISTS`;
}

/** DDL creating the expression index on `column` for a sortable or filterable field (idempotent). */
export function createDataIndexSql(dialect: Dialect, fieldName: string, fieldType: string, column: DataColumn = 'data', concurrently = false): string {
  const expr = dataFieldText(dialect, fieldName, fieldType, undefined, column);
  return `${createIndexSql(dialect, false, concurrently)} "${dataIndexName(fieldName, fieldType, column)}" ON "entries" ("content_type_id", ${nullsFirstSql(dialect, expr)}, "id", ${VISIBILITY_COLUMNS})`;
}

/** The indexes of the entry column sorts, `(content_type_id, <column>, id, status, publish_at)`. */
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

const PRODUCTION_SORT_EXPRESSIONS = {
  published_at: `(CASE WHEN "status" = 'scheduled' THEN "publish_at" ELSE "published_at" END)`,
  updated_at: `COALESCE("published_at", "publish_at", "updated_at")`,
} as const;

/** DDL of the indexes behind production sorts on `published_at` and `updated_at` (INCLUDE columns on PostgreSQL). */
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

function uniqueIndexName(fieldId: string): string {
  if (!/^[0-9a-f-]{36}$/.test(fieldId)) throw new Error(`unsafe field id: ${fieldId}`);
  return `entries_uq_${fieldId.replace(/-/g, '')}`;
}

/** DDL of the partial unique index backing `is_unique` field `fieldId` of content type `contentTypeId`. */
export function createUniqueIndexSql(dialect: Dialect, contentTypeId: string, fieldId: string, fieldName: string, fieldType: string): string {
  if (!/^[0-9a-f-]{36}$/.test(contentTypeId)) throw new Error(`unsafe content type id: ${contentTypeId}`);
  const expr = dataFieldText(dialect, fieldName, fieldType);
  return `${createIndexSql(dialect, true, false)} "${uniqueIndexName(fieldId)}" ON "entries" (${expr}) WHERE "content_type_id" = '${contentTypeId}'`;
}

export function dropUniqueIndexSql(fieldId: string): string {
  return `DROP INDEX IF EXISTS "${uniqueIndexName(fieldId)}"`;
}
