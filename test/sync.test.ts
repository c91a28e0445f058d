/**
 * Sync (docs/front-ends.md "Sync" (D83)): initial sync in pages of 100,
 * signed tokens
 * bound to the key's workspace and visibility, a delta after each kind of change, and a property:
 * a client applying deltas to a local map after any mix of writes ends equal to a fresh initial
 * sync, for a production and a preview key.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { createWorld, P, type DeliveryWorld } from './delivery-fixtures.js';
import { png, upload } from './media-fixtures.js';

const M = '/api/v1/manage';
const TYPES = [
  { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text', localizable: true }] },
  { name: 'Hero', slug: 'hero', is_block: true, fields: [{ name: 'headline', field_type: 'text', localizable: true }] },
];

type Item = { sys: { type: string; id: string; slug?: string | null; content_type?: string } } & Record<string, unknown>;

describe.each(dialects())('sync on %s', (dialect) => {
  let env: TestEnv;
  let w: DeliveryWorld;
  let image: Buffer;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    w = await createWorld(env.ctx, env.app, TYPES);
    image = await png(4, 3);
  });
  afterAll(async () => env?.close());

  const get = (url: string, key: string) => call(env.app, 'GET', `${P}/sync${url}`, { key });
  const manage = async (
    world: { keys: { management: string } },
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => call(env.app, method, `${M}${url}`, { key: world.keys.management, body, headers });

  /** Follows next_page_token to the end; returns every item and the sync token. */
  async function drain(first: string, key: string): Promise<{ items: Item[]; pages: number[]; token: string }> {
    const items: Item[] = [];
    const pages: number[] = [];
    let res = await get(first, key);
    for (;;) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      items.push(...(res.body.data as Item[]));
      pages.push(res.body.data.length);
      if (res.body.meta.next_sync_token) return { items, pages, token: res.body.meta.next_sync_token };
      res = await get(`?page_token=${encodeURIComponent(res.body.meta.next_page_token)}`, key);
    }
  }

  it('initial sync lists 250 visible items in pages of 100, 100 and 50; drafts only for the preview key', async () => {
    for (let i = 0; i < 200; i++) await w.insertEntry({ type: 'post', slug: `p-${i}`, data: { title: `P ${i}` }, translations: { de: { title: `DE ${i}` } } });
    for (let i = 0; i < 50; i++) await w.insertMedia();
    for (let i = 0; i < 7; i++) await w.insertEntry({ type: 'post', slug: `draft-${i}`, status: 'draft', data: { title: 'D' } });
    const prod = await drain('?initial=true', w.keys.delivery);
    expect(prod.pages).toEqual([100, 100, 50]);
    expect(prod.items.filter((i) => i.sys.type === 'entry')).toHaveLength(200);
    expect(prod.items.filter((i) => i.sys.type === 'media')).toHaveLength(50);
    const entry = prod.items.find((i) => i.sys.type === 'entry' && i.slug === 'p-7')!;
    expect(entry).toMatchObject({ sys: { type: 'entry', content_type: 'post', slug: 'p-7' }, status: 'published', translations: [{ locale: 'de' }] });
    expect(JSON.parse(entry.data as string)).toEqual({ title: 'P 7' });
    expect(JSON.parse((entry.translations as { data: string }[])[0].data)).toEqual({ title: 'DE 7' });
    const preview = await drain('?initial=true', w.keys.preview);
    expect(preview.items).toHaveLength(257);
    expect(preview.pages).toEqual([100, 100, 57]);
    // Nothing changed: the delta is empty and hands out a token again.
    const delta = await get(`?sync_token=${encodeURIComponent(prod.token)}`, w.keys.delivery);
    expect(delta.body.data).toEqual([]);
    expect(delta.body.meta).toMatchObject({ page_size: 0, next_page_token: null, next_sync_token: expect.any(String) });
  });

  it('tokens are tamper-proof and bound to the workspace and the visibility', async () => {
    const prod = (await get('?initial=true', w.keys.delivery)).body.meta.next_page_token as string;
    const [payload, mac] = prod.split('.');
    const flipped = `${payload}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    expect(expectError(await get(`?page_token=${encodeURIComponent(flipped)}`, w.keys.delivery), 400, 'VALIDATION_FAILED').errors[0].path).toBe(
      'query.page_token',
    );
    // A payload rewritten for the preview key keeps the old signature: refused as altered.
    const text = Buffer.from(payload, 'base64url').toString();
    expect(text).toContain('production');
    const forged = Buffer.from(text.replace('production', 'preview')).toString('base64url');
    const altered = expectError(await get(`?page_token=${forged}.${mac}`, w.keys.preview), 400, 'VALIDATION_FAILED');
    expect(altered.errors[0].message).toMatch(/altered/);
    const err = expectError(await get(`?page_token=${encodeURIComponent(prod)}`, w.keys.preview), 400, 'VALIDATION_FAILED');
    expect(err.errors[0].message).toMatch(/production key and this is a preview key/);
    const other = await seedWorkspace(env.ctx);
    const elsewhere = expectError(await get(`?page_token=${encodeURIComponent(prod)}`, other.keys.delivery), 400, 'VALIDATION_FAILED');
    expect(elsewhere.errors[0].message).toMatch(/another workspace/);
    // A page token of an initial sync is not a sync token; parameters are exclusive.
    expect(expectError(await get(`?sync_token=${encodeURIComponent(prod)}`, w.keys.delivery), 400, 'VALIDATION_FAILED').errors[0].message).toMatch(
      /page_token/,
    );
    expectError(await get('', w.keys.delivery), 400, 'VALIDATION_FAILED');
    expectError(await get(`?initial=true&page_token=${encodeURIComponent(prod)}`, w.keys.delivery), 400, 'VALIDATION_FAILED');
    expectError(await get('?sync_token=nonsense', w.keys.delivery), 400, 'VALIDATION_FAILED');
    expectError(await get('?initial=true&x=1', w.keys.delivery), 400, 'VALIDATION_FAILED');
  });

  it('a delta after each kind of change: entry, page and media created, changed and removed', async () => {
    const s = await seedWorkspace(env.ctx);
    for (const body of TYPES) expect((await manage(s, 'POST', '/content-types', body)).status).toBe(201);
    let token = (await drain('?initial=true', s.keys.delivery)).token;
    const delta = async (): Promise<Item[]> => {
      const r = await drain(`?sync_token=${encodeURIComponent(token)}`, s.keys.delivery);
      token = r.token;
      return r.items;
    };
    const h = { 'x-workspace-id': s.workspace.id };
    await manage(s, 'POST', '/content-types/post/entries', { slug: 'a', data: { title: 'A' } });
    // A draft is nothing a production key reads.
    expect(await delta()).toEqual([]);
    await manage(s, 'PATCH', '/content-types/post/entries/a/publish');
    const [published] = await delta();
    expect(published).toMatchObject({ sys: { type: 'entry', slug: 'a' }, status: 'published', data: '{"title":"A"}' });
    await manage(s, 'PUT', '/content-types/post/entries/a', { data: { title: 'A2' }, translations: { de: { data: { title: 'A-de' } } } });
    // A production key still sees the published version: nothing it reads changed.
    expect(await delta()).toEqual([]);
    await manage(s, 'PATCH', '/content-types/post/entries/a/publish');
    expect(await delta()).toMatchObject([{ data: '{"title":"A2"}', translations: [{ locale: 'de', data: '{"title":"A-de"}' }] }]);
    await manage(s, 'POST', '/pages', { slug: 'home', blocks: [{ type: 'hero', data: { headline: 'Hi' } }] });
    await manage(s, 'PATCH', '/pages/home/publish');
    const [page] = await delta();
    expect(page).toMatchObject({ sys: { type: 'page', slug: 'home' }, status: 'published', blocks: [{ type: 'hero', data: '{"headline":"Hi"}' }] });
    const up = await upload(env.app, {
      key: s.keys.management,
      workspaceId: s.workspace.id,
      parts: [{ name: 'file', filename: 'a.png', data: image, contentType: 'image/png' }],
    });
    const mediaId = (up.body as { data: { id: string } }).data.id;
    expect(await delta()).toMatchObject([{ sys: { type: 'media', id: mediaId }, mime_type: 'image/png', width: 4 }]);
    await manage(s, 'PUT', `/media/${mediaId}`, { alt_text: 'Alt' }, h);
    expect(await delta()).toMatchObject([{ sys: { type: 'media' }, alt_text: 'Alt' }]);
    await manage(s, 'PATCH', '/content-types/post/entries/a/unpublish');
    await manage(s, 'PATCH', '/pages/home/archive');
    await manage(s, 'DELETE', `/media/${mediaId}`, undefined, h);
    expect(await delta()).toEqual([
      { sys: { type: 'deleted_entry', id: published.sys.id, slug: 'a', content_type: 'post' } },
      { sys: { type: 'deleted_page', id: page.sys.id, slug: 'home' } },
      { sys: { type: 'deleted_media', id: mediaId, slug: null } },
    ]);
    expect(await delta()).toEqual([]);
  });

  /** A workspace with the types, tokens of its production and preview keys after `setup`, and a delta reader per key. */
  async function watched(setup: (s: Awaited<ReturnType<typeof seedWorkspace>>) => Promise<void>) {
    const s = await seedWorkspace(env.ctx);
    for (const body of TYPES) expect((await manage(s, 'POST', '/content-types', body)).status).toBe(201);
    await setup(s);
    const tokens = { prod: (await drain('?initial=true', s.keys.delivery)).token, preview: (await drain('?initial=true', s.keys.preview)).token };
    const delta = async (which: 'prod' | 'preview') =>
      (await drain(`?sync_token=${encodeURIComponent(tokens[which])}`, which === 'prod' ? s.keys.delivery : s.keys.preview)).items;
    return { s, delta };
  }
  const brief = (items: Item[]) => items.map((i) => `${i.sys.type}:${i.sys.slug ?? i.sys.id}`);

  it("issue 28's eight changes: the production delta lists exactly what it can see changed, the preview delta every change", async () => {
    let mediaId = '';
    const { s, delta } = await watched(async (s) => {
      for (const slug of ['kept', 'renamed', 'gone', 'fresh', 'old-draft']) {
        expect((await manage(s, 'POST', '/content-types/post/entries', { slug, data: { title: slug } })).status).toBe(201);
        if (slug !== 'fresh' && slug !== 'old-draft') expect((await manage(s, 'PATCH', `/content-types/post/entries/${slug}/publish`)).status).toBe(200);
      }
      for (const slug of ['home', 'draft-page']) {
        expect((await manage(s, 'POST', '/pages', { slug, seo: { title: slug }, blocks: [{ type: 'hero', data: { headline: slug } }] })).status).toBe(201);
      }
      expect((await manage(s, 'PATCH', '/pages/home/publish')).status).toBe(200);
      const up = await upload(env.app, {
        key: s.keys.management,
        workspaceId: s.workspace.id,
        parts: [{ name: 'file', filename: 'm.png', data: image, contentType: 'image/png' }],
      });
      mediaId = (up.body as { data: { id: string } }).data.id;
    });
    const ok = (r: { status: number; body: unknown }) => expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    // 1. a published entry's working copy only; 2. a published entry's slug; 3. a draft published;
    // 4. a draft deleted; 5. a published entry unpublished; 6. a published page's SEO (working copy);
    // 7. a draft page deleted; 8. an asset's alt text.
    ok(await manage(s, 'PUT', '/content-types/post/entries/kept', { data: { title: 'kept 2' } }));
    ok(await manage(s, 'PUT', '/content-types/post/entries/renamed', { slug: 'renamed-2', data: { title: 'renamed' } }));
    ok(await manage(s, 'PATCH', '/content-types/post/entries/fresh/publish'));
    ok(await manage(s, 'DELETE', '/content-types/post/entries/old-draft'));
    ok(await manage(s, 'PATCH', '/content-types/post/entries/gone/unpublish'));
    ok(await manage(s, 'PUT', '/pages/home', { seo: { title: 'Home 2' }, blocks: [{ type: 'hero', data: { headline: 'home' } }] }));
    ok(await manage(s, 'DELETE', '/pages/draft-page'));
    ok(await manage(s, 'PUT', `/media/${mediaId}`, { alt_text: 'Alt' }, { 'x-workspace-id': s.workspace.id }));
    const prod = await delta('prod');
    expect(brief(prod)).toEqual(['entry:renamed-2', 'entry:fresh', 'deleted_entry:gone', `media:${mediaId}`]);
    expect(prod[0]).toMatchObject({ data: '{"title":"renamed"}' });
    expect(brief(await delta('preview'))).toEqual([
      'entry:kept',
      'entry:renamed-2',
      'entry:fresh',
      'deleted_entry:old-draft',
      'entry:gone',
      'page:home',
      'deleted_page:draft-page',
      `media:${mediaId}`,
    ]);
  });

  it('an item created after the token and gone again is in no delta; published and unpublished again, it is in no production delta', async () => {
    const { s, delta } = await watched(async () => {});
    const ok = (r: { status: number; body: unknown }) => expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
    ok(await manage(s, 'POST', '/content-types/post/entries', { slug: 'brief', data: { title: 'B' } }));
    ok(await manage(s, 'PATCH', '/content-types/post/entries/brief/publish'));
    ok(await manage(s, 'DELETE', '/content-types/post/entries/brief'));
    ok(await manage(s, 'POST', '/content-types/post/entries', { slug: 'shown', data: { title: 'S' } }));
    ok(await manage(s, 'PATCH', '/content-types/post/entries/shown/publish'));
    ok(await manage(s, 'PATCH', '/content-types/post/entries/shown/unpublish'));
    ok(await manage(s, 'POST', '/pages', { slug: 'flash', blocks: [] }));
    ok(await manage(s, 'DELETE', '/pages/flash'));
    const up = await upload(env.app, {
      key: s.keys.management,
      workspaceId: s.workspace.id,
      parts: [{ name: 'file', filename: 'm.png', data: image, contentType: 'image/png' }],
    });
    ok(await manage(s, 'DELETE', `/media/${(up.body as { data: { id: string } }).data.id}`, undefined, { 'x-workspace-id': s.workspace.id }));
    expect(await delta('prod')).toEqual([]);
    // The preview key reads the unpublished draft, and nothing of the rest.
    expect(brief(await delta('preview'))).toEqual(['entry:shown']);
  });

  it('an item an initial sync showed while it paged is reported removed, though it was created after the sync began', async () => {
    const s = await seedWorkspace(env.ctx);
    for (const body of TYPES) await manage(s, 'POST', '/content-types', body);
    for (let i = 0; i < 101; i++)
      expect((await manage(s, 'POST', '/content-types/post/entries', { slug: `e-${i}`, data: { title: `${i}` } })).status).toBe(201);
    const first = await get('?initial=true', s.keys.preview);
    expect(first.body.data).toHaveLength(100);
    // Created while the client pages: its id sorts after every listed one, so the next page shows it.
    expect((await manage(s, 'POST', '/content-types/post/entries', { slug: 'late', data: { title: 'L' } })).status).toBe(201);
    const rest = await drain(`?page_token=${encodeURIComponent(first.body.meta.next_page_token)}`, s.keys.preview);
    expect(brief(rest.items)).toEqual(['entry:e-100', 'entry:late']);
    expect((await manage(s, 'DELETE', '/content-types/post/entries/late')).status).toBe(200);
    // Created and deleted after the sync ended: never shown, never reported.
    expect((await manage(s, 'POST', '/content-types/post/entries', { slug: 'later', data: { title: 'L' } })).status).toBe(201);
    expect((await manage(s, 'DELETE', '/content-types/post/entries/later')).status).toBe(200);
    const d = await drain(`?sync_token=${encodeURIComponent(rest.token)}`, s.keys.preview);
    expect(brief(d.items)).toEqual(['deleted_entry:late']);
  });

  it('an event recorded before migration 026 (live unknown) counts as seen by production keys', async () => {
    const { s, delta } = await watched(async (s) => {
      expect((await manage(s, 'POST', '/content-types/post/entries', { slug: 'old', data: { title: 'Old' } })).status).toBe(201);
      expect((await manage(s, 'PATCH', '/content-types/post/entries/old/publish')).status).toBe(200);
    });
    const entry = (await call(env.app, 'GET', `${M}/content-types/post/entries/old`, { key: s.keys.management })).body.data as { id: string };
    await env.ctx.db.kysely
      .insertInto('events')
      .values({
        workspace_id: s.workspace.id,
        type: 'entry.updated',
        item_kind: 'entry',
        item_id: entry.id,
        slug: 'old',
        content_type: 'post',
        status: 'published',
        version: 2,
        created_at: new Date().toISOString(),
        live: null,
      })
      .execute();
    expect(brief(await delta('prod'))).toEqual(['entry:old']);
  });

  it("tokens are bound to the key's content type whitelist", async () => {
    const all = await w.deliveryKey({});
    const posts = await w.deliveryKey({ contentTypes: ['post'] });
    const samePosts = await w.deliveryKey({ contentTypes: ['post', 'post'] });
    const previewAll = await w.deliveryKey({ environment: 'preview' });
    const tokenOf = async (key: string) => (await drain('?initial=true', key)).token;
    const unrestricted = await tokenOf(all);
    const restricted = await tokenOf(posts);
    const refusal = (token: string, key: string) =>
      get(`?sync_token=${encodeURIComponent(token)}`, key).then((r) => expectError(r, 400, 'VALIDATION_FAILED').errors[0]);
    expect(await refusal(unrestricted, posts)).toMatchObject({ path: 'query.sync_token', message: expect.stringMatching(/every content type.*initial=true/) });
    expect((await refusal(restricted, all)).message).toMatch(/restricted to some content types/);
    expect((await refusal(unrestricted, previewAll)).message).toMatch(/production key and this is a preview key/);
    // A key with the same whitelist continues the sync; so does the key itself.
    expect((await get(`?sync_token=${encodeURIComponent(restricted)}`, samePosts)).status).toBe(200);
    expect((await get(`?sync_token=${encodeURIComponent(unrestricted)}`, all)).status).toBe(200);
  });

  it('a delta of more than 100 changed items comes in pages', async () => {
    const s = await seedWorkspace(env.ctx);
    for (const body of TYPES) await manage(s, 'POST', '/content-types', body);
    const start = (await drain('?initial=true', s.keys.preview)).token;
    for (let i = 0; i < 130; i++) await manage(s, 'POST', '/content-types/post/entries', { slug: `e-${i}`, data: { title: `${i}` } });
    await manage(s, 'PUT', '/content-types/post/entries/e-0', { data: { title: 'again' } });
    const r = await drain(`?sync_token=${encodeURIComponent(start)}`, s.keys.preview);
    // e-0 changed again after the first 100 items' events: it comes again on the second page.
    expect(r.pages).toEqual([100, 31]);
    expect(new Set(r.items.map((i) => i.sys.id)).size).toBe(130);
  });

  /** One random write; refusals (409, 404) are part of the mix and change nothing. */
  type Op = { kind: 'entry' | 'page' | 'media'; action: string; n: number };
  const opArb: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant('entry' as const),
      action: fc.constantFrom('create', 'update', 'publish', 'unpublish', 'archive', 'schedule', 'delete'),
      n: fc.nat(1),
    }),
    fc.record({ kind: fc.constant('page' as const), action: fc.constantFrom('create', 'update', 'publish', 'unpublish', 'archive', 'delete'), n: fc.nat(1) }),
    fc.record({ kind: fc.constant('media' as const), action: fc.constantFrom('create', 'update', 'delete'), n: fc.nat(1) }),
    // Pulls between writes, so that deltas start from every kind of intermediate state.
    fc.record({ kind: fc.constant('entry' as const), action: fc.constant('sync'), n: fc.nat(1) }),
    fc.record({ kind: fc.constant('entry' as const), action: fc.constant('sync'), n: fc.nat(1) }),
  );

  async function apply(s: Awaited<ReturnType<typeof seedWorkspace>>, media: (string | null)[], op: Op, step: number): Promise<void> {
    const h = { 'x-workspace-id': s.workspace.id };
    if (op.kind === 'media') {
      if (op.action === 'create') {
        const r = await upload(env.app, {
          key: s.keys.management,
          workspaceId: s.workspace.id,
          parts: [{ name: 'file', filename: 'm.png', data: image, contentType: 'image/png' }],
        });
        media.push((r.body as { data: { id: string } }).data.id);
        return;
      }
      const id = media[op.n % Math.max(media.length, 1)];
      if (!id) return;
      if (op.action === 'update') await manage(s, 'PUT', `/media/${id}`, { alt_text: `alt ${step}` }, h);
      else {
        await manage(s, 'DELETE', `/media/${id}`, undefined, h);
        media[media.indexOf(id)] = null;
      }
      return;
    }
    const base = op.kind === 'entry' ? '/content-types/post/entries' : '/pages';
    const slug = `${op.kind}-${op.n}`;
    const body =
      op.kind === 'entry'
        ? { slug, data: { title: `t${step}` }, translations: { de: { data: { title: `de${step}` } } } }
        : { slug, seo: { title: `s${step}` }, blocks: [{ type: 'hero', data: { headline: `h${step}` } }] };
    if (op.action === 'create') await manage(s, 'POST', base, body);
    else if (op.action === 'update') await manage(s, 'PUT', `${base}/${slug}`, body);
    else if (op.action === 'delete') await manage(s, 'DELETE', `${base}/${slug}`);
    else if (op.action === 'schedule') await manage(s, 'PATCH', `${base}/${slug}/schedule`, { publish_at: new Date(Date.now() + 86_400_000).toISOString() });
    else await manage(s, 'PATCH', `${base}/${slug}/${op.action}`);
  }

  it('property: deltas applied to a local copy equal a fresh initial sync (production and preview keys)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 6, size: 'max' }), fc.array(opArb, { minLength: 4, maxLength: 24, size: 'max' }), async (before, after) => {
        const s = await seedWorkspace(env.ctx);
        for (const body of TYPES) await manage(s, 'POST', '/content-types', body);
        const media: (string | null)[] = [];
        for (const [i, op] of before.entries()) if (op.action !== 'sync') await apply(s, media, op, i);
        const clients = await Promise.all(
          [s.keys.delivery, s.keys.preview].map(async (key) => {
            const first = await drain('?initial=true', key);
            return { key, token: first.token, local: new Map(first.items.map((i) => [`${i.sys.type}:${i.sys.id}`, i])) };
          }),
        );
        const pull = async () => {
          for (const c of clients) {
            const d = await drain(`?sync_token=${encodeURIComponent(c.token)}`, c.key);
            c.token = d.token;
            for (const item of d.items) {
              const t = item.sys.type;
              if (t.startsWith('deleted_')) c.local.delete(`${t.slice('deleted_'.length)}:${item.sys.id}`);
              else c.local.set(`${t}:${item.sys.id}`, item);
            }
          }
        };
        for (const [i, op] of after.entries()) {
          if (op.action === 'sync') await pull();
          else await apply(s, media, op, 100 + i);
        }
        await pull();
        for (const c of clients) {
          const fresh = await drain('?initial=true', c.key);
          expect(new Map(fresh.items.map((i) => [`${i.sys.type}:${i.sys.id}`, i]))).toEqual(c.local);
        }
      }),
      { numRuns: dialect === 'sqlite' ? 20 : 6 },
    );
  });
});
