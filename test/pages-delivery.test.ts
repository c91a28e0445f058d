/**
 * Pages through the delivery API (issue 3 item 3; docs/api.md "GET /api/v1/public/pages", "GET
 * /api/v1/public/pages/{slug}",
 * docs/pages.md "Translations and localization"; docs/api.md "Delivery keys" (D13), "GET /api/v1/public/pages" (D14), "States
 * and scheduling" (D21), "Localization" (D40), "The `fields` parameter" (D41), "Pagination" (D44);
 * docs/pages.md "Translations and localization" (D45)): visibility per key
 * environment, the detail shape with nested blocks, one test per localization rule, relations and
 * media inside blocks in a bounded number of queries, workspace_id, pagination and cursors.
 */
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Context } from '../src/context.js';
import { newId } from '../src/lib/ids.js';
import { authenticate, createApiKey } from '../src/modules/auth/operations.js';
import { getDeliveryPage } from '../src/modules/pages/delivery.js';
import { toDeliveredWirePageDetail } from '../src/http/wire/pages.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { createPageWorld, doc, flat, P, type PageWorld } from './pages-fixtures.js';

describe.each(dialects())('pages: delivery API on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let now = new Date('2026-06-01T12:00:00.000Z');
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now });
    w = await createPageWorld(env.ctx, env.app);
    ids.first = await w.article('first', 'First article', 'Erster Artikel');
    ids.second = await w.article('second', 'Second article');
    const hidden = await w.req('POST', '/content-types/article/entries', { slug: 'hidden', data: { title: 'Hidden' } });
    ids.hidden = hidden.body.data.id;
    ids.image = await w.media({ alt_text: 'Hero image', title: 'Hero', description: 'The team on the roof' });
    ids.gone = await w.media();
    const home = await w.req('POST', '/pages', {
      slug: 'home',
      seo: { title: 'Home', description: 'Welcome home', keywords: ['home'], canonical: 'https://example.com/' },
      seo_translations: { de: { title: 'Startseite' }, fr: { title: 'Accueil', description: 'Bienvenue' } },
      blocks: [
        {
          type: 'hero',
          data: { headline: 'Hello', subline: 'Sub', image: ids.image, featured: ids.first },
          translations: { de: { data: { headline: 'Hallo' } } },
        },
        {
          type: 'feature-grid',
          data: { title: 'Features', columns: 3 },
          children: [
            {
              type: 'feature-item',
              data: { label: 'Fast', articles: [ids.first, ids.hidden, ids.second] },
              translations: { de: { data: { label: 'Schnell' } }, fr: { data: { label: 'Rapide' } } },
            },
            { type: 'feature-item', data: { label: 'Safe', icon: 'shield' } },
          ],
        },
        { type: 'rich-text', data: { body: doc('Hello world') }, translations: { de: { data: { body: doc('Hallo Welt') } } } },
        { type: 'hero', data: { headline: 'Gone', image: ids.gone, featured: ids.hidden } },
      ],
    });
    if (home.status !== 201) throw new Error(JSON.stringify(home.body));
    // The media of the last hero is deleted after the page was written.
    await env.ctx.db.kysely.updateTable('media').set({ deleted_at: now.toISOString() }).where('id', '=', ids.gone).execute();
    await w.req('POST', '/pages', {
      slug: 'about',
      seo: { title: 'About' },
      blocks: [{ type: 'cta', data: { label: 'Contact', url: 'https://example.com/contact' } }],
    });
    await w.req('POST', '/pages', { slug: 'draft-page', seo: { title: 'Draft' } });
    await w.req('POST', '/pages', { slug: 'archived', seo: { title: 'Archived' } });
    await w.req('POST', '/pages', { slug: 'later', seo: { title: 'Later' } });
    for (const slug of ['home', 'about']) expect((await w.req('PATCH', `/pages/${slug}/publish`)).status).toBe(200);
    await w.req('PATCH', '/pages/archived/archive');
    await w.req('PATCH', '/pages/later/schedule', { publish_at: new Date(now.getTime() + 3_600_000).toISOString() });
  });
  afterAll(async () => env?.close());

  const get = (url: string, key = w.keys.delivery) => call(env.app, 'GET', `${P}${url}`, { key });
  const detail = async (url: string, key = w.keys.delivery) => {
    const res = await get(url, key);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const data = (b: any) => JSON.parse(b.data);

  it('lists published pages for production keys, drafts and scheduled too for preview keys, by position', async () => {
    const prod = await get('/pages');
    expect(prod.status).toBe(200);
    expect(prod.body.data.map((p: any) => p.slug)).toEqual(['home', 'about']);
    expect(prod.body.meta).toEqual({ total_data: 2, current_page: 1, page_size: 2, total_pages: 1, next_cursor: null });
    expect(prod.body.data[0]).not.toHaveProperty('blocks');
    expect(prod.body.data[0]).not.toHaveProperty('is_fallback');
    expect(prod.body.data[0]).toMatchObject({ slug: 'home', status: 'published', position: 0, workspace_id: w.workspaceId, seo: { title: 'Home' } });
    const preview = await get('/pages', w.keys.preview);
    expect(preview.body.data.map((p: any) => p.slug)).toEqual(['home', 'about', 'draft-page', 'later']);
    expectError(await get('/pages/draft-page'), 404, 'NOT_FOUND');
    expectError(await get('/pages/later'), 404, 'NOT_FOUND');
    expect((await get('/pages/draft-page', w.keys.preview)).status).toBe(200);
    expectError(await get('/pages/archived', w.keys.preview), 404, 'NOT_FOUND');
    expectError(await get('/pages/nowhere'), 404, 'NOT_FOUND');
  });

  it('returns {page, blocks, seo_translations, block_translations}: root blocks nested through children, by position', async () => {
    const d = await detail('/pages/home');
    expect(Object.keys(d).sort()).toEqual(['block_translations', 'blocks', 'page', 'seo_translations']);
    expect(d.page).toMatchObject({ slug: 'home', status: 'published', published_at: now.toISOString() });
    expect(d.page).not.toHaveProperty('is_fallback');
    expect(d.blocks.map((b: any) => [b.type, b.position])).toEqual([
      ['hero', 0],
      ['feature-grid', 1],
      ['rich-text', 2],
      ['hero', 3],
    ]);
    const grid = d.blocks[1];
    expect(grid.children.map((c: any) => [c.type, c.position, c.parent_id])).toEqual([
      ['feature-item', 0, grid.id],
      ['feature-item', 1, grid.id],
    ]);
    for (const b of d.blocks) expect(b).not.toHaveProperty('parent_id');
    for (const b of flat(d.blocks)) {
      expect(typeof b.data).toBe('string');
      expect(b).toMatchObject({ page_id: d.page.id, block_type_id: w.types[b.type] });
    }
    expect(d.seo_translations.map((t: any) => t.locale)).toEqual(['de', 'fr']);
    expect(d.block_translations.map((t: any) => t.locale).sort()).toEqual(['de', 'de', 'de', 'fr']);
  });

  it('rule 1: data holds the default-locale values; translations hold overrides of localizable fields only', async () => {
    const d = await detail('/pages/home');
    expect(data(d.blocks[0])).toMatchObject({ headline: 'Hello', subline: 'Sub' });
    expect(d.page.seo).toEqual({ title: 'Home', description: 'Welcome home', keywords: ['home'], og_image: null, canonical: 'https://example.com/' });
    const item = d.blocks[1].children[0];
    expect(d.block_translations.filter((t: any) => t.block_id === item.id).map((t: any) => [t.locale, JSON.parse(t.data)])).toEqual([
      ['de', { label: 'Schnell' }],
      ['fr', { label: 'Rapide' }],
    ]);
    for (const t of d.block_translations)
      expect(Object.keys(JSON.parse(t.data)).every((k) => ['headline', 'subline', 'label', 'body', 'title'].includes(k))).toBe(true);
    // A non-localizable field cannot be translated in the first place.
    expectError(
      await w.req('PUT', '/pages/about', { seo: {}, blocks: [{ type: 'cta', data: {}, translations: { de: { data: { url: 'https://example.de/' } } } }] }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('rule 2: a requested locale falls back to default values field by field, never to an empty result', async () => {
    const d = await detail('/pages/home?locale=de');
    // hero: headline translated, subline (localizable, not translated) falls back
    expect(data(d.blocks[0])).toMatchObject({ headline: 'Hallo', subline: 'Sub' });
    const item = d.blocks[1].children[0];
    expect(data(item)).toMatchObject({ label: 'Schnell' });
    // SEO: title translated, description and keywords fall back
    expect(d.page.seo).toEqual({ title: 'Startseite', description: 'Welcome home', keywords: ['home'], og_image: null, canonical: 'https://example.com/' });
    const about = await detail('/pages/about?locale=de');
    expect(data(about.blocks[0])).toEqual({ label: 'Contact', url: 'https://example.com/contact' });
    expect(about.page.seo.title).toBe('About');
  });

  it('rule 3: is_fallback is true when the requested locale has no translation of the page at all', async () => {
    expect((await detail('/pages/home?locale=de')).page.is_fallback).toBe(false);
    expect((await detail('/pages/about?locale=de')).page.is_fallback).toBe(true);
    expect((await detail('/pages/about?locale=en')).page.is_fallback).toBe(false);
    const list = await get('/pages?locale=fr');
    expect(list.body.data.map((p: any) => [p.slug, p.is_fallback])).toEqual([
      ['home', false],
      ['about', true],
    ]);
    expect(list.body.meta.locale_requested).toBe('fr');
    // A page translated only in its blocks is not a fallback either.
    await w.req('POST', '/pages', { slug: 'blocks-only', blocks: [{ type: 'cta', data: { label: 'x' }, translations: { fr: { data: { label: 'y' } } } }] });
    expect((await detail('/pages/blocks-only?locale=fr', w.keys.preview)).page.is_fallback).toBe(false);
    expect((await get('/pages?locale=fr&limit=100', w.keys.preview)).body.data.find((p: any) => p.slug === 'blocks-only').is_fallback).toBe(false);
    await w.req('DELETE', '/pages/blocks-only');
  });

  it('rule 4: translated block and SEO values override defaults field by field; untranslated blocks keep their data; absent SEO falls back to page.seo', async () => {
    const d = await detail('/pages/home?locale=de');
    expect(data(d.blocks[2]).body).toEqual(doc('Hallo Welt'));
    const grid = d.blocks[1];
    expect(data(grid)).toEqual({ title: 'Features', columns: 3 });
    expect(data(grid.children[1])).toEqual({ label: 'Safe', icon: 'shield' });
    expect(data(d.blocks[3])).toMatchObject({ headline: 'Gone' });
    const fr = await detail('/pages/home?locale=fr');
    expect(fr.page.seo).toMatchObject({ title: 'Accueil', description: 'Bienvenue', keywords: ['home'] });
    expect(data(fr.blocks[0]).headline).toBe('Hello');
    expect(data(fr.blocks[1].children[0]).label).toBe('Rapide');
    const about = await detail('/pages/about?locale=fr');
    expect(about.page.seo).toEqual({ title: 'About', description: null, keywords: [], og_image: null, canonical: null });
  });

  it('D45: with locale, both translation arrays hold only that locale; the default locale holds none', async () => {
    const de = await detail('/pages/home?locale=de');
    expect(de.seo_translations).toEqual([{ id: expect.any(Number), locale: 'de', page_id: de.page.id, seo: { title: 'Startseite' } }]);
    expect(de.block_translations.map((t: any) => t.locale)).toEqual(['de', 'de', 'de']);
    const ids = new Set(flat(de.blocks).map((b: any) => b.id));
    for (const t of de.block_translations) {
      expect(ids.has(t.block_id)).toBe(true);
      expect(Object.keys(t).sort()).toEqual(['block_id', 'data', 'id', 'locale']);
    }
    const all = await detail('/pages/home');
    const same = all.block_translations.filter((t: any) => t.locale === 'de');
    expect([...de.block_translations].sort((a: any, b: any) => a.id - b.id)).toEqual(same.sort((a: any, b: any) => a.id - b.id));
    const en = await detail('/pages/home?locale=en');
    expect(en.seo_translations).toEqual([]);
    expect(en.block_translations).toEqual([]);
    expect(data(en.blocks[0]).headline).toBe('Hello');
    expectError(await get('/pages/home?locale=es'), 400, 'VALIDATION_FAILED');
    expectError(await get('/pages?locale=x'), 400, 'VALIDATION_FAILED');
  });

  it('resolves relations (one level, locale-resolved) and media inside blocks; invisible targets are null or dropped', async () => {
    const d = await detail('/pages/home?locale=de');
    const hero = data(d.blocks[0]);
    expect(hero.featured).toEqual({ id: ids.first, slug: 'first', type: 'article', title: 'Erster Artikel', summary: 'About First article' });
    expect(hero.image).toEqual({
      id: ids.image,
      url: `http://quire.test/media/files/${ids.image}.png`,
      mime_type: 'image/png',
      width: 800,
      height: 600,
      alt_text: 'Hero image',
      title: 'Hero',
      description: 'The team on the roof',
      focal_x: 0.5,
      focal_y: 0.5,
    });
    const item = data(d.blocks[1].children[0]);
    expect(item.articles.map((a: any) => [a.slug, a.title])).toEqual([
      ['first', 'Erster Artikel'],
      ['second', 'Second article'],
    ]);
    const gone = data(d.blocks[3]);
    expect(gone.image).toBeNull();
    expect(gone.featured).toBeNull();
    // A preview key sees the draft article.
    const pv = await detail('/pages/home', w.keys.preview);
    expect(data(pv.blocks[3]).featured).toMatchObject({ id: ids.hidden, slug: 'hidden' });
    expect(data(pv.blocks[1].children[0]).articles.map((a: any) => a.slug)).toEqual(['first', 'hidden', 'second']);
    // D13: pages are readable with any key; related entries outside the whitelist resolve to null.
    const limited = await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'delivery', environment: 'production', contentTypes: ['hero'] });
    const lim = await detail('/pages/home', limited.key);
    expect(data(lim.blocks[0]).featured).toBeNull();
    expect(data(lim.blocks[1].children[0]).articles).toEqual([]);
  });

  it('reads a page in a bounded number of queries, whatever the number of blocks', async () => {
    let queries = 0;
    const counter: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const counted: Context = { ...env.ctx, db: { ...env.ctx.db, kysely: env.ctx.db.kysely.withPlugin(counter) } };
    const actor = await authenticate(env.ctx, w.keys.delivery, 'delivery');
    const build = (n: number) => ({
      type: 'feature-grid',
      data: { title: `Grid ${n}` },
      translations: { de: { data: { title: `Raster ${n}` } } },
      children: Array.from({ length: 4 }, (_, i) => ({
        type: 'feature-item',
        data: { label: `Item ${i}`, articles: [ids.first, ids.second] },
        translations: { de: { data: { label: `Punkt ${i}` } } },
        children: [{ type: 'hero', data: { headline: 'h', image: ids.image, featured: i % 2 ? ids.first : ids.second } }],
      })),
    });
    await w.req('POST', '/pages', { slug: 'small', blocks: [build(0)] });
    await w.req('POST', '/pages', { slug: 'large', blocks: Array.from({ length: 6 }, (_, i) => build(i)) });
    for (const slug of ['small', 'large']) await w.req('PATCH', `/pages/${slug}/publish`);
    const measure = async (slug: string, locale?: string) => {
      queries = 0;
      const d = await getDeliveryPage(counted, actor, slug, locale ? { locale } : {});
      return { queries, blocks: d.blocks.length };
    };
    // The first call through the counting handle loads the schema model into its cache.
    await measure('small', 'de');
    const small = await measure('small', 'de');
    const large = await measure('large', 'de');
    expect(small.blocks).toBe(9);
    expect(large.blocks).toBe(54);
    expect(large.queries).toBe(small.queries);
    expect(large.queries).toBeLessThanOrEqual(5);
    const noLocale = await measure('large');
    expect(noLocale.queries).toBeLessThanOrEqual(7);
    const d = toDeliveredWirePageDetail(await getDeliveryPage(env.ctx, actor, 'large', { locale: 'de' }));
    expect(data(d.blocks[5])).toEqual({ title: 'Raster 5' });
    expect(data(d.blocks[5].children[3].children[0]).featured).toMatchObject({ slug: 'first', title: 'Erster Artikel' });
    for (const slug of ['small', 'large']) await w.req('DELETE', `/pages/${slug}`);
  });

  it('D14: workspace_id is optional; the key’s own workspace passes, another answers 403', async () => {
    expect((await get(`/pages?workspace_id=${w.workspaceId}`)).status).toBe(200);
    expect((await get(`/pages/home?workspace_id=${w.workspaceId}&locale=de`)).status).toBe(200);
    const other = await seedWorkspace(env.ctx);
    expectError(await get(`/pages?workspace_id=${other.workspace.id}`), 403, 'FORBIDDEN');
    expectError(await get(`/pages/home?workspace_id=${other.workspace.id}`), 403, 'FORBIDDEN');
    expectError(await get('/pages/home?workspace_id=nonsense'), 403, 'FORBIDDEN');
    // The other workspace's key does not see this workspace's pages.
    expectError(await get('/pages/home', other.keys.delivery), 404, 'NOT_FOUND');
    expect((await get('/pages', other.keys.delivery)).body.data).toEqual([]);
  });

  it('paginates by offset and by signed cursor with the entries’ meta; sorts by the allowed fields', async () => {
    for (let i = 0; i < 5; i++) {
      await w.req('POST', '/pages', { slug: `extra-${i}` });
      await w.req('PATCH', `/pages/extra-${i}/publish`);
    }
    const first = await get('/pages?limit=3&locale=de');
    expect(first.body.data.map((p: any) => p.slug)).toEqual(['home', 'about', 'extra-0']);
    expect(first.body.meta).toMatchObject({ total_data: 7, current_page: 1, page_size: 3, total_pages: 3, locale_requested: 'de' });
    const cursor = first.body.meta.next_cursor;
    expect(typeof cursor).toBe('string');
    const second = await get(`/pages?limit=3&locale=de&cursor=${encodeURIComponent(cursor)}`);
    expect(second.body.data.map((p: any) => p.slug)).toEqual(['extra-1', 'extra-2', 'extra-3']);
    expect(second.body.meta).not.toHaveProperty('total_data');
    expect(second.body.meta).not.toHaveProperty('total_pages');
    const third = await get(`/pages?limit=3&locale=de&cursor=${encodeURIComponent(second.body.meta.next_cursor)}`);
    expect(third.body.data.map((p: any) => p.slug)).toEqual(['extra-4']);
    expect(third.body.meta).toMatchObject({ page_size: 1, next_cursor: null, locale_requested: 'de' });
    const page3 = await get('/pages?limit=3&page=3');
    expect(page3.body.data.map((p: any) => p.slug)).toEqual(['extra-4']);
    expect(page3.body.meta.next_cursor).toBeNull();
    // Cursors are bound to their query: another sort, locale or key environment answers 400.
    expectError(await get(`/pages?limit=3&cursor=${encodeURIComponent(cursor)}`), 400, 'VALIDATION_FAILED');
    expectError(await get(`/pages?limit=3&locale=de&sort=slug:asc&cursor=${encodeURIComponent(cursor)}`), 400, 'VALIDATION_FAILED');
    expectError(await get(`/pages?limit=3&locale=de&cursor=${encodeURIComponent(cursor)}`, w.keys.preview), 400, 'VALIDATION_FAILED');
    expectError(await get(`/pages?cursor=${encodeURIComponent(`${cursor.slice(0, -2)}xx`)}`), 400, 'VALIDATION_FAILED');
    const bySlug = await get('/pages?sort=slug:desc&limit=100');
    expect(bySlug.body.data.map((p: any) => p.slug)).toEqual(['home', 'extra-4', 'extra-3', 'extra-2', 'extra-1', 'extra-0', 'about']);
    const slugCursor = (await get('/pages?sort=slug:desc&limit=2')).body.meta.next_cursor;
    expect((await get(`/pages?sort=slug:desc&limit=2&cursor=${encodeURIComponent(slugCursor)}`)).body.data.map((p: any) => p.slug)).toEqual([
      'extra-3',
      'extra-2',
    ]);
    expect((await get('/pages?sort=published_at:asc&limit=100')).status).toBe(200);
    expectError(await get('/pages?sort=title:asc'), 400, 'VALIDATION_FAILED');
    expectError(await get('/pages?page=1001'), 400, 'PAGE_TOO_DEEP');
    expectError(await get('/pages?limit=101'), 400, 'VALIDATION_FAILED');
    expectError(await get('/pages?type=post'), 400, 'VALIDATION_FAILED');
    expectError(await get('/pages/home?fields=title'), 400, 'VALIDATION_FAILED');
  });

  it('needs a delivery key: none or a management key answers 401', async () => {
    expectError(await call(env.app, 'GET', `${P}/pages`), 401, 'UNAUTHORIZED');
    expectError(await get('/pages/home', w.keys.management), 401, 'UNAUTHORIZED');
  });

  it('D21: a scheduled page is delivered once its time has come, before the job runs', async () => {
    expectError(await get('/pages/later'), 404, 'NOT_FOUND');
    now = new Date(now.getTime() + 2 * 3_600_000);
    const d = await detail('/pages/later');
    expect(d.page).toMatchObject({ status: 'published', publish_at: null, published_at: new Date(now.getTime() - 3_600_000).toISOString() });
    expect((await get('/pages?limit=100')).body.data.map((p: any) => p.slug)).toContain('later');
    const row = await env.ctx.db.kysely
      .selectFrom('pages')
      .select('status')
      .where('slug', '=', 'later')
      .where('workspace_id', '=', w.workspaceId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('scheduled');
  });

  it('a block whose related entry changes shows the change once it is published (no stale cache; D70)', async () => {
    const before = data((await detail('/pages/home?locale=de')).blocks[0]).featured.title;
    await w.req('PUT', '/content-types/article/entries/first', {
      data: { title: 'First, renamed', summary: 'x' },
      translations: { de: { data: { title: 'Erster, umbenannt' } } },
    });
    // Production reads the related entry's published version; preview its working copy.
    expect(data((await detail('/pages/home?locale=de')).blocks[0]).featured.title).toBe(before);
    const preview = await get('/pages/home?locale=de', w.keys.preview);
    expect(JSON.parse(preview.body.data.blocks[0].data).featured.title).toBe('Erster, umbenannt');
    expect((await w.req('PATCH', '/content-types/article/entries/first/publish')).status).toBe(200);
    const d = await detail('/pages/home?locale=de');
    expect(data(d.blocks[0]).featured.title).toBe('Erster, umbenannt');
    const unknownId = newId();
    expectError(await get(`/pages/${unknownId}`), 404, 'NOT_FOUND');
  });
});
