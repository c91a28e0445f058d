/**
 * Working copies, published versions and history of pages, end to end over HTTP (docs/api.md
 * "Working copies, publishing changes and history" (D70, D71), "History" (D72)), on SQLite and
 * PostgreSQL: the published version of a page is its SEO, SEO
 * translations and whole block tree with block translations; production reads it, preview the
 * working copy; PUTs and block reorders change the working copy; versions are listed, read in the
 * page detail shape and restored; a scheduled page goes live as its working copy is at
 * `publish_at`; the delivery cache keeps production answers across working-copy saves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { call, createTestEnv, dialects, expectError, type Res, type TestEnv } from './helpers.js';
import { createPageWorld, flat, P, type PageWorld } from './pages-fixtures.js';

const T0 = Date.parse('2026-06-01T12:00:00.000Z');
const SEC = 1000;

describe.each(dialects())('page working copies and versions on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let now = T0;
  const tree = (headline: string, items: string[], de?: string) => [
    { type: 'hero', data: { headline }, ...(de ? { translations: { de: { data: { headline: de } } } } : {}) },
    { type: 'feature-grid', data: { title: 'Grid' }, children: items.map((label) => ({ type: 'feature-item', data: { label } })) },
  ];
  const delivered = (slug: string, key = w.keys.delivery, query = '') => call(env.app, 'GET', `${P}/pages/${slug}${query}`, { key });
  /** Headline of the first root block and labels of the grid's items, as a delivery answer shows them. */
  const shape = (res: Res) => {
    const blocks = res.body.data.blocks;
    return {
      headline: JSON.parse(blocks[0].data).headline,
      items: blocks[1].children.map((c: { data: string }) => JSON.parse(c.data).label),
      title: res.body.data.page.seo.title,
    };
  };
  const versions = async (slug: string): Promise<{ version: number; action: string; status: string }[]> =>
    (await w.req('GET', `/pages/${slug}/versions?limit=100`)).body.data;
  const record = async (slug: string) => (await w.req('GET', `/pages/${slug}`)).body.data.page;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  it('publishes a tree, then a PUT changes only the working copy: production keeps the published tree, preview shows the new one', async () => {
    const created = await w.req('POST', '/pages', { slug: 'home', seo: { title: 'Home' }, blocks: tree('Hello', ['a', 'b'], 'Hallo') });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'draft', has_pending_changes: false, published_version: null });
    now += SEC;
    expect((await w.req('PATCH', '/pages/home/publish')).status).toBe(200);
    expect(await record('home')).toMatchObject({ status: 'published', has_pending_changes: false, published_version: 2 });
    const live = await delivered('home');
    expect(shape(live)).toEqual({ headline: 'Hello', items: ['a', 'b'], title: 'Home' });
    expect((await delivered('home')).headers['x-cache']).toBe('HIT');

    now += SEC;
    const saved = await w.req('PUT', '/pages/home', { seo: { title: 'Home, edited' }, blocks: tree('Hello again', ['a', 'b', 'c'], 'Hallo wieder') });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ status: 'published', has_pending_changes: true, published_version: 2 });
    const after = await delivered('home');
    expect(after.headers['x-cache']).toBe('HIT');
    expect(shape(after)).toEqual({ headline: 'Hello', items: ['a', 'b'], title: 'Home' });
    expect(shape(await delivered('home', w.keys.preview))).toEqual({ headline: 'Hello again', items: ['a', 'b', 'c'], title: 'Home, edited' });
    expect(JSON.parse((await delivered('home', w.keys.delivery, '?locale=de')).body.data.blocks[0].data).headline).toBe('Hallo');
    expect(JSON.parse((await delivered('home', w.keys.preview, '?locale=de')).body.data.blocks[0].data).headline).toBe('Hallo wieder');
    expect((await call(env.app, 'GET', `${P}/pages`, { key: w.keys.delivery })).body.data[0].seo.title).toBe('Home');
  });

  it('a block reorder is a working-copy change too; slug and navigation order apply at once', async () => {
    const detail = (await w.req('GET', '/pages/home')).body.data;
    const items = detail.blocks[1].children.map((c: { id: string }) => c.id);
    now += SEC;
    expect((await w.req('PATCH', '/pages/home/blocks/reorder', { order: [...items].reverse() })).status).toBe(200);
    expect(shape(await delivered('home', w.keys.preview)).items).toEqual(['c', 'b', 'a']);
    expect(shape(await delivered('home')).items).toEqual(['a', 'b']);
    // The slug is an attribute of the page, not versioned content: it changes for everyone at once.
    now += SEC;
    const writable = (blocks: { id: string; type: string; data: string; children: unknown[] }[]): unknown[] =>
      blocks.map((b) => ({ id: b.id, type: b.type, data: b.data, children: writable(b.children as typeof blocks) }));
    const current = (await w.req('GET', '/pages/home')).body.data;
    expect((await w.req('PUT', '/pages/home', { slug: 'start', seo: { title: current.page.seo.title }, blocks: writable(current.blocks) })).status).toBe(200);
    expectError(await delivered('home'), 404, 'NOT_FOUND');
    expect(shape(await delivered('start')).items).toEqual(['a', 'b']);
  });

  it('publishing changes replaces the live tree; without changes it is 409', async () => {
    now += SEC;
    expect((await w.req('PATCH', '/pages/start/publish')).status).toBe(200);
    expect(shape(await delivered('start'))).toEqual({ headline: 'Hello again', items: ['c', 'b', 'a'], title: 'Home, edited' });
    const again = expectError(await w.req('PATCH', '/pages/start/publish'), 409, 'INVALID_STATE_TRANSITION');
    expect(again.message).toBe("page cannot be published from status 'published'");
    expect(await record('start')).toMatchObject({ has_pending_changes: false });
  });

  it('lists versions and reads one as a page detail with its block tree', async () => {
    const list = await versions('start');
    // The save and the reorder a second later were one person's consecutive updates: one version.
    expect(list.map((v) => v.action)).toEqual(['publish', 'update', 'publish', 'create']);
    expect(list.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    const v1 = await w.req('GET', '/pages/start/versions/1');
    expect(v1.status).toBe(200);
    expect(v1.body.meta).toMatchObject({ version: 1, action: 'create', status: 'draft' });
    expect(Object.keys(v1.body.data).sort()).toEqual(['block_translations', 'blocks', 'page', 'seo_translations']);
    expect(v1.body.data.page.seo.title).toBe('Home');
    expect(JSON.parse(v1.body.data.blocks[0].data)).toEqual({ headline: 'Hello' });
    expect(flat(v1.body.data.blocks).map((b: { type: string }) => b.type)).toEqual(['hero', 'feature-grid', 'feature-item', 'feature-item']);
    expect(v1.body.data.block_translations.map((t: { locale: string; data: string }) => [t.locale, JSON.parse(t.data)])).toEqual([
      ['de', { headline: 'Hallo' }],
    ]);
    expectError(await w.req('GET', '/pages/start/versions/77'), 404, 'NOT_FOUND');
    expectError(await w.req('GET', '/pages/start/versions/x'), 400, 'VALIDATION_FAILED');
  });

  it('restore brings back the whole tree as the working copy; production changes only on publish', async () => {
    now += SEC;
    const restored = await w.req('POST', '/pages/start/versions/1/restore');
    expect(restored.status).toBe(200);
    expect(restored.body.data).toMatchObject({ slug: 'start', status: 'published', has_pending_changes: true, published_version: 4 });
    expect((await versions('start'))[0]).toMatchObject({ version: 5, action: 'restore', status: 'published' });
    const working = (await w.req('GET', '/pages/start')).body.data;
    const v1 = (await w.req('GET', '/pages/start/versions/1')).body.data;
    // The same blocks (ids included), data and translations as version 1.
    expect(flat(working.blocks).map((b: { id: string; data: string }) => [b.id, b.data])).toEqual(
      flat(v1.blocks).map((b: { id: string; data: string }) => [b.id, b.data]),
    );
    expect(working.block_translations.map((t: { block_id: string; data: string }) => [t.block_id, t.data])).toEqual(
      v1.block_translations.map((t: { block_id: string; data: string }) => [t.block_id, t.data]),
    );
    expect(shape(await delivered('start'))).toEqual({ headline: 'Hello again', items: ['c', 'b', 'a'], title: 'Home, edited' });
    now += SEC;
    expect((await w.req('PATCH', '/pages/start/publish')).status).toBe(200);
    expect(shape(await delivered('start'))).toEqual({ headline: 'Hello', items: ['a', 'b'], title: 'Home' });
  });

  it('unpublish and archive take the page out of production and keep the working copy', async () => {
    now += SEC;
    expect((await w.req('PATCH', '/pages/start/unpublish')).status).toBe(200);
    expectError(await delivered('start'), 404, 'NOT_FOUND');
    expect(shape(await delivered('start', w.keys.preview)).headline).toBe('Hello');
    now += SEC;
    const archived = await w.req('PATCH', '/pages/start/archive');
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ status: 'archived', published_version: null, seo: { title: 'Home' } });
    expect((await w.req('GET', '/pages/start')).body.data.blocks).toHaveLength(2);
  });

  it('a scheduled page goes live as its working copy is at publish_at', async () => {
    expect((await w.req('POST', '/pages', { slug: 'launch', blocks: tree('Soon', ['x']) })).status).toBe(201);
    const at = new Date(now + 3_600_000).toISOString();
    expect((await w.req('PATCH', '/pages/launch/schedule', { publish_at: at })).status).toBe(200);
    // Scheduled content goes live without another request: its saves must be complete.
    expectError(await w.req('PUT', '/pages/launch', { seo: {}, blocks: [{ type: 'hero', data: {} }] }), 400, 'VALIDATION_FAILED');
    now += SEC;
    expect((await w.req('PUT', '/pages/launch', { seo: {}, blocks: tree('Launched', ['x', 'y']) })).status).toBe(200);
    expectError(await delivered('launch'), 404, 'NOT_FOUND');
    now += 3_600_000;
    expect(shape(await delivered('launch'))).toMatchObject({ headline: 'Launched', items: ['x', 'y'] });
    expect((await runSchedulerOnce(env.ctx)).pages).toBe(1);
    const list = await versions('launch');
    expect(list.map((v) => v.action)).toEqual(['publish', 'update', 'schedule', 'create']);
    const rec = await record('launch');
    expect(rec).toMatchObject({ status: 'published', published_at: at, published_version: list[0].version, has_pending_changes: false });
    expect(shape(await delivered('launch'))).toMatchObject({ headline: 'Launched', items: ['x', 'y'] });
  });

  it('a duplicate starts its own history; deleting a page deletes its versions and published copy', async () => {
    const copy = await w.req('POST', '/pages/launch/duplicate');
    expect(copy.status).toBe(201);
    expect((await versions(copy.body.data.slug)).map((v) => [v.version, v.action])).toEqual([[1, 'duplicate']]);
    const id = (await record('launch')).id;
    expect((await w.req('DELETE', '/pages/launch')).status).toBe(200);
    const k = env.ctx.db.kysely;
    expect(await k.selectFrom('page_versions').select('version').where('page_id', '=', id).execute()).toEqual([]);
    expect(await k.selectFrom('published_blocks').select('id').where('page_id', '=', id).execute()).toEqual([]);
  });

  it('concurrent saves and publishes leave contiguous versions; production shows exactly the published version', async () => {
    expect((await w.req('POST', '/pages', { slug: 'race', blocks: tree('R0', ['r']) })).status).toBe(201);
    expect((await w.req('PATCH', '/pages/race/publish')).status).toBe(200);
    for (let round = 1; round <= 3; round++) {
      now += 400 * SEC;
      const results = await Promise.all([
        w.req('PUT', '/pages/race', { seo: {}, blocks: tree(`R${round}a`, ['r', `${round}`]) }),
        w.req('PATCH', '/pages/race/publish'),
        w.req('PUT', '/pages/race', { seo: {}, blocks: tree(`R${round}b`, [`${round}`]) }),
        w.req('PATCH', '/pages/race/publish'),
      ]);
      for (const r of results) expect([200, 409]).toContain(r.status);
    }
    const list = await versions('race');
    const numbers = list.map((v) => v.version).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const rec = await record('race');
    const published = (await w.req('GET', `/pages/race/versions/${rec.published_version}`)).body.data;
    const live = (await delivered('race')).body.data;
    expect(flat(live.blocks).map((b: { id: string; data: string }) => [b.id, JSON.parse(b.data)])).toEqual(
      flat(published.blocks).map((b: { id: string; data: string }) => [b.id, JSON.parse(b.data)]),
    );
    const working = (await w.req('GET', '/pages/race')).body.data;
    const same =
      JSON.stringify(flat(working.blocks).map((b: { id: string; data: string }) => [b.id, b.data])) ===
      JSON.stringify(flat(published.blocks).map((b: { id: string; data: string }) => [b.id, b.data]));
    expect(rec.has_pending_changes).toBe(!same);
  });
});
