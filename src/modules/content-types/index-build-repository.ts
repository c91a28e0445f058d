/**
 * SQL of background index builds (migration 017): the build rows and the size that decides
 * whether a build runs in the background (whether an index exists: src/db/catalog.ts indexState).
 */
import { sql } from 'kysely';
import { selectForUpdate } from '../../db/lock.js';
import type { Db, FieldIndexBuildsTable } from '../../db/types.js';

export type BuildRow = FieldIndexBuildsTable;

/** Rows of `entries`, all types and workspaces (the expression indexes span the whole table): the per-status counters, not a scan. */
export async function entryRowCount(db: Db): Promise<number> {
  const res = await sql<{ n: number | string | null }>`select sum("n") as "n" from "entry_counts"`.execute(db.kysely);
  return Number(res.rows[0]?.n ?? 0);
}

/** Whether an index exists and is valid: asked of the database's catalog (src/db/catalog.ts). */
export { indexState } from '../../db/catalog.js';

function buildOf(db: Db, fieldId: string) {
  return db.kysely.selectFrom('field_index_builds').selectAll().where('field_id', '=', fieldId);
}

export async function findBuild(db: Db, fieldId: string): Promise<BuildRow | null> {
  return (await buildOf(db, fieldId).executeTakeFirst()) ?? null;
}

/** The build of `fieldId` for the rest of the transaction: PATCH and the flip take it in turn (PostgreSQL row lock; SQLite's write lock does it there). */
export async function lockBuild(db: Db, fieldId: string): Promise<BuildRow | null> {
  return (await selectForUpdate(db, buildOf(db, fieldId)).executeTakeFirst()) ?? null;
}

/** Field ids with a build under way, oldest first. */
export async function listBuildingFields(db: Db): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom('field_index_builds')
    .select('field_id')
    .where('state', '=', 'building')
    .orderBy('started_at')
    .orderBy('field_id')
    .execute();
  return rows.map((r) => r.field_id);
}

export async function saveBuild(db: Db, row: BuildRow): Promise<void> {
  const { field_id: _id, ...rest } = row;
  await db.kysely
    .insertInto('field_index_builds')
    .values(row)
    .onConflict((oc) => oc.column('field_id').doUpdateSet(rest))
    .execute();
}

export async function deleteBuild(db: Db, fieldId: string): Promise<void> {
  await db.kysely.deleteFrom('field_index_builds').where('field_id', '=', fieldId).execute();
}

export async function setBuildProgress(db: Db, fieldId: string, built: number, total: number, now: string): Promise<void> {
  await db.kysely
    .updateTable('field_index_builds')
    .set({ indexes_built: built, indexes_total: total, updated_at: now })
    .where('field_id', '=', fieldId)
    .where('state', '=', 'building')
    .execute();
}

export async function failBuild(db: Db, fieldId: string, error: string, now: string): Promise<void> {
  await db.kysely
    .updateTable('field_index_builds')
    .set({ state: 'failed', error: error.slice(0, 2000), updated_at: now })
    .where('field_id', '=', fieldId)
    .where('state', '=', 'building')
    .execute();
}

/**
 * Field types named `fieldName` that need its data index: `on`, marked filterable or sortable;
 * `waiting`, waiting for a build that will mark them so (the index must not be dropped under it).
 */
export async function fieldTypesNeedingDataIndex(db: Db, fieldName: string): Promise<{ on: string[]; waiting: string[] }> {
  const rows = await db.kysely
    .selectFrom('fields')
    .leftJoin('field_index_builds as b', (j) => j.onRef('b.field_id', '=', 'fields.id').on('b.state', '=', 'building'))
    .select(['fields.field_type', 'fields.filterable', 'fields.sortable', 'b.filterable as b_filterable', 'b.sortable as b_sortable'])
    .where('fields.name', '=', fieldName)
    .where((eb) => eb.or([eb('fields.filterable', '=', 1), eb('fields.sortable', '=', 1), eb('b.filterable', '=', 1), eb('b.sortable', '=', 1)]))
    .execute();
  return {
    on: rows.filter((r) => r.filterable === 1 || r.sortable === 1).map((r) => r.field_type),
    waiting: rows.filter((r) => r.b_filterable === 1 || r.b_sortable === 1).map((r) => r.field_type),
  };
}
