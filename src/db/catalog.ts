/**
 * What the database knows about its own objects, asked the way each database answers it: whether
 * an index exists, reading a table through a named index, the planner's row count and column
 * statistics, and serial sequences. Modules call these helpers and never test the dialect.
 */
import { sql, type RawBuilder } from 'kysely';
import type { Database, Db } from './types.js';

/**
 * Whether index `name` exists: `valid`, `invalid` (PostgreSQL: a concurrent build that failed or
 * was interrupted left it; it serves no query and must be dropped before building again), or null.
 * SQLite reads `sqlite_master` (an index there is never invalid); PostgreSQL `pg_index` in the
 * connection's schema.
 */
export async function indexState(db: Db, name: string): Promise<'valid' | 'invalid' | null> {
  if (db.dialect === 'sqlite') {
    const row = await sql<{ n: number }>`select 1 as n from sqlite_master where type = 'index' and name = ${name}`.execute(db.kysely);
    return row.rows.length > 0 ? 'valid' : null;
  }
  const row = await sql<{ valid: boolean }>`select i.indisvalid as valid from pg_class c join pg_index i on i.indexrelid = c.oid
    where c.relname = ${name} and c.relnamespace = current_schema()::regnamespace`.execute(db.kysely);
  if (row.rows.length === 0) return null;
  return row.rows[0].valid ? 'valid' : 'invalid';
}

/**
 * `table` as a FROM item read through index `index`: SQLite `<table> INDEXED BY "<index>"`, for
 * queries its planner would otherwise serve with a worse index (it keeps no statistics; a long
 * IN list over an expression goes through another index of the table). The statement then fails
 * while the index does not exist: see isMissingIndexError. PostgreSQL's planner chooses by its
 * statistics and takes no hint: the plain table.
 */
export function tableIndexedBy(db: Db, table: keyof Database, index: string): RawBuilder<unknown> {
  return db.dialect === 'sqlite' ? sql`${sql.raw(identifier(table))} indexed by ${sql.id(index)}` : sql`${sql.raw(identifier(table))}`;
}

/** True when `err` is the failure of a statement whose tableIndexedBy index does not exist (SQLite's "no such index"). */
export function isMissingIndexError(db: Db, err: unknown): boolean {
  return db.dialect === 'sqlite' && /no such index/.test(String((err as Error).message));
}

/**
 * Rows of `table` as the planner last counted them (PostgreSQL's `pg_class.reltuples`, refreshed
 * by ANALYZE and autovacuum): 0 when never counted. Null where the planner keeps no count (SQLite).
 */
export async function plannerRowCount(db: Db, table: keyof Database): Promise<number | null> {
  if (db.dialect !== 'postgres') return null;
  const { rows } = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = ${sql.lit(table)}::regclass`.execute(db.kysely);
  return Math.max(0, Number(rows[0]?.n ?? 0));
}

/**
 * Refreshes the planner's statistics of these columns of `table`: PostgreSQL `ANALYZE <table>
 * (<columns>)`, which samples and blocks neither readers nor writers. SQLite's planner keeps no
 * statistics that grow stale this way: no statement.
 */
export async function refreshColumnStatistics(db: Db, table: keyof Database, columns: readonly string[]): Promise<void> {
  const statement = sql`analyze ${sql.raw(identifier(table))} (${sql.raw(columns.map(identifier).join(', '))})`;
  if (db.dialect === 'postgres') await statement.execute(db.kysely);
}

/** A table or column name written into SQL as it is (names come from code, never from input). */
function identifier(name: string): string {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe identifier: ${name}`);
  return name;
}

/**
 * Moves the serial sequence of `table`'s `id` past its largest id, so ids the database gives
 * later never collide with ones written explicitly (a restore): PostgreSQL `setval`. SQLite's
 * AUTOINCREMENT does this by itself: no statement.
 */
export async function advanceSerialSequence(db: Db, table: keyof Database): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT COALESCE(MAX(id), 0) FROM ${sql.table(table)}), 1))`.execute(db.kysely);
}
