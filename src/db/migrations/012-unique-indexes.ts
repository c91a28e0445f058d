/**
 * Every `is_unique` field gets its own unique index (issue 13 "uniqueness that does not scan"):
 * until now a write checked a unique value by reading every entry of the type, so writes slowed
 * with the square of the type's size. New fields get their index when they are created
 * (src/modules/content-types/repository.ts); this builds the ones of existing fields.
 *
 * A field whose entries already hold the same value twice (possible before: a version restore did
 * not check uniqueness) keeps working without its index, checked by the slower query as before;
 * the migration says so on stderr instead of failing the start. Nothing is rewritten.
 */
import { sql, type Kysely } from 'kysely';
import { createUniqueIndexSql, dataFieldText, dataFunctionsSql } from './frozen/005-entry-data-sql.js';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // A datetime field's index calls a function that migration 019 would otherwise create later.
  for (const ddl of dataFunctionsSql(dialect)) await sql.raw(ddl).execute(db);
  const fields = await sql<UniqueField>`
    SELECT id, content_type_id, name, field_type FROM fields WHERE is_unique = 1`.execute(db);
  for (const f of fields.rows) await buildUniqueIndex(db, dialect, f, '012');
}

/** A unique field as the migrations that build unique indexes read it. */
export interface UniqueField {
  id: string;
  content_type_id: string;
  name: string;
  field_type: string;
}

/**
 * Builds the unique index of field `f` unless its entries already hold one value twice (as its
 * index compares them); then says so on stderr and leaves the field checked by the slower query.
 * Shared with migration 019, which rebuilds the unique indexes of datetime fields.
 */
export async function buildUniqueIndex(db: Kysely<unknown>, dialect: Dialect, f: UniqueField, migration: string): Promise<void> {
  const expr = sql.raw(dataFieldText(dialect, f.name, f.field_type));
  const duplicates = await sql<{ n: number }>`
    SELECT COUNT(*) AS n FROM (
      SELECT ${expr} AS v FROM entries WHERE content_type_id = ${f.content_type_id} AND ${expr} IS NOT NULL GROUP BY ${expr} HAVING COUNT(*) > 1
    ) d`.execute(db);
  if (Number(duplicates.rows[0]?.n ?? 0) > 0) {
    process.stderr.write(`quire: migration ${migration}: field '${f.name}' (${f.id}) holds duplicate values; it stays unique-checked without an index\n`);
    return;
  }
  await sql.raw(createUniqueIndexSql(dialect, f.content_type_id, f.id, f.name, f.field_type)).execute(db);
}
