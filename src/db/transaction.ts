/**
 * Runs `fn` in one database transaction: every write of an operation commits together or not at
 * all. `fn` receives a Db bound to the transaction, so repositories need no second signature.
 * Nested calls reuse the outer transaction.
 */
import type { Db } from './types.js';

const IN_TX = Symbol('inTransaction');

export async function withTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  if ((db as Db & { [IN_TX]?: boolean })[IN_TX]) return fn(db);
  return db.kysely.transaction().execute(async (trx) => {
    const tx: Db & { [IN_TX]: boolean } = {
      kysely: trx,
      dialect: db.dialect,
      close: async () => {},
      memo: db.memo,
      [IN_TX]: true,
    };
    return fn(tx);
  });
}
