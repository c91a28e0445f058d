/**
 * Page states (issue 3 item 2; docs/api.md "States and scheduling" (D20–D23), "Rules Quire decided"
 * (D24)): publish, unpublish, archive and schedule
 * through the shared state machine, their response bodies, required block fields, and scheduled
 * pages going live on time (D21) with and without the publishing job.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { createPageWorld, type PageWorld } from './pages-fixtures.js';

describe.each(dialects())('pages: states on %s', (dialect) => {
  let env: TestEnv;
  let w: PageWorld;
  let now = new Date('2026-06-01T12:00:00.000Z');
  const at = (minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now });
    w = await createPageWorld(env.ctx, env.app);
  });
  afterAll(async () => env?.close());

  const page = async (slug: string) => (await w.req('GET', `/pages/${slug}`)).body.data.page;
  const create = async (slug: string, blocks: unknown[] = [{ type: 'hero', data: { headline: 'Hi' } }]) => {
    const res = await w.req('POST', '/pages', { slug, blocks });
    expect(res.status).toBe(201);
    return res.body.data;
  };

  it('publish answers data null, sets published_at and bumps the ETag; publishing again is 409', async () => {
    const p = await create('pub');
    const res = await w.req('PATCH', '/pages/pub/publish');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Success', data: null, meta: null });
    expect(res.headers.etag).toBe(`"${p.id}-2"`);
    expect(await page('pub')).toMatchObject({ status: 'published', published_at: now.toISOString(), publish_at: null, updated_by: w.userId });
    const again = expectError(await w.req('PATCH', '/pages/pub/publish'), 409, 'INVALID_STATE_TRANSITION');
    expect(again.message).toBe("page cannot be published from status 'published'");
    expectError(await w.req('PATCH', '/pages/nowhere/publish'), 404, 'NOT_FOUND');
  });

  it('drafts may lack required block fields; publish and schedule refuse them with paths into the tree (D22)', async () => {
    await create('incomplete', [
      { type: 'hero', data: { headline: 'ok' } },
      {
        type: 'feature-grid',
        data: {},
        children: [
          { type: 'feature-item', data: { label: 'ok' } },
          { type: 'feature-item', data: { icon: 'x' } },
        ],
      },
    ]);
    const err = expectError(await w.req('PATCH', '/pages/incomplete/publish'), 400, 'VALIDATION_FAILED');
    expect(err.errors).toEqual([{ path: 'blocks.1.children.1.data.label', message: 'is required' }]);
    expectError(await w.req('PATCH', '/pages/incomplete/schedule', { publish_at: at(60) }), 400, 'VALIDATION_FAILED');
    expect((await page('incomplete')).status).toBe('draft');
  });

  it('a PUT keeps a published page published with pending changes; required fields are enforced when it is published (D22, D70, D71)', async () => {
    const res = await w.req('PUT', '/pages/pub', { seo: { title: 'Live' }, blocks: [{ type: 'hero', data: { headline: 'Changed' } }] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'published', published_at: now.toISOString(), has_pending_changes: true });
    const incomplete = await w.req('PUT', '/pages/pub', { seo: {}, blocks: [{ type: 'hero', data: { subline: 'no headline' } }] });
    expect(incomplete.status).toBe(200);
    const err = expectError(await w.req('PATCH', '/pages/pub/publish'), 400, 'VALIDATION_FAILED');
    expect(err.errors).toEqual([{ path: 'blocks.0.data.headline', message: 'is required' }]);
    expect((await w.req('PUT', '/pages/pub', { seo: { title: 'Live' }, blocks: [{ type: 'hero', data: { headline: 'Changed' } }] })).status).toBe(200);
    expect((await w.req('PATCH', '/pages/pub/publish')).status).toBe(200);
    expect(await page('pub')).toMatchObject({ status: 'published', has_pending_changes: false });
  });

  it('unpublish returns to draft with data null; from draft it is 409', async () => {
    const res = await w.req('PATCH', '/pages/pub/unpublish');
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(await page('pub')).toMatchObject({ status: 'draft', published_at: null, publish_at: null });
    expect(expectError(await w.req('PATCH', '/pages/pub/unpublish'), 409, 'INVALID_STATE_TRANSITION').message).toBe(
      "page cannot be unpublished from status 'draft'",
    );
  });

  it('archive returns the Page; archiving again is 409; an archived page can be published', async () => {
    const res = await w.req('PATCH', '/pages/pub/archive');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ slug: 'pub', status: 'archived', seo: { title: 'Live' } });
    expect(res.headers.etag).toBe(`"${res.body.data.id}-8"`);
    expect(expectError(await w.req('PATCH', '/pages/pub/archive'), 409, 'INVALID_STATE_TRANSITION').message).toBe(
      "page cannot be archived from status 'archived'",
    );
    expect((await w.req('PATCH', '/pages/pub/publish')).status).toBe(200);
  });

  it('schedule takes {publish_at} in the future (same rules as entries) and answers data null', async () => {
    await create('sched');
    expect(expectError(await w.req('PATCH', '/pages/sched/schedule', { publish_at: at(-1) }), 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.publish_at', message: 'must be in the future' },
    ]);
    expect(expectError(await w.req('PATCH', '/pages/sched/schedule', { publish_at: 'tomorrow' }), 400, 'VALIDATION_FAILED').errors[0].path).toBe(
      'body.publish_at',
    );
    expect(expectError(await w.req('PATCH', '/pages/sched/schedule', {}), 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.publish_at', message: 'is required' },
    ]);
    const res = await w.req('PATCH', '/pages/sched/schedule', { publish_at: '2026-06-01T16:00:00+02:00' });
    expect(res.status).toBe(200);
    expect(res.body.data).toBeNull();
    expect(await page('sched')).toMatchObject({ status: 'scheduled', publish_at: at(120), published_at: null });
    // Rescheduling a scheduled page is allowed; scheduling a published one is not.
    expect((await w.req('PATCH', '/pages/sched/schedule', { publish_at: at(30) })).status).toBe(200);
    expect((await page('sched')).publish_at).toBe(at(30));
    expect(expectError(await w.req('PATCH', '/pages/pub/schedule', { publish_at: at(30) }), 409, 'INVALID_STATE_TRANSITION').message).toBe(
      "page cannot be scheduled from status 'published'",
    );
  });

  it('a due scheduled page reads as published at publish_at before the job runs; the job stores it (D21)', async () => {
    await create('due');
    await w.req('PATCH', '/pages/due/schedule', { publish_at: at(10) });
    expect((await page('due')).status).toBe('scheduled');
    now = new Date(now.getTime() + 11 * 60_000);
    const dueAt = new Date(now.getTime() - 60_000).toISOString();
    expect(await page('due')).toMatchObject({ status: 'published', published_at: dueAt, publish_at: null });
    const listed = (await w.req('GET', '/pages?status=published&limit=100')).body.data.map((p: any) => p.slug);
    expect(listed).toContain('due');
    expect((await w.req('GET', '/pages?status=scheduled&limit=100')).body.data.map((p: any) => p.slug)).not.toContain('due');
    // Transitions start from the effective status: publishing a due page is 409.
    expectError(await w.req('PATCH', '/pages/due/publish'), 409, 'INVALID_STATE_TRANSITION');
    const run = await runSchedulerOnce(env.ctx);
    expect(run.pages).toBeGreaterThanOrEqual(1);
    const row = await env.ctx.db.kysely
      .selectFrom('pages')
      .select(['status', 'published_at', 'publish_at'])
      .where('slug', '=', 'due')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'published', published_at: dueAt, publish_at: null });
    expect((await runSchedulerOnce(env.ctx)).pages).toBe(0);
  });
});
