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
 */
import { sql } from 'kysely';
import type { Db } from './types.js';

/** Tables whose rows a writer locks. */
export type LockTable = 'entries' | 'pages' | 'content_types' | 'workspaces';

/**
 * Locks the rows of `table` where every `column = value` of `where` holds, until the current
 * transaction ends (call inside withTransaction). `where` keys are trusted column names.
 */
export async function lockRows(db: Db, table: LockTable, where: Record<string, string>): Promise<void> {
  if (db.dialect === 'sqlite') {
    await sql`update ${sql.table(table)} set id = id where 0`.execute(db.kysely);
    return;
  }
  const conditions = sql.join(
    Object.entries(where).map(([column, value]) => sql`${sql.ref(column)} = ${value}`),
    sql` and `,
  );
  await sql`select 1 from ${sql.table(table)} where ${conditions} for no key update`.execute(db.kysely);
}
