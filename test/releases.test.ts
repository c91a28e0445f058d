/**
 * Releases over HTTP (docs/releases.md; D110–D113), on SQLite and PostgreSQL: CRUD and
 * permissions, items and the 1,000 item limit, release versions of entries and pages through
 * `?release`, the conflict flag, the 422 that lists every problem, the all-or-nothing
 * publication (published versions with the release id, working copies with and without pending
 * changes, unpublish items), events, schedule and the scheduled failure, revert with its 409 and
 * `force`, and delete discarding the variants.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createMember } from '../src/modules/auth/operations.js';
import { listEventsAfter } from '../src/modules/events/repository.js';
import { publishDueReleases } from '../src/modules/releases/publication.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const T0 = Date.parse('2026-11-21T10:00:00.000Z');

describe.each(dialects())('releases on %s', (dialect) => {
  let env: TestEnv;
  let now = T0;
  let keys: { management: string; delivery: string; preview: string };
  let wsId: string;
  let authorKey: string;
  let viewerKey: string;

  const req = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, key = keys.management) =>
    call(env.app, method, `${M}${url}`, { key, body });
  const entry = async (slug: string, data: Record<string, unknown>, publish = true): Promise<string> => {
    const res = await req('POST', '/content-types/post/entries', { slug, data });
    expect(res.status).toBe(201);
    if (publish) expect((await req('PATCH', `/content-types/post/entries/${slug}/publish`)).status).toBe(200);
    return res.body.data.id;
  };
  const release = async (title = 'Launch'): Promise<string> => {
    const res = await req('POST', '/releases', { title, description: 'the autumn campaign' });
    expect(res.status).toBe(201);
    return res.body.data.id;
  };
  const add = (rel: string, kind: 'entry' | 'page', id: string, action: 'publish' | 'unpublish' = 'publish') =>
    req('POST', `/releases/${rel}/items`, { kind, id, action });
  const live = async (slug: string) => {
    const res = await call(env.app, 'GET', `${P}/entries/${slug}?type=post`, { key: keys.delivery });
    return res.status === 200 ? JSON.parse(res.body.data.entry.data) : null;
  };
  const working = async (slug: string) => (await req('GET', `/content-types/post/entries/${slug}`)).body.data;
  const eventTypes = async (after: number) => (await listEventsAfter(env.ctx.db, wsId, after, 1000)).map((e) => e.type);
  const lastEvent = async () => {
    const events = await listEventsAfter(env.ctx.db, wsId, 0, 100000);
    return events.length ? events[events.length - 1].id : 0;
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    const s = await seedWorkspace(env.ctx);
    keys = s.keys;
    wsId = s.workspace.id;
    const author = await createMember(env.ctx, s.workspace.slug, `author-${dialect}@example.com`, 'author');
    authorKey = (await createApiKey(env.ctx, wsId, author.id, { keyClass: 'management' })).key;
    viewerKey = (await createApiKey(env.ctx, wsId, s.user.id, { keyClass: 'management', scopes: [] })).key;
    for (const body of [
      { name: 'Author', display_field: 'name', fields: [{ name: 'name', field_type: 'text' }] },
      {
        name: 'Post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', required: true, localizable: true },
          { name: 'sku', field_type: 'text', is_unique: true },
          { name: 'author', field_type: 'relation', options: JSON.stringify(['author']) },
        ],
      },
      { name: 'Hero', slug: 'hero', is_block: true, fields: [{ name: 'headline', field_type: 'text', required: true, localizable: true }] },
    ]) {
      expect((await req('POST', '/content-types', body)).status).toBe(201);
    }
  });
  afterAll(async () => env?.close());

  it('creates, lists, reads, edits and deletes releases; reads need no scope, writes content:write', async () => {
    const id = await release('Spring');
    const got = await req('GET', `/releases/${id}`, undefined, viewerKey);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({
      id,
      title: 'Spring',
      description: 'the autumn campaign',
      status: 'open',
      publish_at: null,
      published_at: null,
      items_count: 0,
    });
    expect(typeof got.body.data.created_by).toBe('number');
    const list = await req('GET', '/releases?status=open', undefined, viewerKey);
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
    expect(list.body.meta.total_data).toBeGreaterThanOrEqual(1);
    expectError(await req('POST', '/releases', { title: 'x' }, viewerKey), 403, 'FORBIDDEN');
    expect((await req('PATCH', `/releases/${id}`, { title: 'Spring sale' }, authorKey)).body.data.title).toBe('Spring sale');
    expectError(await req('PATCH', `/releases/${id}`, { colour: 'red' }), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', '/releases/00000000-0000-4000-8000-000000000000'), 404, 'NOT_FOUND');
    expectError(await req('POST', `/releases/${id}/publish`, undefined, authorKey), 403, 'FORBIDDEN');
    expect((await req('DELETE', `/releases/${id}`, undefined, authorKey)).status).toBe(200);
    expectError(await req('GET', `/releases/${id}`), 404, 'NOT_FOUND');
  });

  it('holds release versions of entries and pages, read and written with ?release; the working copy and production stay as they are', async () => {
    const id = await entry('variant-post', { title: 'Live title', sku: 'V-1' });
    const rel = await release();
    const added = await add(rel, 'entry', id);
    expect(added.status).toBe(200);
    expect(added.body.data).toMatchObject({ kind: 'entry', id, slug: 'variant-post', content_type: 'post', action: 'publish', conflict: false });
    const put = await req('PUT', `/content-types/post/entries/variant-post?release=${rel}`, {
      data: { title: 'Release title', sku: 'V-1' },
      translations: { de: { data: { title: 'Freigabe' } } },
    });
    expect(put.status).toBe(200);
    expect(JSON.parse(put.body.data.data).title).toBe('Release title');
    const variant = await req('GET', `/content-types/post/entries/variant-post?release=${rel}`, undefined, viewerKey);
    expect(JSON.parse(variant.body.data.data).title).toBe('Release title');
    expect(variant.body.data.translations.map((t: { locale: string }) => t.locale)).toEqual(['de']);
    expect(JSON.parse((await working('variant-post')).data).title).toBe('Live title');
    expect((await working('variant-post')).has_pending_changes).toBe(false);
    expect((await live('variant-post')).title).toBe('Live title');
    // Validation as for a working copy: types, unknown fields; the slug is not part of a version.
    expectError(await req('PUT', `/content-types/post/entries/variant-post?release=${rel}`, { data: { title: 5 } }), 400, 'VALIDATION_FAILED');
    expectError(await req('PUT', `/content-types/post/entries/variant-post?release=${rel}`, { slug: 'other', data: { title: 'x' } }), 400, 'VALIDATION_FAILED');
    expectError(await req('GET', `/content-types/post/entries/variant-post?release=not-a-uuid`), 400, 'VALIDATION_FAILED');
    const other = await release('Other');
    expectError(await req('GET', `/content-types/post/entries/variant-post?release=${other}`), 404, 'NOT_FOUND');

    const page = await req('POST', '/pages', { slug: 'variant-page', seo: { title: 'Page' }, blocks: [{ type: 'hero', data: { headline: 'Old' } }] });
    expect(page.status).toBe(201);
    expect((await add(rel, 'page', page.body.data.id)).status).toBe(200);
    const pagePut = await req('PUT', `/pages/variant-page?release=${rel}`, {
      seo: { title: 'Page v2' },
      blocks: [{ type: 'hero', data: { headline: 'New' } }],
    });
    expect(pagePut.status).toBe(200);
    const pageVariant = await req('GET', `/pages/variant-page?release=${rel}`);
    expect(pageVariant.body.data.page.seo.title).toBe('Page v2');
    expect(JSON.parse(pageVariant.body.data.blocks[0].data).headline).toBe('New');
    expect((await req('GET', '/pages/variant-page')).body.data.page.seo.title).toBe('Page');
    expect((await req('GET', `/releases/${rel}`)).body.data.items_count).toBe(2);
  });

  it('flags a conflict once the item is published after its release version was copied', async () => {
    const id = await entry('conflict-post', { title: 'A' });
    const rel = await release();
    await add(rel, 'entry', id);
    const items = async () => (await req('GET', `/releases/${rel}/items`)).body.data;
    expect((await items())[0].conflict).toBe(false);
    await req('PUT', '/content-types/post/entries/conflict-post', { data: { title: 'B' } });
    expect((await items())[0].conflict).toBe(false);
    await req('PATCH', '/content-types/post/entries/conflict-post/publish');
    expect((await items())[0]).toMatchObject({ conflict: true, base_version: expect.any(Number) });
  });

  it('refuses to publish an invalid release with 422 listing every item and field, and changes nothing', async () => {
    const ok = await entry('valid-post', { title: 'Fine', sku: 'OK-1' });
    const missing = await entry('missing-post', { title: 'Has one', sku: 'M-1' });
    const clash = await entry('clash-post', { title: 'Clash', sku: 'C-1' });
    await entry('taken-post', { title: 'Taken', sku: 'TAKEN' });
    const draftAuthor = await req('POST', '/content-types/author/entries', { slug: 'draft-author', data: { name: 'Nobody' } });
    const notLive = await entry('never-live', { title: 'Draft' }, false);
    const rel = await release();
    for (const id of [ok, missing, clash]) await add(rel, 'entry', id);
    await add(rel, 'entry', notLive, 'unpublish');
    expect((await req('PUT', `/content-types/post/entries/valid-post?release=${rel}`, { data: { title: 'Fine', sku: 'SAME' } })).status).toBe(200);
    expect(
      (await req('PUT', `/content-types/post/entries/missing-post?release=${rel}`, { data: { sku: 'M-1', author: draftAuthor.body.data.id } })).status,
    ).toBe(200);
    expect((await req('PUT', `/content-types/post/entries/clash-post?release=${rel}`, { data: { title: 'Clash', sku: 'SAME' } })).status).toBe(200);
    // A release version is checked like a working copy: a value another entry holds is refused at once.
    expectError(await req('PUT', `/content-types/post/entries/clash-post?release=${rel}`, { data: { title: 'Clash', sku: 'TAKEN' } }), 409, 'UNIQUE_VIOLATION');
    const before = await lastEvent();
    const res = await req('POST', `/releases/${rel}/publish`);
    const body = expectError(res, 422, 'RELEASE_INVALID');
    const paths = body.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual([`entry.${clash}.data.sku`, `entry.${missing}.data.author`, `entry.${missing}.data.title`, `entry.${notLive}`].sort());
    expect(body.errors.find((e: { path: string }) => e.path === `entry.${missing}.data.title`).message).toMatch(/missing-post.*is required/);
    expect(await eventTypes(before)).toEqual([]);
    expect((await live('valid-post')).title).toBe('Fine');
    expect((await req('GET', `/releases/${rel}`)).body.data.status).toBe('open');
    // Against the rest: a value another entry took after the release version was written.
    await req('DELETE', `/releases/${rel}/items/entry/${notLive}`);
    await req('PUT', `/content-types/post/entries/missing-post?release=${rel}`, { data: { title: 'T', sku: 'M-1' } });
    await req('PUT', `/content-types/post/entries/clash-post?release=${rel}`, { data: { title: 'Clash', sku: 'LATER' } });
    await entry('later-post', { title: 'Later', sku: 'LATER' });
    const again = expectError(await req('POST', `/releases/${rel}/publish`), 422, 'RELEASE_INVALID');
    expect(again.errors).toEqual([{ path: `entry.${clash}.data.sku`, message: expect.stringMatching(/already used/) }]);
    // Against published copies: an entry whose working copy moved on still publishes its old value.
    await entry('moved-on', { title: 'Moved', sku: 'PUBLISHED-SKU' });
    expect((await req('PUT', '/content-types/post/entries/moved-on', { data: { title: 'Moved', sku: 'NEW-SKU' } })).status).toBe(200);
    await req('PUT', `/content-types/post/entries/clash-post?release=${rel}`, { data: { title: 'Clash', sku: 'PUBLISHED-SKU' } });
    const third = expectError(await req('POST', `/releases/${rel}/publish`), 422, 'RELEASE_INVALID');
    expect(third.errors).toEqual([{ path: `entry.${clash}.data.sku`, message: expect.stringMatching(/already used by a published entry/) }]);
  });

  it('answers what a publication would refuse with GET /releases/{id}/validation, without publishing', async () => {
    const fine = await entry('check-fine', { title: 'Fine', sku: 'CHK-1' });
    const lacking = await entry('check-lacking', { title: 'Lacking', sku: 'CHK-2' });
    const rel = await release('Checked');
    await add(rel, 'entry', fine);
    await add(rel, 'entry', lacking);
    const valid = await req('GET', `/releases/${rel}/validation`, undefined, viewerKey);
    expect(valid.status).toBe(200);
    expect(valid.body.data).toEqual({ valid: true, problems: [] });
    await req('PUT', `/content-types/post/entries/check-lacking?release=${rel}`, { data: { sku: 'CHK-2' } });
    const before = await lastEvent();
    const invalid = await req('GET', `/releases/${rel}/validation`);
    expect(invalid.body.data).toEqual({
      valid: false,
      problems: [{ path: `entry.${lacking}.data.title`, message: expect.stringMatching(/check-lacking.*is required/) }],
    });
    // The same list a publication refuses with, and nothing changed.
    expect(expectError(await req('POST', `/releases/${rel}/publish`), 422, 'RELEASE_INVALID').errors).toEqual(invalid.body.data.problems);
    expect(await eventTypes(before)).toEqual([]);
    expect((await req('GET', `/releases/${rel}`)).body.data.status).toBe('open');
    expectError(await req('GET', '/releases/00000000-0000-4000-8000-000000000000/validation'), 404, 'NOT_FOUND');
    expectError(await req('GET', '/releases/not-a-uuid/validation'), 400, 'VALIDATION_FAILED');
    await req('PUT', `/content-types/post/entries/check-lacking?release=${rel}`, { data: { title: 'Complete', sku: 'CHK-2' } });
    expect((await req('POST', `/releases/${rel}/publish`)).status).toBe(200);
    expectError(await req('GET', `/releases/${rel}/validation`), 409, 'INVALID_STATE_TRANSITION');
  });

  it('publishes all items at once: variants become published versions with the release id, working copies follow unless they have pending changes', async () => {
    const clean = await entry('clean-post', { title: 'Clean v1' });
    const pending = await entry('pending-post', { title: 'Pending v1' });
    const draft = await entry('draft-post', { title: 'Draft v1' }, false);
    const gone = await entry('gone-post', { title: 'Going away' });
    const rel = await release();
    for (const id of [clean, pending, draft]) await add(rel, 'entry', id);
    await add(rel, 'entry', gone, 'unpublish');
    await req('PUT', `/content-types/post/entries/clean-post?release=${rel}`, { data: { title: 'Clean v2' } });
    await req('PUT', `/content-types/post/entries/pending-post?release=${rel}`, { data: { title: 'Pending release' } });
    await req('PUT', '/content-types/post/entries/pending-post', { data: { title: 'Pending edit' } });
    const before = await lastEvent();
    now += 60_000;
    const res = await req('POST', `/releases/${rel}/publish`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'published', published_at: new Date(now).toISOString() });
    expect((await live('clean-post')).title).toBe('Clean v2');
    expect((await live('pending-post')).title).toBe('Pending release');
    expect((await live('draft-post')).title).toBe('Draft v1');
    expect(await live('gone-post')).toBeNull();
    const cleanRecord = await working('clean-post');
    expect(JSON.parse(cleanRecord.data).title).toBe('Clean v2');
    expect(cleanRecord).toMatchObject({ status: 'published', has_pending_changes: false });
    const pendingRecord = await working('pending-post');
    expect(JSON.parse(pendingRecord.data).title).toBe('Pending edit');
    expect(pendingRecord.has_pending_changes).toBe(true);
    const versions = (await req('GET', '/content-types/post/entries/pending-post/versions')).body.data;
    expect(versions[0]).toMatchObject({ action: 'update', status: 'published' });
    expect(versions[1]).toMatchObject({ action: 'publish', status: 'published' });
    expect(pendingRecord.published_version).toBe(versions[1].version);
    const stored = await env.ctx.db.kysely
      .selectFrom('entry_versions')
      .select(['release_id'])
      .where('entry_id', '=', clean)
      .where('action', '=', 'publish')
      .orderBy('version', 'desc')
      .executeTakeFirstOrThrow();
    expect(stored.release_id).toBe(rel);
    expect((await working('gone-post')).status).toBe('draft');
    const types = await eventTypes(before);
    expect(types.filter((t) => t === 'entry.published')).toHaveLength(3);
    expect(types.filter((t) => t === 'entry.unpublished')).toHaveLength(1);
    expect(types[types.length - 1]).toBe('release.published');
    expectError(await req('POST', `/releases/${rel}/publish`), 409, 'INVALID_STATE_TRANSITION');
    expectError(await add(rel, 'entry', clean, 'unpublish'), 409, 'INVALID_STATE_TRANSITION');
    expectError(await req('DELETE', `/releases/${rel}`), 409, 'INVALID_STATE_TRANSITION');
  });

  it('publishes pages: the release version of the tree goes live', async () => {
    const page = await req('POST', '/pages', { slug: 'launch-page', seo: { title: 'Launch' }, blocks: [{ type: 'hero', data: { headline: 'Soon' } }] });
    const rel = await release();
    await add(rel, 'page', page.body.data.id);
    await req('PUT', `/pages/launch-page?release=${rel}`, {
      seo: { title: 'Launch' },
      blocks: [{ type: 'hero', data: { headline: 'Now' }, translations: { de: { data: { headline: 'Jetzt' } } } }],
    });
    expect((await call(env.app, 'GET', `${P}/pages/launch-page`, { key: keys.delivery })).status).toBe(404);
    expect((await req('POST', `/releases/${rel}/publish`)).status).toBe(200);
    const delivered = await call(env.app, 'GET', `${P}/pages/launch-page`, { key: keys.delivery });
    expect(JSON.parse(delivered.body.data.blocks[0].data).headline).toBe('Now');
    const de = await call(env.app, 'GET', `${P}/pages/launch-page?locale=de`, { key: keys.delivery });
    expect(JSON.parse(de.body.data.blocks[0].data).headline).toBe('Jetzt');
  });

  it('reverts: previous published versions come back, first publications are unpublished; 409 lists items published since unless force', async () => {
    const old = await entry('revert-old', { title: 'Before' });
    const fresh = await entry('revert-new', { title: 'Brand new' }, false);
    const rel = await release();
    await add(rel, 'entry', old);
    await add(rel, 'entry', fresh);
    await req('PUT', `/content-types/post/entries/revert-old?release=${rel}`, { data: { title: 'After' } });
    await req('POST', `/releases/${rel}/publish`);
    expect((await live('revert-old')).title).toBe('After');
    expect((await live('revert-new')).title).toBe('Brand new');
    await req('PUT', '/content-types/post/entries/revert-new', { data: { title: 'Edited since' } });
    await req('PATCH', '/content-types/post/entries/revert-new/publish');
    const conflict = expectError(await req('POST', `/releases/${rel}/revert`), 409, 'RELEASE_CONFLICT');
    expect(conflict.errors).toEqual([{ path: `entry.${fresh}`, message: expect.stringMatching(/revert-new/) }]);
    expect((await live('revert-new')).title).toBe('Edited since');
    const reverted = await req('POST', `/releases/${rel}/revert`, { force: true });
    expect(reverted.status).toBe(200);
    expect(reverted.body.data.reverted_at).toBe(new Date(now).toISOString());
    expect((await live('revert-old')).title).toBe('Before');
    expect(await live('revert-new')).toBeNull();
    expectError(await req('POST', `/releases/${rel}/revert`, { force: true }), 409, 'INVALID_STATE_TRANSITION');
  });

  it('schedules: release.scheduled, published once when due, failed with reasons when invalid', async () => {
    const id = await entry('scheduled-post', { title: 'Sched v1' });
    const rel = await release();
    await add(rel, 'entry', id);
    await req('PUT', `/content-types/post/entries/scheduled-post?release=${rel}`, { data: { title: 'Sched v2' } });
    expectError(await req('POST', `/releases/${rel}/schedule`, { publish_at: new Date(now - 1000).toISOString() }), 400, 'VALIDATION_FAILED');
    const at = new Date(now + 3_600_000).toISOString();
    const before = await lastEvent();
    const scheduled = await req('POST', `/releases/${rel}/schedule`, { publish_at: at });
    expect(scheduled.body.data).toMatchObject({ status: 'scheduled', publish_at: at });
    expect(await eventTypes(before)).toEqual(['release.scheduled']);
    expectError(await add(rel, 'entry', id, 'unpublish'), 409, 'INVALID_STATE_TRANSITION');
    expect((await req('POST', `/releases/${rel}/unschedule`)).body.data).toMatchObject({ status: 'open', publish_at: null });
    await req('POST', `/releases/${rel}/schedule`, { publish_at: at });
    expect(await publishDueReleases(env.ctx)).toEqual({ published: 0, failed: 0 });
    now += 3_600_000;
    const mid = await lastEvent();
    expect(await publishDueReleases(env.ctx)).toEqual({ published: 1, failed: 0 });
    expect(await publishDueReleases(env.ctx)).toEqual({ published: 0, failed: 0 });
    expect((await live('scheduled-post')).title).toBe('Sched v2');
    expect((await req('GET', `/releases/${rel}`)).body.data).toMatchObject({ status: 'published', published_at: at, publish_at: null });
    expect((await eventTypes(mid)).filter((t) => t.startsWith('release.'))).toEqual(['release.published']);

    const bad = await release('Bad');
    await add(bad, 'entry', id);
    await req('PUT', `/content-types/post/entries/scheduled-post?release=${bad}`, { data: {} });
    await req('POST', `/releases/${bad}/schedule`, { publish_at: new Date(now + 1000).toISOString() });
    now += 2000;
    const failAt = await lastEvent();
    expect(await publishDueReleases(env.ctx)).toEqual({ published: 0, failed: 1 });
    const failed = (await req('GET', `/releases/${bad}`)).body.data;
    expect(failed.status).toBe('failed');
    expect(failed.failure).toEqual([{ path: `entry.${id}.data.title`, message: expect.stringMatching(/is required/) }]);
    expect(await eventTypes(failAt)).toEqual(['release.failed']);
    expect((await live('scheduled-post')).title).toBe('Sched v2');
  });

  it('delete discards the variants; a deleted entry leaves its releases', async () => {
    const id = await entry('discard-post', { title: 'Keep' });
    const rel = await release();
    await add(rel, 'entry', id);
    expect((await req('DELETE', `/releases/${rel}`)).status).toBe(200);
    const left = await env.ctx.db.kysely.selectFrom('release_items').select('item_id').where('release_id', '=', rel).execute();
    expect(left).toEqual([]);
    const rel2 = await release();
    await add(rel2, 'entry', id);
    await req('PATCH', '/content-types/post/entries/discard-post/unpublish');
    expect((await req('DELETE', '/content-types/post/entries/discard-post')).status).toBe(200);
    expect((await req('GET', `/releases/${rel2}`)).body.data.items_count).toBe(0);
    expectError(await add(rel2, 'entry', id), 404, 'NOT_FOUND');
  });

  it('holds at most 1,000 items (409 beyond); adding the same item again changes nothing', async () => {
    const rel = await release();
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      release_id: rel,
      kind: 'entry',
      item_id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      action: 'unpublish',
      base_version: 1,
      snapshot: null,
      created_at: new Date(now).toISOString(),
      updated_at: new Date(now).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 200)
      await env.ctx.db.kysely
        .insertInto('release_items')
        .values(rows.slice(i, i + 200))
        .execute();
    const id = await entry('one-too-many', { title: 'x' });
    expectError(await add(rel, 'entry', id), 409, 'RELEASE_TOO_LARGE');
    await env.ctx.db.kysely.deleteFrom('release_items').where('item_id', '=', rows[0].item_id).execute();
    expect((await add(rel, 'entry', id)).status).toBe(200);
    expect((await add(rel, 'entry', id)).status).toBe(200);
    expect((await req('GET', `/releases/${rel}`)).body.data.items_count).toBe(1000);
  });
});
