/**
 * SQLite's `readNow` (src/db/create-db.ts), the synchronous read every request makes for its
 * workspace's revision: within one event-loop turn an answer serves the other requests parsed in
 * that turn, unless this connection wrote since (its own writes are seen by the very next read);
 * another connection's commit is seen from the next turn on.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import type { Db } from '../src/db/types.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('readNow on SQLite', () => {
  const dataDir = path.join(os.tmpdir(), `quire-read-now-${randomBytes(4).toString('hex')}`);
  let db: Db;
  let other: Db;
  const read = () => Number(db.readNow!('select n from t where id = ?', [1])!.row!.n);

  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: dataDir }, { demo: false });
    db = await createDb(config);
    other = await createDb(config);
    await sql`create table t (id integer primary key, n integer not null)`.execute(db.kysely);
    await sql`insert into t (id, n) values (1, 1)`.execute(db.kysely);
  });
  afterAll(async () => {
    await other?.close();
    await db?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sees its own connection’s writes at once, in the same turn', async () => {
    await nextTurn();
    expect(read()).toBe(1);
    await sql`update t set n = 2 where id = 1`.execute(db.kysely);
    expect(read()).toBe(2);
  });

  it('answers the rest of the turn from its first read; another connection’s commit shows from the next turn', async () => {
    await nextTurn();
    expect(read()).toBe(2);
    await sql`update t set n = 3 where id = 1`.execute(other.kysely);
    expect(read()).toBe(2);
    await nextTurn();
    expect(read()).toBe(3);
  });
});
