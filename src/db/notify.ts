/**
 * Announcements to other instances on commit (a dialect difference, so it lives in src/db/):
 * PostgreSQL's NOTIFY, sent inside the writing transaction, reaches every session that LISTENs on
 * `channel` when (and only if) the transaction commits, once per distinct payload. SQLite has no
 * such channel and no other instance; its callers wake their own process instead.
 */
import { sql } from 'kysely';
import type { Db } from './types.js';

/** Announces `payload` on `channel` when `trx` commits (PostgreSQL); nothing on SQLite. */
export async function notifyOnCommit(trx: Db, channel: string, payload: string): Promise<void> {
  if (trx.dialect === 'postgres') await sql`SELECT pg_notify(${channel}, ${payload})`.execute(trx.kysely);
}
