/** SQL the importers need beyond the entries and media repositories. */
import { sql } from 'kysely';
import type { Db } from '../../db/types.js';
import type { MediaRecord } from '../media/repository.js';

/** Id and slug of every entry of the given content types, grouped by content type id. */
export async function entrySlugsByType(db: Db, contentTypeIds: readonly string[]): Promise<Map<string, { id: string; slug: string }[]>> {
  const out = new Map<string, { id: string; slug: string }[]>(contentTypeIds.map((id) => [id, []]));
  if (contentTypeIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('entries')
    .select(['id', 'slug', 'content_type_id'])
    .where('content_type_id', 'in', [...contentTypeIds])
    .execute();
  for (const r of rows) out.get(r.content_type_id)?.push({ id: r.id, slug: r.slug });
  return out;
}

/** Id and slug of every page of the workspace (page slugs are unique per workspace). */
export async function pageSlugsOf(db: Db, workspaceId: string): Promise<{ id: string; slug: string }[]> {
  return db.kysely.selectFrom('pages').select(['id', 'slug']).where('workspace_id', '=', workspaceId).execute();
}

/** Rows of the entries table as PostgreSQL's planner counts them (pg_class.reltuples, refreshed by ANALYZE): 0 when never counted; null on SQLite. */
export async function plannerEntryCount(db: Db): Promise<number | null> {
  if (db.dialect !== 'postgres') return null;
  const { rows } = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = 'entries'::regclass`.execute(db.kysely);
  return Math.max(0, Number(rows[0]?.n ?? 0));
}

/**
 * Refreshes PostgreSQL's statistics of the columns the importer's lookups filter on (entries by
 * content type, slug, workspace and status; translations by entry), so that they keep reading
 * their indexes while an import grows the tables: with statistics of a smaller table, a lookup of
 * 500 slugs read every entry of the type instead of the (content type, slug) index, and the copy
 * of a batch's published translations read the whole translations table. ANALYZE of those
 * columns only: it samples, and blocks neither readers nor writers. Nothing on SQLite.
 */
export async function refreshImportStatistics(db: Db): Promise<void> {
  if (db.dialect !== 'postgres') return;
  await sql`analyze entries (content_type_id, slug, workspace_id, status)`.execute(db.kysely);
  await sql`analyze entry_translations (entry_id, locale)`.execute(db.kysely);
}

/**
 * Inserts media records, 200 per statement; one whose id exists by then is overwritten but for
 * its id and created_at, as upsertMedia does one at a time.
 */
export async function upsertMediaRecords(db: Db, records: readonly MediaRecord[]): Promise<void> {
  if (records.length === 0) return;
  const columns = (Object.keys(records[0]) as (keyof MediaRecord)[]).filter((c) => c !== 'id' && c !== 'created_at');
  for (let i = 0; i < records.length; i += 200) {
    await db.kysely
      .insertInto('media')
      .values(records.slice(i, i + 200))
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))))
      .execute();
  }
}

/** WAL pages between SQLite's automatic checkpoints while an import writes (see withImportWriteSettings). */
const IMPORT_CHECKPOINT_PAGES = 10_000;

/**
 * Runs `fn` with this SQLite connection set for an import's large write transactions, then
 * puts the settings back: `synchronous = FULL`, so each commit is synced to the write-ahead log
 * and durable when it returns (with NORMAL it was the checkpoint after each large commit that
 * synced it), and an automatic checkpoint every IMPORT_CHECKPOINT_PAGES pages (40 MB) instead
 * of 1,000, so a batch's commit no longer copies its pages into the database file and syncs
 * that too, and a page several batches change is copied once per checkpoint. PostgreSQL: `fn`.
 */
export async function withImportWriteSettings<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'sqlite') return fn();
  const read = async (name: 'synchronous' | 'wal_autocheckpoint') => {
    const { rows } = await sql<Record<string, number>>`pragma ${sql.raw(name)}`.execute(db.kysely);
    return Number(rows[0]?.[name]);
  };
  const synchronous = await read('synchronous');
  const checkpoint = await read('wal_autocheckpoint');
  await sql`pragma synchronous = full`.execute(db.kysely);
  await sql`pragma wal_autocheckpoint = ${sql.lit(IMPORT_CHECKPOINT_PAGES)}`.execute(db.kysely);
  try {
    return await fn();
  } finally {
    await sql`pragma synchronous = ${sql.lit(synchronous)}`.execute(db.kysely);
    await sql`pragma wal_autocheckpoint = ${sql.lit(checkpoint)}`.execute(db.kysely);
  }
}
