/**
 * Reading JSON documents stored in a JSON column (text on SQLite, jsonb on PostgreSQL) inside a
 * query, where the two databases spell it differently: a member as JSON, as text or as an
 * integer, and the elements of an array member as rows. The read model's release perspective
 * reads release versions (snapshots, migration 023) with them (src/modules/read/release-sql.ts).
 * Keys are plain identifiers chosen by the caller, never user input.
 *
 * ### Examples
 * jsonMemberSql('sqlite', sql.ref('ri.snapshot'), 'data') → `json_extract("ri"."snapshot", '$.data')`
 * jsonMemberSql('postgres', sql.ref('ri.snapshot'), 'data') → `("ri"."snapshot" -> 'data')`
 * jsonElementsSql('postgres', sql.ref('ri.snapshot'), 'blocks', 'j') → `jsonb_array_elements("ri"."snapshot" -> 'blocks') as "j"("value")`
 */
import { sql, type Expression, type RawBuilder } from 'kysely';
import type { Dialect } from './types.js';

function assertKey(key: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(key)) throw new Error(`unsafe JSON key: ${key}`);
}

/**
 * Member `key` of the JSON document `doc`, as JSON (an object or array reads as JSON text on
 * SQLite and as jsonb on PostgreSQL: the form the column types hold). Absent: NULL.
 */
export function jsonMemberSql(dialect: Dialect, doc: Expression<unknown>, key: string): RawBuilder<unknown> {
  assertKey(key);
  return dialect === 'sqlite' ? sql`json_extract(${doc}, ${sql.lit(`$.${key}`)})` : sql`(${doc} -> ${sql.lit(key)})`;
}

/** Member `key` of `doc` as text (a JSON string's value; JSON null and absent: NULL). */
export function jsonTextSql(dialect: Dialect, doc: Expression<unknown>, key: string): RawBuilder<string | null> {
  assertKey(key);
  return dialect === 'sqlite' ? sql<string | null>`json_extract(${doc}, ${sql.lit(`$.${key}`)})` : sql<string | null>`(${doc} ->> ${sql.lit(key)})`;
}

/** Member `key` of `doc` as an integer (a JSON number; JSON null and absent: NULL). */
export function jsonIntSql(dialect: Dialect, doc: Expression<unknown>, key: string): RawBuilder<number | null> {
  assertKey(key);
  return dialect === 'sqlite' ? sql<number | null>`json_extract(${doc}, ${sql.lit(`$.${key}`)})` : sql<number | null>`((${doc} ->> ${sql.lit(key)})::integer)`;
}

/**
 * A FROM item yielding one row per element of the array member `key` of `doc` (none when it is
 * absent), under `alias` with the element in column `value` (JSON, as jsonMemberSql reads it):
 * SQLite's `json_each`, PostgreSQL's `jsonb_array_elements`.
 */
export function jsonElementsSql(dialect: Dialect, doc: Expression<unknown>, key: string, alias: string): RawBuilder<unknown> {
  assertKey(key);
  assertKey(alias);
  return dialect === 'sqlite'
    ? sql`json_each(${doc}, ${sql.lit(`$.${key}`)}) as ${sql.id(alias)}`
    : sql`jsonb_array_elements(${doc} -> ${sql.lit(key)}) as ${sql.id(alias)}("value")`;
}

/**
 * A parameter holding encoded JSON (text), as a value of a JSON column: as it is on SQLite (the
 * column is text), cast to jsonb on PostgreSQL, where a parameter in a CASE is typed as text.
 */
export function jsonValueSql(dialect: Dialect, encoded: unknown): RawBuilder<unknown> {
  return dialect === 'postgres' ? sql`cast(${encoded} as jsonb)` : sql`${encoded}`;
}
