/**
 * Pages: working copies, published versions and history (docs/api.md "Working copies, publishing
 * changes and history" (D70, D71), "History" (D72)), end to end over
 * HTTP on SQLite and PostgreSQL.
 *
 * - D70: production delivery reads the published version (SEO, SEO translations, the block tree
 *   with block translations, relations and media inside blocks, `locale` overlay), preview keys
 *   and the management API the working copy; PUTs and block reorders change the working copy
 *   only (`has_pending_changes`); slug and navigation order apply at once and are not versioned.
 * - D71: publish from `published` only with pending changes; unpublish and archive take the page
 *   out of production and keep the working copy; required block fields are checked on the working
 *   copy at publish time only; a scheduled page goes live as its working copy is at publish_at.
 * - D72: every content or state change appends a version; list (newest first, offset
 *   pagination, no snapshots), read (page detail shape), restore (scope content:write, status
 *   unchanged), duplicate, coalescing of one actor's updates, versions deleted with the page.
 * - The delivery cache keeps production answers across working-copy saves and refreshes them on
 *   publish; concurrent saves and publishes end consistent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createMember } from '../src/modules/auth/operations.js';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { call, createTestEnv, dialects, expectError, type Res, type TestEnv } from './helpers.js';
import { createPageWorld, doc, flat, M, P, type PageWorld } from './pages-fixtures.js';

const T0 = Date.parse('2026-07-01T08:00:00.000Z');
const SEC = 1000;
/** The coalesce window of the main suite (config versionCoalesceSeconds). */
const WINDOW = 60;

/* ------------------------------------------------------------------ helpers on wire shapes */

/** Drops null values (delivery answers list unset relation/media fields as null). */
function clean(v: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== null));
}

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/**
 * The versioned content of a page detail ({page, blocks, seo_translations, block_translations}),
 * comparable between a management detail, a version and a delivery answer without `locale`:
 * SEO, SEO translations by locale, the flat block tree (ids, parents, positions, data) and block
 * translations by block and locale.
 */
function content(d: any) {
  return {
    seo: d.page.seo,
    seo_translations: d.seo_translations.map((t: any) => [t.locale, t.seo]).sort(byJson),
    blocks: flat(d.blocks).map((b: any) => ({ id: b.id, type: b.type, parent_id: b.parent_id ?? null, position: b.position, data: clean(JSON.parse(b.data)) })),
    block_translations: d.block_translations.map((t: any) => [t.block_id, t.locale, JSON.parse(t.data)]).sort(byJson),
  };
}

/** The same content without block ids (for copies, which get new ids). */
function shapeOnly(d: any) {
  const c = content(d);
  const index = new Map(c.blocks.map((b: any, i: number) => [b.id, i]));
  return {
    seo: c.seo,
    seo_translations: c.seo_translations,
    blocks: c.blocks.map((b: any) => ({ type: b.type, parent: b.parent_id === null ? null : index.get(b.parent_id), position: b.position, data: b.data })),
    block_translations: c.block_translations.map(([id, locale, data]: any) => [index.get(id), locale, data]).sort(byJson),
  };
}

/** A management page detail as a PUT body that keeps every block (ids, translations). */
function writable(d: any): { slug?: string; seo: Record<string, unknown>; seo_translations: Record<string, unknown>; blocks: any[] } {
  const trs = new Map<string, Record<string, { data: unknown }>>();
  for (const t of d.block_translations) {
    const m = trs.get(t.block_id) ?? {};
    m[t.locale] = { data: JSON.parse(t.data) };
    trs.set(t.block_id, m);
  }
  const conv = (b: any): any => ({ id: b.id, type: b.type, data: JSON.parse(b.data), translations: trs.get(b.id) ?? {}, children: b.children.map(conv) });
  const seo = Object.fromEntries(Object.entries(d.page.seo).filter(([, v]) => v !== null));
  return { seo, seo_translations: Object.fromEntries(d.seo_translations.map((t: any) => [t.locale, t.seo])), blocks: d.blocks.map(conv) };
}

/** A typical tree: a hero (de translation), a grid of items (fr translations) and a rich text. */
function tree(tag: string, items: string[] = ['one', 'two']): any[] {
  return [
    { type: 'hero', data: { headline: `${tag} headline`, subline: `${tag} sub` }, translations: { de: { data: { headline: `${tag} Überschrift` } } } },
    {
      type: 'feature-grid',
      data: { title: `${tag} grid`, columns: 2 },
      children: items.map((label) => ({
        type: 'feature-item',
        data: { label: `${tag} ${label}`, icon: label },
        translations: { fr: { data: { label: `${tag} ${label} (fr)` } } },
      })),
    },
    { type: 'rich-text', data: { body: doc(`${tag} body`) } },
  ];
}

const headline = (d: any) => JSON.parse(d.blocks[0].data).headline;
const labels = (d: any) => d.blocks[1].children.map((c: any) => JSON.parse(c.data).label);

describe.each(dialects())('pages: working copies, published versions and history (D70–D72) on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let now = T0;
  const tick = (ms = SEC) => {
    now += ms;
  };
  /** A second member of the workspace (role editor) with its own management key. */
  let editor: { id: number; key: string };
  /** A management key of the owner without content:write. */
  let publishOnlyKey: string;
  /** A management key of a viewer. */
  let viewerKey: string;

  const get = (url: string, key: string) => call(env.app, 'GET', url, { key });
  const prod = (slug: string, query = '', key = w.keys.delivery) => get(`${P}/pages/${slug}${query}`, key);
  const preview = (slug: string, query = '') => get(`${P}/pages/${slug}${query}`, w.keys.preview);
  const prodList = (query = '?limit=100', key = w.keys.delivery) => get(`${P}/pages${query}`, key);
  const ok = async (res: Promise<Res>, status = 200): Promise<any> => {
    const r = await res;
    if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const detail = async (slug: string) => (await ok(w.req('GET', `/pages/${slug}`))).data;
  const record = async (slug: string) => (await detail(slug)).page;
  const versions = async (slug: string): Promise<any[]> => (await ok(w.req('GET', `/pages/${slug}/versions?limit=100`))).data;
  const version = async (slug: string, n: number) => ok(w.req('GET', `/pages/${slug}/versions/${n}`));
  const actions = async (slug: string) => (await versions(slug)).map((v) => [v.version, v.action, v.status]);
  const create = async (slug: string, body: Record<string, unknown> = {}) =>
    (await ok(w.req('POST', '/pages', { slug, blocks: tree(slug), ...body }), 201)).data;
  const put = async (slug: string, body: unknown, key?: string) => (await ok(w.req('PUT', `/pages/${slug}`, body, undefined, key))).data;
  const publish = async (slug: string) => ok(w.req('PATCH', `/pages/${slug}/publish`));
  /** GET the working copy, change it, PUT it back (blocks keep their ids). */
  const edit = async (slug: string, change: (body: ReturnType<typeof writable>) => void, key?: string) => {
    const body = writable(await detail(slug));
    change(body);
    return put(slug, body, key);
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now), config: { versionCoalesceSeconds: WINDOW } });
    w = await createPageWorld(env.ctx, env.app);
    const ws = await env.ctx.db.kysely.selectFrom('workspaces').select('slug').where('id', '=', w.workspaceId).executeTakeFirstOrThrow();
    const member = await createMember(env.ctx, ws.slug, `editor-${dialect}@example.com`, 'editor');
    editor = { id: member.id, key: (await createApiKey(env.ctx, w.workspaceId, member.id, { keyClass: 'management' })).key };
    publishOnlyKey = (await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'management', scopes: ['content:publish'] })).key;
    const viewer = await createMember(env.ctx, ws.slug, `viewer-${dialect}@example.com`, 'viewer');
    viewerKey = (await createApiKey(env.ctx, w.workspaceId, viewer.id, { keyClass: 'management' })).key;
  });
  afterAll(async () => env?.close());

  /* ---------------------------------------------------------------------------------- D70 */

  it('D70: a PUT on a published page changes only the working copy (SEO, SEO translations, block tree, block translations); production keeps the published version', async () => {
    const created = await create('story', {
      seo: { title: 'Story', description: 'A story', keywords: ['story'] },
      seo_translations: { de: { title: 'Geschichte' }, fr: { title: 'Histoire', description: 'Une histoire' } },
      blocks: tree('v1'),
    });
    expect(created).toMatchObject({ status: 'draft', has_pending_changes: false, published_version: null });
    tick();
    await publish('story');
    const published = await detail('story');
    expect(published.page).toMatchObject({ status: 'published', has_pending_changes: false, published_version: 2 });
    const publishedAt = published.page.published_at;
    const live = await ok(prod('story'));
    expect(content(live.data)).toEqual(content(published));

    tick();
    const saved = await put('story', {
      seo: { title: 'Story, revised', keywords: ['story', 'revised'] },
      seo_translations: { de: { title: 'Geschichte, überarbeitet' } },
      blocks: [
        ...tree('v2', ['three', 'one', 'two']).reverse(),
        { type: 'cta', data: { label: 'Go', url: 'https://example.com/go' }, translations: { de: { data: { label: 'Los' } } } },
      ],
    });
    expect(saved).toMatchObject({
      status: 'published',
      has_pending_changes: true,
      published_version: 2,
      published_at: publishedAt,
      seo: { title: 'Story, revised' },
    });
    // Every management record of the page says so: detail, list, the PUT answer.
    const working = await detail('story');
    expect(working.page).toMatchObject({ status: 'published', has_pending_changes: true, published_version: 2 });
    const listed = (await ok(w.req('GET', '/pages?limit=100'))).data.find((p: any) => p.slug === 'story');
    expect(listed).toMatchObject({ status: 'published', has_pending_changes: true, published_version: 2, seo: { title: 'Story, revised' } });
    expect(working.blocks.map((b: any) => b.type)).toEqual(['rich-text', 'feature-grid', 'hero', 'cta']);
    expect(working.seo_translations.map((t: any) => t.locale)).toEqual(['de']);

    // Production: exactly the published version, in every part.
    const after = await ok(prod('story'));
    expect(content(after.data)).toEqual(content(published));
    expect(after.data.page).toMatchObject({
      status: 'published',
      published_at: publishedAt,
      seo: { title: 'Story', description: 'A story', keywords: ['story'] },
    });
    const de = (await ok(prod('story', '?locale=de'))).data;
    expect(de.page.seo.title).toBe('Geschichte');
    expect(headline(de)).toBe('v1 Überschrift');
    const fr = (await ok(prod('story', '?locale=fr'))).data;
    expect(fr.page.seo).toMatchObject({ title: 'Histoire', description: 'Une histoire' });
    expect(labels(fr)).toEqual(['v1 one (fr)', 'v1 two (fr)']);
    expect(fr.page.is_fallback).toBe(false);
    const prodListed = (await ok(prodList())).data.find((p: any) => p.slug === 'story');
    expect(prodListed.seo.title).toBe('Story');
    expect((await ok(prodList('?limit=100&locale=de'))).data.find((p: any) => p.slug === 'story').seo.title).toBe('Geschichte');

    // Preview: the working copy.
    const pv = (await ok(preview('story'))).data;
    expect(content(pv)).toEqual(content(working));
    const pvDe = (await ok(preview('story', '?locale=de'))).data;
    expect(pvDe.page.seo.title).toBe('Geschichte, überarbeitet');
    expect(pvDe.blocks.map((b: any) => JSON.parse(b.data).label ?? JSON.parse(b.data).headline ?? null)).toContain('Los');
    const pvFr = (await ok(preview('story', '?locale=fr'))).data;
    expect(pvFr.page.seo.title).toBe('Story, revised');
    expect((await ok(prodList('?limit=100', w.keys.preview))).data.find((p: any) => p.slug === 'story').seo.title).toBe('Story, revised');
  });

  it('D70: relations and media inside blocks resolve from the published tree in production and from the working copy in preview', async () => {
    const a1 = await w.article('rel-one', 'Relation one', 'Beziehung eins');
    const a2 = await w.article('rel-two', 'Relation two', 'Beziehung zwei');
    const m1 = await w.media({ alt_text: 'first image' });
    const m2 = await w.media({ alt_text: 'second image' });
    await create('linked', {
      blocks: [
        { type: 'hero', data: { headline: 'Linked', image: m1, featured: a1 } },
        { type: 'feature-grid', data: { title: 'Grid' }, children: [{ type: 'feature-item', data: { label: 'Item', articles: [a1] } }] },
      ],
    });
    await publish('linked');
    tick();
    await edit('linked', (b) => {
      b.blocks[0].data = { headline: 'Linked', image: m2, featured: a2 };
      b.blocks[1].children[0].data = { label: 'Item', articles: [a2, a1] };
    });
    const data = (d: any, i: number) => JSON.parse(flat(d.blocks)[i].data);
    const live = (await ok(prod('linked', '?locale=de'))).data;
    expect(data(live, 0).featured).toMatchObject({ id: a1, title: 'Beziehung eins' });
    expect(data(live, 0).image).toMatchObject({ id: m1, alt_text: 'first image' });
    expect(data(live, 2).articles.map((a: any) => a.id)).toEqual([a1]);
    const pv = (await ok(preview('linked', '?locale=de'))).data;
    expect(data(pv, 0).featured).toMatchObject({ id: a2, title: 'Beziehung zwei' });
    expect(data(pv, 0).image).toMatchObject({ id: m2, alt_text: 'second image' });
    expect(data(pv, 2).articles.map((a: any) => a.id)).toEqual([a2, a1]);
    tick();
    await publish('linked');
    const now2 = (await ok(prod('linked', '?locale=de'))).data;
    expect(data(now2, 0).featured).toMatchObject({ id: a2, title: 'Beziehung zwei' });
    expect(data(now2, 0).image).toMatchObject({ id: m2 });
    expect(data(now2, 2).articles.map((a: any) => a.id)).toEqual([a2, a1]);
  });

  it('D70: a block reorder (root blocks or the children of one block) is a working-copy change', async () => {
    await create('ordered', { blocks: tree('o', ['a', 'b', 'c']) });
    await publish('ordered');
    const before = await detail('ordered');
    const grid = before.blocks[1];
    tick();
    await ok(w.req('PATCH', '/pages/ordered/blocks/reorder', { parent_id: grid.id, order: [...grid.children.map((c: any) => c.id)].reverse() }));
    tick();
    await ok(w.req('PATCH', '/pages/ordered/blocks/reorder', { order: [before.blocks[2].id, before.blocks[0].id, before.blocks[1].id] }));
    expect(await record('ordered')).toMatchObject({ status: 'published', has_pending_changes: true, published_version: 2 });
    // One person's consecutive updates a second apart: one version.
    expect(await actions('ordered')).toEqual([
      [3, 'update', 'published'],
      [2, 'publish', 'published'],
      [1, 'create', 'draft'],
    ]);
    const live = (await ok(prod('ordered'))).data;
    expect(content(live)).toEqual(content(before));
    const pv = (await ok(preview('ordered'))).data;
    expect(pv.blocks.map((b: any) => b.type)).toEqual(['rich-text', 'hero', 'feature-grid']);
    expect(labels({ blocks: [null, pv.blocks[2]] })).toEqual(['o c', 'o b', 'o a']);
    tick();
    await publish('ordered');
    const after = (await ok(prod('ordered'))).data;
    expect(after.blocks.map((b: any) => b.type)).toEqual(['rich-text', 'hero', 'feature-grid']);
    expect(labels({ blocks: [null, after.blocks[2]] })).toEqual(['o c', 'o b', 'o a']);
    expect(content(after)).toEqual(content(await detail('ordered')));
  });

  it('D70: slug and navigation order apply to production at once and are not versioned', async () => {
    await create('alpha', { seo: { title: 'Alpha' } });
    await create('beta', { seo: { title: 'Beta' } });
    await publish('alpha');
    await publish('beta');
    tick();
    // alpha has pending changes, beta none.
    await edit('alpha', (b) => {
      b.seo.title = 'Alpha, edited';
    });
    const alphaVersions = await versions('alpha');
    const betaVersions = await versions('beta');
    const order = async (key = w.keys.delivery) =>
      (await ok(prodList('?limit=100', key))).data.map((p: any) => p.slug).filter((s: string) => s === 'alpha' || s === 'beta');
    expect(await order()).toEqual(['alpha', 'beta']);
    // Cached now: the reorder must still show at once.
    expect((await prodList()).headers['x-cache']).toBe('HIT');

    const all = (await ok(w.req('GET', '/pages?limit=100'))).data.map((p: any) => ({ id: p.id, slug: p.slug }));
    const ids = all.map((p: any) => p.id);
    const a = all.find((p: any) => p.slug === 'alpha').id;
    const b = all.find((p: any) => p.slug === 'beta').id;
    const reordered = ids.filter((id: string) => id !== a && id !== b);
    reordered.unshift(b, a);
    tick();
    await ok(w.req('PATCH', '/pages/reorder', { order: reordered }));
    const afterList = await prodList();
    expect(afterList.headers['x-cache']).not.toBe('HIT');
    expect(await order()).toEqual(['beta', 'alpha']);
    expect(await order(w.keys.preview)).toEqual(['beta', 'alpha']);
    expect(afterList.body.data.slice(0, 2).map((p: any) => [p.slug, p.position, p.seo.title])).toEqual([
      ['beta', 0, 'Beta'],
      ['alpha', 1, 'Alpha'],
    ]);
    expect(await record('alpha')).toMatchObject({
      position: 1,
      has_pending_changes: true,
      published_version: alphaVersions.find((v) => v.action === 'publish').version,
    });
    expect(await record('beta')).toMatchObject({ position: 0, has_pending_changes: false });
    expect(await versions('alpha')).toEqual(alphaVersions);
    expect(await versions('beta')).toEqual(betaVersions);

    // A slug change applies at once, for production too, without a new version or pending changes.
    expect((await prod('beta')).status).toBe(200);
    const betaLive = (await ok(prod('beta'))).data;
    tick();
    const renamed = await edit('beta', (body) => {
      body.slug = 'beta-renamed';
    });
    expect(renamed).toMatchObject({ slug: 'beta-renamed', status: 'published', has_pending_changes: false });
    expectError(await prod('beta'), 404, 'NOT_FOUND');
    const moved = (await ok(prod('beta-renamed'))).data;
    expect(content(moved)).toEqual(content(betaLive));
    expect(moved.page.slug).toBe('beta-renamed');
    expect(await versions('beta-renamed')).toEqual(betaVersions);
    expectError(await w.req('GET', '/pages/beta/versions'), 404, 'NOT_FOUND');
    expect((await version('beta-renamed', 1)).data.page.slug).toBe('beta-renamed');

    // On a page with pending changes, the new slug serves the published content.
    tick();
    await edit('alpha', (body) => {
      body.slug = 'alpha-renamed';
    });
    expectError(await prod('alpha'), 404, 'NOT_FOUND');
    expect((await ok(prod('alpha-renamed'))).data.page.seo.title).toBe('Alpha');
    expect((await ok(preview('alpha-renamed'))).data.page.seo.title).toBe('Alpha, edited');
  });

  it('D70: a block id that a published page’s working copy gave up can be published on another page; each production tree stays whole', async () => {
    const moving = '0b0c0d0e-0000-4000-8000-000000000001';
    await create('from', {
      blocks: [
        { id: moving, type: 'cta', data: { label: 'moving' }, translations: { de: { data: { label: 'wandernd' } } } },
        { type: 'cta', data: { label: 'staying' } },
      ],
    });
    await publish('from');
    const fromLive = (await ok(prod('from'))).data;
    tick();
    // The block leaves the working copy of 'from' (its published version still has it) …
    await edit('from', (b) => void b.blocks.shift());
    // … and a client moves it, by id, to a new page.
    await create('to', { blocks: [{ id: moving, type: 'cta', data: { label: 'moved' }, translations: { de: { data: { label: 'umgezogen' } } } }] });
    expect(flat((await detail('to')).blocks).map((b: any) => b.id)).toEqual([moving]);
    const published = await w.req('PATCH', '/pages/to/publish');
    expect(published.status).toBe(200);
    const toLive = (await ok(prod('to', '?locale=de'))).data;
    expect(toLive.blocks.map((b: any) => [b.id, JSON.parse(b.data).label])).toEqual([[moving, 'umgezogen']]);
    expect(content((await ok(prod('from'))).data)).toEqual(content(fromLive));
    expect((await ok(prod('from', '?locale=de'))).data.blocks.map((b: any) => JSON.parse(b.data).label)).toEqual(['wandernd', 'staying']);
    // Publishing 'from' again replaces its live tree without the block.
    tick();
    expect((await w.req('PATCH', '/pages/from/publish')).status).toBe(200);
    expect((await ok(prod('from'))).data.blocks.map((b: any) => JSON.parse(b.data).label)).toEqual(['staying']);
  });

  it('D70: with locale, production overlays the published translations (is_fallback included), preview those of the working copy', async () => {
    await create('plain', { seo: { title: 'Plain' }, blocks: [{ type: 'cta', data: { label: 'plain' } }] });
    await publish('plain');
    tick();
    await edit('plain', (b) => {
      b.blocks[0].translations = { de: { data: { label: 'schlicht' } } };
    });
    const live = (await ok(prod('plain', '?locale=de'))).data;
    expect(live.page.is_fallback).toBe(true);
    expect(JSON.parse(live.blocks[0].data).label).toBe('plain');
    expect(live.block_translations).toEqual([]);
    expect((await ok(prodList('?limit=100&locale=de'))).data.find((p: any) => p.slug === 'plain').is_fallback).toBe(true);
    const pv = (await ok(preview('plain', '?locale=de'))).data;
    expect(pv.page.is_fallback).toBe(false);
    expect(JSON.parse(pv.blocks[0].data).label).toBe('schlicht');
    expect((await ok(prodList('?limit=100&locale=de', w.keys.preview))).data.find((p: any) => p.slug === 'plain').is_fallback).toBe(false);
    tick();
    await publish('plain');
    const after = (await ok(prod('plain', '?locale=de'))).data;
    expect(after.page.is_fallback).toBe(false);
    expect(JSON.parse(after.blocks[0].data).label).toBe('schlicht');
  });

  it('D72: restoring a version whose block another page’s published version now holds, then publishing it', async () => {
    const shared = '0b0c0d0e-0000-4000-8000-000000000002';
    await create('first-home', { blocks: [{ id: shared, type: 'cta', data: { label: 'first' } }] });
    await publish('first-home');
    tick();
    // The block leaves 'first-home' (also from its live tree) …
    await put('first-home', { seo: {}, blocks: [{ type: 'cta', data: { label: 'replacement' } }] });
    tick();
    await publish('first-home');
    // … is published on 'second-home', and then removed from that page's working copy only.
    await create('second-home', { blocks: [{ id: shared, type: 'cta', data: { label: 'second' } }] });
    const second = await w.req('PATCH', '/pages/second-home/publish');
    expect(second.status).toBe(200);
    tick();
    await put('second-home', { seo: {}, blocks: [] });
    // Restoring version 1 of 'first-home' brings the block back to its working copy; publishing it must work.
    tick();
    const restored = await ok(w.req('POST', '/pages/first-home/versions/1/restore'));
    expect(restored.data).toMatchObject({ status: 'published', has_pending_changes: true });
    expect(flat((await detail('first-home')).blocks).map((b: any) => b.id)).toEqual([shared]);
    tick();
    const res = await w.req('PATCH', '/pages/first-home/publish');
    expect(res.status).toBe(200);
    expect((await ok(prod('first-home'))).data.blocks.map((b: any) => [b.id, JSON.parse(b.data).label])).toEqual([[shared, 'first']]);
    expect((await ok(prod('second-home'))).data.blocks.map((b: any) => [b.id, JSON.parse(b.data).label])).toEqual([[shared, 'second']]);
  });

  /* ---------------------------------------------------------------------------------- D71 */

  it('D71: publish from published replaces the live tree only with pending changes; without them 409', async () => {
    await create('twice', { seo: { title: 'Twice' } });
    await publish('twice');
    const refused = expectError(await w.req('PATCH', '/pages/twice/publish'), 409, 'INVALID_STATE_TRANSITION');
    expect(refused.message).toBe("page cannot be published from status 'published'");
    tick();
    await edit('twice', (b) => {
      b.seo.title = 'Twice, again';
      b.blocks[0].data.headline = 'Second headline';
      b.blocks[1].children.push({ type: 'feature-item', data: { label: 'new item' } });
    });
    tick();
    expect((await publish('twice')).data).toBeNull();
    const rec = await record('twice');
    expect(rec).toMatchObject({ status: 'published', has_pending_changes: false, published_version: 4, published_at: new Date(now).toISOString() });
    const live = (await ok(prod('twice'))).data;
    expect(content(live)).toEqual(content(await detail('twice')));
    expect(live.page.seo.title).toBe('Twice, again');
    expect(labels(live)).toEqual(['twice one', 'twice two', 'new item']);
    expect(await actions('twice')).toEqual([
      [4, 'publish', 'published'],
      [3, 'update', 'published'],
      [2, 'publish', 'published'],
      [1, 'create', 'draft'],
    ]);
    expect(expectError(await w.req('PATCH', '/pages/twice/publish'), 409, 'INVALID_STATE_TRANSITION').message).toBe(
      "page cannot be published from status 'published'",
    );
    expect(await actions('twice')).toHaveLength(4);
  });

  it('D71: unpublish removes the page from production and keeps the working copy, pending changes included', async () => {
    await create('gone', { seo: { title: 'Gone' } });
    await publish('gone');
    tick();
    await edit('gone', (b) => {
      b.seo.title = 'Gone, edited';
      b.blocks.pop();
    });
    const working = await detail('gone');
    tick();
    const res = await ok(w.req('PATCH', '/pages/gone/unpublish'));
    expect(res.data).toBeNull();
    expectError(await prod('gone'), 404, 'NOT_FOUND');
    expect((await ok(prodList())).data.map((p: any) => p.slug)).not.toContain('gone');
    expectError(await prod('gone', '?locale=de'), 404, 'NOT_FOUND');
    const after = await detail('gone');
    expect(after.page).toMatchObject({ status: 'draft', published_version: null, has_pending_changes: false, published_at: null });
    expect(content(after)).toEqual(content(working));
    expect(content((await ok(preview('gone'))).data)).toEqual(content(working));
    expect((await versions('gone'))[0]).toMatchObject({ version: 4, action: 'unpublish', status: 'draft' });
    // Publishing again publishes the working copy as it is now.
    tick();
    await publish('gone');
    expect(content((await ok(prod('gone'))).data)).toEqual(content(working));
  });

  it('D71: archive removes the page from production and answers the Page with its working copy', async () => {
    await create('attic', { seo: { title: 'Attic' }, seo_translations: { de: { title: 'Dachboden' } } });
    await publish('attic');
    tick();
    await edit('attic', (b) => {
      b.seo.title = 'Attic, edited';
      b.blocks[0].data.headline = 'Edited headline';
    });
    const working = await detail('attic');
    tick();
    const res = await ok(w.req('PATCH', '/pages/attic/archive'));
    expect(res.data).toMatchObject({ slug: 'attic', status: 'archived', seo: { title: 'Attic, edited' }, has_pending_changes: false, published_version: null });
    expectError(await prod('attic'), 404, 'NOT_FOUND');
    expectError(await prod('attic', '?locale=de'), 404, 'NOT_FOUND');
    expect((await ok(prodList())).data.map((p: any) => p.slug)).not.toContain('attic');
    const after = await detail('attic');
    expect(content(after)).toEqual(content(working));
    expect((await versions('attic'))[0]).toMatchObject({ action: 'archive', status: 'archived' });
    tick();
    await publish('attic');
    const live = (await ok(prod('attic'))).data;
    expect(content(live)).toEqual(content(working));
    expect(headline(live)).toBe('Edited headline');
  });

  it('D71: required block fields are checked on the working copy at publish time only', async () => {
    // A draft may lack them; publishing it may not.
    await create('strict', { blocks: [{ type: 'hero', data: { subline: 'no headline yet' } }] });
    expect(expectError(await w.req('PATCH', '/pages/strict/publish'), 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'blocks.0.data.headline', message: 'is required' },
    ]);
    await put('strict', { seo: {}, blocks: tree('strict') });
    await publish('strict');
    const published = await detail('strict');
    const before = await versions('strict');

    // Saving an incomplete working copy of a published page is fine; it cannot be published.
    tick();
    await edit('strict', (b) => {
      b.blocks[1].children[1].data = { icon: 'no label' };
    });
    const err = expectError(await w.req('PATCH', '/pages/strict/publish'), 400, 'VALIDATION_FAILED');
    expect(err.errors).toEqual([{ path: 'blocks.1.children.1.data.label', message: 'is required' }]);
    expect(await record('strict')).toMatchObject({ status: 'published', has_pending_changes: true, published_version: published.page.published_version });
    expect((await versions('strict')).length).toBe(before.length + 1);
    expect(content((await ok(prod('strict'))).data)).toEqual(content(published));

    // Unpublish and archive do not check them.
    tick();
    await ok(w.req('PATCH', '/pages/strict/unpublish'));
    expectError(await w.req('PATCH', '/pages/strict/publish'), 400, 'VALIDATION_FAILED');
    tick();
    await ok(w.req('PATCH', '/pages/strict/archive'));
    expectError(await w.req('PATCH', '/pages/strict/publish'), 400, 'VALIDATION_FAILED');
    tick();
    await edit('strict', (b) => {
      b.blocks[1].children[1].data = { label: 'labelled', icon: 'ok' };
    });
    await publish('strict');
    expect(labels((await ok(prod('strict'))).data)).toEqual(['strict one', 'labelled']);

    // A field made required after publication: the live version stays; the next publication checks the working copy.
    const type = await ok(
      w.req('POST', '/content-types', { name: 'Notice', slug: 'notice', is_block: true, fields: [{ name: 'text', field_type: 'text' }] }),
      201,
    );
    expect(type.data.slug).toBe('notice');
    await create('noticed', {
      blocks: [
        { type: 'notice', data: { text: 'hello' } },
        { type: 'cta', data: { label: 'x' } },
      ],
    });
    await publish('noticed');
    await ok(w.req('POST', '/content-types/notice/fields', { name: 'level', field_type: 'text', required: true }), 201);
    expect(JSON.parse((await ok(prod('noticed'))).data.blocks[0].data).text).toBe('hello');
    tick();
    await edit('noticed', (b) => {
      b.blocks[1].data.label = 'y';
    });
    expect(expectError(await w.req('PATCH', '/pages/noticed/publish'), 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'blocks.0.data.level', message: 'is required' },
    ]);
    expect(JSON.parse((await ok(prod('noticed'))).data.blocks[1].data).label).toBe('x');
  });

  it('D71: a scheduled page goes live as its working copy is at publish_at; later saves wait for the next publish', async () => {
    await create('launch', { seo: { title: 'Draft launch' } });
    // Within the delivery cache's own lifetime (5 minutes), so only publish_at can end a cached answer.
    const at = new Date(now + 120 * SEC).toISOString();
    expect((await ok(w.req('PATCH', '/pages/launch/schedule', { publish_at: at }))).data).toBeNull();
    expectError(await prod('launch'), 404, 'NOT_FOUND');
    // The production list is cached before publish_at; it must not outlive it.
    expect((await ok(prodList())).data.map((p: any) => p.slug)).not.toContain('launch');
    expect((await prodList()).headers['x-cache']).toBe('HIT');
    tick();
    await put('launch', { seo: { title: 'Launch' }, seo_translations: { de: { title: 'Start' } }, blocks: tree('final', ['x', 'y', 'z']) });
    const final = await detail('launch');
    expect(final.page).toMatchObject({ status: 'scheduled', publish_at: at, published_version: null, has_pending_changes: false });
    expectError(await prod('launch'), 404, 'NOT_FOUND');
    expect(content((await ok(preview('launch'))).data)).toEqual(content(final));
    expect(await actions('launch')).toEqual([
      [3, 'update', 'scheduled'],
      [2, 'schedule', 'scheduled'],
      [1, 'create', 'draft'],
    ]);

    now = Date.parse(at) + 5 * SEC;
    const live = (await ok(prod('launch'))).data;
    expect(live.page).toMatchObject({ status: 'published', published_at: at, seo: { title: 'Launch' } });
    expect(content(live)).toEqual(content(final));
    const de = (await ok(prod('launch', '?locale=de'))).data;
    expect(de.page.seo.title).toBe('Start');
    expect(headline(de)).toBe('final Überschrift');
    expect((await ok(prodList())).data.map((p: any) => p.slug)).toContain('launch');
    const rec = await record('launch');
    expect(rec).toMatchObject({ status: 'published', published_at: at, has_pending_changes: false });
    expect(content((await version('launch', rec.published_version)).data)).toEqual(content(final));

    // A save after publish_at (before the job ran) is a pending change: production keeps the tree of publish_at.
    tick();
    const saved = await put('launch', { seo: { title: 'Launch, later' }, blocks: tree('later') });
    expect(saved).toMatchObject({ status: 'published', has_pending_changes: true, published_at: at });
    expect(content((await ok(prod('launch'))).data)).toEqual(content(final));
    expect((await ok(preview('launch'))).data.page.seo.title).toBe('Launch, later');
    expect(await actions('launch')).toEqual([
      [5, 'update', 'published'],
      [4, 'publish', 'published'],
      [3, 'update', 'scheduled'],
      [2, 'schedule', 'scheduled'],
      [1, 'create', 'draft'],
    ]);
    expect((await record('launch')).published_version).toBe(4);
    expect((await runSchedulerOnce(env.ctx)).pages).toBe(0);
    expect(content((await ok(prod('launch'))).data)).toEqual(content(final));
  });

  it('D71: the publishing job publishes a scheduled page as its working copy was saved after scheduling', async () => {
    await create('job', { seo: { title: 'Job, draft' } });
    const at = new Date(now + 600 * SEC).toISOString();
    await ok(w.req('PATCH', '/pages/job/schedule', { publish_at: at }));
    tick(100 * SEC);
    await put('job', { seo: { title: 'Job' }, blocks: tree('job-final', ['p', 'q']) });
    tick(10 * SEC);
    await ok(w.req('PATCH', '/pages/job/blocks/reorder', { order: [...(await detail('job')).blocks.map((b: any) => b.id)].reverse() }));
    const final = await detail('job');
    now = Date.parse(at) + SEC;
    expect((await runSchedulerOnce(env.ctx)).pages).toBe(1);
    const list = await versions('job');
    expect(list.map((v) => [v.action, v.status])).toEqual([
      ['publish', 'published'],
      ['update', 'scheduled'],
      ['schedule', 'scheduled'],
      ['create', 'draft'],
    ]);
    const rec = await record('job');
    expect(rec).toMatchObject({ status: 'published', published_at: at, published_version: list[0].version, has_pending_changes: false });
    const live = (await ok(prod('job'))).data;
    expect(content(live)).toEqual(content(final));
    expect(live.blocks.map((b: any) => b.type)).toEqual(['rich-text', 'feature-grid', 'hero']);
    expect(content((await version('job', list[0].version)).data)).toEqual(content(final));
  });

  /* ---------------------------------------------------------------------------------- D72 */

  it('D72: every content or state change appends a version {version, action, status, created_at, created_by}, listed newest first without snapshots', async () => {
    const stamps: string[] = [];
    const step = async (fn: () => Promise<unknown>) => {
      tick((WINDOW + 1) * SEC);
      stamps.push(new Date(now).toISOString());
      await fn();
    };
    await step(() => create('hist', { seo: { title: 'History' } }));
    await step(() => edit('hist', (b) => void (b.seo.title = 'History 2')));
    await step(() => publish('hist'));
    const hero = (b: { blocks: any[] }) => b.blocks.find((x) => x.type === 'hero');
    await step(() => edit('hist', (b) => void (hero(b).data.headline = 'h3')));
    await step(async () => ok(w.req('PATCH', '/pages/hist/blocks/reorder', { order: [...(await detail('hist')).blocks.map((b: any) => b.id)].reverse() })));
    await step(() => ok(w.req('PATCH', '/pages/hist/unpublish')));
    await step(() => ok(w.req('PATCH', '/pages/hist/schedule', { publish_at: new Date(now + 86_400_000).toISOString() })));
    await step(() => edit('hist', (b) => void (hero(b).data.headline = 'h8'), editor.key));
    await step(() => ok(w.req('PATCH', '/pages/hist/archive')));
    await step(() => ok(w.req('POST', '/pages/hist/versions/2/restore')));
    const expected = [
      [1, 'create', 'draft'],
      [2, 'update', 'draft'],
      [3, 'publish', 'published'],
      [4, 'update', 'published'],
      [5, 'update', 'published'],
      [6, 'unpublish', 'draft'],
      [7, 'schedule', 'scheduled'],
      [8, 'update', 'scheduled'],
      [9, 'archive', 'archived'],
      [10, 'restore', 'archived'],
    ].reverse();
    const list = await versions('hist');
    expect(list.map((v) => [v.version, v.action, v.status])).toEqual(expected);
    for (const v of list) {
      expect(Object.keys(v).sort()).toEqual(['action', 'created_at', 'created_by', 'status', 'version']);
      expect(v.created_at).toBe(stamps[v.version - 1]);
      expect(v.created_by).toBe(v.version === 8 ? editor.id : w.userId);
    }

    // Offset pagination with the usual meta.
    const first = await ok(w.req('GET', '/pages/hist/versions?limit=3'));
    expect(first.data.map((v: any) => v.version)).toEqual([10, 9, 8]);
    expect(first.meta).toMatchObject({ total_data: 10, current_page: 1, page_size: 3, total_pages: 4 });
    const second = await ok(w.req('GET', '/pages/hist/versions?limit=3&page=2'));
    expect(second.data.map((v: any) => v.version)).toEqual([7, 6, 5]);
    expect(second.meta).toMatchObject({ total_data: 10, current_page: 2, page_size: 3 });
    const last = await ok(w.req('GET', '/pages/hist/versions?limit=3&page=4'));
    expect(last.data.map((v: any) => v.version)).toEqual([1]);
    expect((await ok(w.req('GET', '/pages/hist/versions?limit=3&page=5'))).data).toEqual([]);
    const dflt = await ok(w.req('GET', '/pages/hist/versions'));
    expect(dflt.data.map((v: any) => v.version)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expectError(await w.req('GET', '/pages/hist/versions?limit=0'), 400, 'VALIDATION_FAILED');
    expectError(await w.req('GET', '/pages/hist/versions?limit=101'), 400, 'VALIDATION_FAILED');
    expectError(await w.req('GET', '/pages/hist/versions?page=0'), 400, 'VALIDATION_FAILED');
    expectError(await w.req('GET', '/pages/nowhere/versions'), 404, 'NOT_FOUND');
    // Any management key reads history.
    expect((await ok(w.req('GET', '/pages/hist/versions', undefined, undefined, viewerKey))).data).toHaveLength(10);
    expectError(await call(env.app, 'GET', `${M}/pages/hist/versions`, { key: w.keys.delivery }), 401, 'UNAUTHORIZED');
  });

  it('D72: GET /versions/{n} is the snapshot in the Page wire shape (block tree with ids, data as JSON strings, translations)', async () => {
    await create('snap', {
      seo: { title: 'Snap', description: 'First', keywords: ['a'] },
      seo_translations: { de: { title: 'Schnapp' }, fr: { title: 'Clic' } },
      blocks: tree('s1', ['i', 'j']),
    });
    const v1 = await detail('snap');
    tick();
    await publish('snap');
    tick((WINDOW + 1) * SEC);
    await put('snap', {
      seo: { title: 'Snap 3' },
      seo_translations: { fr: { title: 'Clic 3' } },
      blocks: [{ type: 'cta', data: { label: 'only' }, translations: { de: { data: { label: 'nur' } } } }],
    });
    const v3 = await detail('snap');

    const res = await version('snap', 1);
    expect(Object.keys(res.data).sort()).toEqual(['block_translations', 'blocks', 'page', 'seo_translations']);
    expect(res.meta).toEqual({ version: 1, action: 'create', status: 'draft', created_at: v1.page.created_at, created_by: w.userId });
    expect(content(res.data)).toEqual(content(v1));
    expect(res.data.page).toMatchObject({ id: v1.page.id, slug: 'snap', status: 'draft', seo: { title: 'Snap', description: 'First', keywords: ['a'] } });
    // The wire shape of blocks and translations, as the management detail has it.
    const blocks = flat(res.data.blocks);
    expect(blocks.map((b: any) => b.id)).toEqual(flat(v1.blocks).map((b: any) => b.id));
    for (const b of blocks) {
      expect(typeof b.data).toBe('string');
      expect(b).toMatchObject({ page_id: v1.page.id, block_type_id: w.types[b.type] });
      expect(Array.isArray(b.children)).toBe(true);
    }
    expect(res.data.blocks[1].children.map((c: any) => c.parent_id)).toEqual([res.data.blocks[1].id, res.data.blocks[1].id]);
    expect(res.data.blocks[0]).not.toHaveProperty('parent_id');
    expect(res.data.seo_translations.map((t: any) => [t.locale, t.page_id, t.seo, typeof t.id])).toEqual([
      ['de', v1.page.id, { title: 'Schnapp' }, 'number'],
      ['fr', v1.page.id, { title: 'Clic' }, 'number'],
    ]);
    for (const t of res.data.block_translations) expect(typeof t.data).toBe('string');
    expect(res.data.block_translations.map((t: any) => [t.locale, JSON.parse(t.data)]).sort(byJson)).toEqual(
      [
        ['de', { headline: 's1 Überschrift' }],
        ['fr', { label: 's1 i (fr)' }],
        ['fr', { label: 's1 j (fr)' }],
      ].sort(byJson),
    );

    const r2 = await version('snap', 2);
    expect(r2.meta).toMatchObject({ version: 2, action: 'publish', status: 'published' });
    expect(r2.data.page.status).toBe('published');
    expect(content(r2.data)).toEqual(content(v1));
    const r3 = await version('snap', 3);
    expect(r3.meta).toMatchObject({ version: 3, action: 'update', status: 'published', created_at: new Date(now).toISOString() });
    expect(content(r3.data)).toEqual(content(v3));

    expectError(await w.req('GET', '/pages/snap/versions/4'), 404, 'NOT_FOUND');
    expectError(await w.req('GET', '/pages/snap/versions/999999'), 404, 'NOT_FOUND');
    for (const bad of ['x', '0', '-1', '1.5', '1e2', '99999999999999']) {
      expectError(await w.req('GET', `/pages/snap/versions/${bad}`), 400, 'VALIDATION_FAILED');
    }
    expectError(await w.req('GET', '/pages/nowhere/versions/1'), 404, 'NOT_FOUND');
  });

  it('D72: restore makes the whole snapshot the working copy (new version, status unchanged); production changes only on publish', async () => {
    await create('back', {
      seo: { title: 'Back', description: 'first' },
      seo_translations: { de: { title: 'Zurück' }, fr: { title: 'Retour' } },
      blocks: tree('r1', ['a', 'b', 'c']),
    });
    const v1 = await version('back', 1);
    tick();
    await publish('back');
    tick((WINDOW + 1) * SEC);
    // A different tree: new block ids, fewer translations.
    await put('back', {
      seo: { title: 'Back 3' },
      seo_translations: { de: { title: 'Zurück 3' } },
      blocks: [{ type: 'cta', data: { label: 'r3', url: 'https://example.com/' } }],
    });
    tick();
    await publish('back');
    const v4 = await version('back', 4);
    tick((WINDOW + 1) * SEC);
    await edit('back', (b) => void (b.seo.title = 'Back 5'));
    expect(await record('back')).toMatchObject({ published_version: 4, has_pending_changes: true });

    // Scope content:write: a publish-only key, a viewer and a delivery key may not restore.
    expect(expectError(await w.req('POST', '/pages/back/versions/1/restore', undefined, undefined, publishOnlyKey), 403, 'FORBIDDEN').message).toContain(
      'content:write',
    );
    expectError(await w.req('POST', '/pages/back/versions/1/restore', undefined, undefined, viewerKey), 403, 'FORBIDDEN');
    expectError(await call(env.app, 'POST', `${M}/pages/back/versions/1/restore`, { key: w.keys.delivery }), 401, 'UNAUTHORIZED');
    expectError(await w.req('POST', '/pages/back/versions/6/restore'), 404, 'NOT_FOUND');
    for (const bad of ['x', '0', '-2']) expectError(await w.req('POST', `/pages/back/versions/${bad}/restore`), 400, 'VALIDATION_FAILED');
    expectError(await w.req('POST', '/pages/nowhere/versions/1/restore'), 404, 'NOT_FOUND');
    expect((await versions('back')).length).toBe(5);

    tick();
    const restored = await ok(w.req('POST', '/pages/back/versions/1/restore'));
    expect(restored.data).toMatchObject({
      slug: 'back',
      status: 'published',
      has_pending_changes: true,
      published_version: 4,
      seo: { title: 'Back', description: 'first' },
    });
    expect((await versions('back'))[0]).toEqual({
      version: 6,
      action: 'restore',
      status: 'published',
      created_at: new Date(now).toISOString(),
      created_by: w.userId,
    });
    const working = await detail('back');
    // The same SEO, SEO translations, blocks (ids included) and block translations as version 1.
    expect(content(working)).toEqual(content(v1.data));
    expect(content((await version('back', 6)).data)).toEqual(content(v1.data));
    expect(content((await ok(preview('back'))).data)).toEqual(content(v1.data));
    expect((await ok(preview('back', '?locale=fr'))).data.page.seo.title).toBe('Retour');
    expect(labels((await ok(preview('back', '?locale=fr'))).data)).toEqual(['r1 a (fr)', 'r1 b (fr)', 'r1 c (fr)']);
    // Production still shows version 4.
    const live = (await ok(prod('back'))).data;
    expect(content(live)).toEqual(content(v4.data));
    expect((await ok(prod('back', '?locale=fr'))).data.page.seo.title).toBe('Back 3');

    // An update right after a restore is a version of its own.
    tick();
    await edit('back', (b) => void (b.seo.description = 'after restore'));
    expect((await versions('back')).slice(0, 2).map((v) => [v.version, v.action])).toEqual([
      [7, 'update'],
      [6, 'restore'],
    ]);
    tick();
    await publish('back');
    const published = (await ok(prod('back'))).data;
    expect(content(published)).toEqual(content(await detail('back')));
    expect(published.page.seo).toMatchObject({ title: 'Back', description: 'after restore' });
    expect((await ok(prod('back', '?locale=fr'))).data.page.seo.title).toBe('Retour');

    // On a draft the status stays draft and nothing is pending.
    await create('back-draft', { blocks: tree('d1') });
    tick((WINDOW + 1) * SEC);
    await put('back-draft', { seo: {}, blocks: tree('d2') });
    tick();
    const draft = await ok(w.req('POST', '/pages/back-draft/versions/1/restore'));
    expect(draft.data).toMatchObject({ status: 'draft', has_pending_changes: false, published_version: null });
    expect(headline(await detail('back-draft'))).toBe('d1 headline');
    expect(await actions('back-draft')).toEqual([
      [3, 'restore', 'draft'],
      [2, 'update', 'draft'],
      [1, 'create', 'draft'],
    ]);
  });

  it('D72: duplicate creates a page whose version 1 (action duplicate) is the source’s working copy', async () => {
    await create('orig', { seo: { title: 'Original' }, seo_translations: { de: { title: 'Original (de)' } }, blocks: tree('orig') });
    await publish('orig');
    tick();
    await edit('orig', (b) => {
      b.seo.title = 'Original, edited';
      b.blocks[1].children.pop();
    });
    const source = await detail('orig');
    const sourceVersions = await versions('orig');
    tick();
    const copy = await ok(w.req('POST', '/pages/orig/duplicate'), 201);
    expect(copy.data).toMatchObject({
      slug: 'orig-copy',
      status: 'draft',
      has_pending_changes: false,
      published_version: null,
      seo: { title: 'Original, edited' },
    });
    const list = await versions('orig-copy');
    expect(list).toEqual([{ version: 1, action: 'duplicate', status: 'draft', created_at: new Date(now).toISOString(), created_by: w.userId }]);
    const v1 = await version('orig-copy', 1);
    expect(shapeOnly(v1.data)).toEqual(shapeOnly(source));
    expect(flat(v1.data.blocks).map((b: any) => b.id)).not.toContain(source.blocks[0].id);
    expect(content(v1.data)).toEqual(content(await detail('orig-copy')));
    expect(await versions('orig')).toEqual(sourceVersions);
    expectError(await prod('orig-copy'), 404, 'NOT_FOUND');
    await publish('orig-copy');
    expect(await actions('orig-copy')).toEqual([
      [2, 'publish', 'published'],
      [1, 'duplicate', 'draft'],
    ]);
    expect(shapeOnly((await ok(prod('orig-copy'))).data)).toEqual(shapeOnly(source));
  });

  it('D72: versions are deleted with the page', async () => {
    const page = await create('doomed');
    await publish('doomed');
    tick((WINDOW + 1) * SEC);
    await put('doomed', { seo: {}, blocks: tree('doomed 2') });
    expect(await versions('doomed')).toHaveLength(3);
    await ok(w.req('DELETE', '/pages/doomed'));
    expectError(await w.req('GET', '/pages/doomed/versions'), 404, 'NOT_FOUND');
    expectError(await w.req('GET', '/pages/doomed/versions/1'), 404, 'NOT_FOUND');
    expectError(await w.req('POST', '/pages/doomed/versions/1/restore'), 404, 'NOT_FOUND');
    expectError(await prod('doomed'), 404, 'NOT_FOUND');
    const k = env.ctx.db.kysely;
    expect(await k.selectFrom('page_versions').select('version').where('page_id', '=', page.id).execute()).toEqual([]);
    expect(await k.selectFrom('published_blocks').select('id').where('page_id', '=', page.id).execute()).toEqual([]);
    // A new page with the same slug starts its own history.
    await create('doomed', { blocks: tree('reborn') });
    expect(await actions('doomed')).toEqual([[1, 'create', 'draft']]);
    expect(headline((await version('doomed', 1)).data)).toBe('reborn headline');
  });

  it('D72: one actor’s consecutive updates within versionCoalesceSeconds share a version, unless it is the published one', async () => {
    await create('co', { blocks: tree('c0') });
    tick();
    await put('co', { seo: {}, blocks: tree('c1') });
    tick(10 * SEC);
    await put('co', { seo: {}, blocks: tree('c2') });
    tick(10 * SEC);
    await ok(w.req('PATCH', '/pages/co/blocks/reorder', { order: [...(await detail('co')).blocks.map((b: any) => b.id)].reverse() }));
    expect(await actions('co')).toEqual([
      [2, 'update', 'draft'],
      [1, 'create', 'draft'],
    ]);
    expect(content((await version('co', 2)).data)).toEqual(content(await detail('co')));
    expect(headline((await version('co', 1)).data)).toBe('c0 headline');

    // Another actor: a version of its own; then the first actor again: another one.
    tick(5 * SEC);
    await put('co', { seo: {}, blocks: tree('c3') }, editor.key);
    tick(5 * SEC);
    await put('co', { seo: {}, blocks: tree('c4') });
    let list = await versions('co');
    expect(list.map((v) => [v.version, v.action, v.created_by])).toEqual([
      [4, 'update', w.userId],
      [3, 'update', editor.id],
      [2, 'update', w.userId],
      [1, 'create', w.userId],
    ]);
    expect(headline((await version('co', 3)).data)).toBe('c3 headline');

    // The window is over: a new version.
    tick((WINDOW + 1) * SEC);
    await put('co', { seo: {}, blocks: tree('c5') });
    expect((await versions('co'))[0].version).toBe(5);

    // A publish ends the run: the next update is a new version and the published one stays as published.
    tick();
    await publish('co');
    const published = await version('co', 6);
    tick();
    await put('co', { seo: {}, blocks: tree('c7') });
    tick();
    await put('co', { seo: {}, blocks: tree('c7b') });
    list = await versions('co');
    expect(list.map((v) => [v.version, v.action])).toEqual([
      [7, 'update'],
      [6, 'publish'],
      [5, 'update'],
      [4, 'update'],
      [3, 'update'],
      [2, 'update'],
      [1, 'create'],
    ]);
    expect(content((await version('co', 6)).data)).toEqual(content(published.data));
    expect(headline((await version('co', 7)).data)).toBe('c7b headline');
    expect(headline((await ok(prod('co'))).data)).toBe('c5 headline');
    expect(await record('co')).toMatchObject({ published_version: 6, has_pending_changes: true });
  });

  /* ---------------------------------------------------------------------- delivery cache */

  it('delivery cache: a working-copy save keeps production answers (HIT, same body) and refreshes preview; a publish refreshes production', async () => {
    await create('cached', { seo: { title: 'Cached' }, seo_translations: { de: { title: 'Zwischengespeichert' } }, blocks: tree('k1') });
    await publish('cached');
    // Created first: a new key changes the workspace's revision, which would end every cached answer.
    // Answers are cached per workspace, perspective and the key's rights (docs/architecture.md
    // "Caches and the workspace revisions"): a key with a whitelist shares no answer with the first.
    const other = (await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'delivery', environment: 'production', contentTypes: ['hero'] })).key;
    const urls = ['/pages/cached', '/pages/cached?locale=de', '/pages?limit=100', '/pages?limit=100&locale=de', '/pages?limit=100&sort=updated_at:desc'];
    const first: Record<string, any> = {};
    for (const u of urls) {
      const a = await get(`${P}${u}`, w.keys.delivery);
      expect(a.status).toBe(200);
      first[u] = a.body;
      const b = await get(`${P}${u}`, w.keys.delivery);
      expect(b.headers['x-cache']).toBe('HIT');
      expect(b.body).toEqual(a.body);
    }
    const pv1 = await ok(preview('cached'));
    expect((await preview('cached')).headers['x-cache']).toBe('HIT');

    tick();
    await put('cached', { seo: { title: 'Cached, edited' }, seo_translations: { de: { title: 'Bearbeitet' } }, blocks: tree('k2') });
    for (const u of urls) {
      const r = await get(`${P}${u}`, w.keys.delivery);
      expect(r.headers['x-cache'], u).toBe('HIT');
      expect(r.body, u).toEqual(first[u]);
    }
    const pv2 = await preview('cached');
    expect(pv2.headers['x-cache']).not.toBe('HIT');
    expect(pv2.body).not.toEqual(pv1);
    expect(headline(pv2.body.data)).toBe('k2 headline');
    expect((await preview('cached', '?locale=de')).body.data.page.seo.title).toBe('Bearbeitet');
    // A production answer computed afresh (a key with other rights: nothing cached) is the same answer.
    for (const u of urls) {
      const r = await get(`${P}${u}`, other);
      expect(r.headers['x-cache'], u).toBe('MISS');
      expect(r.body, u).toEqual(first[u]);
    }

    // Block reorders and restores are working-copy changes too.
    tick();
    await ok(w.req('PATCH', '/pages/cached/blocks/reorder', { order: [...(await detail('cached')).blocks.map((b: any) => b.id)].reverse() }));
    tick();
    await ok(w.req('POST', '/pages/cached/versions/1/restore'));
    for (const u of urls) {
      const r = await get(`${P}${u}`, w.keys.delivery);
      expect(r.headers['x-cache'], u).toBe('HIT');
      expect(r.body, u).toEqual(first[u]);
    }

    tick();
    await edit('cached', (b) => void (b.seo.title = 'Cached, published'));
    tick();
    await publish('cached');
    const fresh = await prod('cached');
    expect(fresh.headers['x-cache']).not.toBe('HIT');
    expect(fresh.body.data.page.seo.title).toBe('Cached, published');
    expect(content(fresh.body.data)).toEqual(content(await detail('cached')));
    const freshList = await prodList();
    expect(freshList.headers['x-cache']).not.toBe('HIT');
    expect(freshList.body.data.find((p: any) => p.slug === 'cached').seo.title).toBe('Cached, published');
    expect((await prod('cached')).headers['x-cache']).toBe('HIT');
  });

  /* -------------------------------------------------------------------------------- race */

  it('race: concurrent PUTs and publishes on one page end consistent', async () => {
    await create('race', { blocks: tree('r0') });
    await publish('race');
    for (let round = 1; round <= 6; round++) {
      tick(round % 2 ? (WINDOW + 1) * SEC : SEC);
      const results = await Promise.all([
        w.req('PUT', '/pages/race', { seo: { title: `r${round}a` }, blocks: tree(`r${round}a`, ['x']) }),
        w.req('PUT', '/pages/race', { seo: { title: `r${round}b` }, blocks: tree(`r${round}b`, ['x', 'y']) }, undefined, editor.key),
        w.req('PATCH', '/pages/race/publish'),
        w.req('PUT', '/pages/race', { seo: { title: `r${round}c` }, blocks: tree(`r${round}c`, ['x', 'y', 'z']) }),
        w.req('PATCH', '/pages/race/publish'),
        w.req(
          'PUT',
          '/pages/race',
          { seo: { title: `r${round}d` }, seo_translations: { de: { title: `r${round}d (de)` } }, blocks: tree(`r${round}d`, ['w']) },
          undefined,
          editor.key,
        ),
      ]);
      for (const r of results) {
        if (r.status !== 200) expectError(r, 409, 'INVALID_STATE_TRANSITION');
      }
      expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(3);
    }
    const list = await versions('race');
    const numbers = list.map((v) => v.version);
    expect(numbers).toEqual(numbers.map((_, i) => numbers.length - i));
    expect((await ok(w.req('GET', '/pages/race/versions?limit=1'))).meta.total_data).toBe(numbers.length);
    const rec = await record('race');
    expect(rec.status).toBe('published');
    const pv = list.find((v) => v.version === rec.published_version);
    expect(pv).toMatchObject({ action: 'publish', status: 'published' });
    const published = (await version('race', rec.published_version)).data;
    const working = await detail('race');
    // Production (cached key and a fresh one) shows exactly the published version.
    expect(content((await ok(prod('race'))).data)).toEqual(content(published));
    const fresh = (await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'delivery', environment: 'production' })).key;
    expect(content((await ok(prod('race', '', fresh))).data)).toEqual(content(published));
    // The newest version holds the working copy; preview shows it.
    expect(content((await version('race', numbers[0])).data)).toEqual(content(working));
    expect(content((await ok(preview('race'))).data)).toEqual(content(working));
    expect(rec.has_pending_changes).toBe(JSON.stringify(content(working)) !== JSON.stringify(content(published)));
    if (!rec.has_pending_changes) expect(rec.published_version).toBe(numbers[0]);
  });
});

describe.each(dialects())('pages: versionCoalesceSeconds 0 on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let now = T0;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now), config: { versionCoalesceSeconds: 0 } });
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  it('D72: with a window of 0 every update is a version of its own', async () => {
    expect((await w.req('POST', '/pages', { slug: 'each', blocks: tree('e0') })).status).toBe(201);
    for (let i = 1; i <= 3; i++) {
      now += SEC;
      expect((await w.req('PUT', '/pages/each', { seo: {}, blocks: tree(`e${i}`) })).status).toBe(200);
    }
    const list = (await w.req('GET', '/pages/each/versions')).body.data;
    expect(list.map((v: any) => [v.version, v.action])).toEqual([
      [4, 'update'],
      [3, 'update'],
      [2, 'update'],
      [1, 'create'],
    ]);
    for (let n = 1; n <= 4; n++) {
      expect(headline((await w.req('GET', `/pages/each/versions/${n}`)).body.data)).toBe(`e${n - 1} headline`);
    }
  });
});
