/**
 * Migration 013 gives the new `webhooks:write` scope (D82) to management keys that held every
 * earlier scope (full-access keys made before webhooks existed), and to no narrower key.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest, MIGRATIONS } from '../src/db/migrate.js';
import type { Db } from '../src/db/types.js';
import { bootstrap, createApiKey } from '../src/modules/auth/operations.js';
import { call, dialects, expectError } from './helpers.js';

const EARLIER = ['content:write', 'content:publish', 'media:write', 'schema:write'];

describe.each(dialects())('migration 013 on an existing %s database', (dialect) => {
  let db: Db;
  let schema: string | undefined;
  let fullKey: string;
  let narrowKey: string;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    const config = loadConfig(
      {
        DATA_DIR: path.join(os.tmpdir(), `quire-m013-${randomBytes(4).toString('hex')}`),
        DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined,
      },
      { demo: false, rateLimitManagement: 0 },
    );
    schema = dialect === 'postgres' ? `t_m013_${randomBytes(5).toString('hex')}` : undefined;
    db = await createDb(config, dialect === 'postgres' ? { pgSchema: schema, poolSize: 2, migrate: false } : { sqliteFile: ':memory:', migrate: false });
    // Keys are made with today's code on today's schema (a database migrated only to 012 lacks the
    // tables today's writes fill, such as the audit log), given the scopes the release before
    // stored, and then 013 runs on them.
    await migrateToLatest(db.kysely, dialect, schema);
    const ctx = await createContext(config, db, { log: pino({ level: 'silent' }) });
    const boot = await bootstrap(ctx, { slug: 'm013', name: 'M013', default_locale: 'en', locales: ['en'], email: 'owner@m013.test' });
    fullKey = boot.keys.management;
    narrowKey = (await createApiKey(ctx, boot.workspace.id, boot.user.id, { keyClass: 'management', scopes: ['content:write'] })).key;
    // As the release before webhooks stored them: the four earlier scopes at most.
    await sql`UPDATE api_keys SET scopes = ${JSON.stringify(EARLIER)} WHERE key_class = 'management' AND CAST(scopes AS TEXT) LIKE ${'%schema:write%'}`.execute(
      db.kysely,
    );
    await MIGRATIONS['013-webhooks-scope']!.up(db.kysely as unknown as Kysely<unknown>, dialect);
    app = await buildApp(ctx, { logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    if (schema) await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(db.kysely);
    await db?.close();
  });

  it('lets a full-access key manage webhooks and leaves a narrower key as it was', async () => {
    const list = await call(app, 'GET', '/api/v1/manage/webhooks', { key: fullKey });
    expect(list.status).toBe(200);
    expectError(await call(app, 'GET', '/api/v1/manage/webhooks', { key: narrowKey }), 403, 'FORBIDDEN');
    const rows = (await sql<{ scopes: unknown }>`SELECT scopes FROM api_keys WHERE key_class = 'management'`.execute(db.kysely)).rows;
    const scopes = rows.map((r) => (typeof r.scopes === 'string' ? JSON.parse(r.scopes) : r.scopes).sort());
    expect(scopes).toContainEqual([...EARLIER, 'webhooks:write'].sort());
    expect(scopes).toContainEqual(['content:write']);
  });
});
