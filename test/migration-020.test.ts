/**
 * Migration 020 upgrades an existing database in place: on PostgreSQL the indexes of the
 * production sorts on `published_at` and `updated_at`, as migration 014 built them before (no
 * INCLUDE columns), are rebuilt with the columns their expressions read, so the skip of an offset
 * page (the subquery of a deferred join) becomes an index-only scan; an index that already has
 * them is left as it is. On SQLite the migration changes nothing.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { PRODUCTION_SORT_EXPRESSIONS } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { up } from '../src/db/migrations/020-production-sort-include.js';
import type { Db, Dialect } from '../src/db/types.js';
import { dialects } from './helpers.js';
import { migrateUpTo } from './migration-helpers.js';

const NAMES = ['entries_type_pub_published', 'entries_type_pub_updated'];

/** The two indexes as migration 014 built them before migration 020 (both dialects). */
function oldIndexSql(dialect: Dialect): string[] {
  const nullsFirst = dialect === 'postgres' ? ' NULLS FIRST' : '';
  return [
    `CREATE INDEX "entries_type_pub_published" ON "entries" ("content_type_id", ${PRODUCTION_SORT_EXPRESSIONS.published_at}${nullsFirst}, "id", "status", "publish_at")`,
    `CREATE INDEX "entries_type_pub_updated" ON "entries" ("content_type_id", ${PRODUCTION_SORT_EXPRESSIONS.updated_at}, "id", "status", "publish_at")`,
  ];
}

describe.each(dialects())('migration 020 on an existing %s database', (dialect) => {
  let db: Db | undefined;
  let schema: string | undefined;
  let dataDir = '';

  afterEach(async () => {
    if (!db) return;
    if (schema) await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(db.kysely);
    await db.close();
    db = undefined;
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function open(): Promise<Db> {
    dataDir = path.join(os.tmpdir(), `quire-m020-${randomBytes(4).toString('hex')}`);
    const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined }, { demo: false });
    schema = dialect === 'postgres' ? `t_m020_${randomBytes(5).toString('hex')}` : undefined;
    db = await createDb(config, dialect === 'postgres' ? { pgSchema: schema, poolSize: 2, migrate: false } : { sqliteFile: ':memory:', migrate: false });
    return db;
  }

  /** Definition and identity (oid or rootpage) of each of the two indexes. */
  async function indexes(d: Db): Promise<Map<string, { def: string; id: string }>> {
    const q =
      d.dialect === 'sqlite'
        ? sql<{
            name: string;
            def: string;
            id: string;
          }>`SELECT name, sql AS def, rootpage AS id FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries'`
        : sql<{
            name: string;
            def: string;
            id: string;
          }>`SELECT indexname AS name, indexdef AS def, to_regclass(indexname)::oid::text AS id FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'entries'`;
    const rows = (await q.execute(d.kysely)).rows.filter((r) => NAMES.includes(r.name));
    return new Map(rows.map((r) => [r.name, { def: r.def, id: String(r.id) }]));
  }

  /** The plan of the skip of an offset page sorted by the production `updated_at`. */
  async function skipPlan(d: Db): Promise<string> {
    const e = PRODUCTION_SORT_EXPRESSIONS.updated_at;
    const query = `SELECT "id", ${e} AS "sort_key" FROM "entries" WHERE "content_type_id" = 'ct' AND ("status" = 'published' OR ("status" = 'scheduled' AND "publish_at" <= '2026-11-25T00:00:00.000Z')) ORDER BY ${e} DESC, "id" DESC LIMIT 5 OFFSET 20`;
    return d.kysely.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_sort = off`.execute(trx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
      return (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
    });
  }

  it('rebuilds the production sort indexes of a database migrated before it with their INCLUDE columns (PostgreSQL) and leaves SQLite as it was', async () => {
    const d = await open();
    await migrateUpTo(d.kysely as unknown as Kysely<unknown>, dialect, '019-datetime-offsets', schema);
    for (const name of NAMES) await sql.raw(`DROP INDEX "${name}"`).execute(d.kysely);
    for (const ddl of oldIndexSql(dialect)) await sql.raw(ddl).execute(d.kysely);
    const before = await indexes(d);
    expect([...before.keys()].sort()).toEqual(NAMES);
    if (dialect === 'postgres') expect(await skipPlan(d)).toMatch(/(?<!Only )Index Scan Backward using entries_type_pub_updated/);

    await migrateToLatest(d.kysely, dialect, schema);
    const after = await indexes(d);
    expect([...after.keys()].sort()).toEqual(NAMES);
    if (dialect === 'sqlite') {
      expect(after).toEqual(before);
      return;
    }
    expect(after.get('entries_type_pub_published')!.def).toMatch(/INCLUDE \(published_at\)$/);
    expect(after.get('entries_type_pub_updated')!.def).toMatch(/INCLUDE \(published_at, updated_at\)$/);
    expect(await skipPlan(d)).toMatch(/Index Only Scan Backward using entries_type_pub_updated/);
  });

  it('leaves the indexes of a database created since as they are', async () => {
    const d = await open();
    await migrateToLatest(d.kysely, dialect, schema);
    const before = await indexes(d);
    expect([...before.keys()].sort()).toEqual(NAMES);
    if (dialect === 'postgres') expect(before.get('entries_type_pub_updated')!.def).toMatch(/INCLUDE/);
    await up(d.kysely as unknown as Kysely<unknown>, dialect);
    expect(await indexes(d)).toEqual(before);
  });
});
