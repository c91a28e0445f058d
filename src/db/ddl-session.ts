/**
 * A session for DDL that runs long (a field's index build, docs/scaling.md "Index builds"): where
 * each dialect runs such a statement without holding up requests, and how one instance of several
 * claims the work.
 * - SQLite in a file: the statement runs on a worker thread with a connection of its own
 *   (Db.runLongWrite); a single process owns the file, so there is nothing to claim.
 * - PostgreSQL: a dedicated connection outside the pool (Db.connectDedicated, no statement
 *   timeout) holding a session advisory lock on (`lockId`, the current schema's hash), so one
 *   instance per schema builds; ending the session releases the lock. `cancel()` stops the
 *   statement under way with pg_cancel_backend (a cancelled CONCURRENTLY build leaves an invalid
 *   index, which its caller drops).
 */
import { sql } from 'kysely';
import type { Db } from './types.js';

export interface DdlSession {
  /** Runs one statement; rejects with the database's error. */
  run(sqlText: string): Promise<void>;
  /** Stops the statement under way (PostgreSQL; a SQLite statement runs to its end) and ends the session. */
  cancel(): Promise<void>;
  /** Ends the session (releasing its lock); safe to call twice. */
  end(): Promise<void>;
}

/** Whether `db` can run long DDL outside a request: false for in-memory SQLite and transaction handles. */
export function canRunLongDdl(db: Db): boolean {
  return db.connectDedicated !== undefined || db.runLongWrite !== undefined;
}

/**
 * Opens a DDL session, or null when another instance holds `lockId` for this schema (it does the
 * work). Throws when the database cannot be reached or `db` cannot run long DDL (canRunLongDdl).
 */
export async function openDdlSession(db: Db, lockId: number): Promise<DdlSession | null> {
  if (db.runLongWrite) {
    const run = db.runLongWrite;
    return { run, cancel: async () => {}, end: async () => {} };
  }
  if (!db.connectDedicated) throw new Error('this database handle cannot run long DDL');
  const client = await db.connectDedicated();
  const ended = { done: false };
  const end = async () => {
    if (ended.done) return;
    ended.done = true;
    await client.end().catch(() => {});
  };
  try {
    const locked = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, hashtext(current_schema())) as ok', [lockId]);
    if (!locked.rows[0]?.ok) {
      await end();
      return null;
    }
  } catch (err) {
    await end();
    throw err;
  }
  const pid = (client as unknown as { processID?: number }).processID;
  const cancel = async () => {
    if (pid) await sql`select pg_cancel_backend(${pid})`.execute(db.kysely).catch(() => undefined);
    await end();
  };
  return { run: async (sqlText) => void (await client.query(sqlText)), cancel, end };
}
