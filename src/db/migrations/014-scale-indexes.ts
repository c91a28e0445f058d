/**
 * Lists that stay fast at a million entries per type (issue 13 "every list shape index-backed",
 * "counts that do not scan"; docs/scaling.md):
 *
 * - Production sorts on `published_at` and `updated_at` read expressions over several columns
 *   (a scheduled row is published at its `publish_at`, D21; readers see the published version's
 *   time, D70): each gets an index `(content_type_id, <expression>, id)`.
 * - Every list index ends with the visibility columns (status, publish_at): a filtered count and
 *   the rows an offset page skips are decided from the index alone. The column sort indexes of
 *   migration 001 and the expression indexes of filterable and sortable fields are rebuilt so.
 * - PostgreSQL: the expression indexes are built with `NULLS FIRST`, the null order of delivery
 *   sorts; built with the default order the planner could not use them for any sort.
 * - `entry_counts`: the number of entries per content type and status, kept exact by triggers
 *   in the transaction of every write to `entries` (whatever the write path: API, bulk, import,
 *   restore, the publishing job), so an unfiltered list's `total_data` reads one or three rows
 *   instead of counting every entry. Filled here from the entries that exist.
 */
import { sql, type Kysely } from 'kysely';
import { columnSortIndexSql, createDataIndexSql, dataFunctionsSql, dropDataIndexSql, productionSortIndexSql } from './frozen/005-entry-data-sql.js';
import type { Dialect } from '../types.js';

/**
 * Triggers keeping `entry_counts` equal to `SELECT content_type_id, status, COUNT(*) FROM entries
 * GROUP BY 1, 2` (rows may remain at 0). On PostgreSQL the trigger is named to fire after the
 * revision trigger (triggers fire in name order), so a writer locks its workspace row before a
 * counter row and concurrent writers cannot deadlock on counters.
 */
export async function createCountTriggers(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const inc = (row: string) =>
    `INSERT INTO entry_counts (content_type_id, status, n) VALUES (${row}.content_type_id, ${row}.status, 1) ` +
    `ON CONFLICT (content_type_id, status) DO UPDATE SET n = entry_counts.n + 1`;
  const dec = (row: string) => `UPDATE entry_counts SET n = n - 1 WHERE content_type_id = ${row}.content_type_id AND status = ${row}.status`;
  if (dialect === 'sqlite') {
    await sql.raw(`CREATE TRIGGER quire_tally_entries_insert AFTER INSERT ON entries BEGIN ${inc('NEW')}; END`).execute(db);
    await sql.raw(`CREATE TRIGGER quire_tally_entries_delete AFTER DELETE ON entries BEGIN ${dec('OLD')}; END`).execute(db);
    await sql
      .raw(
        `CREATE TRIGGER quire_tally_entries_update AFTER UPDATE OF status, content_type_id ON entries ` +
          `WHEN OLD.status IS NOT NEW.status OR OLD.content_type_id IS NOT NEW.content_type_id BEGIN ${dec('OLD')}; ${inc('NEW')}; END`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION quire_tally_entries() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status IS NOT DISTINCT FROM NEW.status AND OLD.content_type_id IS NOT DISTINCT FROM NEW.content_type_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN ${dec('OLD')}; END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN ${inc('NEW')}; END IF;
  RETURN NULL;
END
$$ LANGUAGE plpgsql`,
    )
    .execute(db);
  await sql
    .raw(
      `CREATE TRIGGER quire_tally_entries AFTER INSERT OR UPDATE OF status, content_type_id OR DELETE ON entries FOR EACH ROW EXECUTE FUNCTION quire_tally_entries()`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  for (const index of productionSortIndexSql(dialect)) await sql.raw(index.sql).execute(db);
  for (const index of columnSortIndexSql(dialect)) {
    await sql.raw(`DROP INDEX IF EXISTS "${index.name}"`).execute(db);
    await sql.raw(index.sql).execute(db);
  }

  const fields = await sql<{ name: string; field_type: string }>`
    SELECT DISTINCT name, field_type FROM fields WHERE filterable = 1 OR sortable = 1`.execute(db);
  // A datetime field's index calls a function that migration 019 would otherwise create later.
  for (const ddl of dataFunctionsSql(dialect)) await sql.raw(ddl).execute(db);
  const done = new Set<string>();
  for (const f of fields.rows) {
    for (const column of ['data', 'published_data'] as const) {
      const drop = dropDataIndexSql(f.name, f.field_type, column);
      // Fields of one name and comparison kind share an index: rebuild it once.
      if (done.has(drop)) continue;
      done.add(drop);
      await sql.raw(drop).execute(db);
      await sql.raw(createDataIndexSql(dialect, f.name, f.field_type, column)).execute(db);
    }
  }

  await db.schema
    .createTable('entry_counts')
    .addColumn('content_type_id', 'text', (c) => c.notNull().references('content_types.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('entry_counts_pk', ['content_type_id', 'status'])
    .execute();
  await sql`INSERT INTO entry_counts (content_type_id, status, n) SELECT content_type_id, status, COUNT(*) FROM entries GROUP BY content_type_id, status`.execute(
    db,
  );
  await createCountTriggers(db, dialect);
}
