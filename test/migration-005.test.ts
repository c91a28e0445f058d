/**
 * Migration 005 upgrades an existing database in place (docs/api.md "Working copies, publishing
 * changes and history" (D70, D71), "History" (D72)): a database built
 * by migrations 001–004 and filled with plain SQL (entries in every status with translations, a
 * published page with a nested block tree and translations, a draft page) is upgraded, and then
 * nothing production readers see has changed, every item has exactly one version holding its
 * content, published items name it as their published version, and filters and sorts on
 * published data work through their new expression index.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { createDataIndexSql } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { Db } from '../src/db/types.js';
import { newId } from '../src/lib/ids.js';
import { createApiKey } from '../src/modules/auth/operations.js';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { migrateUpTo } from './migration-helpers.js';
import { call, dialects } from './helpers.js';
import { sql } from 'kysely';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const T = '2026-11-01T10:00:00.000Z';
const FUTURE = '2027-01-01T00:00:00.000Z';
const PAST_DUE = '2026-11-10T00:00:00.000Z';
const NOW = new Date('2026-11-21T10:00:00.000Z');

describe.each(dialects())('migration 005 on an existing %s database', (dialect) => {
  let db: Db;
  let app: FastifyInstance;
  let schema: string | undefined;
  const ids = {
    ws: newId(),
    post: newId(),
    hero: newId(),
    pub: newId(),
    draft: newId(),
    soon: newId(),
    due: newId(),
    old: newId(),
    home: newId(),
    draftPage: newId(),
    root: newId(),
    child: newId(),
  };
  let keys: { management: string; delivery: string; preview: string };
  let before: { entries: unknown[]; pages: unknown[] };

  beforeAll(async () => {
    const config = loadConfig(
      {
        DATA_DIR: `/tmp/quire-mig-${randomBytes(4).toString('hex')}`,
        DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined,
        PUBLIC_URL: 'http://quire.test',
      },
      { demo: false, rateLimitManagement: 0, rateLimitDelivery: 0 },
    );
    schema = dialect === 'postgres' ? `t_mig_${randomBytes(5).toString('hex')}` : undefined;
    db = await createDb(config, dialect === 'postgres' ? { pgSchema: schema, poolSize: 2, migrate: false } : { sqliteFile: ':memory:', migrate: false });
    const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await migrateUpTo(db.kysely as unknown as Kysely<unknown>, dialect, '004-revisions', schema);

    // The content of a workspace as Quire kept it before working copies existed.
    await k
      .insertInto('workspaces')
      .values({ id: ids.ws, name: 'Old', slug: 'old', default_locale: 'en', locales: JSON.stringify(['en', 'de']), created_at: T, updated_at: T })
      .execute();
    const user = await k
      .insertInto('users')
      .values({ email: `owner-${dialect}@example.com`, name: null, created_at: T })
      .returning('id')
      .executeTakeFirstOrThrow();
    const userId = Number(user.id);
    await k.insertInto('memberships').values({ workspace_id: ids.ws, user_id: userId, role: 'owner', created_at: T, updated_at: T }).execute();
    const type = (id: string, name: string, slug: string, isBlock: number) => ({
      id,
      workspace_id: ids.ws,
      name,
      slug,
      description: null,
      icon: null,
      display_field: isBlock ? null : 'title',
      is_block: isBlock,
      orderable: 0,
      created_at: T,
      updated_at: T,
    });
    await k
      .insertInto('content_types')
      .values([type(ids.post, 'Post', 'post', 0), type(ids.hero, 'Hero', 'hero', 1)])
      .execute();
    const field = (ct: string, name: string, fieldType: string, flags: Record<string, number>, order: number) => ({
      id: newId(),
      content_type_id: ct,
      name,
      label: name,
      field_type: fieldType,
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
      .values([
        field(ids.post, 'title', 'text', { required: 1, localizable: 1 }, 0),
        field(ids.post, 'views', 'integer', { sortable: 1, filterable: 1 }, 1),
        field(ids.hero, 'headline', 'text', { localizable: 1 }, 0),
      ])
      .execute();
    await sql.raw(createDataIndexSql(dialect, 'views', 'integer')).execute(db.kysely);
    const entry = (id: string, slug: string, status: string, data: object, extra: Record<string, string | null> = {}) => ({
      id,
      workspace_id: ids.ws,
      content_type_id: ids.post,
      slug,
      status,
      data: JSON.stringify(data),
      position: 0,
      publish_at: null,
      published_at: null,
      version: 3,
      created_at: T,
      updated_at: T,
      created_by: userId,
      updated_by: userId,
      ...extra,
    });
    await k
      .insertInto('entries')
      .values([
        entry(ids.pub, 'pub', 'published', { title: 'Published', views: 5 }, { published_at: T }),
        entry(ids.draft, 'draft', 'draft', { title: 'Draft', views: 9 }),
        entry(ids.soon, 'soon', 'scheduled', { title: 'Soon', views: 7 }, { publish_at: FUTURE }),
        entry(ids.due, 'due', 'scheduled', { title: 'Due', views: 3 }, { publish_at: PAST_DUE }),
        entry(ids.old, 'old', 'archived', { title: 'Archived', views: 1 }, { published_at: T }),
      ])
      .execute();
    await k
      .insertInto('entry_translations')
      .values([
        { entry_id: ids.pub, locale: 'de', data: JSON.stringify({ title: 'Veröffentlicht' }), created_at: T, updated_at: T },
        { entry_id: ids.draft, locale: 'de', data: JSON.stringify({ title: 'Entwurf' }), created_at: T, updated_at: T },
      ])
      .execute();
    const page = (id: string, slug: string, status: string, position: number, seo: object) => ({
      id,
      workspace_id: ids.ws,
      slug,
      status,
      position,
      seo: JSON.stringify(seo),
      publish_at: null,
      published_at: status === 'published' ? T : null,
      version: 2,
      created_at: T,
      updated_at: T,
      created_by: userId,
      updated_by: userId,
    });
    await k
      .insertInto('pages')
      .values([page(ids.home, 'home', 'published', 0, { title: 'Home' }), page(ids.draftPage, 'next', 'draft', 1, { title: 'Next' })])
      .execute();
    await k
      .insertInto('page_seo_translations')
      .values({ page_id: ids.home, locale: 'de', seo: JSON.stringify({ title: 'Start' }), created_at: T, updated_at: T })
      .execute();
    await k
      .insertInto('blocks')
      .values([
        {
          id: ids.root,
          page_id: ids.home,
          block_type_id: ids.hero,
          parent_id: null,
          position: 0,
          data: JSON.stringify({ headline: 'Welcome' }),
          created_at: T,
          updated_at: T,
        },
        {
          id: ids.child,
          page_id: ids.home,
          block_type_id: ids.hero,
          parent_id: ids.root,
          position: 0,
          data: JSON.stringify({ headline: 'Inside' }),
          created_at: T,
          updated_at: T,
        },
      ])
      .execute();
    await k
      .insertInto('block_translations')
      .values({ block_id: ids.root, locale: 'de', data: JSON.stringify({ headline: 'Willkommen' }), created_at: T, updated_at: T })
      .execute();

    // What the old code stored, to compare with what the upgrade leaves.
    before = {
      entries: await k
        .selectFrom('entries')
        .select(['id', 'slug', 'status', 'data', 'publish_at', 'published_at', 'version', 'updated_at'])
        .orderBy('id')
        .execute(),
      pages: await k.selectFrom('pages').select(['id', 'slug', 'status', 'seo', 'published_at', 'version']).orderBy('id').execute(),
    };

    await migrateToLatest(db.kysely, dialect, schema);
    const ctx = await createContext(config, db, { clock: () => NOW, log: pino({ level: 'silent' }) });
    app = await buildApp(ctx, { logger: false });
    await app.ready();
    keys = {
      management: (await createApiKey(ctx, ids.ws, userId, { keyClass: 'management' })).key,
      delivery: (await createApiKey(ctx, ids.ws, userId, { keyClass: 'delivery', environment: 'production' })).key,
      preview: (await createApiKey(ctx, ids.ws, userId, { keyClass: 'delivery', environment: 'preview' })).key,
    };
  });
  afterAll(async () => {
    await app?.close();
    if (schema)
      await db.kysely.schema
        .dropSchema(schema)
        .ifExists()
        .cascade()
        .execute()
        .catch(() => {});
    await db?.close();
  });

  const get = (url: string, key = keys.delivery) => call(app, 'GET', url, { key });
  const slugs = (res: { body: { data: { slug: string }[] } }) => res.body.data.map((e) => e.slug);

  it('keeps the stored rows as they were (the working copy is where content always lived)', async () => {
    const k = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    expect(
      await k.selectFrom('entries').select(['id', 'slug', 'status', 'data', 'publish_at', 'published_at', 'version', 'updated_at']).orderBy('id').execute(),
    ).toEqual(before.entries);
    expect(await k.selectFrom('pages').select(['id', 'slug', 'status', 'seo', 'published_at', 'version']).orderBy('id').execute()).toEqual(before.pages);
  });

  it('production readers see exactly the published and due content, with translations; preview readers the rest too', async () => {
    expect(slugs(await get(`${P}/entries?type=post&sort=slug:asc`))).toEqual(['due', 'pub']);
    expect(slugs(await get(`${P}/entries?type=post&sort=slug:asc`, keys.preview))).toEqual(['draft', 'due', 'pub', 'soon']);
    const pub = await get(`${P}/entries/pub?type=post&locale=de`);
    expect(JSON.parse(pub.body.data.entry.data)).toEqual({ title: 'Veröffentlicht', views: 5 });
    expect(pub.body.data.entry).toMatchObject({ status: 'published', published_at: T, updated_at: T });
    expect(JSON.parse((await get(`${P}/entries/due?type=post`)).body.data.entry.data)).toEqual({ title: 'Due', views: 3 });
    const home = await get(`${P}/pages/home?locale=de`);
    expect(home.status).toBe(200);
    expect(home.body.data.page.seo.title).toBe('Start');
    expect(JSON.parse(home.body.data.blocks[0].data)).toEqual({ headline: 'Willkommen' });
    expect(JSON.parse(home.body.data.blocks[0].children[0].data)).toEqual({ headline: 'Inside' });
    expect(slugs(await get(`${P}/pages`))).toEqual(['home']);
    expect(slugs(await get(`${P}/pages`, keys.preview))).toEqual(['home', 'next']);
  });

  it('filters and sorts production data through the new published-data expression index', async () => {
    expect(slugs(await get(`${P}/entries?type=post&filter[views][gte]=4`))).toEqual(['pub']);
    expect(slugs(await get(`${P}/entries?type=post&sort=views:asc`))).toEqual(['due', 'pub']);
    const index =
      dialect === 'sqlite'
        ? await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name = 'entries_pub_num_views'`.execute(db.kysely)
        : await sql<{ name: string }>`select indexname as name from pg_indexes where schemaname = ${schema!} and indexname = 'entries_pub_num_views'`.execute(
            db.kysely,
          );
    expect(index.rows).toHaveLength(1);
  });

  it('gives every item one version holding its content; published items name it as their published version', async () => {
    const expected: [string, string, number | null][] = [
      ['pub', 'publish', 1],
      ['draft', 'create', null],
      ['soon', 'publish', null],
      ['due', 'publish', 1],
      ['old', 'create', null],
    ];
    for (const [slug, action, published] of expected) {
      const rec = (await call(app, 'GET', `${M}/content-types/post/entries/${slug}`, { key: keys.management })).body.data;
      expect({ slug, published_version: rec.published_version, has_pending_changes: rec.has_pending_changes }).toEqual({
        slug,
        published_version: published,
        has_pending_changes: false,
      });
      const list = await call(app, 'GET', `${M}/content-types/post/entries/${slug}/versions`, { key: keys.management });
      expect({ slug, versions: list.body.data.map((v: { version: number; action: string }) => [v.version, v.action]) }).toEqual({
        slug,
        versions: [[1, action]],
      });
      const v1 = await call(app, 'GET', `${M}/content-types/post/entries/${slug}/versions/1`, { key: keys.management });
      expect(v1.body.data.data).toBe(rec.data);
      expect(v1.body.data.translations.map((t: { locale: string; data: string }) => [t.locale, t.data])).toEqual(
        rec.translations.map((t: { locale: string; data: string }) => [t.locale, t.data]),
      );
    }
    const home = (await call(app, 'GET', `${M}/pages/home`, { key: keys.management })).body.data;
    expect(home.page).toMatchObject({ published_version: 1, has_pending_changes: false });
    const v1 = (await call(app, 'GET', `${M}/pages/home/versions/1`, { key: keys.management })).body;
    expect(v1.meta).toMatchObject({ version: 1, action: 'publish', status: 'published' });
    expect(v1.data.blocks).toEqual(home.blocks);
    expect(v1.data.block_translations).toEqual(home.block_translations);
    expect(v1.data.seo_translations).toEqual(home.seo_translations);
    expect((await call(app, 'GET', `${M}/pages/next/versions`, { key: keys.management })).body.data.map((v: { action: string }) => v.action)).toEqual([
      'create',
    ]);
  });

  it('behaves as any other database afterwards: a save changes the working copy only, a publish goes live', async () => {
    const put = await call(app, 'PUT', `${M}/content-types/post/entries/pub`, { key: keys.management, body: { data: { title: 'Edited', views: 5 } } });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ has_pending_changes: true, published_version: 1 });
    expect(JSON.parse((await get(`${P}/entries/pub?type=post`)).body.data.entry.data).title).toBe('Published');
    expect((await call(app, 'PATCH', `${M}/content-types/post/entries/pub/publish`, { key: keys.management })).status).toBe(200);
    expect(JSON.parse((await get(`${P}/entries/pub?type=post`)).body.data.entry.data).title).toBe('Edited');
    const versions = (await call(app, 'GET', `${M}/content-types/post/entries/pub/versions`, { key: keys.management })).body.data;
    expect(versions.map((v: { version: number; action: string }) => [v.version, v.action])).toEqual([
      [3, 'publish'],
      [2, 'update'],
      [1, 'publish'],
    ]);
  });
});
