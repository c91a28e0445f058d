/**
 * Migration 019 (datetime values keep their offset) upgrades an existing database in place:
 *
 * - a database as the release before left it (datetime values stored in UTC, their expression
 *   and unique indexes over the value's text, no `quire_utc` on PostgreSQL; written by today's
 *   code, then its indexes put back as they were before 019, which then runs) gets the indexes of its datetime fields rebuilt on the instant: the datetime
 *   kind's own expression indexes, the text-kind index dropped where no text field of that name
 *   needs it and kept where one does, the unique index over the instant. The stored values are
 *   unchanged, and new values with offsets sort, filter and collide among them by instant through
 *   those indexes;
 * - a database older than the migrations that build data and unique indexes (004) reaches the
 *   latest schema with a sortable and a unique datetime field: those migrations create the
 *   function the datetime index calls before building it.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { createDataIndexSql, createUniqueIndexSql, dataIndexName, dropDataIndexSql, dropUniqueIndexSql, uniqueIndexName } from '../src/db/dialect.js';
import { migrateToLatest, MIGRATIONS } from '../src/db/migrate.js';
import type { Db, Dialect } from '../src/db/types.js';
import { newId } from '../src/lib/ids.js';
import { bootstrap } from '../src/modules/auth/operations.js';
import { call, dialects, expectError } from './helpers.js';
import { migrateUpTo } from './migration-helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const T = '2026-11-01T10:00:00.000Z';

async function openDb(dialect: Dialect, prefix: string): Promise<{ db: Db; schema?: string; dataDir: string; config: ReturnType<typeof loadConfig> }> {
  const dataDir = path.join(os.tmpdir(), `quire-${prefix}-${randomBytes(4).toString('hex')}`);
  const config = loadConfig(
    { DATA_DIR: dataDir, DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined, PUBLIC_URL: 'http://quire.test' },
    { demo: false, rateLimitManagement: 0, rateLimitDelivery: 0 },
  );
  const schema = dialect === 'postgres' ? `t_${prefix}_${randomBytes(5).toString('hex')}` : undefined;
  const db = await createDb(config, dialect === 'postgres' ? { pgSchema: schema, poolSize: 2, migrate: false } : { sqliteFile: ':memory:', migrate: false });
  return { db, schema, dataDir, config };
}

async function closeDb(db: Db | undefined, schema: string | undefined, dataDir: string): Promise<void> {
  if (!db) return;
  if (schema) await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(db.kysely);
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

/** Definitions of the entry indexes, by name. */
async function indexes(db: Db): Promise<Map<string, string>> {
  const q =
    db.dialect === 'sqlite'
      ? sql<{ name: string; def: string }>`SELECT name, sql AS def FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries' AND sql IS NOT NULL`
      : sql<{
          name: string;
          def: string;
        }>`SELECT indexname AS name, indexdef AS def FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'entries'`;
  return new Map((await q.execute(db.kysely)).rows.map((r) => [r.name, r.def]));
}

const INSTANT = /strftime|quire_utc/;

/** The plan of a sort on `starts` of one content type, as text. */
async function sortPlan(db: Db, contentTypeId: string): Promise<string> {
  const expr = db.dialect === 'sqlite' ? `strftime('%Y-%m-%dT%H:%M:%fZ', json_extract("data", '$.starts'))` : `quire_utc("data"->>'starts')`;
  const order = db.dialect === 'sqlite' ? `${expr}, "id"` : `${expr} NULLS FIRST, "id"`;
  const query = `SELECT id FROM entries WHERE content_type_id = '${contentTypeId}' ORDER BY ${order} LIMIT 5`;
  if (db.dialect === 'sqlite')
    return (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`).execute(db.kysely)).rows.map((r) => r.detail).join('\n');
  return db.kysely.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    await sql`SET LOCAL enable_sort = off`.execute(trx);
    return (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describe.each(dialects())('migration 019 on an existing %s database', (dialect) => {
  let db: Db | undefined;
  let schema: string | undefined;
  let dataDir = '';
  let app: FastifyInstance;
  let keys: { management: string; delivery: string };
  let eventId = '';
  let codeId = '';
  let before: unknown[] = [];
  const manage = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown) => call(app, method, `${M}${url}`, { key: keys.management, body });
  const slugs = async (url: string) => {
    const res = await call(app, 'GET', `${P}${url}`, { key: keys.delivery });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.map((e: { slug: string }) => e.slug);
  };

  beforeAll(async () => {
    const opened = await openDb(dialect, 'm019');
    ({ db, schema, dataDir } = opened);
    // Content is written with today's code on today's schema, then the indexes (and PostgreSQL's
    // function) are put back as the release before 019 built them, and 019 runs on that: a
    // database migrated only to 018 lacks the columns today's writes fill.
    await migrateToLatest(db.kysely, dialect, schema);
    const ctx = await createContext(opened.config, db, { log: pino({ level: 'silent' }) });
    keys = (await bootstrap(ctx, { slug: 'm019', name: 'M019', default_locale: 'en', locales: ['en'] })).keys;
    app = await buildApp(ctx, { logger: false });
    await app.ready();
    const event = await manage('POST', '/content-types', {
      name: 'Event',
      slug: 'event',
      fields: [
        { name: 'starts', field_type: 'datetime', sortable: true, filterable: true },
        { name: 'ends', field_type: 'datetime', filterable: true },
        { name: 'code', field_type: 'datetime', is_unique: true },
      ],
    });
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    eventId = event.body.data.id;
    codeId = event.body.data.fields.find((f: { name: string }) => f.name === 'code').id;
    // A text field of the same name as a datetime field: it shares the text-kind index.
    expect(
      (await manage('POST', '/content-types', { name: 'Note', slug: 'note', fields: [{ name: 'starts', field_type: 'text', filterable: true }] })).status,
    ).toBe(201);
    // Values as the release before stored them: UTC with milliseconds.
    for (const [slug, starts, code] of [
      ['b', '2026-11-21T09:00:00.000Z', '2026-12-01T08:00:00.000Z'],
      ['a', '2026-11-21T07:00:00.000Z', '2026-12-02T08:00:00.000Z'],
      ['c', '2026-11-21T11:00:00.000Z', null],
    ] as const) {
      const res = await manage('POST', '/content-types/event/entries', { slug, data: { starts, ends: starts, ...(code ? { code } : {}) } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect((await manage('PATCH', `/content-types/event/entries/${slug}/publish`)).status).toBe(200);
    }
    // The indexes as the release before built them: over the value's text, datetime sharing the text kind.
    for (const name of ['starts', 'ends'])
      for (const column of ['data', 'published_data'] as const) {
        await sql.raw(dropDataIndexSql(name, 'datetime', column)).execute(db.kysely);
        await sql.raw(createDataIndexSql(dialect, name, 'text', column)).execute(db.kysely);
      }
    await sql.raw(dropUniqueIndexSql(codeId)).execute(db.kysely);
    await sql.raw(createUniqueIndexSql(dialect, eventId, codeId, 'code', 'text')).execute(db.kysely);
    if (dialect === 'postgres') await sql`DROP FUNCTION quire_utc(text)`.execute(db.kysely);
    before = await db.kysely.selectFrom('entries').select(['id', 'data', 'published_data']).orderBy('id').execute();

    await MIGRATIONS['019-datetime-offsets']!.up(db.kysely as unknown as Kysely<unknown>, dialect);
  });
  afterAll(async () => {
    await app?.close();
    await closeDb(db, schema, dataDir);
  });

  it('rebuilds the datetime indexes on the instant and keeps a text field’s index', async () => {
    const after = await indexes(db!);
    for (const column of ['data', 'published_data'] as const) {
      for (const name of ['starts', 'ends']) expect(after.get(dataIndexName(name, 'datetime', column)), `${name} ${column}`).toMatch(INSTANT);
      expect(after.has(dataIndexName('ends', 'text', column))).toBe(false);
      expect(after.get(dataIndexName('starts', 'text', column))).not.toMatch(INSTANT);
    }
    expect(after.get(uniqueIndexName(codeId))).toMatch(INSTANT);
    expect(await sortPlan(db!, eventId)).toMatch(new RegExp(dataIndexName('starts', 'datetime')));
  });

  it('leaves the stored values as they were', async () => {
    expect(await db!.kysely.selectFrom('entries').select(['id', 'data', 'published_data']).orderBy('id').execute()).toEqual(before);
  });

  it('orders, filters and checks uniqueness of new values with offsets among the old ones by instant', async () => {
    const created = await manage('POST', '/content-types/event/entries', { slug: 'd', data: { starts: '2026-11-21T10:00:00+02:00' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await manage('PATCH', '/content-types/event/entries/d/publish')).status).toBe(200);
    expect(await slugs('/entries?type=event&sort=starts:asc')).toEqual(['a', 'd', 'b', 'c']);
    expect(await slugs(`/entries?type=event&sort=starts:asc&filter[starts][lt]=${encodeURIComponent('2026-11-21T09:00:00Z')}`)).toEqual(['a', 'd']);
    expectError(
      await manage('PUT', '/content-types/event/entries/d', { data: { starts: '2026-11-21T10:00:00+02:00', code: '2026-12-01T10:00+02:00' } }),
      409,
      'UNIQUE_VIOLATION',
    );
  });
});

describe.each(dialects())('upgrading a %s database from migration 004 with datetime fields', (dialect) => {
  let db: Db | undefined;
  let schema: string | undefined;
  let dataDir = '';

  afterAll(async () => closeDb(db, schema, dataDir));

  it('builds the datetime indexes on the instant in the migrations that build indexes', async () => {
    const opened = await openDb(dialect, 'm019o');
    ({ db, schema, dataDir } = opened);
    await migrateUpTo(db.kysely as unknown as Kysely<unknown>, dialect, '004-revisions', schema);
    const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    const ws = newId();
    const ct = newId();
    const code = newId();
    await k
      .insertInto('workspaces')
      .values({ id: ws, name: 'Old', slug: 'old', default_locale: 'en', locales: '["en"]', created_at: T, updated_at: T })
      .execute();
    await k
      .insertInto('content_types')
      .values({
        id: ct,
        workspace_id: ws,
        name: 'Event',
        slug: 'event',
        description: null,
        icon: null,
        display_field: null,
        is_block: 0,
        orderable: 0,
        created_at: T,
        updated_at: T,
      })
      .execute();
    const field = (id: string, name: string, flags: Record<string, number>, order: number) => ({
      id,
      content_type_id: ct,
      name,
      label: name,
      field_type: 'datetime',
      required: 0,
      is_unique: 0,
      localizable: 0,
      filterable: 0,
      sortable: 0,
      sort_order: order,
      options: null,
      validation: null,
      created_at: T,
      updated_at: T,
      ...flags,
    });
    await k
      .insertInto('fields')
      .values([field(newId(), 'starts', { sortable: 1 }, 0), field(code, 'code', { is_unique: 1 }, 1)])
      .execute();
    await sql.raw(createDataIndexSql(dialect, 'starts', 'text')).execute(db.kysely);
    await migrateToLatest(db.kysely, dialect, schema);
    const after = await indexes(db);
    for (const column of ['data', 'published_data'] as const) {
      expect(after.get(dataIndexName('starts', 'datetime', column))).toMatch(INSTANT);
      expect(after.has(dataIndexName('starts', 'text', column))).toBe(false);
    }
    expect(after.get(uniqueIndexName(code))).toMatch(INSTANT);
  });
});
