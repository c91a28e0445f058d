/**
 * The change-event log (docs/api.md "Change events" (D82): events are recorded in the same transaction
 * as the change; migration 010, src/modules/events/): every kind of write records its events with the
 * item's slug, content type, status and history version; a scheduled publication records
 * `*.published` exactly once; a write that fails or rolls back records nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../src/db/create-db.js';
import { withTransaction } from '../src/db/transaction.js';
import { recordEvent } from '../src/modules/events/record.js';
import { lastEventId, listEventsAfter } from '../src/modules/events/repository.js';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { png, upload } from './media-fixtures.js';
import { createPageWorld, type PageWorld } from './pages-fixtures.js';

describe.each(dialects())('events on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let now = new Date('2026-06-01T12:00:00.000Z');
  const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now });
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  /** Runs `write` and returns the events it recorded, in order, as [type, slug, status, version, content_type]. */
  async function eventsOf(write: () => Promise<unknown>): Promise<[string, string | null, string | null, number | null, string | null][]> {
    const before = await lastEventId(env.ctx.db, w.workspaceId);
    await write();
    const events = await listEventsAfter(env.ctx.db, w.workspaceId, before, 1000);
    return events.map((e) => [e.type, e.slug, e.status, e.version, e.contentType]);
  }
  const ok = async (p: Promise<{ status: number; body: unknown }>, status = 200) => {
    const res = await p;
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res;
  };
  const E = '/content-types/article/entries';

  it('entries: create, update (new slug), publish, update, unpublish, archive, schedule, restore, duplicate, delete', async () => {
    expect(await eventsOf(() => ok(w.req('POST', E, { slug: 'a', data: { title: 'A' } }), 201))).toEqual([['entry.created', 'a', 'draft', 1, 'article']]);
    expect(await eventsOf(() => ok(w.req('PUT', `${E}/a`, { slug: 'a2', data: { title: 'A2' } })))).toEqual([['entry.updated', 'a2', 'draft', 2, 'article']]);
    expect(await eventsOf(() => ok(w.req('PATCH', `${E}/a2/publish`)))).toEqual([['entry.published', 'a2', 'published', 3, 'article']]);
    expect(await eventsOf(() => ok(w.req('PUT', `${E}/a2`, { data: { title: 'A3' } })))).toEqual([['entry.updated', 'a2', 'published', 4, 'article']]);
    expect(await eventsOf(() => ok(w.req('PATCH', `${E}/a2/unpublish`)))).toEqual([['entry.unpublished', 'a2', 'draft', 5, 'article']]);
    expect(await eventsOf(() => ok(w.req('PATCH', `${E}/a2/archive`)))).toEqual([['entry.archived', 'a2', 'archived', 6, 'article']]);
    expect(await eventsOf(() => ok(w.req('PATCH', `${E}/a2/schedule`, { publish_at: later(60) })))).toEqual([
      ['entry.scheduled', 'a2', 'scheduled', 7, 'article'],
    ]);
    expect(await eventsOf(() => ok(w.req('POST', `${E}/a2/versions/1/restore`)))).toEqual([['entry.restored', 'a2', 'scheduled', 8, 'article']]);
    expect(await eventsOf(() => ok(w.req('POST', `${E}/a2/duplicate`), 201))).toEqual([['entry.created', 'a2-copy', 'draft', 1, 'article']]);
    expect(await eventsOf(() => ok(w.req('DELETE', `${E}/a2-copy`)))).toEqual([['entry.deleted', 'a2-copy', 'draft', 1, 'article']]);
  });

  it('a due scheduled entry and page are published once by the job, and before a write that finds them due', async () => {
    await ok(w.req('POST', E, { slug: 's1', data: { title: 'S1' } }), 201);
    await ok(w.req('POST', E, { slug: 's2', data: { title: 'S2' } }), 201);
    await ok(w.req('POST', '/pages', { slug: 'sp', blocks: [{ type: 'hero', data: { headline: 'Hi' } }] }), 201);
    await ok(w.req('PATCH', `${E}/s1/schedule`, { publish_at: later(1) }));
    await ok(w.req('PATCH', `${E}/s2/schedule`, { publish_at: later(1) }));
    await ok(w.req('PATCH', '/pages/sp/schedule', { publish_at: later(1) }));
    // a2 (scheduled in the previous test for +60 min) is not due yet.
    now = new Date(now.getTime() + 2 * 60_000);
    const job = await eventsOf(async () => {
      await runSchedulerOnce(env.ctx);
      await runSchedulerOnce(env.ctx);
    });
    expect(job.sort()).toEqual([
      ['entry.published', 's1', 'published', 3, 'article'],
      ['entry.published', 's2', 'published', 3, 'article'],
      ['page.published', 'sp', 'published', 3, null],
    ]);
    now = new Date(now.getTime() + 60 * 60_000);
    // The write finds a2 due: it is published first (as the job would), then updated.
    expect(await eventsOf(() => ok(w.req('PUT', `${E}/a2`, { data: { title: 'late' } })))).toEqual([
      ['entry.published', 'a2', 'published', 9, 'article'],
      ['entry.updated', 'a2', 'published', 10, 'article'],
    ]);
    expect(await eventsOf(() => runSchedulerOnce(env.ctx))).toEqual([]);
  });

  it('two schedulers running at once record each due publication once', async () => {
    for (let i = 0; i < 12; i++) {
      await ok(w.req('POST', E, { slug: `twice-${i}`, data: { title: `T${i}` } }), 201);
      await ok(w.req('PATCH', `${E}/twice-${i}/schedule`, { publish_at: later(1) }));
    }
    now = new Date(now.getTime() + 2 * 60_000);
    // On PostgreSQL a second pool on the same schema, as a second instance would have.
    const schema = dialect === 'postgres' ? (await sql<{ s: string }>`select current_schema() as s`.execute(env.ctx.db.kysely)).rows[0].s : null;
    const other = schema ? await createDb(env.config, { pgSchema: schema, poolSize: 2 }) : env.ctx.db;
    try {
      const events = await eventsOf(() => Promise.all([runSchedulerOnce(env.ctx), runSchedulerOnce({ ...env.ctx, db: other }), runSchedulerOnce(env.ctx)]));
      expect(events.filter((e) => e[1]?.startsWith('twice-')).map((e) => e[0])).toEqual(Array.from({ length: 12 }, () => 'entry.published'));
    } finally {
      if (other !== env.ctx.db) await other.close();
    }
  });

  it('pages: create, update, publish, block reorder, reorder, restore, duplicate, delete (later pages move up: updated)', async () => {
    const created = await eventsOf(() => ok(w.req('POST', '/pages', { slug: 'p1', blocks: [{ type: 'hero', data: { headline: 'One' } }] }), 201));
    expect(created).toEqual([['page.created', 'p1', 'draft', 1, null]]);
    expect(
      await eventsOf(() => ok(w.req('PUT', '/pages/p1', { slug: 'p1', seo: { title: 'T' }, blocks: [{ type: 'hero', data: { headline: 'Two' } }] }))),
    ).toEqual([['page.updated', 'p1', 'draft', 2, null]]);
    expect(await eventsOf(() => ok(w.req('PATCH', '/pages/p1/publish')))).toEqual([['page.published', 'p1', 'published', 3, null]]);
    expect(await eventsOf(() => ok(w.req('POST', '/pages/p1/versions/1/restore')))).toEqual([['page.restored', 'p1', 'published', 4, null]]);
    expect(await eventsOf(() => ok(w.req('POST', '/pages/p1/duplicate'), 201))).toEqual([['page.created', 'p1-copy', 'draft', 1, null]]);
    const pages = (await w.req('GET', '/pages?limit=100')).body.data as { id: string; slug: string }[];
    const order = pages.map((p) => p.id).reverse();
    const reordered = await eventsOf(() => ok(w.req('PATCH', '/pages/reorder', { order })));
    expect(reordered.map((e) => e[0])).toEqual(reordered.map(() => 'page.updated'));
    expect(reordered.length).toBeGreaterThanOrEqual(2);
    // sp is now last but one... whichever pages follow the deleted one move up and are updated.
    const listed = (await w.req('GET', '/pages?limit=100&sort=position:asc')).body.data as { slug: string; position: number }[];
    const first = listed[0].slug;
    const deleted = await eventsOf(() => ok(w.req('DELETE', `/pages/${first}`)));
    expect(deleted[0]).toEqual(['page.deleted', first, expect.any(String), expect.any(Number), null]);
    expect(
      deleted
        .slice(1)
        .map((e) => [e[0], e[1]])
        .sort(),
    ).toEqual(
      listed
        .slice(1)
        .map((p) => ['page.updated', p.slug])
        .sort(),
    );
  });

  it('entry reorder and bulk delete record an event per entry changed', async () => {
    await ok(w.req('PATCH', '/content-types/article', { orderable: true }));
    const list = (await w.req('GET', `${E}?limit=100&sort=position:asc`)).body.data as { id: string; slug: string }[];
    const reordered = await eventsOf(() => ok(w.req('PATCH', `${E}/reorder`, { order: list.map((e) => e.id).reverse() })));
    expect(reordered.length).toBeGreaterThanOrEqual(2);
    expect(new Set(reordered.map((e) => e[0]))).toEqual(new Set(['entry.updated']));
    const bulk = await eventsOf(() => ok(w.req('DELETE', `${E}/bulk`, { ids: [list[0].id, list[1].id] })));
    expect(bulk.map((e) => [e[0], e[1]])).toEqual([
      ['entry.deleted', list[0].slug],
      ['entry.deleted', list[1].slug],
    ]);
  });

  it('media: upload, update, delete', async () => {
    const file = { name: 'file', filename: 'x.png', data: await png(4, 3), contentType: 'image/png' };
    let id = '';
    const up = await eventsOf(async () => {
      const res = await upload(env.app, { key: w.keys.management, workspaceId: w.workspaceId, parts: [file] });
      expect(res.status).toBe(201);
      id = (res.body as { data: { id: string } }).data.id;
    });
    expect(up).toEqual([['media.created', null, null, null, null]]);
    const h = { 'x-workspace-id': w.workspaceId };
    expect(await eventsOf(() => ok(w.req('PUT', `/media/${id}`, { alt_text: 'Alt' }, h)))).toEqual([['media.updated', null, null, null, null]]);
    expect(await eventsOf(() => ok(w.req('PUT', `/media/${id}`, { folder: 'moved' }, h)))).toEqual([['media.updated', null, null, null, null]]);
    expect(await eventsOf(() => ok(w.req('DELETE', `/media/${id}`, undefined, h)))).toEqual([['media.deleted', null, null, null, null]]);
    const [row] = await listEventsAfter(env.ctx.db, w.workspaceId, (await lastEventId(env.ctx.db, w.workspaceId)) - 1, 1);
    expect(row).toMatchObject({ itemKind: 'media', itemId: id, type: 'media.deleted', createdAt: now.toISOString() });
  });

  it('content types: create, update, field added, field changed, fields reordered, delete', async () => {
    const body = { name: 'Note', slug: 'note', fields: [{ name: 'body', field_type: 'text' }] };
    expect(await eventsOf(() => ok(w.req('POST', '/content-types', body), 201))).toEqual([['content_type.created', 'note', null, null, 'note']]);
    expect(await eventsOf(() => ok(w.req('PATCH', '/content-types/note', { name: 'Notes' })))).toEqual([['content_type.updated', 'note', null, null, 'note']]);
    expect(await eventsOf(() => ok(w.req('POST', '/content-types/note/fields', { name: 'extra', field_type: 'text' }), 201))).toEqual([
      ['content_type.updated', 'note', null, null, 'note'],
    ]);
    const fieldId = ((await w.req('GET', '/content-types/note/fields')).body.data as { id: string; name: string }[]).find((f) => f.name === 'extra')!.id;
    expect(await eventsOf(() => ok(w.req('PATCH', `/content-types/note/fields/${fieldId}`, { label: 'Extra' })))).toHaveLength(1);
    const fields = (await w.req('GET', '/content-types/note/fields')).body.data as { id: string }[];
    expect(await eventsOf(() => ok(w.req('PATCH', '/content-types/note/fields/reorder', { order: fields.map((f) => f.id).reverse() })))).toHaveLength(1);
    expect(await eventsOf(() => ok(w.req('DELETE', '/content-types/note')))).toEqual([['content_type.deleted', 'note', null, null, 'note']]);
  });

  it('a write that fails or rolls back leaves no event', async () => {
    expect(await eventsOf(() => w.req('PUT', `${E}/nowhere`, { data: { title: 'x' } }).then((r) => expectError(r, 404, 'NOT_FOUND')))).toEqual([]);
    await ok(w.req('POST', E, { slug: 'still-draft', data: { title: 'D' } }), 201);
    expect(await eventsOf(() => w.req('PATCH', `${E}/still-draft/unpublish`).then((r) => expectError(r, 409, 'INVALID_STATE_TRANSITION')))).toEqual([]);
    const before = await lastEventId(env.ctx.db, w.workspaceId);
    const failed = withTransaction(env.ctx.db, async (db) => {
      await recordEvent(db, now, { workspaceId: w.workspaceId, type: 'entry.updated', itemKind: 'entry', itemId: 'x' });
      throw new Error('rolled back');
    });
    await expect(failed).rejects.toThrow('rolled back');
    expect(await listEventsAfter(env.ctx.db, w.workspaceId, before, 10)).toEqual([]);
  });
});
