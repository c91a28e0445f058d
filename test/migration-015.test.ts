/**
 * Migration 015 drops the stored media `url` (URLs are computed on read, D51): a database left by
 * the release before, whose rows hold absolute URLs of another host, serves every media URL from
 * the current PUBLIC_URL afterwards (management, delivery, media fields of entries, the file at
 * that URL), and a remote asset (imported by URL, no stored file) keeps its remote URL.
 */
import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext, type Context } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { migrateToLatest, MIGRATIONS } from '../src/db/migrate.js';
import type { Db } from '../src/db/types.js';
import { bootstrap } from '../src/modules/auth/operations.js';
import { newId } from '../src/lib/ids.js';
import { call, dialects } from './helpers.js';
import { png } from './media-fixtures.js';

const OLD_HOST = 'http://old-host.invalid:3000';
const REMOTE = 'https://images.ctfassets.net/space/abc123/def456/photo.jpg';

describe.each(dialects())('migration 015 on an existing %s database', (dialect) => {
  let db: Db;
  let ctx: Context;
  let schema: string | undefined;
  let dataDir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let keys: { management: string; delivery: string };
  const stored = { id: newId(), key: '' };
  const inFolder = { id: newId(), key: '' };
  const remote = { id: newId() };

  beforeAll(async () => {
    dataDir = path.join(os.tmpdir(), `quire-m015-${randomBytes(4).toString('hex')}`);
    const config = loadConfig(
      { DATA_DIR: dataDir, DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined, PUBLIC_URL: 'https://new-host.example/' },
      { demo: false, rateLimitManagement: 0 },
    );
    schema = dialect === 'postgres' ? `t_m015_${randomBytes(5).toString('hex')}` : undefined;
    db = await createDb(config, dialect === 'postgres' ? { pgSchema: schema, poolSize: 2, migrate: false } : { sqliteFile: ':memory:', migrate: false });
    // Written with today's code on today's schema (a database migrated only to 014 lacks the tables
    // today's writes fill, such as the audit log), its media table then given back the shape the
    // release before 015 had (a stored `url`, no `remote_url`), and 015 runs on that.
    await migrateToLatest(db.kysely, dialect, schema);
    await db.kysely.schema.alterTable('media').dropColumn('remote_url').execute();
    await db.kysely.schema.alterTable('media').addColumn('url', 'text').execute();
    ctx = await createContext(config, db, { log: pino({ level: 'silent' }) });
    const boot = await bootstrap(ctx, { slug: 'm015', name: 'M015', default_locale: 'en', locales: ['en'], email: 'owner@m015.test' });
    keys = boot.keys;
    const ws = boot.workspace.id;
    stored.key = `${ws}/${stored.id}.png`;
    inFolder.key = `${ws}/press/${inFolder.id}.png`;
    // Rows as the release before wrote them: absolute URLs of the host that uploaded or imported.
    const row = (id: string, key: string | null, url: string) => {
      const now = new Date().toISOString();
      const filename = key ? path.posix.basename(key) : 'photo.jpg';
      return sql`INSERT INTO media (id, workspace_id, url, storage_key, mime_type, width, height, alt_text, focal_x, focal_y, filename, original_name, folder, size, uploaded_by, created_at, updated_at, deleted_at)
        VALUES (${id}, ${ws}, ${url}, ${key}, ${key ? 'image/png' : 'image/jpeg'}, ${40}, ${30}, ${null}, ${null}, ${null}, ${filename}, ${filename}, ${key?.includes('/press/') ? 'press' : null}, ${123}, ${boot.user.id}, ${now}, ${now}, ${null})`;
    };
    await row(stored.id, stored.key, `${OLD_HOST}/media/files/${stored.key}`).execute(db.kysely);
    await row(inFolder.id, inFolder.key, `${OLD_HOST}/media/files/${inFolder.key}`).execute(db.kysely);
    await row(remote.id, null, REMOTE).execute(db.kysely);
    for (const key of [stored.key, inFolder.key]) await ctx.storage.backend().put(key, await png(40, 30));

    await MIGRATIONS['015-media-urls']!.up(db.kysely as unknown as Kysely<unknown>, dialect);
    app = await buildApp(ctx, { logger: false });
    await app.ready();
    const manage = (method: 'POST' | 'PATCH', url: string, body?: unknown) => call(app, method, `/api/v1/manage${url}`, { key: keys.management, body });
    expect(
      (
        await manage('POST', '/content-types', {
          name: 'Post',
          slug: 'post',
          fields: [
            { name: 'cover', field_type: 'media' },
            { name: 'gallery', field_type: 'media_list' },
          ],
        })
      ).status,
    ).toBe(201);
    expect((await manage('POST', '/content-types/post/entries', { slug: 'hello', data: { cover: stored.id, gallery: [inFolder.id, remote.id] } })).status).toBe(
      201,
    );
    expect((await manage('PATCH', '/content-types/post/entries/hello/publish')).status).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    if (schema) await sql.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).execute(db.kysely);
    await db?.close();
    await fsp.rm(dataDir, { recursive: true, force: true });
  });

  it('drops the url column and keeps only a remote asset’s URL, as remote_url', async () => {
    const rows = await sql<Record<string, unknown>>`SELECT * FROM media ORDER BY id`.execute(db.kysely);
    expect(rows.rows).toHaveLength(3);
    for (const r of rows.rows) expect(r).not.toHaveProperty('url');
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    expect(byId.get(stored.id)).toMatchObject({ storage_key: stored.key, remote_url: null });
    expect(byId.get(inFolder.id)).toMatchObject({ storage_key: inFolder.key, remote_url: null });
    expect(byId.get(remote.id)).toMatchObject({ storage_key: null, remote_url: REMOTE });
  });

  it('serves every URL from the current PUBLIC_URL, and the file at it', async () => {
    const url = (key: string) => `https://new-host.example/media/files/${key}`;
    const management = await call(app, 'GET', `/api/v1/manage/media/${stored.id}`, { key: keys.management });
    expect(management.body.data.url).toBe(url(stored.key));
    const delivery = await call(app, 'GET', `/api/v1/public/media/${inFolder.id}`, { key: keys.delivery });
    expect(delivery.body.data.url).toBe(url(inFolder.key));
    expect((await call(app, 'GET', `/api/v1/public/media/${remote.id}`, { key: keys.delivery })).body.data.url).toBe(REMOTE);

    const entry = await call(app, 'GET', '/api/v1/public/entries/hello?type=post', { key: keys.delivery });
    expect(entry.status).toBe(200);
    const data = JSON.parse(entry.body.data.entry.data);
    expect(data.cover.url).toBe(url(stored.key));
    expect(data.gallery.map((m: { url: string }) => m.url)).toEqual([url(inFolder.key), REMOTE]);

    const file = await app.inject({ method: 'GET', url: new URL(management.body.data.url).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
  });
});
