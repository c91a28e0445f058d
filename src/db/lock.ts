/**
 * Row locks for the write sequence: a writer locks what it is about to check (an item, the
 * entries of a content type, a workspace's pages) so that two concurrent writers serialize.
 *
 * PostgreSQL: `SELECT … FOR NO KEY UPDATE` holds the row locks until the transaction ends. It is
 * the lock an UPDATE takes: writers of the same row wait for each other, while the `FOR KEY
 * SHARE` locks of foreign-key checks (inserting a version or a translation of the item) pass;
 * `FOR UPDATE` would block those too and deadlock two writers of one item.
 * SQLite locks the whole database for writing, so a row lock is the database's write lock; an
 * UPDATE that matches no row (`WHERE 0`) takes it at once. Neither form writes a row, so the
 * revision triggers (migrations 004 and 005) do not fire: a lock is not a change, and must not
 * invalidate what delivery caches hold.
 *
 * Modules lock through the helpers here and never test the dialect themselves: lockRows (every
 * writer), lockRowsForCommitOrder (only where writers run side by side), takeWriteLock and
 * selectForUpdate (claiming rows to work on).
 */
import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, Db } from './types.js';

/** Tables whose rows a writer locks. */
export type LockTable = 'entries' | 'pages' | 'content_types' | 'workspaces';

/**
 * Locks the rows of `table` where every `column = value` of `where` holds, until the current
 * transaction ends (call inside withTransaction). `where` keys are trusted column names.
 */
export async function lockRows(db: Db, table: LockTable, where: Record<string, string>): Promise<void> {
  if (db.dialect === 'sqlite') {
    await takeWriteLock(db, table);
    return;
  }
  const conditions = sql.join(
    Object.entries(where).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
    sql` and `,
  );
  await sql`select 1 from ${sql.table(table)} where ${conditions} for no key update`.execute(db.kysely);
}

/**
 * Locks the rows of `table` matching `where` (as lockRows does) where transactions write side by
 * side, so that transactions taking this lock commit one after the other, in the order they took
 * it: PostgreSQL. SQLite runs one writing transaction at a time, so its commits are in that order
 * already: no statement. Used where the order of commits matters, not only their exclusion (event
 * ids taken from a sequence: src/modules/events/record.ts).
 */
export async function lockRowsForCommitOrder(db: Db, table: LockTable, where: Record<string, string>): Promise<void> {
  if (db.dialect === 'postgres') await lockRows(db, table, where);
}

/**
 * Takes the database's write lock now, where the database has one: SQLite, by an UPDATE of
 * `table` (a table with an `id` column) that matches no row (it writes nothing and fires no trigger). What the transaction
 * reads next then cannot change before it writes: a read-then-claim is one step. PostgreSQL has
 * row locks instead (read the rows with selectForUpdate): no statement.
 */
export async function takeWriteLock(db: Db, table: keyof Database): Promise<void> {
  if (db.dialect === 'sqlite') await sql`update ${sql.table(table)} set id = id where 0`.execute(db.kysely);
}

/**
 * `query` reading rows that stay locked until the transaction ends: on PostgreSQL `FOR UPDATE`,
 * `FOR UPDATE OF <of>` to lock only that table's rows of a join, with `skipLocked` leaving out
 * rows another transaction holds (`SKIP LOCKED`: concurrent claimers take different rows). SQLite
 * has no row locks (its one writer holds the database's write lock: takeWriteLock), so `query` as
 * it is. Call inside withTransaction.
 */
export function selectForUpdate<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
  options: { of?: TB & string; skipLocked?: boolean } = {},
): SelectQueryBuilder<DB, TB, O> {
  if (db.dialect !== 'postgres') return query;
  const locked = options.of === undefined ? query.forUpdate() : query.forUpdate(options.of);
  return options.skipLocked ? locked.skipLocked() : locked;
}
