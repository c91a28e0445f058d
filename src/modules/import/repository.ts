/** SQL the importers need beyond the entries and media repositories. */
import { sql } from 'kysely';
import { fromJsonColumn } from '../../lib/json.js';
import { withLargeWriteSettings } from '../../db/bulk.js';
import { plannerRowCount, refreshColumnStatistics } from '../../db/catalog.js';
import type { Db } from '../../db/types.js';
import type { MediaRecord } from '../media/repository.js';
import type { ItemTables } from '../publishing/repository.js';

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

/** An item's newest version with action `import`: what the last import of it wrote. */
export interface ImportRecord {
  version: number;
  /** The item's status that version recorded. */
  status: string;
  /** The snapshot, parsed (entries/snapshot.ts, pages/snapshot.ts read it). */
  snapshot: unknown;
}

/**
 * The items of `items` (entries or pages, by `t`, each with its row's `latest_version`) whose
 * newest version is not an `import` version: changed since the last import wrote them (or never
 * imported). One statement per 500 items, each version read by its key, so a batch of the
 * importer asks once and cheaply. An import version records what the last import of the item
 * wrote (issue 23): it is never coalesced with a later write (publishing/core.ts coalesces
 * `update` versions only), so it stays as the import left it, and any later content write or
 * state change adds a newer version.
 */
export async function changedSinceImport(db: Db, t: ItemTables, items: readonly { id: string; latest_version: number }[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < items.length; i += 500) {
    const pairs = sql.join(items.slice(i, i + 500).map((it) => sql`(${it.id}, cast(${it.latest_version} as integer))`));
    const { rows } = await sql<{ id: string }>`
      select ${sql.ref(t.fk)} as id from ${sql.table(t.versions)}
      where (${sql.ref(t.fk)}, version) in (values ${pairs}) and action <> 'import'`.execute(db.kysely);
    for (const r of rows) out.add(r.id);
  }
  return out;
}

/** The newest `import` version of each item of `ids` that has one, with its status and snapshot (see changedSinceImport). */
export async function lastImportVersions(db: Db, t: ItemTables, ids: readonly string[]): Promise<Map<string, ImportRecord>> {
  const out = new Map<string, ImportRecord>();
  const fk = sql.ref(`v.${t.fk}`);
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const { rows } = await sql<{ item_id: string; version: number; status: string; snapshot: unknown }>`
      select ${fk} as item_id, v.version, v.status, v.snapshot from ${sql.table(t.versions)} as v
      where ${fk} in (${sql.join(part)}) and v.action = 'import'
        and v.version = (select max(w.version) from ${sql.table(t.versions)} as w where ${sql.ref(`w.${t.fk}`)} = ${fk} and w.action = 'import')`.execute(
      db.kysely,
    );
    for (const r of rows) out.set(r.item_id, { version: Number(r.version), status: r.status, snapshot: fromJsonColumn<unknown>(r.snapshot, {}) });
  }
  return out;
}

/** The slug and newest version number of each page of the workspace among `ids`, by id. */
export async function pageSlugsByIds(db: Db, workspaceId: string, ids: readonly string[]): Promise<Map<string, { slug: string; latest_version: number }>> {
  const out = new Map<string, { slug: string; latest_version: number }>();
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.kysely
      .selectFrom('pages')
      .select(['id', 'slug', 'latest_version'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.id, { slug: r.slug, latest_version: Number(r.latest_version) });
  }
  return out;
}

/** Rows of the entries table as PostgreSQL's planner counts them (pg_class.reltuples, refreshed by ANALYZE): 0 when never counted; null on SQLite. */
export async function plannerEntryCount(db: Db): Promise<number | null> {
  return plannerRowCount(db, 'entries');
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
  await refreshColumnStatistics(db, 'entries', ['content_type_id', 'slug', 'workspace_id', 'status']);
  await refreshColumnStatistics(db, 'entry_translations', ['entry_id', 'locale']);
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
 * Runs `fn` with this connection set for an import's large write transactions, then puts the
 * settings back (src/db/bulk.ts withLargeWriteSettings): on SQLite each commit durable when it
 * returns, and an automatic checkpoint every IMPORT_CHECKPOINT_PAGES pages (40 MB) instead of
 * 1,000, so a batch's commit no longer copies its pages into the database file, and a page
 * several batches change is copied once per checkpoint.
 */
export async function withImportWriteSettings<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  return withLargeWriteSettings(db, IMPORT_CHECKPOINT_PAGES, fn);
}
