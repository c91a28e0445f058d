/**
 * Migration 005 (src/db/migrations/005-versions.ts) upgrades a database in place. Unlike
 * test/migration-005.test.ts, which applies 005 on the same handle, this suite goes through a
 * real restart: the pre-005 database is built by Kysely's Migrator stopping at 004 (exactly the
 * provider and bookkeeping table migrate.ts uses), filled with plain SQL as the old code stored
 * content (including API keys), closed, and then opened again by the normal start (createDb
 * with migrations on, createContext, buildApp), which must apply 005 and only 005.
 *
 * After the upgrade it checks, through the delivery API (production and preview keys created
 * before the upgrade) and the management API, that every visible item reads back with exactly
 * the content inserted, that what was not visible stays invisible, that every item has exactly
 * one version equal to its working copy, and that filters, sorts and cursors on the sortable
 * number field work on the published data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import { createDataIndexSql } from '../src/db/dialect.js';
import { MIGRATIONS } from '../src/db/migrate.js';
import type { Db } from '../src/db/types.js';
import { newId } from '../src/lib/ids.js';
import { generateKey, hashKey, keyHint } from '../src/modules/auth/keys.js';
import { SCOPES } from '../src/modules/auth/permissions.js';
import { migrateUpTo } from './migration-helpers.js';
import { call, dialects, type Res } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const NOW = new Date('2026-11-21T10:00:00.000Z');
const PAST_DUE = '2026-11-20T08:00:00.000Z';
const FUTURE = '2027-03-01T00:00:00.000Z';
const KEY_EXPIRY = '2027-06-01T00:00:00.000Z';
const t = (minute: number) => new Date(Date.UTC(2026, 9, 1, 9, minute)).toISOString();

type AnyDb = Kysely<any>;

// ---------------------------------------------------------------------------------------------
// The content as the old code stored it.

interface EntryFixture {
  slug: string;
  status: 'draft' | 'published' | 'scheduled' | 'archived';
  data: Record<string, unknown>;
  translations: Record<string, Record<string, unknown>>;
  publish_at: string | null;
  published_at: string | null;
  minute: number;
}

const ENTRIES: EntryFixture[] = [
  {
    slug: 'alpha',
    status: 'published',
    data: { title: 'Alpha', body: 'First body', rating: 4.5, featured: true },
    translations: { de: { title: 'Alpha DE', body: 'Erster Text' }, fr: { title: 'Alpha FR' } },
    publish_at: null,
    published_at: t(1),
    minute: 1,
  },
  {
    slug: 'beta',
    status: 'published',
    data: { title: 'Beta', body: 'Second body', rating: 2.25, featured: false },
    translations: { de: { title: 'Beta DE' } },
    publish_at: null,
    published_at: t(2),
    minute: 2,
  },
  { slug: 'gamma', status: 'published', data: { title: 'Gamma', rating: 9 }, translations: {}, publish_at: null, published_at: t(3), minute: 3 },
  {
    slug: 'draft-one',
    status: 'draft',
    data: { title: 'Draft one', body: 'Not yet', rating: 7.5 },
    translations: { de: { title: 'Entwurf' } },
    publish_at: null,
    published_at: null,
    minute: 4,
  },
  {
    slug: 'later',
    status: 'scheduled',
    data: { title: 'Later', body: 'Coming soon', rating: 3 },
    translations: { de: { title: 'Später' } },
    publish_at: FUTURE,
    published_at: null,
    minute: 5,
  },
  {
    slug: 'due',
    status: 'scheduled',
    data: { title: 'Due', body: 'Now live', rating: 6, featured: true },
    translations: { de: { title: 'Fällig', body: 'Jetzt live' } },
    publish_at: PAST_DUE,
    published_at: null,
    minute: 6,
  },
  {
    slug: 'old',
    status: 'archived',
    data: { title: 'Old', rating: 8 },
    translations: { de: { title: 'Alt' } },
    publish_at: null,
    published_at: t(7),
    minute: 7,
  },
];
const bySlug = (slug: string) => ENTRIES.find((e) => e.slug === slug)!;
/** Effectively published at NOW (D21). */
const PRODUCTION = ['alpha', 'beta', 'due', 'gamma'];
/** Preview keys see drafts and scheduled items too, archived never. */
const PREVIEW = ['alpha', 'beta', 'draft-one', 'due', 'gamma', 'later'];

/** What delivery shows of an entry for `locale`: localizable values from the translation. */
function delivered(e: EntryFixture, locale?: string): Record<string, unknown> {
  return { ...e.data, ...(locale ? (e.translations[locale] ?? {}) : {}) };
}

interface BlockFixture {
  key: string;
  type: 'section' | 'paragraph';
  parent: string | null;
  position: number;
  data: Record<string, unknown>;
  translations: Record<string, Record<string, unknown>>;
}

interface PageFixture {
  slug: string;
  status: 'draft' | 'published' | 'scheduled' | 'archived';
  position: number;
  seo: Record<string, unknown>;
  seoTranslations: Record<string, Record<string, unknown>>;
  publish_at: string | null;
  published_at: string | null;
  blocks: BlockFixture[];
}

const fullSeo = (title: string, extra: Record<string, unknown> = {}) => ({ title, description: null, keywords: [], og_image: null, canonical: null, ...extra });

const PAGES: PageFixture[] = [
  {
    slug: 'home',
    status: 'published',
    position: 0,
    seo: fullSeo('Home', { description: 'Welcome home', keywords: ['home', 'start'], canonical: 'https://example.com/' }),
    seoTranslations: { de: { title: 'Startseite', description: 'Willkommen' }, fr: { title: 'Accueil' } },
    publish_at: null,
    published_at: t(10),
    blocks: [
      // A three-level tree: s1 > (p1, s2 > p3, p2), and a second root s3.
      { key: 's1', type: 'section', parent: null, position: 0, data: { heading: 'Intro' }, translations: { de: { heading: 'Einleitung' } } },
      {
        key: 'p1',
        type: 'paragraph',
        parent: 's1',
        position: 0,
        data: { text: 'Hello', emphasis: true },
        translations: { de: { text: 'Hallo' }, fr: { text: 'Bonjour' } },
      },
      { key: 's2', type: 'section', parent: 's1', position: 1, data: { heading: 'Nested' }, translations: {} },
      { key: 'p3', type: 'paragraph', parent: 's2', position: 0, data: { text: 'Deep', emphasis: false }, translations: { fr: { text: 'Profond' } } },
      { key: 'p2', type: 'paragraph', parent: 's1', position: 2, data: { text: 'Bye' }, translations: {} },
      { key: 's3', type: 'section', parent: null, position: 1, data: { heading: 'Outro' }, translations: { de: { heading: 'Schluss' } } },
    ],
  },
  {
    slug: 'about',
    status: 'draft',
    position: 1,
    seo: fullSeo('About'),
    seoTranslations: { de: { title: 'Über uns' } },
    publish_at: null,
    published_at: null,
    blocks: [{ key: 'a1', type: 'paragraph', parent: null, position: 0, data: { text: 'About us' }, translations: { de: { text: 'Über uns' } } }],
  },
  {
    slug: 'due-page',
    status: 'scheduled',
    position: 2,
    seo: fullSeo('Due page'),
    seoTranslations: {},
    publish_at: PAST_DUE,
    published_at: null,
    blocks: [{ key: 'd1', type: 'section', parent: null, position: 0, data: { heading: 'Due now' }, translations: { de: { heading: 'Jetzt fällig' } } }],
  },
  {
    slug: 'soon-page',
    status: 'scheduled',
    position: 3,
    seo: fullSeo('Soon page'),
    seoTranslations: {},
    publish_at: FUTURE,
    published_at: null,
    blocks: [{ key: 'n1', type: 'section', parent: null, position: 0, data: { heading: 'Not yet' }, translations: {} }],
  },
  {
    slug: 'gone',
    status: 'archived',
    position: 4,
    seo: fullSeo('Gone'),
    seoTranslations: {},
    publish_at: null,
    published_at: t(11),
    blocks: [],
  },
];
const pageBySlug = (slug: string) => PAGES.find((p) => p.slug === slug)!;
const PRODUCTION_PAGES = ['home', 'due-page'];
const PREVIEW_PAGES = ['home', 'about', 'due-page', 'soon-page'];

// ---------------------------------------------------------------------------------------------

/** Parses every JSON-encoded `data` in a block tree (jsonb may reorder keys). */
function parseTree(blocks: any[]): any[] {
  return blocks.map((b) => ({ ...b, data: JSON.parse(b.data), children: parseTree(b.children) }));
}
function parseTranslations(trs: any[]): any[] {
  return trs
    .map((tr) => ({ ...tr, data: JSON.parse(tr.data) }))
    .sort((a, b) => `${a.block_id ?? a.entry_id}/${a.locale}`.localeCompare(`${b.block_id ?? b.entry_id}/${b.locale}`));
}
const byLocale = (a: { locale: string }, b: { locale: string }) => a.locale.localeCompare(b.locale);

describe.each(dialects())('migration 005 upgrades an existing %s database at the next start', (dialect) => {
  let config: Readonly<Config>;
  let db: Db;
  let app: FastifyInstance;
  let schema: string | undefined;
  let sqliteFile: string | undefined;
  const ws = newId();
  const ct = { article: newId(), section: newId(), paragraph: newId() };
  const entryIds = new Map(ENTRIES.map((e) => [e.slug, newId()]));
  const pageIds = new Map(PAGES.map((p) => [p.slug, newId()]));
  const blockIds = new Map(PAGES.flatMap((p) => p.blocks.map((b) => [b.key, newId()] as const)));
  /** Serial ids of the translation rows, by `<owner id>/<locale>`. */
  const trIds = new Map<string, number>();
  let owner: number;
  let editor: number;
  const keys = { management: generateKey('management'), delivery: generateKey('delivery'), preview: generateKey('delivery') };
  let migrationsBefore: { name: string; timestamp: unknown }[];

  beforeAll(async () => {
    const dataDir = path.join(os.tmpdir(), `quire-mig-versions-${process.pid}-${randomBytes(4).toString('hex')}`);
    config = loadConfig(
      { DATA_DIR: dataDir, DATABASE_URL: dialect === 'postgres' ? process.env.DATABASE_URL : undefined, LOG_LEVEL: 'silent', PUBLIC_URL: 'http://quire.test' },
      { demo: false, rateLimitManagement: 0, rateLimitDelivery: 0 },
    );
    schema = dialect === 'postgres' ? `t_migv_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
    if (dialect === 'sqlite') {
      fs.mkdirSync(dataDir, { recursive: true });
      sqliteFile = path.join(dataDir, 'old.db');
    }
    const openOptions = dialect === 'postgres' ? { pgSchema: schema, poolSize: 2 } : { sqliteFile };

    // 1. The database as an installation before 005 had it.
    const old = await createDb(config, { ...openOptions, migrate: false });
    try {
      await migrateUpTo(old.kysely as unknown as Kysely<unknown>, dialect, '004-revisions', schema);
      await fill(old.kysely as unknown as AnyDb);
      migrationsBefore = await (old.kysely as unknown as AnyDb).selectFrom('kysely_migration').select(['name', 'timestamp']).orderBy('name').execute();
    } finally {
      await old.close();
    }

    // 2. The next normal start: migrations on, then the app.
    db = await createDb(config, openOptions);
    const ctx = await createContext(config, db, { clock: () => NOW, log: pino({ level: 'silent' }) });
    app = await buildApp(ctx, { logger: false });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    if (schema)
      await db?.kysely.schema
        .dropSchema(schema)
        .ifExists()
        .cascade()
        .execute()
        .catch(() => {});
    await db?.close();
    if (sqliteFile) fs.rmSync(path.dirname(sqliteFile), { recursive: true, force: true });
  });

  /** Plain SQL inserts, as the code before 005 wrote rows. */
  async function fill(k: AnyDb): Promise<void> {
    await k
      .insertInto('workspaces')
      .values({ id: ws, name: 'Legacy', slug: 'legacy', default_locale: 'en', locales: JSON.stringify(['en', 'de', 'fr']), created_at: t(0), updated_at: t(0) })
      .execute();
    owner = Number(
      (
        await k
          .insertInto('users')
          .values({ email: `owner-${dialect}-${ws}@example.com`, name: 'Owner', created_at: t(0) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    editor = Number(
      (
        await k
          .insertInto('users')
          .values({ email: `editor-${dialect}-${ws}@example.com`, name: 'Editor', created_at: t(0) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    await k
      .insertInto('memberships')
      .values([
        { workspace_id: ws, user_id: owner, role: 'owner', created_at: t(0), updated_at: t(0) },
        { workspace_id: ws, user_id: editor, role: 'editor', created_at: t(0), updated_at: t(0) },
      ])
      .execute();
    const key = (value: string, key_class: string, environment: string | null) => ({
      id: newId(),
      workspace_id: ws,
      key_class,
      name: `${key_class} ${environment ?? ''}`.trim(),
      key_hash: hashKey(value),
      key_hint: keyHint(value),
      scopes: JSON.stringify(key_class === 'management' ? [...SCOPES] : []),
      environment,
      content_types: JSON.stringify([]),
      created_by: owner,
      expires_at: key_class === 'management' ? KEY_EXPIRY : null,
      revoked_at: null,
      created_at: t(0),
    });
    await k
      .insertInto('api_keys')
      .values([key(keys.management, 'management', null), key(keys.delivery, 'delivery', 'production'), key(keys.preview, 'delivery', 'preview')])
      .execute();

    const type = (id: string, name: string, slug: string, isBlock: number, display: string | null) => ({
      id,
      workspace_id: ws,
      name,
      slug,
      description: null,
      icon: null,
      display_field: display,
      is_block: isBlock,
      orderable: 0,
      created_at: t(0),
      updated_at: t(0),
    });
    await k
      .insertInto('content_types')
      .values([
        type(ct.article, 'Article', 'article', 0, 'title'),
        type(ct.section, 'Section', 'section', 1, null),
        type(ct.paragraph, 'Paragraph', 'paragraph', 1, null),
      ])
      .execute();
    const field = (ctId: string, name: string, fieldType: string, order: number, flags: Record<string, number> = {}) => ({
      id: newId(),
      content_type_id: ctId,
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
      created_at: t(0),
      updated_at: t(0),
      ...flags,
    });
    await k
      .insertInto('fields')
      .values([
        field(ct.article, 'title', 'text', 0, { required: 1, localizable: 1 }),
        field(ct.article, 'body', 'textarea', 1, { localizable: 1 }),
        field(ct.article, 'rating', 'number', 2, { sortable: 1, filterable: 1 }),
        field(ct.article, 'featured', 'boolean', 3),
        field(ct.section, 'heading', 'text', 0, { localizable: 1 }),
        field(ct.paragraph, 'text', 'textarea', 0, { localizable: 1 }),
        field(ct.paragraph, 'emphasis', 'boolean', 1),
      ])
      .execute();
    // The old code created the working-data expression index when the field became sortable.
    await sql.raw(createDataIndexSql(dialect, 'rating', 'number')).execute(k);

    for (const e of ENTRIES) {
      const id = entryIds.get(e.slug)!;
      await k
        .insertInto('entries')
        .values({
          id,
          workspace_id: ws,
          content_type_id: ct.article,
          slug: e.slug,
          status: e.status,
          data: JSON.stringify(e.data),
          position: 0,
          publish_at: e.publish_at,
          published_at: e.published_at,
          version: 4,
          created_at: t(e.minute),
          updated_at: t(e.minute + 20),
          created_by: owner,
          updated_by: editor,
        })
        .execute();
      for (const [locale, data] of Object.entries(e.translations)) {
        const row = await k
          .insertInto('entry_translations')
          .values({ entry_id: id, locale, data: JSON.stringify(data), created_at: t(e.minute), updated_at: t(e.minute + 20) })
          .returning('id')
          .executeTakeFirstOrThrow();
        trIds.set(`${id}/${locale}`, Number(row.id));
      }
    }
    for (const p of PAGES) {
      const id = pageIds.get(p.slug)!;
      await k
        .insertInto('pages')
        .values({
          id,
          workspace_id: ws,
          slug: p.slug,
          status: p.status,
          position: p.position,
          seo: JSON.stringify(p.seo),
          publish_at: p.publish_at,
          published_at: p.published_at,
          version: 3,
          created_at: t(30 + p.position),
          updated_at: t(40 + p.position),
          created_by: owner,
          updated_by: editor,
        })
        .execute();
      for (const [locale, seo] of Object.entries(p.seoTranslations)) {
        const row = await k
          .insertInto('page_seo_translations')
          .values({ page_id: id, locale, seo: JSON.stringify(seo), created_at: t(30), updated_at: t(30) })
          .returning('id')
          .executeTakeFirstOrThrow();
        trIds.set(`${id}/${locale}`, Number(row.id));
      }
      for (const b of p.blocks) {
        const bid = blockIds.get(b.key)!;
        await k
          .insertInto('blocks')
          .values({
            id: bid,
            page_id: id,
            block_type_id: ct[b.type],
            parent_id: b.parent === null ? null : blockIds.get(b.parent)!,
            position: b.position,
            data: JSON.stringify(b.data),
            created_at: t(30),
            updated_at: t(30),
          })
          .execute();
        for (const [locale, data] of Object.entries(b.translations)) {
          const row = await k
            .insertInto('block_translations')
            .values({ block_id: bid, locale, data: JSON.stringify(data), created_at: t(30), updated_at: t(30) })
            .returning('id')
            .executeTakeFirstOrThrow();
          trIds.set(`${bid}/${locale}`, Number(row.id));
        }
      }
    }
  }

  const get = (url: string, key: string): Promise<Res> => call(app, 'GET', url, { key });
  const ok = async (url: string, key: string): Promise<any> => {
    const res = await get(url, key);
    expect({ url, status: res.status, body: res.status === 200 ? undefined : res.body }).toEqual({ url, status: 200, body: undefined });
    return res.body;
  };
  const slugs = (body: any): string[] => body.data.map((x: { slug: string }) => x.slug);

  /** The delivered block tree of a page, `data` resolved for `locale` (parsed). */
  function expectedTree(p: PageFixture, locale?: string): any[] {
    const level = (parent: string | null): any[] =>
      p.blocks
        .filter((b) => b.parent === parent)
        .sort((a, b) => a.position - b.position)
        .map((b) => {
          const out: any = {
            id: blockIds.get(b.key),
            page_id: pageIds.get(p.slug),
            block_type_id: ct[b.type],
            type: b.type,
            position: b.position,
            data: { ...b.data, ...(locale ? (b.translations[locale] ?? {}) : {}) },
            children: level(b.key),
          };
          if (b.parent !== null) out.parent_id = blockIds.get(b.parent);
          return out;
        });
    return level(null);
  }
  function expectedBlockTranslations(p: PageFixture, locale?: string): any[] {
    return p.blocks
      .flatMap((b) =>
        Object.entries(b.translations)
          .filter(([l]) => locale === undefined || l === locale)
          .map(([l, data]) => ({ id: trIds.get(`${blockIds.get(b.key)}/${l}`), block_id: blockIds.get(b.key), locale: l, data })),
      )
      .sort((a, b) => `${a.block_id}/${a.locale}`.localeCompare(`${b.block_id}/${b.locale}`));
  }
  function expectedSeoTranslations(p: PageFixture, locale?: string): any[] {
    return Object.entries(p.seoTranslations)
      .filter(([l]) => locale === undefined || l === locale)
      .map(([l, seo]) => ({ id: trIds.get(`${pageIds.get(p.slug)}/${l}`), locale: l, page_id: pageIds.get(p.slug), seo }))
      .sort(byLocale);
  }

  it('the normal start applied 005 and only 005', async () => {
    expect(migrationsBefore.map((m) => m.name)).toEqual(['001-core', '002-pages', '003-delivery-indexes', '004-revisions']);
    const after = await (db.kysely as unknown as AnyDb).selectFrom('kysely_migration').select(['name', 'timestamp']).orderBy('name').execute();
    expect(after.map((m) => m.name)).toEqual(Object.keys(MIGRATIONS));
    // The first four rows are untouched: they were not run again.
    expect(after.slice(0, 4)).toEqual(migrationsBefore);
  });

  it('keys created before the upgrade still authenticate', async () => {
    expect((await get(`${P}/entries?type=article`, keys.delivery)).status).toBe(200);
    expect((await get(`${P}/entries?type=article`, keys.preview)).status).toBe(200);
    expect((await get(`${M}/content-types/article/entries`, keys.management)).status).toBe(200);
  });

  it('production lists exactly the published and due entries; preview adds drafts and scheduled; archived never', async () => {
    expect(slugs(await ok(`${P}/entries?type=article&sort=slug:asc`, keys.delivery))).toEqual(PRODUCTION);
    expect(slugs(await ok(`${P}/entries?type=article&sort=slug:asc`, keys.preview))).toEqual(PREVIEW);
    const list = await ok(`${P}/entries?type=article&sort=slug:asc`, keys.delivery);
    expect(list.meta.total_data).toBe(PRODUCTION.length);
    for (const item of list.data) expect({ slug: item.slug, data: JSON.parse(item.data) }).toEqual({ slug: item.slug, data: delivered(bySlug(item.slug)) });
  });

  it.each(['en', 'de', 'fr', undefined])('every production entry reads back with exactly the content inserted (locale %s)', async (locale) => {
    for (const slug of PRODUCTION) {
      const e = bySlug(slug);
      const q = locale ? `&locale=${locale}` : '';
      for (const key of [keys.delivery, keys.preview]) {
        const body = await ok(`${P}/entries/${slug}?type=article${q}`, key);
        const entry = body.data.entry;
        expect({ slug, data: JSON.parse(entry.data) }).toEqual({ slug, data: delivered(e, locale === 'en' ? undefined : locale) });
        const wasDue = e.status === 'scheduled';
        const publishedAt = wasDue ? e.publish_at : e.published_at;
        expect({ slug, ...entry, data: undefined }).toEqual({
          slug,
          id: entryIds.get(slug),
          content_type_id: ct.article,
          workspace_id: ws,
          status: 'published',
          data: undefined,
          position: 0,
          publish_at: null,
          published_at: publishedAt,
          created_at: t(e.minute),
          // Production keys see the publication's time as updated_at (D70), preview keys the row's.
          updated_at: key === keys.delivery ? publishedAt : t(e.minute + 20),
          created_by: owner,
          updated_by: editor,
          ...(locale ? { is_fallback: locale !== 'en' && !e.translations[locale] } : {}),
        });
        expect(body.data.locale_requested).toBe(locale ?? 'en');
      }
    }
  });

  it('entries that were not visible stay invisible in production; preview sees drafts and scheduled working copies', async () => {
    for (const slug of ['draft-one', 'later', 'old']) {
      expect({ slug, status: (await get(`${P}/entries/${slug}?type=article`, keys.delivery)).status }).toEqual({ slug, status: 404 });
    }
    expect((await get(`${P}/entries/old?type=article`, keys.preview)).status).toBe(404);
    for (const slug of ['draft-one', 'later']) {
      const body = await ok(`${P}/entries/${slug}?type=article&locale=de`, keys.preview);
      expect({ slug, data: JSON.parse(body.data.entry.data), status: body.data.entry.status }).toEqual({
        slug,
        data: delivered(bySlug(slug), 'de'),
        status: bySlug(slug).status,
      });
    }
  });

  it('filters and sorts on the sortable number field work on published data', async () => {
    expect(slugs(await ok(`${P}/entries?type=article&sort=rating:asc`, keys.delivery))).toEqual(['beta', 'alpha', 'due', 'gamma']);
    expect(slugs(await ok(`${P}/entries?type=article&sort=rating:desc`, keys.delivery))).toEqual(['gamma', 'due', 'alpha', 'beta']);
    expect(slugs(await ok(`${P}/entries?type=article&filter[rating][gte]=4.5&sort=rating:asc`, keys.delivery))).toEqual(['alpha', 'due', 'gamma']);
    expect(slugs(await ok(`${P}/entries?type=article&filter[rating][lt]=6&sort=rating:desc`, keys.delivery))).toEqual(['alpha', 'beta']);
    expect(slugs(await ok(`${P}/entries?type=article&filter[rating]=9`, keys.delivery))).toEqual(['gamma']);
    expect(slugs(await ok(`${P}/entries?type=article&filter[rating][in]=2.25,7.5,8&sort=slug:asc`, keys.delivery))).toEqual(['beta']);
    expect(slugs(await ok(`${P}/entries?type=article&filter[rating][exists]=true&sort=slug:asc`, keys.delivery))).toEqual(PRODUCTION);
    // Preview reads the working copies: the draft (7.5) and the future item (3) join.
    expect(slugs(await ok(`${P}/entries?type=article&filter[rating][gte]=3&sort=rating:asc`, keys.preview))).toEqual([
      'later',
      'alpha',
      'due',
      'draft-one',
      'gamma',
    ]);
  });

  it('cursor pagination over a filtered sort on published data walks every row once', async () => {
    const seen: string[] = [];
    let body = await ok(`${P}/entries?type=article&filter[rating][gt]=2&sort=rating:desc&limit=1`, keys.delivery);
    seen.push(...slugs(body));
    for (let i = 0; body.meta.next_cursor && i < 10; i++) {
      body = await ok(
        `${P}/entries?type=article&filter[rating][gt]=2&sort=rating:desc&limit=1&cursor=${encodeURIComponent(body.meta.next_cursor)}`,
        keys.delivery,
      );
      seen.push(...slugs(body));
    }
    expect(seen).toEqual(['gamma', 'due', 'alpha', 'beta']);
  });

  it('has an expression index on the published data of the sortable field', async () => {
    const rows =
      dialect === 'sqlite'
        ? (
            await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'entries' and name like 'entries_%_rating'`.execute(
              db.kysely,
            )
          ).rows
        : (
            await sql<{
              name: string;
            }>`select indexname as name from pg_indexes where schemaname = ${schema!} and tablename = 'entries' and indexname like 'entries_%_rating'`.execute(
              db.kysely,
            )
          ).rows;
    expect(rows.map((r) => r.name).sort()).toEqual(['entries_data_num_rating', 'entries_pub_num_rating']);
  });

  it('production lists the published and due pages; preview adds the draft and the future one; archived never', async () => {
    expect(slugs(await ok(`${P}/pages`, keys.delivery))).toEqual(PRODUCTION_PAGES);
    expect(slugs(await ok(`${P}/pages`, keys.preview))).toEqual(PREVIEW_PAGES);
    for (const slug of ['about', 'soon-page', 'gone']) {
      expect({ slug, status: (await get(`${P}/pages/${slug}`, keys.delivery)).status }).toEqual({ slug, status: 404 });
    }
    expect((await get(`${P}/pages/gone`, keys.preview)).status).toBe(404);
  });

  it.each([undefined, 'en', 'de', 'fr'])('every production page reads back with exactly its SEO and block tree (locale %s)', async (locale) => {
    for (const slug of PRODUCTION_PAGES) {
      const p = pageBySlug(slug);
      const tr = locale && locale !== 'en' ? locale : undefined;
      for (const key of [keys.delivery, keys.preview]) {
        const body = await ok(`${P}/pages/${slug}${locale ? `?locale=${locale}` : ''}`, key);
        const d = body.data;
        const wasDue = p.status === 'scheduled';
        const publishedAt = wasDue ? p.publish_at : p.published_at;
        const hasTr = tr !== undefined && (p.seoTranslations[tr] !== undefined || p.blocks.some((b) => b.translations[tr] !== undefined));
        expect({ slug, page: d.page }).toEqual({
          slug,
          page: {
            id: pageIds.get(slug),
            workspace_id: ws,
            slug,
            status: 'published',
            position: p.position,
            seo: { ...p.seo, ...(tr ? (p.seoTranslations[tr] ?? {}) : {}) },
            publish_at: null,
            published_at: publishedAt,
            created_at: t(30 + p.position),
            updated_at: key === keys.delivery ? publishedAt : t(40 + p.position),
            created_by: owner,
            updated_by: editor,
            ...(locale ? { is_fallback: tr !== undefined && !hasTr } : {}),
          },
        });
        expect({ slug, blocks: parseTree(d.blocks) }).toEqual({ slug, blocks: expectedTree(p, tr) });
        // Without a locale every translation; with one, only that locale's (D45).
        const only = locale === undefined ? undefined : locale;
        expect({ slug, trs: parseTranslations(d.block_translations) }).toEqual({ slug, trs: expectedBlockTranslations(p, only) });
        expect({ slug, seo: [...d.seo_translations].sort(byLocale) }).toEqual({ slug, seo: expectedSeoTranslations(p, only) });
      }
    }
  });

  it('preview reads the draft and the future page with their working copies', async () => {
    for (const slug of ['about', 'soon-page']) {
      const p = pageBySlug(slug);
      const d = (await ok(`${P}/pages/${slug}`, keys.preview)).data;
      expect({ slug, status: d.page.status, seo: d.page.seo, blocks: parseTree(d.blocks) }).toEqual({
        slug,
        status: p.status,
        seo: p.seo,
        blocks: expectedTree(p),
      });
    }
  });

  it('management entries: published_version 1 when published (or due), null otherwise, nothing pending', async () => {
    for (const e of ENTRIES) {
      const rec = (await ok(`${M}/content-types/article/entries/${e.slug}`, keys.management)).data;
      const published = e.status === 'published' || (e.status === 'scheduled' && e.publish_at! <= NOW.toISOString());
      expect({ slug: e.slug, published_version: rec.published_version, has_pending_changes: rec.has_pending_changes }).toEqual({
        slug: e.slug,
        published_version: published ? 1 : null,
        has_pending_changes: false,
      });
      // The working copy is the content inserted.
      expect({ slug: e.slug, data: JSON.parse(rec.data) }).toEqual({ slug: e.slug, data: e.data });
      expect({ slug: e.slug, trs: rec.translations.map((x: any) => [x.locale, JSON.parse(x.data)]).sort() }).toEqual({
        slug: e.slug,
        trs: Object.entries(e.translations).sort(),
      });
    }
  });

  it('management entries: exactly one version, `publish` for published and scheduled, `create` otherwise, equal to the working copy', async () => {
    for (const e of ENTRIES) {
      const base = `${M}/content-types/article/entries/${e.slug}`;
      const rec = (await ok(base, keys.management)).data;
      const list = await ok(`${base}/versions`, keys.management);
      const action = e.status === 'published' || e.status === 'scheduled' ? 'publish' : 'create';
      expect({ slug: e.slug, versions: list.data.map((v: any) => [v.version, v.action]) }).toEqual({ slug: e.slug, versions: [[1, action]] });
      expect(list.meta.total_data).toBe(1);
      const v1 = await ok(`${base}/versions/1`, keys.management);
      expect(v1.meta).toMatchObject({ version: 1, action });
      expect({ slug: e.slug, data: JSON.parse(v1.data.data) }).toEqual({ slug: e.slug, data: JSON.parse(rec.data) });
      expect({ slug: e.slug, trs: parseTranslations(v1.data.translations) }).toEqual({ slug: e.slug, trs: parseTranslations(rec.translations) });
      expect((await get(`${base}/versions/2`, keys.management)).status).toBe(404);
    }
  });

  it('management pages: published_version, nothing pending, one version equal to the working copy', async () => {
    for (const p of PAGES) {
      const detail = (await ok(`${M}/pages/${p.slug}`, keys.management)).data;
      const published = p.status === 'published' || (p.status === 'scheduled' && p.publish_at! <= NOW.toISOString());
      expect({ slug: p.slug, published_version: detail.page.published_version, has_pending_changes: detail.page.has_pending_changes }).toEqual({
        slug: p.slug,
        published_version: published ? 1 : null,
        has_pending_changes: false,
      });
      // The working copy is what was inserted.
      expect({ slug: p.slug, seo: detail.page.seo, blocks: parseTree(detail.blocks) }).toEqual({ slug: p.slug, seo: p.seo, blocks: expectedTree(p) });
      expect({ slug: p.slug, trs: parseTranslations(detail.block_translations) }).toEqual({ slug: p.slug, trs: expectedBlockTranslations(p) });
      expect({ slug: p.slug, seo: [...detail.seo_translations].sort(byLocale) }).toEqual({ slug: p.slug, seo: expectedSeoTranslations(p) });

      const list = await ok(`${M}/pages/${p.slug}/versions`, keys.management);
      const action = p.status === 'published' || p.status === 'scheduled' ? 'publish' : 'create';
      expect({ slug: p.slug, versions: list.data.map((v: any) => [v.version, v.action]) }).toEqual({ slug: p.slug, versions: [[1, action]] });
      const v1 = await ok(`${M}/pages/${p.slug}/versions/1`, keys.management);
      expect(v1.meta).toMatchObject({ version: 1, action });
      expect({ slug: p.slug, seo: v1.data.page.seo, blocks: parseTree(v1.data.blocks) }).toEqual({
        slug: p.slug,
        seo: detail.page.seo,
        blocks: parseTree(detail.blocks),
      });
      expect({ slug: p.slug, trs: parseTranslations(v1.data.block_translations) }).toEqual({ slug: p.slug, trs: parseTranslations(detail.block_translations) });
      expect({ slug: p.slug, seo: [...v1.data.seo_translations].sort(byLocale) }).toEqual({ slug: p.slug, seo: [...detail.seo_translations].sort(byLocale) });
    }
  });

  it('after the upgrade a save stays in the working copy until published', async () => {
    const base = `${M}/content-types/article/entries/beta`;
    const put = await call(app, 'PUT', base, {
      key: keys.management,
      body: { data: { title: 'Beta edited', body: 'Second body', rating: 2.25, featured: false } },
    });
    expect(put.status).toBe(200);
    expect(put.body.data).toMatchObject({ has_pending_changes: true, published_version: 1 });
    expect(JSON.parse((await ok(`${P}/entries/beta?type=article`, keys.delivery)).data.entry.data).title).toBe('Beta');
    expect(JSON.parse((await ok(`${P}/entries/beta?type=article`, keys.preview)).data.entry.data).title).toBe('Beta edited');
    expect((await call(app, 'PATCH', `${base}/publish`, { key: keys.management })).status).toBe(200);
    expect(JSON.parse((await ok(`${P}/entries/beta?type=article`, keys.delivery)).data.entry.data).title).toBe('Beta edited');
  });
});
