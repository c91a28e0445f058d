/**
 * SQLite storage faults (issue 8): the database file full (a size-limited file: SQLite's
 * max_page_count, exactly what a full disk returns, SQLITE_FULL) and the write lock held by
 * another process (SQLITE_BUSY past busy_timeout). Each write answers 507 or 503 in the envelope
 * with nothing of it written, reads go on, and writes resume once the fault is gone.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createContext, type Context } from '../../src/context.js';
import { createDb } from '../../src/db/create-db.js';
import { call, expectError, seedWorkspace } from '../helpers.js';

const M = '/api/v1/manage';

describe('SQLite storage faults', () => {
  const dataDir = path.join(os.tmpdir(), `quire-faults-${randomBytes(4).toString('hex')}`);
  let ctx: Context;
  let app: FastifyInstance;
  let key: string;
  const counts = async () => {
    const n = async (table: 'entries' | 'entry_versions' | 'entry_translations') =>
      Number(
        (
          await ctx.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { entries: await n('entries'), versions: await n('entry_versions'), translations: await n('entry_translations') };
  };

  beforeAll(async () => {
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { demo: false, rateLimitManagement: 0, dbStatementTimeoutMs: 300 });
    const db = await createDb(config);
    ctx = await createContext(config, db, { log: pino({ level: 'silent' }) });
    app = await buildApp(ctx, { logger: false });
    await app.ready();
    key = (await seedWorkspace(ctx)).keys.management;
    const type = {
      name: 'Post',
      fields: [
        { name: 'title', field_type: 'text' },
        { name: 'body', field_type: 'textarea', localizable: true },
      ],
    };
    expect((await call(app, 'POST', `${M}/content-types`, { key, body: type })).status).toBe(201);
    expect((await call(app, 'POST', `${M}/content-types/post/entries`, { key, body: { slug: 'first', data: { title: 'First' } } })).status).toBe(201);
  });
  afterAll(async () => {
    await app.close();
    await ctx.db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers 507 INSUFFICIENT_STORAGE when the database file is full, writes nothing, keeps reading, and resumes when there is room', async () => {
    const pages = Number((await sql<{ page_count: number }>`pragma page_count`.execute(ctx.db.kysely)).rows[0].page_count);
    await sql.raw(`pragma max_page_count = ${pages + 2}`).execute(ctx.db.kysely);
    const before = await counts();
    const big = { slug: 'big', data: { title: 'Big', body: 'x'.repeat(200_000) }, translations: { de: { data: { body: 'y'.repeat(200_000) } } } };
    const full = await call(app, 'POST', `${M}/content-types/post/entries`, { key, body: big });
    const b = expectError(full, 507, 'INSUFFICIENT_STORAGE');
    expect(b.message).toMatch(/no storage space left/);
    expect(await counts()).toEqual(before);
    expect((await call(app, 'GET', `${M}/content-types/post/entries/first`, { key })).status).toBe(200);
    expect((await call(app, 'GET', '/readyz')).status).toBe(200);

    await sql.raw('pragma max_page_count = 1073741823').execute(ctx.db.kysely);
    const retried = await call(app, 'POST', `${M}/content-types/post/entries`, { key, body: big });
    expect(retried.status).toBe(201);
    expect(await counts()).toEqual({ entries: before.entries + 1, versions: before.versions + 1, translations: before.translations + 1 });
  });

  it('answers 503 with Retry-After while another process holds the write lock, and writes once it is released', async () => {
    const major = Number(process.versions.node.split('.')[0]);
    const mod = major >= 22 ? await import('better-sqlite3-napi') : await import('better-sqlite3');
    const Sqlite = ((mod as { default?: unknown }).default ?? mod) as typeof import('better-sqlite3');
    const other = new Sqlite(path.join(dataDir, 'quire.db'));
    try {
      other.exec('begin immediate');
      const before = await counts();
      const busy = await call(app, 'PUT', `${M}/content-types/post/entries/first`, { key, body: { data: { title: 'Locked out' } } });
      expectError(busy, 503, 'SERVICE_UNAVAILABLE');
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.body.message).toBe('The database is busy; retry shortly');
      expect((await call(app, 'GET', `${M}/content-types/post/entries/first`, { key })).status).toBe(200);
      other.exec('rollback');
      expect(await counts()).toEqual(before);
      const retried = await call(app, 'PUT', `${M}/content-types/post/entries/first`, { key, body: { data: { title: 'Unlocked' } } });
      expect(retried.status).toBe(200);
    } finally {
      other.close();
    }
  });
});
