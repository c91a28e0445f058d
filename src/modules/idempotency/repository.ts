/** SQL for idempotency records (table idempotency_keys, primary key (api_key_id, idem_key)). */
import type { Db } from '../../db/types.js';

export interface IdempotencyRecord {
  api_key_id: string;
  idem_key: string;
  fingerprint: string;
  state: 'pending' | 'completed';
  status_code: number | null;
  response: string | null;
  created_at: string;
  expires_at: string;
}

/** Inserts a record unless one exists for (api key, key); true when this call inserted it. */
export async function insertRecordIfAbsent(db: Db, rec: IdempotencyRecord): Promise<boolean> {
  const res = await db.kysely
    .insertInto('idempotency_keys')
    .values(rec)
    .onConflict((oc) => oc.columns(['api_key_id', 'idem_key']).doNothing())
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function findRecord(db: Db, apiKeyId: string, key: string): Promise<IdempotencyRecord | null> {
  const row = await db.kysely.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).executeTakeFirst();
  if (!row) return null;
  return { ...row, state: row.state === 'completed' ? 'completed' : 'pending', status_code: row.status_code === null ? null : Number(row.status_code) };
}

/**
 * Replaces an expired or abandoned record, but only if it is still the one that was read
 * (`seenCreatedAt`): of two requests taking it over at once, one wins. True when replaced.
 */
export async function replaceRecord(db: Db, seenCreatedAt: string, rec: IdempotencyRecord): Promise<boolean> {
  const res = await db.kysely
    .updateTable('idempotency_keys')
    .set({ fingerprint: rec.fingerprint, state: rec.state, status_code: null, response: null, created_at: rec.created_at, expires_at: rec.expires_at })
    .where('api_key_id', '=', rec.api_key_id)
    .where('idem_key', '=', rec.idem_key)
    .where('created_at', '=', seenCreatedAt)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Stores the outcome on the pending record created at `createdAt` (if it is still there). */
export async function completeRecord(db: Db, apiKeyId: string, key: string, createdAt: string, statusCode: number, response: string): Promise<void> {
  await db.kysely
    .updateTable('idempotency_keys')
    .set({ state: 'completed', status_code: statusCode, response })
    .where('api_key_id', '=', apiKeyId)
    .where('idem_key', '=', key)
    .where('created_at', '=', createdAt)
    .where('state', '=', 'pending')
    .execute();
}

/** Deletes the pending record created at `createdAt` (the key may be used again). */
export async function deleteRecord(db: Db, apiKeyId: string, key: string, createdAt: string): Promise<void> {
  await db.kysely.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('idem_key', '=', key).where('created_at', '=', createdAt).execute();
}

/** Removes the API key's expired records (keeps the table small without a separate job). */
export async function purgeExpired(db: Db, apiKeyId: string, now: string): Promise<void> {
  await db.kysely.deleteFrom('idempotency_keys').where('api_key_id', '=', apiKeyId).where('expires_at', '<=', now).execute();
}
