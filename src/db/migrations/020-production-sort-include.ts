/**
 * Offset pages of production lists sorted by `published_at` or `updated_at` skip their offset in
 * the sort index alone on PostgreSQL (issue 13 items 1, 4; docs/scaling.md "Indexes"): the
 * indexes of those sorts' expressions (migration 014, src/db/dialect.ts productionSortIndexSql)
 * are rebuilt with the columns the expressions read as INCLUDE columns, so PostgreSQL can read
 * them index-only; without them it reads the entry row of every entry a page skips. An index
 * that already has them (a database created since) is left alone. SQLite: nothing to do, it
 * reads an indexed expression from the index itself.
 */
import { sql, type Kysely } from 'kysely';
import { productionSortIndexSql } from './frozen/005-entry-data-sql.js';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  for (const index of productionSortIndexSql(dialect)) {
    const found = await sql<{
      included: number;
    }>`SELECT indnatts - indnkeyatts AS included FROM pg_index WHERE indexrelid = to_regclass(${index.name})`.execute(db);
    if (found.rows.length > 0 && Number(found.rows[0].included) > 0) continue;
    await sql.raw(`DROP INDEX IF EXISTS "${index.name}"`).execute(db);
    await sql.raw(index.sql).execute(db);
  }
}
