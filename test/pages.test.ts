/**
 * Pages through the management API (issue 3 items 1 and 2): the model and wire shape, block
 * trees (flat and nested writes, limits), SEO and translations, PUT semantics for block ids,
 * delete, duplicate, navigation and block reorders, lists, ETag / If-Match, Idempotency-Key,
 * scopes and block-usage.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/lib/ids.js';
import { createApiKey, createMember } from '../src/modules/auth/operations.js';
import { call, createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { createPageWorld, doc, flat, type PageWorld } from './pages-fixtures.js';

/** A tree `depth` levels deep: feature-grid blocks nested in one another. */
function chain(depth: number): any[] {
  let node: any = { type: 'cta', data: { label: `level ${depth}` } };
  for (let d = depth - 1; d >= 1; d--) node = { type: 'feature-grid', data: { title: `level ${d}` }, children: [node] };
  return [node];
}

describe.each(dialects())('pages: management API on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  const count = async (table: 'pages' | 'blocks' | 'block_translations' | 'page_seo_translations' | 'page_versions' | 'published_blocks') => {
    const r = await env.ctx.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  const detail = async (slug: string) => {
    const res = await w.req('GET', `/pages/${slug}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  it('creates a draft page from {type, data} blocks with the Page wire shape and an ETag', async () => {
    const res = await w.req('POST', '/pages', {
      slug: 'home',
      seo: { title: 'Home', description: 'Welcome', keywords: ['cms', 'pages'], og_image: 'https://cdn.example.com/og.png', canonical: 'https://example.com/' },
      blocks: [
        { type: 'hero', data: { headline: 'Hello' } },
        { type: 'rich-text', data: JSON.stringify({ body: doc('Some text') }) },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Success', meta: null });
    const p = res.body.data;
    expect(Object.keys(p).sort()).toEqual([
      'created_at',
      'created_by',
      'has_pending_changes',
      'id',
      'position',
      'publish_at',
      'published_at',
      'published_version',
      'seo',
      'slug',
      'status',
      'updated_at',
      'updated_by',
      'workspace_id',
    ]);
    expect(p).toMatchObject({
      has_pending_changes: false,
      published_version: null,
      slug: 'home',
      status: 'draft',
      position: 0,
      workspace_id: w.workspaceId,
      publish_at: null,
      published_at: null,
      created_by: w.userId,
      updated_by: w.userId,
    });
    expect(p.seo).toEqual({
      title: 'Home',
      description: 'Welcome',
      keywords: ['cms', 'pages'],
      og_image: 'https://cdn.example.com/og.png',
      canonical: 'https://example.com/',
    });
    expect(p.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.headers.etag).toBe(`"${p.id}-1"`);

    const d = await detail('home');
    // Reads add the page's review workflow state (docs/workflow.md): none covers pages here.
    expect(d.page).toEqual({ ...p, workflow: null });
    expect(d.blocks).toHaveLength(2);
    const [hero, text] = d.blocks;
    expect(hero).toEqual({
      id: hero.id,
      page_id: p.id,
      block_type_id: w.types.hero,
      type: 'hero',
      position: 0,
      data: JSON.stringify({ headline: 'Hello' }),
      children: [],
    });
    expect(hero).not.toHaveProperty('parent_id');
    expect(text).toMatchObject({ type: 'rich-text', position: 1, block_type_id: w.types['rich-text'] });
    expect(JSON.parse(text.data)).toEqual({ body: doc('Some text') });
    expect(d.seo_translations).toEqual([]);
    expect(d.block_translations).toEqual([]);
  });

  it('creates a full tree with children, per-block translations and SEO translations (both D25 forms)', async () => {
    const res = await w.req('POST', '/pages', {
      slug: 'about',
      seo: { title: 'About us' },
      seo_translations: { de: { title: 'Über uns', keywords: ['über'] }, fr: { seo: { description: 'À propos' } } },
      blocks: [
        { type: 'hero', data: { headline: 'About', subline: 'Who we are' }, translations: { de: { data: { headline: 'Über' } } } },
        {
          type: 'feature-grid',
          data: { title: 'Features', columns: 3 },
          translations: [{ locale: 'de', data: { title: 'Funktionen' } }],
          children: [
            {
              type: 'feature-item',
              data: { label: 'Fast', icon: 'bolt' },
              translations: { de: { data: { label: 'Schnell' } }, fr: { data: JSON.stringify({ label: 'Rapide' }) } },
            },
            { type: 'feature-item', data: { label: 'Safe' } },
            { type: 'feature-grid', data: { title: 'Nested' }, children: [{ type: 'cta', data: { label: 'Go', url: 'https://example.com/go' } }] },
          ],
        },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ position: 1, seo: { title: 'About us', description: null, keywords: [], og_image: null, canonical: null } });
    const d = await detail('about');
    expect(d.blocks.map((b: any) => b.type)).toEqual(['hero', 'feature-grid']);
    const grid = d.blocks[1];
    expect(grid.children.map((c: any) => [c.type, c.position, c.parent_id])).toEqual([
      ['feature-item', 0, grid.id],
      ['feature-item', 1, grid.id],
      ['feature-grid', 2, grid.id],
    ]);
    const nested = grid.children[2];
    expect(nested.children).toEqual([
      {
        id: nested.children[0].id,
        page_id: grid.page_id,
        block_type_id: w.types.cta,
        parent_id: nested.id,
        type: 'cta',
        position: 0,
        data: expect.any(String),
        children: [],
      },
    ]);
    expect(JSON.parse(nested.children[0].data)).toEqual({ label: 'Go', url: 'https://example.com/go' });
    expect(d.seo_translations.map((t: any) => [t.locale, t.seo])).toEqual([
      ['de', { title: 'Über uns', keywords: ['über'] }],
      ['fr', { description: 'À propos' }],
    ]);
    for (const t of d.seo_translations) {
      expect(Number.isInteger(t.id)).toBe(true);
      expect(t.page_id).toBe(d.page.id);
      expect(Object.keys(t).sort()).toEqual(['id', 'locale', 'page_id', 'seo']);
    }
    const item = grid.children[0];
    const trs = d.block_translations.filter((t: any) => t.block_id === item.id);
    expect(trs.map((t: any) => [t.locale, JSON.parse(t.data)])).toEqual([
      ['de', { label: 'Schnell' }],
      ['fr', { label: 'Rapide' }],
    ]);
    for (const t of d.block_translations) {
      expect(Number.isInteger(t.id)).toBe(true);
      expect(Object.keys(t).sort()).toEqual(['block_id', 'data', 'id', 'locale']);
    }
    expect(d.block_translations).toHaveLength(4);
  });

  it('answers 400 with exact paths for bad blocks, data, translations and SEO', async () => {
    const bad = async (body: unknown) =>
      expectError(await w.req('POST', '/pages', body), 400, 'VALIDATION_FAILED').errors as { path: string; message: string }[];
    let errors = await bad({ slug: 'x1', blocks: [{ type: 'nope', data: {} }] });
    expect(errors).toEqual([{ path: 'body.blocks.0.type', message: "'nope' is not a block type of this workspace" }]);
    errors = await bad({
      slug: 'x1',
      blocks: [
        { type: 'hero', data: {} },
        { type: 'article', data: {} },
      ],
    });
    expect(errors).toEqual([{ path: 'body.blocks.1.type', message: "content type 'article' is not a block type (is_block is false)" }]);
    errors = await bad({
      slug: 'x1',
      blocks: [{ type: 'feature-grid', data: { columns: 9 }, children: [{ type: 'feature-item', data: { label: 7, nope: 1 } }] }],
    });
    expect(errors.map((e) => e.path).sort()).toEqual([
      'body.blocks.0.children.0.data.label',
      'body.blocks.0.children.0.data.nope',
      'body.blocks.0.data.columns',
    ]);
    errors = await bad({
      slug: 'x1',
      blocks: [{ type: 'feature-item', data: {}, translations: { en: { data: { label: 'x' } }, es: { data: { label: 'x' } }, de: { data: { icon: 'x' } } } }],
    });
    expect(errors.map((e) => e.path)).toEqual(['body.blocks.0.translations.en', 'body.blocks.0.translations.es', 'body.blocks.0.translations.de.data.icon']);
    errors = await bad({ slug: 'x1', blocks: [{ type: 'hero', data: {}, extra: 1 }, { data: {} }, 'text', { type: 'hero', id: 'not-a-uuid' }] });
    expect(errors.map((e) => e.path)).toEqual(['body.blocks.0.extra', 'body.blocks.1.type', 'body.blocks.2', 'body.blocks.3.id']);
    const dup = newId();
    errors = await bad({
      slug: 'x1',
      blocks: [
        { id: dup, type: 'hero', data: {} },
        { id: dup, type: 'hero', data: {} },
      ],
    });
    expect(errors[0]).toMatchObject({ path: 'body.blocks.1.id' });
    errors = await bad({ slug: 'x1', blocks: [{ type: 'hero', data: { image: newId(), featured: newId() } }] });
    expect(errors.map((e) => e.path).sort()).toEqual(['body.blocks.0.data.featured', 'body.blocks.0.data.image']);
    errors = await bad({ slug: 'x1', seo: { title: 'a\nb', keywords: 'cms', og_image: 'not a url', canonical: '/relative', robots: 'x' } });
    expect(errors.map((e) => e.path).sort()).toEqual(['body.seo.canonical', 'body.seo.keywords', 'body.seo.og_image', 'body.seo.robots', 'body.seo.title']);
    errors = await bad({ slug: 'x1', seo: { keywords: ['a', 'a', ''] } });
    expect(errors.map((e) => e.path)).toEqual(['body.seo.keywords.1', 'body.seo.keywords.2']);
    errors = await bad({ slug: 'x1', seo_translations: { en: { title: 'x' }, es: { title: 'x' }, de: { og_image: 'nope' } } });
    expect(errors.map((e) => e.path)).toEqual(['body.seo_translations.en', 'body.seo_translations.es', 'body.seo_translations.de.og_image']);
    errors = await bad({ slug: 'x1', seo_translations: [{ locale: 'de', seo: { title: 'x' }, extra: 1 }] });
    expect(errors.map((e) => e.path)).toEqual(['body.seo_translations.0.extra']);
    errors = await bad({ slug: 'x1', seo_translations: [{ locale: 'de', seo: {} }, { locale: 'de', seo: {} }, { seo: {} }, { locale: 'fr', seo: 'x' }] });
    expect(errors.map((e) => e.path)).toEqual(['body.seo_translations.1.locale', 'body.seo_translations.2.locale', 'body.seo_translations.3.seo']);
    expect((await bad({ slug: 'x1', seo_translations: 'de' }))[0].path).toBe('body.seo_translations');
    expect((await bad({ slug: 'x1', seo: 'title' }))[0].path).toBe('body.seo');
    errors = await bad({ seo: {} });
    expect(errors).toEqual([{ path: 'body.slug', message: 'is required' }]);
    errors = await bad({ slug: 'Bad Slug' });
    expect(errors[0].path).toBe('body.slug');
    errors = await bad({ slug: 'reorder' });
    expect(errors[0].message).toContain('reserved');
    errors = await bad({ slug: 'x1', blocks: { type: 'hero' } });
    expect(errors[0].path).toBe('body.blocks');
    errors = await bad({ slug: 'x1', extra: true });
    expect(errors).toEqual([{ path: 'body.extra', message: 'is not a known key' }]);
    expect(await count('pages')).toBe(2);
  });

  it('answers 409 SLUG_TAKEN for a slug used in the workspace', async () => {
    expectError(await w.req('POST', '/pages', { slug: 'home' }), 409, 'SLUG_TAKEN');
  });

  it('accepts trees 10 levels deep and refuses 11 levels or more than 1,000 blocks with a clear 400', async () => {
    const ok = await w.req('POST', '/pages', { slug: 'deep', blocks: chain(10) });
    expect(ok.status).toBe(201);
    let depth = 0;
    for (let level = (await detail('deep')).blocks; level.length; level = level[0].children) depth++;
    expect(depth).toBe(10);
    const tooDeep = expectError(await w.req('POST', '/pages', { slug: 'deeper', blocks: chain(11) }), 400, 'VALIDATION_FAILED');
    expect(tooDeep.errors).toEqual([{ path: `body.blocks${'.0.children'.repeat(10)}`, message: 'blocks nest at most 10 levels deep; this tree goes deeper' }]);
    // An absurdly deep body is refused the same way (no stack overflow, no 500).
    const levels = 5000;
    const raw = `{"slug":"absurd","blocks":[${'{"type":"feature-grid","children":['.repeat(levels)}{"type":"cta"}${']}'.repeat(levels)}]}`;
    const absurd = await call(env.app, 'POST', '/api/v1/manage/pages', { key: w.keys.management, raw, headers: { 'content-type': 'application/json' } });
    expectError(absurd, 400, 'VALIDATION_FAILED');

    const items = (n: number) => Array.from({ length: n }, (_, i) => ({ type: 'feature-item', data: { label: `item ${i}` } }));
    const big = await w.req('POST', '/pages', { slug: 'big', blocks: [{ type: 'feature-grid', data: {}, children: items(999) }] });
    expect(big.status).toBe(201);
    const tooBig = expectError(
      await w.req('POST', '/pages', { slug: 'too-big', blocks: [{ type: 'feature-grid', data: {}, children: items(1000) }] }),
      400,
      'VALIDATION_FAILED',
    );
    expect(tooBig.errors).toEqual([{ path: 'body.blocks', message: 'a page holds at most 1000 blocks; this tree has more' }]);
    expect((await w.req('GET', '/pages/too-big')).status).toBe(404);
    expect((await w.req('DELETE', '/pages/big')).status).toBe(200);
    expect((await w.req('DELETE', '/pages/deep')).status).toBe(200);
  });

  it('PUT replaces SEO and the tree: sent ids stay (even when moved), unsent blocks go, new blocks get ids', async () => {
    const before = await detail('about');
    const [hero, grid] = before.blocks;
    const [fast, safe, nested] = grid.children;
    const chosen = newId();
    const res = await w.req(
      'PUT',
      '/pages/about',
      {
        seo: { title: 'About', description: 'Updated' },
        blocks: [
          // the nested grid moves to the root, keeping its id and its child
          { id: nested.id, type: 'feature-grid', data: { title: 'Moved' }, children: [{ id: nested.children[0].id, type: 'cta', data: { label: 'Go' } }] },
          {
            id: grid.id,
            type: 'feature-grid',
            data: { title: 'Features', columns: 2 },
            children: [
              { id: safe.id, type: 'feature-item', data: { label: 'Safe' } },
              { type: 'feature-item', data: { label: 'New' } },
              { id: chosen, type: 'feature-item', data: { label: 'Chosen id' } },
            ],
          },
        ],
      },
      { 'if-match': `"${before.page.id}-1"` },
    );
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(`"${before.page.id}-2"`);
    expect(res.body.data.seo).toEqual({ title: 'About', description: 'Updated', keywords: [], og_image: null, canonical: null });
    const after = await detail('about');
    expect(after.blocks.map((b: any) => b.id)).toEqual([nested.id, grid.id]);
    expect(after.blocks[0]).toMatchObject({ position: 0, data: JSON.stringify({ title: 'Moved' }) });
    expect(after.blocks[0]).not.toHaveProperty('parent_id');
    expect(after.blocks[0].children[0]).toMatchObject({ id: nested.children[0].id, parent_id: nested.id });
    const kids = after.blocks[1].children;
    expect(kids.map((c: any) => c.position)).toEqual([0, 1, 2]);
    expect(kids[0].id).toBe(safe.id);
    expect([hero.id, fast.id, safe.id, grid.id, nested.id]).not.toContain(kids[1].id);
    expect(kids[2].id).toBe(chosen);
    expect(flat(after.blocks).map((b: any) => b.id)).not.toContain(hero.id);
    // Translations absent: kept for kept blocks (the grid), gone with deleted blocks (hero, fast).
    expect(after.block_translations.map((t: any) => [t.block_id, t.locale])).toEqual([[grid.id, 'de']]);
    // seo_translations absent: kept, with their ids.
    expect(after.seo_translations).toEqual(before.seo_translations);
  });

  it('PUT replaces translations when given, keeping the ids of kept locales', async () => {
    const before = await detail('about');
    const grid = before.blocks[1];
    const deSeo = before.seo_translations.find((t: any) => t.locale === 'de');
    const gridTr = before.block_translations.find((t: any) => t.block_id === grid.id);
    const res = await w.req('PUT', '/pages/about', {
      seo: { title: 'About' },
      seo_translations: [{ locale: 'de', seo: { title: 'Über' } }],
      blocks: [
        {
          id: grid.id,
          type: 'feature-grid',
          data: { title: 'Features' },
          translations: { de: { data: { title: 'Merkmale' } }, fr: { data: { title: 'Fonctions' } } },
        },
      ],
    });
    expect(res.status).toBe(200);
    const after = await detail('about');
    expect(after.seo_translations).toEqual([{ id: deSeo.id, locale: 'de', page_id: before.page.id, seo: { title: 'Über' } }]);
    expect(after.block_translations.map((t: any) => [t.id === gridTr.id, t.locale, JSON.parse(t.data)])).toEqual([
      [true, 'de', { title: 'Merkmale' }],
      [false, 'fr', { title: 'Fonctions' }],
    ]);
    expect(flat(after.blocks)).toHaveLength(1);
    const cleared = await w.req('PUT', '/pages/about', {
      seo: {},
      seo_translations: {},
      blocks: [{ id: grid.id, type: 'feature-grid', data: {}, translations: {} }],
    });
    expect(cleared.status).toBe(200);
    const empty = await detail('about');
    expect(empty.seo_translations).toEqual([]);
    expect(empty.block_translations).toEqual([]);
    expect(empty.page.seo).toEqual({ title: null, description: null, keywords: [], og_image: null, canonical: null });
  });

  it('PUT with an id of another page’s block creates a block of this page under that id (ids are per page), renames the slug (409 when taken) and requires seo and blocks', async () => {
    const home = await detail('home');
    const homeBlocks = JSON.stringify(home.blocks);
    const named = await w.req('PUT', '/pages/about', { seo: {}, blocks: [{ id: home.blocks[0].id, type: 'cta', data: { label: 'Same id, other page' } }] });
    expect(named.status).toBe(200);
    expect((await detail('about')).blocks.map((b: any) => [b.id, b.type])).toEqual([[home.blocks[0].id, 'cta']]);
    expect(JSON.stringify((await detail('home')).blocks)).toBe(homeBlocks);
    expectError(await w.req('PUT', '/pages/about', { slug: 'home', seo: {}, blocks: [] }), 409, 'SLUG_TAKEN');
    expect(expectError(await w.req('PUT', '/pages/about', { slug: 'about', blocks: [] }), 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.seo', message: 'is required' },
    ]);
    expect(expectError(await w.req('PUT', '/pages/about', { slug: 'about', seo: {} }), 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.blocks', message: 'is required' },
    ]);
    const renamed = await w.req('PUT', '/pages/about', { slug: 'about-us', seo: { title: 'About' }, blocks: [] });
    expect(renamed.body.data.slug).toBe('about-us');
    expect((await w.req('GET', '/pages/about')).status).toBe(404);
    expect((await detail('about-us')).blocks).toEqual([]);
    expectError(await w.req('PUT', '/pages/nowhere', { seo: {}, blocks: [] }), 404, 'NOT_FOUND');
  });

  it('DELETE removes the page, its blocks and translations and closes the navigation gap', async () => {
    await w.req('POST', '/pages', {
      slug: 'temp',
      seo_translations: { de: { title: 'Temp' } },
      blocks: [{ type: 'feature-grid', data: {}, translations: { de: { data: { title: 'x' } } }, children: [{ type: 'cta', data: {} }] }],
    });
    const list = (await w.req('GET', '/pages')).body.data.map((p: any) => [p.slug, p.position]);
    expect(list).toEqual([
      ['home', 0],
      ['about-us', 1],
      ['temp', 2],
    ]);
    const counts = [await count('blocks'), await count('block_translations'), await count('page_seo_translations')];
    const res = await w.req('DELETE', '/pages/home');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Success', data: null, meta: null });
    expect([await count('blocks'), await count('block_translations'), await count('page_seo_translations')]).toEqual([counts[0] - 2, counts[1], counts[2]]);
    expect((await w.req('GET', '/pages')).body.data.map((p: any) => [p.slug, p.position])).toEqual([
      ['about-us', 0],
      ['temp', 1],
    ]);
    expectError(await w.req('GET', '/pages/home'), 404, 'NOT_FOUND');
    expectError(await w.req('DELETE', '/pages/home'), 404, 'NOT_FOUND');
    await w.req('DELETE', '/pages/temp');
    expect(await count('block_translations')).toBe(counts[1] - 1);
    expect(await count('page_seo_translations')).toBe(counts[2] - 1);
  });

  it('duplicates as a draft named -copy, then -copy-2, copying the tree with new block ids, appended last', async () => {
    await w.req('POST', '/pages', {
      slug: 'landing',
      seo: { title: 'Landing', keywords: ['a'] },
      seo_translations: { de: { title: 'Landung' } },
      blocks: [
        {
          type: 'feature-grid',
          data: { title: 'Grid' },
          translations: { de: { data: { title: 'Raster' } } },
          children: [
            { type: 'feature-item', data: { label: 'One' } },
            { type: 'feature-item', data: { label: 'Two' } },
          ],
        },
      ],
    });
    await w.req('PATCH', '/pages/landing/publish');
    const src = await detail('landing');
    const res = await w.req('POST', '/pages/landing/duplicate');
    expect(res.status).toBe(201);
    const copy = res.body.data;
    expect(copy).toMatchObject({ slug: 'landing-copy', status: 'draft', published_at: null, position: 2, seo: src.page.seo });
    expect(copy.id).not.toBe(src.page.id);
    expect(res.headers.etag).toBe(`"${copy.id}-1"`);
    const d = await detail('landing-copy');
    const shape = (blocks: any[]): any[] => blocks.map((b) => [b.type, b.position, JSON.parse(b.data), shape(b.children)]);
    expect(shape(d.blocks)).toEqual(shape(src.blocks));
    const srcIds = new Set(flat(src.blocks).map((b: any) => b.id));
    for (const b of flat(d.blocks)) {
      expect(srcIds.has(b.id)).toBe(false);
      expect(b.page_id).toBe(copy.id);
    }
    expect(d.blocks[0].children[0].parent_id).toBe(d.blocks[0].id);
    expect(d.block_translations.map((t: any) => [t.block_id, t.locale, JSON.parse(t.data)])).toEqual([[d.blocks[0].id, 'de', { title: 'Raster' }]]);
    expect(d.seo_translations.map((t: any) => [t.locale, t.seo, t.page_id])).toEqual([['de', { title: 'Landung' }, copy.id]]);
    expect((await w.req('POST', '/pages/landing/duplicate')).body.data.slug).toBe('landing-copy-2');
    expectError(await w.req('POST', '/pages/nowhere/duplicate'), 404, 'NOT_FOUND');
  });

  it('PATCH /pages/reorder takes the complete list of page ids (D34)', async () => {
    const pages = (await w.req('GET', '/pages', undefined)).body.data;
    const ids = pages.map((p: any) => p.id);
    const reversed = [...ids].reverse();
    const res = await w.req('PATCH', '/pages/reorder', { order: reversed });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const after = (await w.req('GET', '/pages')).body.data;
    expect(after.map((p: any) => p.id)).toEqual(reversed);
    expect(after.map((p: any) => p.position)).toEqual(reversed.map((_: string, i: number) => i));
    const moved = after.find((p: any) => p.id === ids[0]);
    const e1 = expectError(await w.req('PATCH', '/pages/reorder', { order: reversed.slice(1) }), 400, 'VALIDATION_FAILED');
    expect(e1.errors[0]).toMatchObject({ path: 'body.order', message: expect.stringContaining('complete list') });
    expectError(await w.req('PATCH', '/pages/reorder', { order: [...reversed, newId()] }), 400, 'VALIDATION_FAILED');
    expectError(await w.req('PATCH', '/pages/reorder', { order: [...reversed, reversed[0]] }), 400, 'VALIDATION_FAILED');
    expectError(await w.req('PATCH', '/pages/reorder', {}), 400, 'VALIDATION_FAILED');
    expect((await detail(moved.slug)).page.position).toBe(moved.position);
    await w.req('PATCH', '/pages/reorder', { order: ids });
  });

  it('PATCH /pages/{slug}/blocks/reorder reorders the roots or one parent’s children (complete set)', async () => {
    await w.req('POST', '/pages', {
      slug: 'order',
      blocks: [
        { type: 'hero', data: { headline: 'A' } },
        {
          type: 'feature-grid',
          data: {},
          children: [
            { type: 'feature-item', data: { label: '1' } },
            { type: 'feature-item', data: { label: '2' } },
            { type: 'feature-item', data: { label: '3' } },
          ],
        },
        { type: 'cta', data: {} },
      ],
    });
    const d = await detail('order');
    const roots = d.blocks.map((b: any) => b.id);
    const grid = d.blocks[1];
    const kids = grid.children.map((b: any) => b.id);
    const r1 = await w.req('PATCH', '/pages/order/blocks/reorder', { order: [roots[2], roots[0], roots[1]] }, { 'if-match': `"${d.page.id}-1"` });
    expect(r1.status).toBe(200);
    expect(r1.body.data).toBeNull();
    expect(r1.headers.etag).toBe(`"${d.page.id}-2"`);
    const r2 = await w.req('PATCH', '/pages/order/blocks/reorder', { parent_id: grid.id, order: [kids[2], kids[0], kids[1]] });
    expect(r2.status).toBe(200);
    const after = await detail('order');
    expect(after.blocks.map((b: any) => [b.id, b.position])).toEqual([
      [roots[2], 0],
      [roots[0], 1],
      [roots[1], 2],
    ]);
    expect(after.blocks[2].children.map((b: any) => b.id)).toEqual([kids[2], kids[0], kids[1]]);
    expect(after.blocks[2].children.map((b: any) => b.position)).toEqual([0, 1, 2]);
    expectError(await w.req('PATCH', '/pages/order/blocks/reorder', { order: [roots[0], roots[1]] }), 400, 'VALIDATION_FAILED');
    expectError(await w.req('PATCH', '/pages/order/blocks/reorder', { order: [...roots, kids[0]] }), 400, 'VALIDATION_FAILED');
    expectError(await w.req('PATCH', '/pages/order/blocks/reorder', { parent_id: grid.id, order: roots }), 400, 'VALIDATION_FAILED');
    const foreign = expectError(await w.req('PATCH', '/pages/order/blocks/reorder', { parent_id: newId(), order: [] }), 400, 'VALIDATION_FAILED');
    expect(foreign.errors[0].path).toBe('body.parent_id');
    // A leaf's children are the empty set: the empty list is its complete order.
    expect((await w.req('PATCH', '/pages/order/blocks/reorder', { parent_id: kids[0], order: [] })).status).toBe(200);
    expectError(await w.req('PATCH', '/pages/order/blocks/reorder', { order: roots }, { 'if-match': `"${d.page.id}-1"` }), 412, 'PRECONDITION_FAILED');
    expectError(await w.req('PATCH', '/pages/nowhere/blocks/reorder', { order: [] }), 404, 'NOT_FOUND');
  });

  it('PATCH /pages/{slug}/blocks/reorder without parent_id infers the parent from the ids', async () => {
    const item = (label: string) => ({ type: 'feature-item', data: { label } });
    await w.req('POST', '/pages', {
      slug: 'infer',
      blocks: [
        { type: 'hero', data: { headline: 'A' } },
        { type: 'feature-grid', data: {}, children: [item('1'), item('2'), { type: 'feature-grid', data: {}, children: [item('x'), item('y')] }] },
      ],
    });
    const d = await detail('infer');
    const roots = d.blocks.map((b: any) => b.id);
    const grid = d.blocks[1];
    const kids = grid.children.map((b: any) => b.id);
    const inner = grid.children[2].children.map((b: any) => b.id);
    const reorder = (body: unknown) => w.req('PATCH', '/pages/infer/blocks/reorder', body);
    const shape = async () => {
      const t = await detail('infer');
      return {
        version: (await w.req('GET', '/pages/infer')).headers.etag,
        tree: t.blocks.map((b: any) => [b.id, b.position, b.children.map((c: any) => [c.id, c.position, c.children.map((g: any) => [g.id, g.position])])]),
      };
    };

    // One block's children, then a grandchild level, then the roots: no parent_id needed.
    const r1 = await reorder({ order: [kids[2], kids[0], kids[1]] });
    expect(r1.status).toBe(200);
    expect(r1.headers.etag).toBe(`"${d.page.id}-2"`);
    expect((await detail('infer')).blocks[1].children.map((b: any) => [b.id, b.position])).toEqual([
      [kids[2], 0],
      [kids[0], 1],
      [kids[1], 2],
    ]);
    expect((await reorder({ order: [inner[1].toUpperCase(), inner[0]] })).status).toBe(200);
    expect((await detail('infer')).blocks[1].children[0].children.map((b: any) => b.id)).toEqual([inner[1], inner[0]]);
    expect((await reorder({ order: [roots[1], roots[0]] })).status).toBe(200);
    const after = await detail('infer');
    expect(after.blocks.map((b: any) => b.id)).toEqual([roots[1], roots[0]]);
    expect(after.blocks[0].children.map((b: any) => b.id)).toEqual([kids[2], kids[0], kids[1]]);

    const before = await shape();
    // Blocks of different parents: refused, whichever parents they are.
    for (const order of [
      [kids[0], inner[0]],
      [roots[0], kids[0]],
      [...kids, ...inner],
    ]) {
      const mixed = expectError(await reorder({ order }), 400, 'VALIDATION_FAILED');
      expect(mixed.errors).toEqual([{ path: 'body.order', message: expect.stringContaining('different parents') }]);
    }
    // Ids that are not blocks of this page: another page's block, an unknown uuid, not a uuid.
    const otherBlock = (await detail('order')).blocks[0].id;
    const unknown = newId();
    for (const id of [otherBlock, unknown, 'not-a-block']) {
      const foreign = expectError(await reorder({ order: [kids[0], kids[1], kids[2], id] }), 400, 'VALIDATION_FAILED');
      expect(foreign.errors).toEqual([{ path: 'body.order', message: `'${id}' is not a block of page 'infer'` }]);
    }
    expectError(await reorder({ order: [otherBlock] }), 400, 'VALIDATION_FAILED');
    // One parent inferred, then the usual complete-list check of its children.
    const partial = expectError(await reorder({ order: [kids[1], kids[0]] }), 400, 'VALIDATION_FAILED');
    expect(partial.errors).toEqual([{ path: 'body.order', message: `the complete list is required; missing ${kids[2]}` }]);
    expectError(await reorder({ order: [kids[0], kids[0], kids[1], kids[2]] }), 400, 'VALIDATION_FAILED');
    // An explicit parent_id (null: the roots) is not inferred; an empty list without it means the roots.
    expect(expectError(await reorder({ parent_id: null, order: kids }), 400, 'VALIDATION_FAILED').errors[0].path).toBe('body.order');
    expectError(await reorder({ order: [] }), 400, 'VALIDATION_FAILED');
    expect(await shape()).toEqual(before);
    await w.req('POST', '/pages', { slug: 'infer-empty' });
    expect((await w.req('PATCH', '/pages/infer-empty/blocks/reorder', { order: [] })).status).toBe(200);
    // Later tests count the pages using each block type.
    for (const slug of ['infer', 'infer-empty']) expect((await w.req('DELETE', `/pages/${slug}`)).status).toBe(200);
  });

  it('lists pages of every status with offset meta, a status filter and sorting', async () => {
    const all = await w.req('GET', '/pages?limit=2');
    expect(all.status).toBe(200);
    const total = await count('pages');
    expect(all.body.meta).toEqual({ total_data: total, current_page: 1, page_size: 2, total_pages: Math.ceil(total / 2), next_cursor: null });
    expect(all.body.data[0]).not.toHaveProperty('blocks');
    const published = await w.req('GET', '/pages?status=published');
    expect(published.body.data.map((p: any) => p.slug)).toEqual(['landing']);
    const bySlug = await w.req('GET', '/pages?sort=slug:desc&limit=100');
    const slugs = bySlug.body.data.map((p: any) => p.slug);
    expect(slugs).toEqual([...slugs].sort().reverse());
    expectError(await w.req('GET', '/pages?sort=title:asc'), 400, 'VALIDATION_FAILED');
    expectError(await w.req('GET', '/pages?status=gone'), 400, 'VALIDATION_FAILED');
    expectError(await w.req('GET', '/pages?page=1001'), 400, 'PAGE_TOO_DEEP');
  });

  it('ETag / If-Match: a stale tag answers 412 and changes nothing; the current one or * passes', async () => {
    const created = await w.req('POST', '/pages', { slug: 'locked', blocks: [{ type: 'cta', data: {} }] });
    const v1 = created.headers.etag as string;
    const got = await w.req('GET', '/pages/locked');
    expect(got.headers.etag).toBe(v1);
    const v2res = await w.req('PUT', '/pages/locked', { seo: { title: 'V2' }, blocks: [] }, { 'if-match': v1 });
    const v2 = v2res.headers.etag as string;
    expect(v2).not.toBe(v1);
    expectError(await w.req('PUT', '/pages/locked', { seo: { title: 'stale' }, blocks: [] }, { 'if-match': v1 }), 412, 'PRECONDITION_FAILED');
    expectError(await w.req('PATCH', '/pages/locked/publish', undefined, { 'if-match': v1 }), 412, 'PRECONDITION_FAILED');
    expectError(await w.req('PATCH', '/pages/locked/schedule', { publish_at: '2999-01-01T00:00:00.000Z' }, { 'if-match': v1 }), 412, 'PRECONDITION_FAILED');
    expectError(await w.req('DELETE', '/pages/locked', undefined, { 'if-match': `W/${v2}` }), 412, 'PRECONDITION_FAILED');
    expect((await detail('locked')).page.seo.title).toBe('V2');
    const pub = await w.req('PATCH', '/pages/locked/publish', undefined, { 'if-match': `"other", ${v2}` });
    expect(pub.status).toBe(200);
    expect((await w.req('DELETE', '/pages/locked', undefined, { 'if-match': '*' })).status).toBe(200);
  });

  it('Idempotency-Key: a repeated create returns the original page; another body answers 422', async () => {
    const key = newId();
    const body = { slug: 'idem', blocks: [{ type: 'cta', data: { label: 'Once' } }] };
    const first = await w.req('POST', '/pages', body, { 'idempotency-key': key });
    const again = await w.req('POST', '/pages', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers.etag).toBe(first.headers.etag);
    expectError(await w.req('POST', '/pages', { ...body, slug: 'idem-2' }, { 'idempotency-key': key }), 422, 'IDEMPOTENCY_KEY_REUSED');
    expect((await w.req('GET', '/pages?limit=100')).body.data.filter((p: any) => p.slug.startsWith('idem'))).toHaveLength(1);
  });

  it('enforces scopes (403 naming the scope) and the creator’s role; reads need no scope', async () => {
    const writer = await createMember(
      env.ctx,
      (await env.ctx.db.kysely.selectFrom('workspaces').select('slug').where('id', '=', w.workspaceId).executeTakeFirstOrThrow()).slug,
      `author-${newId()}@example.com`,
      'author',
    );
    const writeOnly = await createApiKey(env.ctx, w.workspaceId, writer.id, { keyClass: 'management', scopes: ['content:write', 'content:publish'] });
    const created = await w.req('POST', '/pages', { slug: 'by-author' }, undefined, writeOnly.key);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ created_by: writer.id, updated_by: writer.id });
    // The author role has no content:publish, whatever the key says.
    for (const verb of ['publish', 'unpublish', 'archive']) {
      expect(expectError(await w.req('PATCH', `/pages/by-author/${verb}`, undefined, undefined, writeOnly.key), 403, 'FORBIDDEN').message).toContain(
        'content:publish',
      );
    }
    expectError(await w.req('PATCH', '/pages/by-author/schedule', { publish_at: '2999-01-01T00:00:00.000Z' }, undefined, writeOnly.key), 403, 'FORBIDDEN');
    const publisher = await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'management', scopes: ['content:publish'] });
    for (const [method, url, body] of [
      ['POST', '/pages', { slug: 'nope' }],
      ['PUT', '/pages/by-author', { seo: {}, blocks: [] }],
      ['DELETE', '/pages/by-author', undefined],
      ['POST', '/pages/by-author/duplicate', undefined],
      ['PATCH', '/pages/reorder', { order: [] }],
      ['PATCH', '/pages/by-author/blocks/reorder', { order: [] }],
    ] as const) {
      expect(expectError(await w.req(method, url, body, undefined, publisher.key), 403, 'FORBIDDEN').message).toContain('content:write');
    }
    expect((await w.req('GET', '/pages/by-author', undefined, undefined, publisher.key)).status).toBe(200);
    expect((await w.req('GET', '/pages', undefined, undefined, publisher.key)).status).toBe(200);
    expectError(await w.req('GET', '/pages', undefined, undefined, w.keys.delivery), 401, 'UNAUTHORIZED');
    await w.req('DELETE', '/pages/by-author');
  });

  it('block-usage counts real blocks per type; a block type in use cannot be deleted (409)', async () => {
    const usage = async (slug: string) => (await w.req('GET', `/content-types/${slug}/block-usage`)).body.data;
    const items = await env.ctx.db.kysely
      .selectFrom('blocks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('block_type_id', '=', w.types['feature-item'])
      .executeTakeFirstOrThrow();
    const u = await usage('feature-item');
    expect(u.count).toBe(Number(items.n));
    expect(u.is_block).toBe(true);
    expect(u.pages.map((p: any) => p.slug).sort()).toEqual(['landing', 'landing-copy', 'landing-copy-2', 'order']);
    expect(u.pages.find((p: any) => p.slug === 'landing')).toEqual({ slug: 'landing', status: 'published' });
    await w.req('POST', '/content-types', { name: 'Spare', slug: 'spare', is_block: true, fields: [{ name: 'x', field_type: 'text' }] });
    await w.req('POST', '/pages', {
      slug: 'spare-user',
      blocks: [
        { type: 'spare', data: { x: '1' } },
        { type: 'feature-grid', data: {}, children: [{ type: 'spare', data: {} }] },
      ],
    });
    expect(await usage('spare')).toEqual({ count: 2, is_block: true, pages: [{ slug: 'spare-user', status: 'draft' }] });
    expectError(await w.req('DELETE', '/content-types/spare'), 409, 'CONTENT_TYPE_NOT_EMPTY');
    await w.req('PUT', '/pages/spare-user', { seo: {}, blocks: [{ type: 'cta', data: {} }] });
    expect(await usage('spare')).toEqual({ count: 0, is_block: true, pages: [] });
    expect((await w.req('DELETE', '/content-types/spare')).status).toBe(200);
  });

  it('concurrent writers: one If-Match winner, one slug, distinct -copy slugs and positions', async () => {
    const created = await w.req('POST', '/pages', { slug: 'race', blocks: [{ type: 'cta', data: {} }] });
    const tag = created.headers.etag as string;
    const puts = await Promise.all(
      [1, 2, 3].map((i) => w.req('PUT', '/pages/race', { seo: { title: `R${i}` }, blocks: [{ type: 'cta', data: { label: `R${i}` } }] }, { 'if-match': tag })),
    );
    expect(puts.map((r) => r.status).sort()).toEqual([200, 412, 412]);
    expect(flat((await detail('race')).blocks)).toHaveLength(1);
    const same = await Promise.all([1, 2, 3].map(() => w.req('POST', '/pages', { slug: 'race-same' })));
    expect(same.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const copies = await Promise.all([1, 2, 3].map(() => w.req('POST', '/pages/race/duplicate')));
    expect(copies.map((r) => r.body.data.slug).sort()).toEqual(['race-copy', 'race-copy-2', 'race-copy-3']);
    const positions = (await w.req('GET', '/pages?limit=100')).body.data.map((p: any) => p.position);
    expect(new Set(positions).size).toBe(positions.length);
    for (const slug of ['race', 'race-same', 'race-copy', 'race-copy-2', 'race-copy-3']) expect((await w.req('DELETE', `/pages/${slug}`)).status).toBe(200);
  });

  it('a refused write leaves no partial rows', async () => {
    const counts = async () => [
      await count('pages'),
      await count('blocks'),
      await count('block_translations'),
      await count('page_seo_translations'),
      await count('page_versions'),
      await count('published_blocks'),
    ];
    const before = await counts();
    // The second block's relation fails after the first block is fine: nothing is written.
    expectError(
      await w.req('POST', '/pages', {
        slug: 'partial',
        seo_translations: { de: { title: 'x' } },
        blocks: [
          { type: 'cta', data: {}, translations: { de: { data: { label: 'x' } } } },
          { type: 'hero', data: { featured: newId() } },
        ],
      }),
      400,
      'VALIDATION_FAILED',
    );
    const landing = await detail('landing');
    // A relation to an entry that does not exist is refused on every write, published or not.
    expectError(
      await w.req('PUT', '/pages/landing', {
        seo: {},
        blocks: [
          { type: 'cta', data: {} },
          { type: 'hero', data: { featured: newId() } },
        ],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await counts()).toEqual(before);
    expect(await detail('landing')).toEqual(landing);
  });
});
