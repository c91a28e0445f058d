/**
 * Datetime values keep the offset their author wrote (issue 12 item 2): `2026-11-21T10:00+02:00`
 * is now stored as `2026-11-21T10:00:00.000+02:00`, no longer as `2026-11-21T08:00:00.000Z`, and
 * everything that compares datetimes compares the instant (src/db/dialect.ts dataFieldText:
 * SQLite `strftime(…)`, PostgreSQL `quire_utc(…)`, created here). The values already stored are
 * UTC (`…Z`) and stay as they are: each is its own canonical form.
 *
 * The indexes over datetime values are rebuilt on the instant:
 * - the expression indexes of filterable or sortable datetime fields get their own kind
 *   (`entries_data_time_<name>`, `entries_pub_time_<name>`); the text-kind index they shared
 *   (`entries_data_text_<name>`) is dropped unless a text-like field of that name still needs it;
 * - the unique index of an `is_unique` datetime field is rebuilt on the instant. A field whose
 *   entries name one instant twice keeps working without its index, checked by the slower query,
 *   as migration 012 does, and the migration says so on stderr. A unique index a background
 *   build made and has not turned on yet is dropped: the builder makes it again, on the instant.
 *   Stored values were all UTC until now, so two of them name one instant only if their texts
 *   are equal, which the old index already refused.
 */
import { sql, type Kysely } from 'kysely';
import { createDataIndexSql, dataFieldKind, dataFunctionsSql, dropDataIndexSql, dropUniqueIndexSql } from './frozen/005-entry-data-sql.js';
import { buildUniqueIndex } from './012-unique-indexes.js';
import type { Dialect } from '../types.js';

interface FieldRow {
  id: string;
  content_type_id: string;
  name: string;
  field_type: string;
  data_on: number;
  data_waiting: number;
  is_unique: number;
  unique_waiting: number;
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  for (const ddl of dataFunctionsSql(dialect)) await sql.raw(ddl).execute(db);

  const fields = (
    await sql<FieldRow>`
      SELECT f.id, f.content_type_id, f.name, f.field_type,
        CASE WHEN f.filterable = 1 OR f.sortable = 1 THEN 1 ELSE 0 END AS data_on,
        CASE WHEN b.filterable = 1 OR b.sortable = 1 THEN 1 ELSE 0 END AS data_waiting,
        f.is_unique, COALESCE(b.is_unique, 0) AS unique_waiting
      FROM fields f LEFT JOIN field_index_builds b ON b.field_id = f.id AND b.state = 'building'`.execute(db)
  ).rows.map((r) => ({
    ...r,
    data_on: Number(r.data_on),
    data_waiting: Number(r.data_waiting),
    is_unique: Number(r.is_unique),
    unique_waiting: Number(r.unique_waiting),
  }));

  const datetimeNames = new Set(fields.filter((f) => f.field_type === 'datetime' && (f.data_on || f.data_waiting)).map((f) => f.name));
  for (const name of datetimeNames) {
    const ofName = fields.filter((f) => f.name === name);
    const textNeeds = ofName.some((f) => dataFieldKind(f.field_type) === 'text' && (f.data_on || f.data_waiting));
    const timeOn = ofName.some((f) => f.field_type === 'datetime' && f.data_on);
    for (const column of ['data', 'published_data'] as const) {
      if (!textNeeds) await sql.raw(dropDataIndexSql(name, 'text', column)).execute(db);
      // A field still waiting for its build gets its index from the builder, on the instant.
      if (timeOn) await sql.raw(createDataIndexSql(dialect, name, 'datetime', column)).execute(db);
    }
  }

  for (const f of fields.filter((r) => r.field_type === 'datetime' && (r.is_unique || r.unique_waiting))) {
    await sql.raw(dropUniqueIndexSql(f.id)).execute(db);
    if (f.is_unique) await buildUniqueIndex(db, dialect, f, '019');
  }
}
