import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { newId } from '../src/lib/ids.js';
import { applyTransition, effectiveStatus, transition } from '../src/modules/publishing/states.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const H = 3_600_000;

describe('publishing state machine (pure)', () => {
  it('follows D20 for entries and pages, with the exact refusal message', () => {
    expect(transition('entry', 'publish', 'draft')).toBe('published');
    expect(() => transition('entry', 'publish', 'published')).toThrow("entry cannot be published from status 'published'");
    expect(() => transition('page', 'unpublish', 'archived')).toThrow("page cannot be unpublished from status 'archived'");
    try {
      transition('page', 'schedule', 'published');
    } catch (err) {
      expect(err).toMatchObject({ code: 'INVALID_STATE_TRANSITION', status: 409, message: "page cannot be scheduled from status 'published'" });
    }
    const now = new Date(T0);
    expect(applyTransition('entry', 'publish', { status: 'scheduled', publish_at: 'x', published_at: null }, now)).toEqual({
      status: 'published',
      published_at: '2026-11-21T10:00:00.000Z',
      publish_at: null,
    });
    expect(applyTransition('entry', 'archive', { status: 'published', publish_at: null, published_at: 'p' }, now)).toEqual({
      status: 'archived',
      published_at: 'p',
      publish_at: null,
    });
  });

  it('treats a due scheduled item as published (D21)', () => {
    const row = { status: 'scheduled', publish_at: '2026-11-21T10:00:00.000Z', published_at: null, id: 'x' };
    expect(effectiveStatus(row, new Date(T0 - 1))).toBe(row);
    expect(effectiveStatus(row, new Date(T0))).toEqual({ id: 'x', status: 'published', published_at: '2026-11-21T10:00:00.000Z', publish_at: null });
    const draft = { status: 'draft', publish_at: null, published_at: null };
    expect(effectiveStatus(draft, new Date(T0))).toBe(draft);
  });
});

describe.each(dialects())('entry states and bulk actions on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let wsId: string;
  let userId: number;
  let now = T0;
  let n = 0;
  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    wsId = s.workspace.id;
    userId = s.user.id;
    await call(env.app, 'POST', `${M}/content-types`, {
      key,
      body: { name: 'Post', display_field: 'title', fields: [{ name: 'title', field_type: 'text', required: true }] },
    });
    await call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'Note', fields: [{ name: 'text', field_type: 'text' }] } });
  });
  afterAll(async () => env?.close());

  const url = (slug: string, verb = '') => `${M}/content-types/post/entries/${slug}${verb ? `/${verb}` : ''}`;
  const future = () => new Date(now + H).toISOString();
  const act = (slug: string, verb: string, body?: unknown) =>
    call(env.app, 'PATCH', url(slug, verb), { key, body: verb === 'schedule' ? (body ?? { publish_at: future() }) : body });
  const get = async (slug: string) => (await call(env.app, 'GET', url(slug), { key })).body.data;
  async function entryIn(status: string): Promise<string> {
    n += 1;
    const slug = `e-${n}`;
    const res = await call(env.app, 'POST', `${M}/content-types/post/entries`, { key, body: { slug, data: { title: `T${n}` } } });
    expect(res.status).toBe(201);
    const verb = { draft: null, published: 'publish', archived: 'archive', scheduled: 'schedule' }[status];
    if (verb) expect((await act(slug, verb)).status).toBe(200);
    expect((await get(slug)).status).toBe(status);
    return slug;
  }

  const table: [string, string, string | null][] = [
    ['draft', 'publish', 'published'],
    ['draft', 'unpublish', null],
    ['draft', 'archive', 'archived'],
    ['draft', 'schedule', 'scheduled'],
    ['scheduled', 'publish', 'published'],
    ['scheduled', 'unpublish', 'draft'],
    ['scheduled', 'archive', 'archived'],
    ['scheduled', 'schedule', 'scheduled'],
    ['published', 'publish', null],
    ['published', 'unpublish', 'draft'],
    ['published', 'archive', 'archived'],
    ['published', 'schedule', null],
    ['archived', 'publish', 'published'],
    ['archived', 'unpublish', null],
    ['archived', 'archive', null],
    ['archived', 'schedule', 'scheduled'],
  ];
  const past = { publish: 'published', unpublish: 'unpublished', archive: 'archived', schedule: 'scheduled' } as Record<string, string>;

  it.each(table)('from %s, %s → %s', async (from, verb, to) => {
    const slug = await entryIn(from);
    const beforeRes = await call(env.app, 'GET', url(slug), { key });
    const before = beforeRes.body.data;
    const version = Number(String(beforeRes.headers.etag).replace(/"/g, '').split('-').pop());
    const res = await act(slug, verb);
    if (to === null) {
      const body = expectError(res, 409, 'INVALID_STATE_TRANSITION');
      expect(body.message).toBe(`entry cannot be ${past[verb]} from status '${from}'`);
      expect(await get(slug)).toEqual(before);
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Success', data: null, meta: null });
    expect(res.headers.etag).toBe(`"${before.id}-${version + 1}"`);
    const after = await get(slug);
    expect(after.status).toBe(to);
    expect(after.updated_by).toBe(userId);
    if (to === 'published') expect(after).toMatchObject({ published_at: new Date(now).toISOString(), publish_at: null });
    if (to === 'draft') expect(after).toMatchObject({ published_at: null, publish_at: null });
    if (to === 'scheduled') expect(after).toMatchObject({ publish_at: future(), published_at: null });
    if (to === 'archived') expect(after.publish_at).toBeNull();
  });

  it('schedule needs publish_at in the future', async () => {
    const slug = await entryIn('draft');
    const past = expectError(await act(slug, 'schedule', { publish_at: new Date(now - 1000).toISOString() }), 400, 'VALIDATION_FAILED');
    expect(past.errors).toEqual([{ path: 'body.publish_at', message: 'must be in the future' }]);
    expectError(await act(slug, 'schedule', { publish_at: new Date(now).toISOString() }), 400, 'VALIDATION_FAILED');
    expectError(await act(slug, 'schedule', { publish_at: 'tomorrow' }), 400, 'VALIDATION_FAILED');
    expectError(await act(slug, 'schedule', { publish_at: '2030-01-01T00:00:00' }), 400, 'VALIDATION_FAILED');
    expectError(await act(slug, 'schedule', {}), 400, 'VALIDATION_FAILED');
    const ok = await act(slug, 'schedule', { publish_at: '2026-11-21T13:30:00+02:00' });
    expect(ok.status).toBe(200);
    expect((await get(slug)).publish_at).toBe('2026-11-21T11:30:00.000Z');
  });

  it('shows a due scheduled entry as published before the job runs (D21), in reads, filters and transitions', async () => {
    const slug = await entryIn('scheduled');
    const at = (await get(slug)).publish_at;
    const scheduledList = await call(env.app, 'GET', `${M}/content-types/post/entries?status=scheduled`, { key });
    expect(scheduledList.body.data.map((e: { slug: string }) => e.slug)).toContain(slug);
    now += 2 * H;
    try {
      expect(await get(slug)).toMatchObject({ status: 'published', published_at: at, publish_at: null });
      const published = await call(env.app, 'GET', `${M}/content-types/post/entries?status=published&limit=100`, { key });
      expect(published.body.data.map((e: { slug: string }) => e.slug)).toContain(slug);
      const scheduled = await call(env.app, 'GET', `${M}/content-types/post/entries?status=scheduled&limit=100`, { key });
      expect(scheduled.body.data.map((e: { slug: string }) => e.slug)).not.toContain(slug);
      const again = expectError(await act(slug, 'publish'), 409, 'INVALID_STATE_TRANSITION');
      expect(again.message).toBe("entry cannot be published from status 'published'");
      // A write stores the effective status.
      await call(env.app, 'PUT', url(slug), { key, body: { data: { title: 'Edited' } } });
      const row = await env.ctx.db.kysely
        .selectFrom('entries')
        .select(['status', 'published_at', 'publish_at'])
        .where('slug', '=', slug)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'published', published_at: at, publish_at: null });
      expect((await act(slug, 'unpublish')).status).toBe(200);
      expect(await get(slug)).toMatchObject({ status: 'draft', published_at: null });
    } finally {
      now = T0 + 10 * H;
    }
  });

  it('bulk PATCH: each id succeeds or fails alone, with reasons', async () => {
    const draft = await entryIn('draft');
    const published = await entryIn('published');
    const incomplete = (await call(env.app, 'POST', `${M}/content-types/post/entries`, { key, body: { slug: 'incomplete', data: {} } })).body.data;
    const note = (await call(env.app, 'POST', `${M}/content-types/note/entries`, { key, body: { data: { text: 'x' } } })).body.data;
    const ids = [(await get(draft)).id, (await get(published)).id, newId(), incomplete.id, 'not-a-uuid', note.id];
    const res = await call(env.app, 'PATCH', `${M}/content-types/post/entries/bulk`, { key, body: { action: 'publish', ids } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      succeeded: [{ id: ids[0], reason: null }],
      failed: [
        { id: ids[1], reason: "entry cannot be published from status 'published'" },
        { id: ids[2], reason: 'entry not found' },
        { id: ids[3], reason: 'data.title is required' },
        { id: ids[4], reason: 'entry not found' },
        { id: ids[5], reason: 'entry not found' },
      ],
    });
    expect((await get(draft)).status).toBe('published');

    const sched = await call(env.app, 'PATCH', `${M}/content-types/post/entries/bulk`, {
      key,
      body: { action: 'schedule', ids: [ids[0], incomplete.id], publish_at: future() },
    });
    expect(sched.body.data.failed).toEqual([
      { id: ids[0], reason: "entry cannot be scheduled from status 'published'" },
      { id: incomplete.id, reason: 'data.title is required' },
    ]);
    const archive = await call(env.app, 'PATCH', `${M}/content-types/post/entries/bulk`, { key, body: { action: 'archive', ids: [ids[0], ids[1]] } });
    expect(archive.body.data.succeeded.map((s: { id: string }) => s.id)).toEqual([ids[0], ids[1]]);
    const unpublish = await call(env.app, 'PATCH', `${M}/content-types/post/entries/bulk`, { key, body: { action: 'unpublish', ids: [ids[0]] } });
    expect(unpublish.body.data.failed).toEqual([{ id: ids[0], reason: "entry cannot be unpublished from status 'archived'" }]);
    const schedOk = await call(env.app, 'PATCH', `${M}/content-types/post/entries/bulk`, {
      key,
      body: { action: 'schedule', ids: [ids[0]], publish_at: future() },
    });
    expect(schedOk.body.data).toEqual({ succeeded: [{ id: ids[0], reason: null }], failed: [] });
  });

  it('bulk PATCH refuses bad requests as a whole (400) and needs content:publish', async () => {
    const id = newId();
    const bulk = (body: unknown, k = key) => call(env.app, 'PATCH', `${M}/content-types/post/entries/bulk`, { key: k, body });
    const tooMany = expectError(await bulk({ action: 'publish', ids: Array.from({ length: 101 }, () => newId()) }), 400, 'VALIDATION_FAILED');
    expect(tooMany.errors[0].path).toBe('body.ids');
    expect((await bulk({ action: 'publish', ids: Array.from({ length: 100 }, () => newId()) })).body.data.failed).toHaveLength(100);
    expectError(await bulk({ action: 'publish', ids: [] }), 400, 'VALIDATION_FAILED');
    expectError(await bulk({ action: 'publish', ids: [id, id] }), 400, 'VALIDATION_FAILED');
    expectError(await bulk({ action: 'delete', ids: [id] }), 400, 'VALIDATION_FAILED');
    expectError(await bulk({ action: 'schedule', ids: [id] }), 400, 'VALIDATION_FAILED');
    expectError(await bulk({ action: 'schedule', ids: [id], publish_at: new Date(now - H).toISOString() }), 400, 'VALIDATION_FAILED');
    expectError(await bulk({ action: 'publish', ids: [id], publish_at: future() }), 400, 'VALIDATION_FAILED');
    expectError(await bulk({ action: 'publish', ids: [id], extra: 1 }), 400, 'VALIDATION_FAILED');
    expectError(await call(env.app, 'PATCH', `${M}/content-types/missing/entries/bulk`, { key, body: { action: 'publish', ids: [id] } }), 404, 'NOT_FOUND');
    const writer = await createApiKey(env.ctx, wsId, userId, { keyClass: 'management', scopes: ['content:write'] });
    expect(expectError(await bulk({ action: 'publish', ids: [id] }, writer.key), 403, 'FORBIDDEN').message).toContain('content:publish');
  });

  it('bulk DELETE removes each id alone and needs content:write', async () => {
    const a = (await get(await entryIn('draft'))).id;
    const b = (await get(await entryIn('published'))).id;
    const missing = newId();
    const res = await call(env.app, 'DELETE', `${M}/content-types/post/entries/bulk`, { key, body: { ids: [a, missing, b] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      succeeded: [
        { id: a, reason: null },
        { id: b, reason: null },
      ],
      failed: [{ id: missing, reason: 'entry not found' }],
    });
    const left = await env.ctx.db.kysely.selectFrom('entries').select('id').where('id', 'in', [a, b]).execute();
    expect(left).toEqual([]);
    expectError(
      await call(env.app, 'DELETE', `${M}/content-types/post/entries/bulk`, { key, body: { ids: Array.from({ length: 101 }, () => newId()) } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(await call(env.app, 'DELETE', `${M}/content-types/post/entries/bulk`, { key, body: {} }), 400, 'VALIDATION_FAILED');
    const publisher = await createApiKey(env.ctx, wsId, userId, { keyClass: 'management', scopes: ['content:publish'] });
    expect(
      expectError(await call(env.app, 'DELETE', `${M}/content-types/post/entries/bulk`, { key: publisher.key, body: { ids: [a] } }), 403, 'FORBIDDEN').message,
    ).toContain('content:write');
  });

  it('state actions on unknown entries answer 404', async () => {
    for (const verb of ['publish', 'unpublish', 'archive', 'schedule']) expectError(await act('nope', verb), 404, 'NOT_FOUND');
  });
});
