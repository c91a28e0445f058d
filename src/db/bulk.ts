/**
 * Bulk writes whose SQL differs between SQLite and PostgreSQL (an importer writing thousands of
 * rows per transaction). SQLite runs in this process, so a statement per row costs no round trip
 * and reuses one prepared statement; PostgreSQL pays a round trip per statement, so rows go in
 * batches of one statement each. Modules call these helpers and never test the dialect.
 */
import { sql } from 'kysely';
import type { Database, Db } from './types.js';

/**
 * What a column of updateRowsByKey holds, when it is not text: PostgreSQL reads the values of a
 * `VALUES` list as text and needs them cast to the column's type; SQLite binds each value as it is.
 */
export type BulkColumnType = 'json' | 'integer';

const POSTGRES_CASTS: Record<BulkColumnType, string> = { json: 'jsonb', integer: 'integer' };

/** Column names here come from the calling repository's code, never from input. */
function assertColumn(name: string): void {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(name)) throw new Error(`unsafe column name: ${name}`);
}

/**
 * Updates existing rows of `table`: each row of `rows` names its row by the `key` columns and
 * sets its other columns (every row holds the same columns, in the same order), plus the same
 * `constants` for all of them. SQLite: one `UPDATE … WHERE <key> = …` per row. PostgreSQL: one
 * `UPDATE … FROM (VALUES …)` per `perStatement` rows, columns of `types` cast to their type.
 * Rows whose key matches nothing change nothing. Call inside withTransaction.
 *
 * ### Example
 * updateRowsByKey(db, 'entry_translations', ['entry_id', 'locale'], rows, { types: { data: 'json' }, constants: { updated_at: now }, perStatement: 300 })
 * → PostgreSQL: `update "entry_translations" as "t" set "data" = "v"."data"::jsonb, "updated_at" = $n
 *   from (values ($1, $2, $3), …) as "v"("entry_id", "locale", "data") where "t"."entry_id" = "v"."entry_id" and "t"."locale" = "v"."locale"`
 */
export async function updateRowsByKey<T extends object>(
  db: Db,
  table: keyof Database,
  key: readonly (keyof T & string)[],
  rows: readonly T[],
  options: { types?: Partial<Record<keyof T & string, BulkColumnType>>; constants?: Record<string, unknown>; perStatement: number },
): Promise<void> {
  if (rows.length === 0) return;
  const value = (row: T, column: string) => (row as Record<string, unknown>)[column];
  const columns = Object.keys(rows[0]);
  const keys = new Set<string>(key);
  const valueColumns = columns.filter((c) => !keys.has(c));
  const constants = Object.entries(options.constants ?? {});
  for (const c of [...columns, ...constants.map(([c]) => c)]) assertColumn(c);
  if (db.dialect === 'sqlite') {
    const fixed = Object.fromEntries(constants);
    for (const row of rows) {
      const set: Record<string, unknown> = {};
      for (const c of valueColumns) set[c] = value(row, c);
      let update = db.kysely.updateTable(table).set({ ...set, ...fixed } as never);
      for (const k of key) update = update.where(k as never, '=', value(row, k) as never);
      await update.execute();
    }
    return;
  }
  const cast = (c: string) => {
    const type = options.types?.[c as keyof T & string];
    return type ? sql`${sql.ref(`v.${c}`)}::${sql.raw(POSTGRES_CASTS[type])}` : sql.ref(`v.${c}`);
  };
  const set = sql.join([...valueColumns.map((c) => sql`${sql.ref(c)} = ${cast(c)}`), ...constants.map(([c, v]) => sql`${sql.ref(c)} = ${v}`)]);
  const match = sql.join(
    key.map((k) => sql`${sql.ref(`t.${k}`)} = ${sql.ref(`v.${k}`)}`),
    sql` and `,
  );
  const names = sql.join(columns.map((c) => sql.ref(c)));
  for (let i = 0; i < rows.length; i += options.perStatement) {
    const values = sql.join(rows.slice(i, i + options.perStatement).map((r) => sql`(${sql.join(columns.map((c) => sql`${value(r, c)}`))})`));
    await sql`update ${sql.table(table)} as "t" set ${set} from (values ${values}) as "v"(${names}) where ${match}`.execute(db.kysely);
  }
}

/**
 * Runs `fn` with this connection set for a run of large write transactions, then puts the
 * settings back. SQLite: `synchronous = FULL`, so each commit is synced to the write-ahead log
 * and durable when it returns (with NORMAL it was the checkpoint after each large commit that
 * synced it), and an automatic checkpoint every `checkpointPages` pages instead of 1,000, so a
 * commit no longer copies its pages into the database file and syncs that too, and a page
 * several transactions change is copied once per checkpoint. PostgreSQL has no such settings to
 * change (its commits are durable and its checkpoints are the server's): `fn` as it is.
 */
export async function withLargeWriteSettings<T>(db: Db, checkpointPages: number, fn: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'sqlite') return fn();
  const read = async (name: 'synchronous' | 'wal_autocheckpoint') => {
    const { rows } = await sql<Record<string, number>>`pragma ${sql.raw(name)}`.execute(db.kysely);
    return Number(rows[0]?.[name]);
  };
  const synchronous = await read('synchronous');
  const checkpoint = await read('wal_autocheckpoint');
  await sql`pragma synchronous = full`.execute(db.kysely);
  await sql`pragma wal_autocheckpoint = ${sql.lit(checkpointPages)}`.execute(db.kysely);
  try {
    return await fn();
  } finally {
    await sql`pragma synchronous = ${sql.lit(synchronous)}`.execute(db.kysely);
    await sql`pragma wal_autocheckpoint = ${sql.lit(checkpoint)}`.execute(db.kysely);
  }
}
