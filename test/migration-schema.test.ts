/**
 * A PostgreSQL server whose DATABASE_URL picks a schema through `search_path` migrates into that
 * schema even when another schema of the database already holds Kysely's bookkeeping tables
 * (e.g. `public`, migrated once by another installation): Kysely must not take those for its own.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';

const url = process.env.DATABASE_URL;

describe.runIf(url)('migrations into the search_path schema on postgres', () => {
  const other = `t_other_${randomBytes(5).toString('hex')}`;
  const target = `t_target_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });

  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${other}" CASCADE`).catch(() => {});
    await admin.query(`DROP SCHEMA IF EXISTS "${target}" CASCADE`).catch(() => {});
    await admin.end();
  });

  it('creates its own bookkeeping tables beside the ones of another schema', async () => {
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${other}"`);
    await admin.query(`CREATE TABLE "${other}".kysely_migration_lock (id varchar(255) PRIMARY KEY, is_locked integer NOT NULL DEFAULT 0)`);
    await admin.query(`CREATE TABLE "${other}".kysely_migration (name varchar(255) PRIMARY KEY, timestamp varchar(255) NOT NULL)`);
    await admin.query(`CREATE SCHEMA "${target}"`);
    const schemaUrl = new URL(url!);
    schemaUrl.searchParams.set('options', `-c search_path=${target}`);
    const config = loadConfig({ DATABASE_URL: schemaUrl.toString(), DATA_DIR: path.join(os.tmpdir(), `quire-ms-${randomBytes(4).toString('hex')}`) });
    const db = await createDb(config, { poolSize: 1 });
    await db.close();
    const tables = await admin.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name`, [target]);
    const names = tables.rows.map((r: { table_name: string }) => r.table_name);
    expect(names).toContain('kysely_migration_lock');
    expect(names).toContain('workspaces');
  });
});
