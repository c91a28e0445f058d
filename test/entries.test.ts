import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createMember } from '../src/modules/auth/operations.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createEntry, getEntry, updateEntry } from '../src/modules/entries/operations.js';
import { publishEntry } from '../src/modules/entries/publishing.js';
import { newId } from '../src/lib/ids.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('entries: CRUD, slugs, translations, duplicate, reorder on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let wsId: string;
  let wsSlug: string;
  let userId: number;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx, { locales: ['en', 'de', 'fr'] });
    key = s.keys.management;
    wsId = s.workspace.id;
    wsSlug = s.workspace.slug;
    userId = s.user.id;
    const types = [
      {
        name: 'Article',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', required: true, localizable: true },
          { name: 'body', field_type: 'textarea', localizable: true },
          { name: 'sku', field_type: 'text', is_unique: true },
          { name: 'views', field_type: 'integer' },
        ],
      },
      { name: 'Category', display_field: 'name', orderable: true, fields: [{ name: 'name', field_type: 'text' }] },
      { name: 'Hero', is_block: true, fields: [{ name: 'headline', field_type: 'text' }] },
    ];
    for (const t of types) {
      const res = await call(env.app, 'POST', `${M}/content-types`, { key, body: t });
      expect(res.status).toBe(201);
    }
  });
  afterAll(async () => env?.close());

  const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>, k = key) =>
    call(env.app, method, `${M}${url}`, { key: k, body, headers });
  const countRows = async () => {
    const e = await env.ctx.db.kysely
      .selectFrom('entries')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const t = await env.ctx.db.kysely
      .selectFrom('entry_translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { entries: Number(e.n), translations: Number(t.n) };
  };

  it('creates a draft with the management wire shape (data string, translations array) and an ETag', async () => {
    const res = await req('POST', '/content-types/article/entries', {
      slug: 'hello-world',
      data: { title: 'Hello world', body: 'First\npost', views: 3 },
      translations: { de: { data: { title: 'Hallo Welt' } } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Success', meta: null });
    const e = res.body.data;
    expect(e).toMatchObject({
      slug: 'hello-world',
      status: 'draft',
      workspace_id: wsId,
      position: 0,
      publish_at: null,
      published_at: null,
      created_by: userId,
      updated_by: userId,
    });
    expect(typeof e.data).toBe('string');
    expect(JSON.parse(e.data)).toEqual({ title: 'Hello world', body: 'First\npost', views: 3 });
    expect(e.translations).toHaveLength(1);
    const [tr] = e.translations;
    expect(Number.isInteger(tr.id)).toBe(true);
    expect(tr).toMatchObject({ entry_id: e.id, locale: 'de' });
    expect(JSON.parse(tr.data)).toEqual({ title: 'Hallo Welt' });
    expect(e).not.toHaveProperty('version');
    expect(res.headers.etag).toBe(`"${e.id}-1"`);
    expect(e.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('accepts data as a JSON string and translations as an array (D2)', async () => {
    const res = await req('POST', '/content-types/article/entries', {
      slug: 'second',
      data: JSON.stringify({ title: 'Second' }),
      translations: [
        { locale: 'fr', data: { title: 'Deuxième' } },
        { locale: 'de', data: JSON.stringify({ body: 'Zweiter' }) },
      ],
    });
    expect(res.status).toBe(201);
    expect(JSON.parse(res.body.data.data)).toEqual({ title: 'Second' });
    expect(res.body.data.translations.map((t: any) => [t.locale, JSON.parse(t.data)])).toEqual([
      ['de', { body: 'Zweiter' }],
      ['fr', { title: 'Deuxième' }],
    ]);
    expect(res.body.data.position).toBe(1);
  });

  it('gets one entry by slug with an ETag; 404 for unknown entry or type', async () => {
    const res = await req('GET', '/content-types/article/entries/hello-world');
    expect(res.status).toBe(200);
    expect(res.body.data.slug).toBe('hello-world');
    expect(res.headers.etag).toBe(`"${res.body.data.id}-1"`);
    expectError(await req('GET', '/content-types/article/entries/nope'), 404, 'NOT_FOUND');
    expectError(await req('GET', '/content-types/nope/entries/hello-world'), 404, 'NOT_FOUND');
    expectError(await req('GET', '/content-types/nope/entries'), 404, 'NOT_FOUND');
  });

  it('lists every status with offset meta, newest first, with a status filter', async () => {
    await req('PATCH', '/content-types/article/entries/second/publish');
    const all = await req('GET', '/content-types/article/entries');
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: any) => e.slug)).toEqual(['second', 'hello-world']);
    expect(all.body.meta).toMatchObject({ total_data: 2, current_page: 1, page_size: 2, total_pages: 1 });
    const pub = await req('GET', '/content-types/article/entries?status=published');
    expect(pub.body.data.map((e: any) => e.slug)).toEqual(['second']);
    const drafts = await req('GET', '/content-types/article/entries?status=draft&limit=1');
    expect(drafts.body.data.map((e: any) => e.slug)).toEqual(['hello-world']);
    expect(drafts.body.meta).toMatchObject({ total_data: 1, page_size: 1 });
    const page2 = await req('GET', '/content-types/article/entries?limit=1&page=2');
    expect(page2.body.data.map((e: any) => e.slug)).toEqual(['hello-world']);
    expect(page2.body.meta).toMatchObject({ total_data: 2, current_page: 2, total_pages: 2 });
    const bySlug = await req('GET', '/content-types/article/entries?sort=slug:asc');
    expect(bySlug.body.data.map((e: any) => e.slug)).toEqual(['hello-world', 'second']);
    expectError(await req('GET', '/content-types/article/entries?status=live'), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', '/content-types/article/entries?limit=101'), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', '/content-types/article/entries?page=1001'), 400, 'PAGE_TOO_DEEP');
    expectError(await req('GET', '/content-types/article/entries?sort=title:asc'), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', '/content-types/article/entries?sort=position:asc'), 400, 'VALIDATION_FAILED');
  });

  it('refuses entries of a block type', async () => {
    const res = expectError(await req('POST', '/content-types/hero/entries', { data: { headline: 'x' } }), 400, 'VALIDATION_FAILED');
    expect(res.errors[0].path).toBe('params.slug');
  });

  it('derives slugs from the display field, appending -2, -3 on collisions, the id without a value', async () => {
    const a = await req('POST', '/content-types/article/entries', { data: { title: 'Über Café & Co' } });
    expect(a.body.data.slug).toBe('uber-cafe-co');
    const b = await req('POST', '/content-types/article/entries', { data: { title: 'Über Café & Co!' } });
    expect(b.body.data.slug).toBe('uber-cafe-co-2');
    const c = await req('POST', '/content-types/article/entries', { data: { title: 'uber cafe co' } });
    expect(c.body.data.slug).toBe('uber-cafe-co-3');
    const d = await req('POST', '/content-types/article/entries', { data: { body: 'no title yet' } });
    expect(d.body.data.slug).toBe(d.body.data.id);
    const reserved = await req('POST', '/content-types/article/entries', { data: { title: 'Bulk' } });
    expect(reserved.body.data.slug).toBe('bulk-2');
  });

  it('answers 409 SLUG_TAKEN for a used slug and 400 for a malformed or reserved one', async () => {
    expectError(await req('POST', '/content-types/article/entries', { slug: 'hello-world', data: { title: 'x' } }), 409, 'SLUG_TAKEN');
    for (const slug of ['Hello', 'a--b', '-a', 'a_b', 'bulk', 'reorder', 'x'.repeat(201)]) {
      const res = await req('POST', '/content-types/article/entries', { slug, data: { title: 'x' } });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.errors[0].path).toBe('body.slug');
    }
    expectError(await req('PUT', '/content-types/article/entries/second', { slug: 'hello-world', data: { title: 'Second' } }), 409, 'SLUG_TAKEN');
  });

  it('enforces is_unique values on create and update (409 UNIQUE_VIOLATION), ignoring the entry itself', async () => {
    const first = await req('POST', '/content-types/article/entries', { slug: 'u1', data: { title: 'U1', sku: 'SKU-1' } });
    expect(first.status).toBe(201);
    expectError(await req('POST', '/content-types/article/entries', { slug: 'u2', data: { title: 'U2', sku: 'SKU-1' } }), 409, 'UNIQUE_VIOLATION');
    const ok = await req('PUT', '/content-types/article/entries/u1', { data: { title: 'U1 again', sku: 'SKU-1' } });
    expect(ok.status).toBe(200);
    await req('POST', '/content-types/article/entries', { slug: 'u2', data: { title: 'U2', sku: 'SKU-2' } });
    expectError(await req('PUT', '/content-types/article/entries/u2', { data: { title: 'U2', sku: 'SKU-1' } }), 409, 'UNIQUE_VIOLATION');
  });

  it('validates translations: localizable fields only, workspace locales only, not the default locale', async () => {
    const nonLoc = expectError(
      await req('POST', '/content-types/article/entries', { data: { title: 'T' }, translations: { de: { data: { views: 4 } } } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(nonLoc.errors).toEqual([{ path: 'body.translations.de.data.views', message: expect.stringContaining("'views' is not localizable") }]);
    const unknown = expectError(
      await req('POST', '/content-types/article/entries', { data: { title: 'T' }, translations: { es: { data: { title: 'Hola' } } } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(unknown.errors[0]).toMatchObject({ path: 'body.translations.es', message: expect.stringContaining("'es' is not a locale") });
    const def = expectError(
      await req('POST', '/content-types/article/entries', { data: { title: 'T' }, translations: [{ locale: 'en', data: { title: 'x' } }] }),
      400,
      'VALIDATION_FAILED',
    );
    expect(def.errors[0].path).toBe('body.translations.0');
    const shape = expectError(
      await req('POST', '/content-types/article/entries', { data: { title: 'T' }, translations: { de: { title: 'x' } } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(shape.errors[0].path).toBe('body.translations.de');
    const dup = expectError(
      await req('POST', '/content-types/article/entries', {
        data: { title: 'T' },
        translations: [
          { locale: 'de', data: {} },
          { locale: 'de', data: {} },
        ],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(dup.errors[0].path).toBe('body.translations.1.locale');
    const typed = expectError(
      await req('POST', '/content-types/article/entries', { data: { title: 'T' }, translations: { de: { data: { title: 5 } } } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(typed.errors[0].path).toBe('body.translations.de.data.title');
    expectError(await req('POST', '/content-types/article/entries', { data: { title: 'T' }, translations: 'de' }), 400, 'VALIDATION_FAILED');
  });

  it('PUT replaces data, replaces translations when given (keeping ids of kept locales), keeps them when absent', async () => {
    const before = (await req('GET', '/content-types/article/entries/hello-world')).body.data;
    const deId = before.translations[0].id;
    const res = await req('PUT', '/content-types/article/entries/hello-world', {
      data: { title: 'Hello again' },
      translations: { de: { data: { title: 'Hallo nochmal' } }, fr: { data: { title: 'Bonjour' } } },
    });
    expect(res.status).toBe(200);
    const e = res.body.data;
    expect(JSON.parse(e.data)).toEqual({ title: 'Hello again' });
    expect(e.translations.map((t: any) => t.locale)).toEqual(['de', 'fr']);
    expect(e.translations[0].id).toBe(deId);
    expect(res.headers.etag).toBe(`"${e.id}-2"`);
    expect(e.updated_by).toBe(userId);

    const kept = await req('PUT', '/content-types/article/entries/hello-world', { data: { title: 'Hello again', body: 'b' } });
    expect(kept.body.data.translations.map((t: any) => t.locale)).toEqual(['de', 'fr']);
    const cleared = await req('PUT', '/content-types/article/entries/hello-world', { data: { title: 'Hello again' }, translations: {} });
    expect(cleared.body.data.translations).toEqual([]);
    const renamed = await req('PUT', '/content-types/article/entries/hello-world', { slug: 'hello', data: { title: 'Hello again' } });
    expect(renamed.body.data.slug).toBe('hello');
    expectError(await req('GET', '/content-types/article/entries/hello-world'), 404, 'NOT_FOUND');
    expectError(await req('PUT', '/content-types/article/entries/missing', { data: {} }), 404, 'NOT_FOUND');
    const unknownKey = expectError(await req('PUT', '/content-types/article/entries/hello', { data: {}, status: 'published' }), 400, 'VALIDATION_FAILED');
    expect(unknownKey.errors).toEqual([{ path: 'body.status', message: 'is not a known key' }]);
  });

  it('PUT keeps a published entry published; its working copy may lack required fields until it is published (D22, D70, D71)', async () => {
    await req('POST', '/content-types/article/entries', { slug: 'live', data: { title: 'Live' } });
    expect((await req('PATCH', '/content-types/article/entries/live/publish')).status).toBe(200);
    const before = (await req('GET', '/content-types/article/entries/live')).body.data;
    expect(before).toMatchObject({ has_pending_changes: false, published_version: 2 });
    const res = await req('PUT', '/content-types/article/entries/live', { data: { title: 'Live, edited' } });
    expect(res.body.data).toMatchObject({ status: 'published', published_at: before.published_at, has_pending_changes: true, published_version: 2 });
    const incomplete = await req('PUT', '/content-types/article/entries/live', { data: { body: 'no title' } });
    expect(incomplete.status).toBe(200);
    expect(incomplete.body.data).toMatchObject({ status: 'published', has_pending_changes: true });
    const missing = expectError(await req('PATCH', '/content-types/article/entries/live/publish'), 400, 'VALIDATION_FAILED');
    expect(missing.errors).toEqual([{ path: 'data.title', message: 'is required' }]);
    expect((await req('PUT', '/content-types/article/entries/live', { data: { title: '' } })).status).toBe(200);
    expect(expectError(await req('PATCH', '/content-types/article/entries/live/publish'), 400, 'VALIDATION_FAILED').errors[0].path).toBe('data.title');
    // A scheduled entry goes live without another request, so its writes must be complete.
    await req('PUT', '/content-types/article/entries/live', { data: { title: 'Back' } });
    expect((await req('PATCH', '/content-types/article/entries/live/unpublish')).status).toBe(200);
    expect((await req('PATCH', '/content-types/article/entries/live/schedule', { publish_at: new Date(Date.now() + 3_600_000).toISOString() })).status).toBe(
      200,
    );
    const scheduled = expectError(await req('PUT', '/content-types/article/entries/live', { data: { body: 'no title' } }), 400, 'VALIDATION_FAILED');
    expect(scheduled.errors).toEqual([{ path: 'body.data.title', message: 'is required' }]);
    // A draft may lack required fields.
    const draft = await req('POST', '/content-types/article/entries', { slug: 'incomplete', data: {} });
    expect(draft.status).toBe(201);
  });

  it('DELETE removes the entry and its translations; 404 afterwards', async () => {
    const created = await req('POST', '/content-types/article/entries', {
      slug: 'doomed',
      data: { title: 'D' },
      translations: { de: { data: { title: 'T' } } },
    });
    const id = created.body.data.id;
    const res = await req('DELETE', '/content-types/article/entries/doomed');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Success', data: null, meta: null });
    expectError(await req('GET', '/content-types/article/entries/doomed'), 404, 'NOT_FOUND');
    const left = await env.ctx.db.kysely.selectFrom('entry_translations').select('id').where('entry_id', '=', id).execute();
    expect(left).toEqual([]);
    expectError(await req('DELETE', '/content-types/article/entries/doomed'), 404, 'NOT_FOUND');
  });

  it('duplicates as a draft named -copy, then -copy-2, with data and translations, appended last; unique values left out', async () => {
    const src = await req('POST', '/content-types/article/entries', {
      slug: 'orig',
      data: { title: 'Orig', sku: 'ORIG-1', views: 9 },
      translations: { de: { data: { title: 'Original' } } },
    });
    await req('PATCH', '/content-types/article/entries/orig/publish');
    const one = await req('POST', '/content-types/article/entries/orig/duplicate');
    expect(one.status).toBe(201);
    const c1 = one.body.data;
    expect(c1).toMatchObject({ slug: 'orig-copy', status: 'draft', published_at: null, created_by: userId });
    expect(c1.id).not.toBe(src.body.data.id);
    expect(JSON.parse(c1.data)).toEqual({ title: 'Orig', views: 9 });
    expect(c1.translations.map((t: any) => [t.locale, JSON.parse(t.data)])).toEqual([['de', { title: 'Original' }]]);
    expect(c1.translations[0].id).not.toBe(src.body.data.translations[0].id);
    expect(one.headers.etag).toBe(`"${c1.id}-1"`);
    const two = await req('POST', '/content-types/article/entries/orig/duplicate');
    expect(two.body.data.slug).toBe('orig-copy-2');
    expect(two.body.data.position).toBe(c1.position + 1);
    const three = await req('POST', '/content-types/article/entries/orig/duplicate');
    expect(three.body.data.slug).toBe('orig-copy-3');
    expectError(await req('POST', '/content-types/article/entries/missing/duplicate'), 404, 'NOT_FOUND');
  });

  it('reorders an orderable type with the complete list; 400 otherwise and on a non-orderable type', async () => {
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) ids.push((await req('POST', '/content-types/category/entries', { data: { name } })).body.data.id);
    const list = await req('GET', '/content-types/category/entries');
    expect(list.body.data.map((e: any) => [e.slug, e.position])).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    const res = await req('PATCH', '/content-types/category/entries/reorder', { order: [ids[2], ids[0], ids[1]] });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    const after = await req('GET', '/content-types/category/entries');
    expect(after.body.data.map((e: any) => [e.slug, e.position])).toEqual([
      ['c', 0],
      ['a', 1],
      ['b', 2],
    ]);
    const desc = await req('GET', '/content-types/category/entries?sort=position:desc');
    expect(desc.body.data.map((e: any) => e.slug)).toEqual(['b', 'a', 'c']);
    const partial = expectError(await req('PATCH', '/content-types/category/entries/reorder', { order: [ids[0], ids[1]] }), 400, 'VALIDATION_FAILED');
    expect(partial.errors[0].path).toBe('body.order');
    expectError(await req('PATCH', '/content-types/category/entries/reorder', { order: [ids[0], ids[1], ids[2], ids[2]] }), 400, 'VALIDATION_FAILED');
    expectError(await req('PATCH', '/content-types/category/entries/reorder', { order: [ids[0], ids[1], newId()] }), 400, 'VALIDATION_FAILED');
    const notOrderable = expectError(await req('PATCH', '/content-types/article/entries/reorder', { order: [] }), 400, 'VALIDATION_FAILED');
    expect(notOrderable.errors[0].message).toContain('not orderable');
    // The reorder bumped versions of moved entries.
    const c = await req('GET', '/content-types/category/entries/c');
    expect(c.headers.etag).toBe(`"${ids[2]}-2"`);
    // The static /reorder route is not captured by /:entry_slug.
    expectError(await req('GET', '/content-types/category/entries/reorder'), 404, 'NOT_FOUND');
  });

  it('ETag / If-Match: a stale tag answers 412 and changes nothing; the current one or * passes', async () => {
    const created = await req('POST', '/content-types/article/entries', { slug: 'locked', data: { title: 'V1' } });
    const id = created.body.data.id;
    const v1 = created.headers.etag as string;
    const v2res = await req('PUT', '/content-types/article/entries/locked', { data: { title: 'V2' } }, { 'if-match': v1 });
    expect(v2res.status).toBe(200);
    const v2 = v2res.headers.etag as string;
    expect(v2).toBe(`"${id}-2"`);
    expectError(await req('PUT', '/content-types/article/entries/locked', { data: { title: 'stale' } }, { 'if-match': v1 }), 412, 'PRECONDITION_FAILED');
    expectError(await req('PATCH', '/content-types/article/entries/locked/publish', undefined, { 'if-match': v1 }), 412, 'PRECONDITION_FAILED');
    expectError(
      await req('PATCH', '/content-types/article/entries/locked/schedule', { publish_at: '2999-01-01T00:00:00.000Z' }, { 'if-match': v1 }),
      412,
      'PRECONDITION_FAILED',
    );
    expectError(await req('DELETE', '/content-types/article/entries/locked', undefined, { 'if-match': 'W/' + v2 }), 412, 'PRECONDITION_FAILED');
    const still = await req('GET', '/content-types/article/entries/locked');
    expect(still.body.data.status).toBe('draft');
    expect(JSON.parse(still.body.data.data)).toEqual({ title: 'V2' });
    expect(still.headers.etag).toBe(v2);
    const pub = await req('PATCH', '/content-types/article/entries/locked/publish', undefined, { 'if-match': `"other", ${v2}` });
    expect(pub.status).toBe(200);
    expect(pub.headers.etag).toBe(`"${id}-3"`);
    expect((await req('DELETE', '/content-types/article/entries/locked', undefined, { 'if-match': '*' })).status).toBe(200);
  });

  it('concurrent writers: one If-Match winner, one unique value, one slug', async () => {
    const created = await req('POST', '/content-types/article/entries', { slug: 'race', data: { title: 'R' } });
    const tag = created.headers.etag as string;
    const puts = await Promise.all([1, 2, 3].map((i) => req('PUT', '/content-types/article/entries/race', { data: { title: `R${i}` } }, { 'if-match': tag })));
    expect(puts.map((r) => r.status).sort()).toEqual([200, 412, 412]);
    const posts = await Promise.all(
      [1, 2, 3].map((i) => req('POST', '/content-types/article/entries', { slug: `race-${i}`, data: { title: 'R', sku: 'RACE' } })),
    );
    expect(posts.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const slugs = await Promise.all([1, 2, 3].map(() => req('POST', '/content-types/article/entries', { slug: 'race-same', data: { title: 'R' } })));
    expect(slugs.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const derived = await Promise.all([1, 2, 3].map(() => req('POST', '/content-types/article/entries', { data: { title: 'Derived race' } })));
    expect(derived.map((r) => r.body.data.slug).sort()).toEqual(['derived-race', 'derived-race-2', 'derived-race-3']);
  });

  it('a failing write leaves no partial rows', async () => {
    const before = await countRows();
    // Valid data, but the second translation is invalid: nothing may be written.
    const res = await req('POST', '/content-types/article/entries', {
      slug: 'partial',
      data: { title: 'P' },
      translations: [
        { locale: 'de', data: { title: 'ok' } },
        { locale: 'fr', data: { views: 1 } },
      ],
    });
    expectError(res, 400, 'VALIDATION_FAILED');
    // A unique violation found after the content was validated.
    expectError(
      await req('POST', '/content-types/article/entries', {
        slug: 'partial',
        data: { title: 'P', sku: 'SKU-2' },
        translations: { de: { data: { title: 'x' } } },
      }),
      409,
      'UNIQUE_VIOLATION',
    );
    // PUT that fails keeps the old data and translations.
    const target = (await req('GET', '/content-types/article/entries/second')).body.data;
    expectError(
      await req('PUT', '/content-types/article/entries/second', { data: { title: 'changed' }, translations: { de: { data: { views: 2 } } } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(await countRows()).toEqual(before);
    const same = (await req('GET', '/content-types/article/entries/second')).body.data;
    expect(same).toEqual(target);
  });

  it('enforces scopes (403 naming the scope) and the creator role (viewer)', async () => {
    const writer = await createMember(env.ctx, wsSlug, `writer-${dialect}@example.com`, 'author');
    const writeOnly = await createApiKey(env.ctx, wsId, writer.id, { keyClass: 'management', scopes: ['content:write'] });
    const created = await req('POST', '/content-types/article/entries', { slug: 'by-author', data: { title: 'A' } }, undefined, writeOnly.key);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ created_by: writer.id, updated_by: writer.id });
    const noPublish = expectError(
      await req('PATCH', '/content-types/article/entries/by-author/publish', undefined, undefined, writeOnly.key),
      403,
      'FORBIDDEN',
    );
    expect(noPublish.message).toContain('content:publish');
    expectError(
      await req('PATCH', '/content-types/article/entries/bulk', { action: 'publish', ids: [created.body.data.id] }, undefined, writeOnly.key),
      403,
      'FORBIDDEN',
    );

    const publisher = await createApiKey(env.ctx, wsId, userId, { keyClass: 'management', scopes: ['content:publish'] });
    const noWrite = expectError(await req('POST', '/content-types/article/entries', { data: { title: 'x' } }, undefined, publisher.key), 403, 'FORBIDDEN');
    expect(noWrite.message).toContain('content:write');
    for (const [method, url, body] of [
      ['PUT', '/content-types/article/entries/by-author', { data: {} }],
      ['DELETE', '/content-types/article/entries/by-author', undefined],
      ['POST', '/content-types/article/entries/by-author/duplicate', undefined],
      ['PATCH', '/content-types/category/entries/reorder', { order: [] }],
      ['DELETE', '/content-types/article/entries/bulk', { ids: [created.body.data.id] }],
    ] as const) {
      expect(expectError(await req(method, url, body, undefined, publisher.key), 403, 'FORBIDDEN').message).toContain('content:write');
    }
    // Reads need no scope.
    expect((await req('GET', '/content-types/article/entries', undefined, undefined, publisher.key)).status).toBe(200);
    const pub = await req('PATCH', '/content-types/article/entries/by-author/publish', undefined, undefined, publisher.key);
    expect(pub.status).toBe(200);
    expect((await req('GET', '/content-types/article/entries/by-author')).body.data.updated_by).toBe(userId);

    const viewer = await createMember(env.ctx, wsSlug, `viewer-${dialect}@example.com`, 'viewer');
    const viewerKey = await createApiKey(env.ctx, wsId, viewer.id, { keyClass: 'management', scopes: ['content:write', 'content:publish'] });
    const v = expectError(await req('POST', '/content-types/article/entries', { data: { title: 'x' } }, undefined, viewerKey.key), 403, 'FORBIDDEN');
    expect(v.message).toContain("role 'viewer'");
    expect(v.message).toContain('content:write');
    expectError(await req('PATCH', '/content-types/article/entries/by-author/unpublish', undefined, undefined, viewerKey.key), 403, 'FORBIDDEN');
  });

  it('exports operations for the importer: explicit id, update by id, publish, get', async () => {
    const actor = systemActor(wsId, userId);
    const id = newId();
    const created = await createEntry(env.ctx, actor, 'article', { id, data: { title: 'Imported' } });
    expect(created).toMatchObject({ id, slug: 'imported', status: 'draft', version: 1 });
    expect(created.data).toEqual({ title: 'Imported' });
    await expect(createEntry(env.ctx, actor, 'article', { id, data: { title: 'Again' } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const updated = await updateEntry(
      env.ctx,
      actor,
      'article',
      { id },
      { data: { title: 'Imported 2' }, translations: [{ locale: 'de', data: { title: 'Importiert' } }] },
    );
    expect(updated.translations.map((t) => t.locale)).toEqual(['de']);
    const published = await publishEntry(env.ctx, actor, 'article', { id });
    expect(published.status).toBe('published');
    expect((await getEntry(env.ctx, actor, 'article', { slug: 'imported' })).version).toBe(3);
  });
});
