/**
 * Runs `fn` in one database transaction: every write of an operation commits together or not at
 * all. `fn` receives a Db bound to the transaction, so repositories need no second signature.
 * Nested calls reuse the outer transaction.
 *
 * PostgreSQL may abort a transaction that did nothing wrong: a deadlock between two writers
 * (40P01) or a serialization failure (40001). The transaction rolled back whole, so it is run
 * again, up to MAX_ATTEMPTS times with a short random pause; `fn` must therefore not have effects
 * outside the database that cannot be repeated. Writers lock in one order (scope, then item; see
 * src/modules/publishing/repository.ts), which keeps such aborts rare.
 */
import { sql } from 'kysely';
import type { Db } from './types.js';

const IN_TX = Symbol('inTransaction');
const AFTER_COMMIT = Symbol('afterCommit');

/** Attempts of a transaction that PostgreSQL aborted for a deadlock or a serialization failure. */
const MAX_ATTEMPTS = 3;
const RETRYABLE = new Set(['40P01', '40001']);

function retryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && RETRYABLE.has(code);
}

export async function withTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  if ((db as Db & { [IN_TX]?: boolean })[IN_TX]) return fn(db);
  for (let attempt = 1; ; attempt++) {
    // Callbacks of an attempt that rolled back are dropped with it.
    const committed: (() => void)[] = [];
    try {
      const result = await db.kysely.transaction().execute(async (trx) => {
        const tx: Db & { [IN_TX]: boolean; [AFTER_COMMIT]: (() => void)[] } = {
          kysely: trx,
          dialect: db.dialect,
          close: async () => {},
          memo: db.memo,
          [IN_TX]: true,
          [AFTER_COMMIT]: committed,
        };
        return fn(tx);
      });
      for (const callback of committed) callback();
      return result;
    } catch (err) {
      if (db.dialect !== 'postgres' || attempt >= MAX_ATTEMPTS || !retryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}

/** Whether `db` is the handle of an open transaction (made by withTransaction). */
export function inTransaction(db: Db): boolean {
  return (db as Db & { [IN_TX]?: boolean })[IN_TX] === true;
}

/**
 * Runs `callback` once the transaction of `db` has committed (never when it rolls back), or at
 * once when `db` is no transaction. It must not throw; it runs before withTransaction returns.
 */
export function afterCommit(db: Db, callback: () => void): void {
  const list = (db as Db & { [AFTER_COMMIT]?: (() => void)[] })[AFTER_COMMIT];
  if (list) list.push(callback);
  else callback();
}

/**
 * Makes the current transaction read one snapshot of the whole database: PostgreSQL `SET
 * TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY` (which also refuses writes), the
 * transaction's first statement (call it first inside withTransaction). An SQLite transaction
 * reads one snapshot from its first read on by itself (WAL journal): no statement.
 */
export async function readOneSnapshot(db: Db): Promise<void> {
  if (db.dialect === 'postgres') await sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.execute(db.kysely);
}
