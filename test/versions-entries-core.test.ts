/**
 * Working copies, published versions and history of entries, end to end over HTTP (docs/api.md
 * "Working copies, publishing changes and history" (D70, D71), "History" (D72)), on SQLite and
 * PostgreSQL:
 * - production delivery (detail, lists, filters, sorts, relations) reads the published version;
 *   preview keys and preview tokens read the working copy;
 * - a PUT on a published entry keeps it published with `has_pending_changes`; publishing again is
 *   allowed only with pending changes; unpublish and archive keep the working copy;
 * - every content or state change appends a version; consecutive updates by one person within
 *   the coalescing window share one; versions are listed, read in the entry's wire shape and
 *   restored; they go with the entry;
 * - a scheduled publication publishes the working copy as it is at `publish_at`;
 * - concurrent saves and publishes leave a consistent history.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createMember } from '../src/modules/auth/operations.js';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type Res, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const SEC = 1000;

describe.each(dialects())('entry working copies and versions on %s', (dialect) => {
  let env: TestEnv;
  let now = T0;
  let keys: { management: string; delivery: string; preview: string };
  let wsId: string;
  let wsSlug: string;
  let otherKey: string;
  let readOnlyKey: string;

  const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, key = keys.management) =>
    call(env.app, method, `${M}${url}`, { key, body });
  const post = (slug: string) => `/content-types/post/entries/${slug}`;
  const put = (slug: string, data: Record<string, unknown>, key = keys.management, translations?: unknown) =>
    req('PUT', post(slug), translations === undefined ? { data } : { data, translations }, key);
  const verb = (slug: string, v: string, body?: unknown) => req('PATCH', `${post(slug)}/${v}`, body);
  const record = async (slug: string) => (await req('GET', post(slug))).body.data;
  const versions = async (slug: string): Promise<{ version: number; action: string; status: string; created_at: string; created_by: number | null }[]> => {
    const res = await req('GET', `${post(slug)}/versions?limit=100`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  const delivered = (slug: string, key = keys.delivery, query = '') => call(env.app, 'GET', `${P}/entries/${slug}?type=post${query}`, { key });
  const title = (res: Res) => JSON.parse(res.body.data.entry.data).title;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    const s = await seedWorkspace(env.ctx);
    keys = s.keys;
    wsId = s.workspace.id;
    wsSlug = s.workspace.slug;
    const editor = await createMember(env.ctx, wsSlug, `editor-${dialect}@example.com`, 'editor');
    otherKey = (await createApiKey(env.ctx, wsId, editor.id, { keyClass: 'management' })).key;
    readOnlyKey = (await createApiKey(env.ctx, wsId, s.user.id, { keyClass: 'management', scopes: [] })).key;
    for (const body of [
      { name: 'Author', display_field: 'name', fields: [{ name: 'name', field_type: 'text', required: true, localizable: true }] },
      {
        name: 'Post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', required: true, localizable: true },
          { name: 'views', field_type: 'integer', sortable: true, filterable: true },
          { name: 'author', field_type: 'relation', options: JSON.stringify(['author']) },
        ],
      },
    ]) {
      expect((await req('POST', '/content-types', body)).status).toBe(201);
    }
  });
  afterAll(async () => env?.close());

  it('a new entry is a draft with version 1 (create) and no published version', async () => {
    const created = await req('POST', '/content-types/post/entries', {
      slug: 'story',
      data: { title: 'One', views: 1 },
      translations: { de: { data: { title: 'Eins' } } },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: 'draft', has_pending_changes: false, published_version: null });
    expect((await versions('story')).map((v) => [v.version, v.action, v.status])).toEqual([[1, 'create', 'draft']]);
    expectError(await delivered('story'), 404, 'NOT_FOUND');
    expect(title(await delivered('story', keys.preview))).toBe('One');
  });

  it('publish freezes the working copy as the published version (version 2)', async () => {
    now += SEC;
    expect((await verb('story', 'publish')).status).toBe(200);
    expect(await record('story')).toMatchObject({
      status: 'published',
      has_pending_changes: false,
      published_version: 2,
      published_at: new Date(now).toISOString(),
    });
    expect((await versions('story')).map((v) => [v.version, v.action, v.status])).toEqual([
      [2, 'publish', 'published'],
      [1, 'create', 'draft'],
    ]);
    expect(title(await delivered('story'))).toBe('One');
  });

  it('a PUT on a published entry changes the working copy only: production reads the published version, preview the working copy', async () => {
    now += SEC;
    const saved = await put('story', { title: 'Two', views: 99 }, keys.management, { de: { data: { title: 'Zwei' } } });
    expect(saved.status).toBe(200);
    expect(saved.body.data).toMatchObject({ status: 'published', has_pending_changes: true, published_version: 2 });
    expect(JSON.parse(saved.body.data.data).title).toBe('Two');
    // Production: detail, locale, list, filter and sort all read the published version.
    expect(title(await delivered('story'))).toBe('One');
    expect(title(await delivered('story', keys.delivery, '&locale=de'))).toBe('Eins');
    const list = await call(env.app, 'GET', `${P}/entries?type=post&sort=views:desc`, { key: keys.delivery });
    expect(list.body.data.map((e: { data: string }) => JSON.parse(e.data))).toEqual([{ title: 'One', views: 1 }]);
    expect((await call(env.app, 'GET', `${P}/entries?type=post&filter[views]=99`, { key: keys.delivery })).body.data).toEqual([]);
    expect((await call(env.app, 'GET', `${P}/entries?type=post&filter[views]=1`, { key: keys.delivery })).body.data).toHaveLength(1);
    // Preview: the working copy, in the same queries.
    expect(title(await delivered('story', keys.preview))).toBe('Two');
    expect(title(await delivered('story', keys.preview, '&locale=de'))).toBe('Zwei');
    expect((await call(env.app, 'GET', `${P}/entries?type=post&filter[views]=99`, { key: keys.preview })).body.data).toHaveLength(1);
    // A preview token reads the working copy too.
    const token = (await req('POST', '/preview-tokens', { entry_id: saved.body.data.id })).body.data.token;
    const previewed = await call(env.app, 'GET', `${P}/preview?token=${encodeURIComponent(token)}`, { key: keys.delivery });
    expect(JSON.parse(previewed.body.data.entry.data).title).toBe('Two');
    expect((await versions('story')).map((v) => [v.version, v.action, v.status])[0]).toEqual([3, 'update', 'published']);
  });

  it('consecutive updates by one person within the window share a version; a save that changes nothing adds none', async () => {
    now += 30 * SEC;
    expect((await put('story', { title: 'Two and a half', views: 99 })).status).toBe(200);
    const after = await versions('story');
    expect(after.map((v) => v.version)).toEqual([3, 2, 1]);
    expect(after[0].created_at).toBe(new Date(now).toISOString());
    const v3 = await req('GET', `${post('story')}/versions/3`);
    expect(JSON.parse(v3.body.data.data).title).toBe('Two and a half');
    // The same content again: no version, and the record still has pending changes.
    now += SEC;
    expect((await put('story', { title: 'Two and a half', views: 99 })).status).toBe(200);
    expect((await versions('story')).map((v) => v.version)).toEqual([3, 2, 1]);
    expect((await record('story')).has_pending_changes).toBe(true);
  });

  it('another person, or the same one after the window, appends a version', async () => {
    now += SEC;
    const byOther = await put('story', { title: 'Edited by the editor', views: 99 }, otherKey);
    expect(byOther.status).toBe(200);
    expect((await versions('story')).map((v) => [v.version, v.action])[0]).toEqual([4, 'update']);
    now += SEC;
    expect((await put('story', { title: 'Owner again', views: 99 })).status).toBe(200);
    expect((await versions('story')).map((v) => v.version)[0]).toBe(5);
    now += 301 * SEC;
    expect((await put('story', { title: 'Owner, much later', views: 99 })).status).toBe(200);
    const list = await versions('story');
    expect(list.map((v) => v.version)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(list[1].created_by).not.toBe(list[2].created_by);
  });

  it('publishing changes replaces the live version; publishing without changes is refused (D71)', async () => {
    now += SEC;
    const published = await verb('story', 'publish');
    expect(published.status).toBe(200);
    expect(await record('story')).toMatchObject({
      status: 'published',
      has_pending_changes: false,
      published_version: 7,
      published_at: new Date(now).toISOString(),
    });
    expect(title(await delivered('story'))).toBe('Owner, much later');
    const again = expectError(await verb('story', 'publish'), 409, 'INVALID_STATE_TRANSITION');
    expect(again.message).toBe("entry cannot be published from status 'published'");
    // A save right after a publish does not coalesce into the published version.
    now += SEC;
    expect((await put('story', { title: 'After publish', views: 99 })).status).toBe(200);
    expect((await versions('story')).map((v) => [v.version, v.action])[0]).toEqual([8, 'update']);
    now += SEC;
    expect((await put('story', { title: 'After publish, again', views: 99 })).status).toBe(200);
    expect((await versions('story')).map((v) => v.version)[0]).toBe(8);
    expect((await req('GET', `${post('story')}/versions/7`)).body.data.data).toContain('Owner, much later');
  });

  it('lists versions newest first with offset pagination and reads one in the entry’s wire shape', async () => {
    const page2 = await req('GET', `${post('story')}/versions?limit=3&page=2`);
    expect(page2.status).toBe(200);
    expect(page2.body.data.map((v: { version: number }) => v.version)).toEqual([5, 4, 3]);
    expect(page2.body.meta).toMatchObject({ total_data: 8, current_page: 2, page_size: 3, total_pages: 3 });
    expect(Object.keys(page2.body.data[0]).sort()).toEqual(['action', 'created_at', 'created_by', 'status', 'version']);
    const v1 = await req('GET', `${post('story')}/versions/1`);
    expect(v1.status).toBe(200);
    const current = await record('story');
    // The entry's wire shape, less `workflow`: the item's place in its review workflow is the
    // item's now, not a version's (docs/workflow.md).
    expect(Object.keys(v1.body.data).sort()).toEqual(
      Object.keys(current)
        .filter((k) => k !== 'workflow')
        .sort(),
    );
    expect(JSON.parse(v1.body.data.data)).toEqual({ title: 'One', views: 1 });
    expect(v1.body.data.translations.map((t: { locale: string; data: string }) => [t.locale, JSON.parse(t.data)])).toEqual([['de', { title: 'Eins' }]]);
    expect(v1.body.meta).toMatchObject({ version: 1, action: 'create', status: 'draft' });
    // Any management key reads history; bad numbers answer 400, missing ones 404.
    expect((await req('GET', `${post('story')}/versions`, undefined, readOnlyKey)).status).toBe(200);
    expectError(await req('GET', `${post('story')}/versions/99`), 404, 'NOT_FOUND');
    for (const bad of ['0', 'abc', '-1', '1.5']) expectError(await req('GET', `${post('story')}/versions/${bad}`), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', `${post('nobody')}/versions`), 404, 'NOT_FOUND');
    expectError(await call(env.app, 'GET', `${M}${post('story')}/versions`, { key: keys.delivery }), 401, 'UNAUTHORIZED');
  });

  it('restore makes a version the working copy as a new version; status stays, production waits for publish', async () => {
    expectError(await req('POST', `${post('story')}/versions/1/restore`, undefined, readOnlyKey), 403, 'FORBIDDEN');
    expectError(await req('POST', `${post('story')}/versions/42/restore`), 404, 'NOT_FOUND');
    now += SEC;
    const restored = await req('POST', `${post('story')}/versions/1/restore`);
    expect(restored.status).toBe(200);
    expect(restored.headers.etag).toBeDefined();
    expect(restored.body.data).toMatchObject({ status: 'published', has_pending_changes: true, published_version: 7 });
    expect(JSON.parse(restored.body.data.data)).toEqual({ title: 'One', views: 1 });
    expect(restored.body.data.translations.map((t: { locale: string; data: string }) => [t.locale, JSON.parse(t.data)])).toEqual([['de', { title: 'Eins' }]]);
    expect((await versions('story')).map((v) => [v.version, v.action, v.status])[0]).toEqual([9, 'restore', 'published']);
    expect(title(await delivered('story'))).toBe('Owner, much later');
    now += SEC;
    expect((await verb('story', 'publish')).status).toBe(200);
    expect(title(await delivered('story', keys.delivery, '&locale=de'))).toBe('Eins');
    // Restoring the published version itself is recorded too (an explicit act).
    now += SEC;
    expect((await req('POST', `${post('story')}/versions/10/restore`)).status).toBe(200);
    expect((await versions('story')).map((v) => v.action)[0]).toBe('restore');
  });

  it('unpublish and archive drop the published version from delivery and keep the working copy', async () => {
    now += SEC;
    expect((await put('story', { title: 'Kept while unpublished', views: 5 })).status).toBe(200);
    expect((await verb('story', 'unpublish')).status).toBe(200);
    expectError(await delivered('story'), 404, 'NOT_FOUND');
    expect(await record('story')).toMatchObject({ status: 'draft', has_pending_changes: false, published_version: null });
    expect(JSON.parse((await record('story')).data).title).toBe('Kept while unpublished');
    expect(title(await delivered('story', keys.preview))).toBe('Kept while unpublished');
    now += SEC;
    expect((await verb('story', 'archive')).status).toBe(200);
    expect(JSON.parse((await record('story')).data).title).toBe('Kept while unpublished');
    expect((await versions('story')).slice(0, 2).map((v) => [v.action, v.status])).toEqual([
      ['archive', 'archived'],
      ['unpublish', 'draft'],
    ]);
    now += SEC;
    expect((await verb('story', 'publish')).status).toBe(200);
    expect(title(await delivered('story'))).toBe('Kept while unpublished');
  });

  it('a relation resolves to the related entry’s published version in production and its working copy in preview', async () => {
    expect((await req('POST', '/content-types/author/entries', { slug: 'ada', data: { name: 'Ada' } })).status).toBe(201);
    expect((await req('PATCH', '/content-types/author/entries/ada/publish')).status).toBe(200);
    const ada = await req('GET', '/content-types/author/entries/ada');
    expect((await put('story', { title: 'With author', views: 5, author: ada.body.data.id })).status).toBe(200);
    expect((await verb('story', 'publish')).status).toBe(200);
    expect((await req('PUT', '/content-types/author/entries/ada', { data: { name: 'Ada, renamed' } })).status).toBe(200);
    const author = async (key: string) => JSON.parse((await delivered('story', key, '&fields=title,author.name')).body.data.entry.data).author.name;
    expect(await author(keys.delivery)).toBe('Ada');
    expect(await author(keys.preview)).toBe('Ada, renamed');
    // An unpublished related entry is null for production readers.
    expect((await req('PATCH', '/content-types/author/entries/ada/unpublish')).status).toBe(200);
    expect(JSON.parse((await delivered('story', keys.delivery, '&fields=title,author.name')).body.data.entry.data).author).toBeNull();
  });

  it('a scheduled publication publishes the working copy as it is at publish_at', async () => {
    expect((await req('POST', '/content-types/post/entries', { slug: 'later', data: { title: 'At scheduling', views: 3 } })).status).toBe(201);
    const at = new Date(now + 3_600_000).toISOString();
    expect((await verb('later', 'schedule', { publish_at: at })).status).toBe(200);
    // A scheduled entry goes live without another request, so its saves must be complete.
    expectError(await put('later', { views: 4 }), 400, 'VALIDATION_FAILED');
    now += SEC;
    expect((await put('later', { title: 'Changed after scheduling', views: 4 })).status).toBe(200);
    expectError(await delivered('later'), 404, 'NOT_FOUND');
    now += 3_600_000;
    expect(title(await delivered('later'))).toBe('Changed after scheduling');
    expect(await record('later')).toMatchObject({ status: 'published', published_at: at, has_pending_changes: false });
    expect((await runSchedulerOnce(env.ctx)).entries).toBe(1);
    const history = await versions('later');
    expect(history.map((v) => [v.action, v.status])).toEqual([
      ['publish', 'published'],
      ['update', 'scheduled'],
      ['schedule', 'scheduled'],
      ['create', 'draft'],
    ]);
    expect(history[0].created_at).toBe(at);
    const rec = await record('later');
    expect(rec).toMatchObject({ published_version: history[0].version, has_pending_changes: false });
    expect(JSON.parse((await req('GET', `${post('later')}/versions/${rec.published_version}`)).body.data.data).title).toBe('Changed after scheduling');
  });

  it('a duplicate starts its own history; deleting an entry deletes its versions', async () => {
    const copy = await req('POST', `${post('story')}/duplicate`);
    expect(copy.status).toBe(201);
    expect((await versions(copy.body.data.slug)).map((v) => [v.version, v.action, v.status])).toEqual([[1, 'duplicate', 'draft']]);
    const id = copy.body.data.id;
    expect((await req('DELETE', post(copy.body.data.slug))).status).toBe(200);
    const left = await env.ctx.db.kysely.selectFrom('entry_versions').select('version').where('entry_id', '=', id).execute();
    expect(left).toEqual([]);
  });

  it('concurrent saves and publishes leave contiguous versions and a consistent published version', async () => {
    expect((await req('POST', '/content-types/post/entries', { slug: 'race', data: { title: 'R0', views: 0 } })).status).toBe(201);
    expect((await verb('race', 'publish')).status).toBe(200);
    for (let round = 1; round <= 3; round++) {
      now += 400 * SEC; // outside the coalescing window: every save appends
      const results = await Promise.all([
        put('race', { title: `R${round}a`, views: round }),
        verb('race', 'publish'),
        put('race', { title: `R${round}b`, views: round }, otherKey),
        verb('race', 'publish'),
        put('race', { title: `R${round}c`, views: round }),
      ]);
      for (const r of results) expect([200, 409]).toContain(r.status);
    }
    const history = await versions('race');
    const numbers = history.map((v) => v.version).sort((a, b) => a - b);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    const rec = await record('race');
    const published = await req('GET', `${post('race')}/versions/${rec.published_version}`);
    expect(published.status).toBe(200);
    expect(history.find((v) => v.version === rec.published_version)!.action).toBe('publish');
    // Production shows exactly the published version; pending changes exactly when the working copy differs.
    expect(JSON.parse((await delivered('race')).body.data.entry.data)).toEqual(JSON.parse(published.body.data.data));
    expect(rec.has_pending_changes).toBe(rec.data !== published.body.data.data);
    // The newest version holds the working copy.
    expect((await req('GET', `${post('race')}/versions/${history[0].version}`)).body.data.data).toBe(rec.data);
  });
});
