/**
 * Review workflows (docs/workflow.md "Workflows and stages", "Approvals", "The publish guard"), on
 * every dialect: workflow CRUD and its validation (paths, a type in one workflow only), stages
 * named by id or by name, role-limited moves (403, owners always), APPROVALS_MISSING and approvals
 * by people other than the last editor, a content change clearing approvals but not the stage,
 * the publish guard on direct, bulk, scheduled and release publication (now and scheduled),
 * assignees, the list filters, the `workflow` field on reads, the webhook event, and cleanup when
 * items and workflows are deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { publishDueReleases } from '../src/modules/releases/publication.js';
import { runSchedulerOnce } from '../src/modules/publishing/scheduler.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { memberWithPassword } from './studio-helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('review workflows (%s)', (dialect) => {
  let env: TestEnv;
  let now = Date.parse('2026-03-01T10:00:00.000Z');
  let wsId: string;
  let wsSlug: string;
  let ownerKey: string;
  let ownerId: number;
  const people: Record<string, { id: number; email: string; key: string }> = {};

  const as = (key: string) => (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    call(env.app, method, `${M}${url}`, { key, body });
  const owner = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) => as(ownerKey)(method, url, body);
  const by = (label: string) => as(people[label].key);

  async function person(label: string, role: string) {
    const m = await memberWithPassword(env.ctx, wsSlug, role);
    const key = (await createApiKey(env.ctx, wsId, m.id, { keyClass: 'management', name: `${label} key` })).key;
    people[label] = { id: m.id, email: m.email, key };
  }

  async function post(slug: string, title = slug, key = ownerKey) {
    const res = await as(key)('POST', '/content-types/article/entries', { slug, data: { title } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  }

  const entryPath = (slug: string) => `/content-types/article/entries/${slug}`;
  /** Through Review (approved by editor2) into Ready, the publish stage: no stage gathering approvals is skipped. */
  async function toReady(slug: string): Promise<void> {
    expect((await owner('POST', `${entryPath(slug)}/stage`, { stage: 'Review' })).status).toBe(200);
    expect((await by('editor2')('POST', `${entryPath(slug)}/approve`)).status).toBe(200);
    const ready = await owner('POST', `${entryPath(slug)}/stage`, { stage: 'Ready' });
    expect(ready.status, JSON.stringify(ready.body)).toBe(200);
  }
  let wf: { id: string; stages: { id: string; name: string }[]; publish_stage: string };

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now), config: { webhookAllowPrivate: true } });
    const s = await seedWorkspace(env.ctx);
    wsId = s.workspace.id;
    wsSlug = s.workspace.slug;
    ownerKey = s.keys.management;
    ownerId = s.user.id;
    for (const slug of ['article', 'note']) {
      const res = await owner('POST', '/content-types', { name: slug, slug, fields: [{ name: 'title', field_type: 'text', required: true }] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    await person('editor', 'editor');
    await person('editor2', 'editor');
    await person('author', 'author');
    await person('admin', 'admin');
    await person('viewer', 'viewer');
    const created = await owner('POST', '/workflows', {
      name: 'Editorial',
      content_types: ['article'],
      stages: [{ name: 'Draft' }, { name: 'Review', required_approvals: 1 }, { name: 'Ready', roles: ['editor', 'admin'] }],
      publish_stage: 'Ready',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    wf = created.body.data;
  });
  afterAll(async () => env?.close());

  describe('workflows', () => {
    it('creates with server-assigned stage ids, the publish stage by name; lists and reads them', async () => {
      expect(wf).toMatchObject({ name: 'Editorial', content_types: ['article'], pages: false });
      expect(wf.stages.map((s) => s.name)).toEqual(['Draft', 'Review', 'Ready']);
      expect(wf.stages.every((s) => /^[0-9a-f-]{36}$/.test(s.id))).toBe(true);
      expect(wf.stages[0]).toMatchObject({ required_approvals: 0, roles: null });
      expect(wf.stages[2]).toMatchObject({ roles: ['editor', 'admin'] });
      expect(wf.publish_stage).toBe(wf.stages[2].id);
      // Any member reads them.
      expect((await by('viewer')('GET', '/workflows')).body.data.map((w: { id: string }) => w.id)).toEqual([wf.id]);
      expect((await by('viewer')('GET', `/workflows/${wf.id}`)).body.data.name).toBe('Editorial');
      expectError(await owner('GET', '/workflows/4b0c6a52-0a8f-4a39-9a57-8f3f3f2d3a11'), 404, 'NOT_FOUND');
    });

    it('refuses bad bodies with paths, a type in two workflows, and writes without schema:write', async () => {
      const bad = expectError(
        await owner('POST', '/workflows', {
          name: 'Other',
          content_types: ['article', 'nope'],
          stages: [{ name: 'A' }, { name: 'a', roles: ['pilot'] }],
          publish_stage: 'Z',
        }),
        400,
        'VALIDATION_FAILED',
      );
      expect(bad.errors.map((e: { path: string }) => e.path).sort()).toEqual(
        ['body.content_types.0', 'body.content_types.1', 'body.publish_stage', 'body.stages.1.name', 'body.stages.1.roles.0'].sort(),
      );
      expect(bad.errors.find((e: { path: string }) => e.path === 'body.content_types.0').message).toMatch(/Editorial/);
      expectError(await owner('POST', '/workflows', { name: 'x', stages: [] }), 400, 'VALIDATION_FAILED');
      expectError(await owner('POST', '/workflows', { name: 'x', stages: [{ name: 'A', required_approvals: -1 }] }), 400, 'VALIDATION_FAILED');
      expectError(await by('editor')('POST', '/workflows', { name: 'Mine', stages: [{ name: 'A' }] }), 403, 'FORBIDDEN');
      expectError(await by('editor')('DELETE', `/workflows/${wf.id}`), 403, 'FORBIDDEN');
      // Pages in at most one workflow.
      const pages = await by('admin')('POST', '/workflows', { name: 'Pages', pages: true, stages: [{ name: 'Draft' }, { name: 'Live' }] });
      expect(pages.status, JSON.stringify(pages.body)).toBe(201);
      expect(pages.body.data.publish_stage).toBe(pages.body.data.stages[1].id);
      const twice = expectError(await owner('POST', '/workflows', { name: 'Pages 2', pages: true, stages: [{ name: 'A' }] }), 400, 'VALIDATION_FAILED');
      expect(twice.errors).toEqual([{ path: 'body.pages', message: expect.stringMatching(/Pages/) }]);
      expect((await owner('DELETE', `/workflows/${pages.body.data.id}`)).status).toBe(200);
    });
  });

  describe('items', () => {
    it('a new entry of a covered type is in the first stage; an uncovered one has workflow null; lists carry it', async () => {
      await post('first');
      const one = (await owner('GET', entryPath('first'))).body.data;
      expect(one.workflow).toEqual({
        workflow_id: wf.id,
        stage: { id: wf.stages[0].id, name: 'Draft' },
        required_approvals: 0,
        approvals: [],
        assignees: [],
        stage_changed_at: null,
        last_editor: expect.objectContaining({ id: expect.any(Number) }),
      });
      await owner('POST', '/content-types/note/entries', { slug: 'n1', data: { title: 'n' } });
      expect((await owner('GET', '/content-types/note/entries/n1')).body.data.workflow).toBeNull();
      expect((await owner('GET', '/content-types/note/entries')).body.data[0].workflow).toBeNull();
      const list = (await owner('GET', '/content-types/article/entries')).body.data;
      expect(list.find((e: { slug: string }) => e.slug === 'first').workflow.stage.name).toBe('Draft');
      expectError(await owner('POST', '/content-types/note/entries/n1/stage', { stage: 'Draft' }), 400, 'VALIDATION_FAILED');
    });

    it('moves by stage id or name; unknown stages 400; roles limit moves (403) but owners always may; viewers 403', async () => {
      await post('moves', 'moves', people.editor.key);
      const moved = await by('author')('POST', `${entryPath('moves')}/stage`, { stage: wf.stages[0].id });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const unknown = expectError(await owner('POST', `${entryPath('moves')}/stage`, { stage: 'Nowhere' }), 400, 'VALIDATION_FAILED');
      expect(unknown.errors[0].path).toBe('body.stage');
      expectError(await by('viewer')('POST', `${entryPath('moves')}/stage`, { stage: 'Review' }), 403, 'FORBIDDEN');
      const toReview = await by('author')('POST', `${entryPath('moves')}/stage`, { stage: 'review' });
      expect(toReview.status, JSON.stringify(toReview.body)).toBe(200);
      expect(toReview.body.data.stage).toEqual({ id: wf.stages[1].id, name: 'Review' });
      expect(toReview.body.data.stage_changed_at).toBe(new Date(now).toISOString());
      // Ready is for editors and admins: an author may not move there (approvals aside: the owner approves first).
      expect((await owner('POST', `${entryPath('moves')}/approve`)).status).toBe(200);
      const refused = expectError(await by('author')('POST', `${entryPath('moves')}/stage`, { stage: 'Ready' }), 403, 'FORBIDDEN');
      expect(refused.message).toMatch(/Ready/);
      expect((await owner('GET', entryPath('moves'))).body.data.workflow.stage.name).toBe('Review');
      // Back to Draft needs no approvals and any role.
      expect((await by('author')('POST', `${entryPath('moves')}/stage`, { stage: 'Draft' })).status).toBe(200);
      // Owners may move into any stage, but not past a stage that gathers approvals: skipping
      // Review would skip its review.
      const skip = expectError(await owner('POST', `${entryPath('moves')}/stage`, { stage: 'Ready' }), 409, 'APPROVALS_MISSING');
      expect(skip.message).toMatch(/skip stage 'Review'/);
      expect(skip.errors).toContainEqual({ path: 'approvals.stage', message: 'Review' });
      expect((await owner('GET', entryPath('moves'))).body.data.workflow.stage.name).toBe('Draft');
    });

    it('APPROVALS_MISSING until someone other than the last editor approves; the last editor cannot approve; approving twice is a no-op', async () => {
      await post('approvals', 'A', people.editor.key);
      expect((await by('editor')('POST', `${entryPath('approvals')}/stage`, { stage: 'Review' })).status).toBe(200);
      const missing = expectError(await by('editor')('POST', `${entryPath('approvals')}/stage`, { stage: 'Ready' }), 409, 'APPROVALS_MISSING');
      expect(missing.errors).toEqual([
        { path: 'approvals.required', message: '1' },
        { path: 'approvals.given', message: '0' },
      ]);
      expectError(await by('editor')('POST', `${entryPath('approvals')}/approve`), 403, 'FORBIDDEN');
      const approved = await by('editor2')('POST', `${entryPath('approvals')}/approve`);
      expect(approved.status).toBe(200);
      expect(approved.body.data.approvals).toEqual([
        { user: { id: people.editor2.id, email: people.editor2.email, name: null }, at: new Date(now).toISOString() },
      ]);
      expect((await by('editor2')('POST', `${entryPath('approvals')}/approve`)).body.data.approvals).toHaveLength(1);
      const ready = await by('editor')('POST', `${entryPath('approvals')}/stage`, { stage: 'Ready' });
      expect(ready.status, JSON.stringify(ready.body)).toBe(200);
      expect(ready.body.data.approvals).toEqual([]);
    });

    it('a content change clears the approvals but keeps the stage; request-changes withdraws one’s own approval', async () => {
      await post('edited', 'E', people.editor.key);
      await by('editor')('POST', `${entryPath('edited')}/stage`, { stage: 'Review' });
      await by('editor2')('POST', `${entryPath('edited')}/approve`);
      await by('admin')('POST', `${entryPath('edited')}/approve`);
      expect((await owner('GET', entryPath('edited'))).body.data.workflow.approvals).toHaveLength(2);
      const changes = await by('admin')('POST', `${entryPath('edited')}/request-changes`, { comment: 'Fix the title' });
      expect(changes.status, JSON.stringify(changes.body)).toBe(200);
      expect(changes.body.data.approvals.map((a: { user: { id: number } }) => a.user.id)).toEqual([people.editor2.id]);
      expect(changes.body.data.stage.name).toBe('Review');
      expectError(await by('admin')('POST', `${entryPath('edited')}/request-changes`, {}), 400, 'VALIDATION_FAILED');
      // editor2 edits: the approvals go (its own too), the stage stays, and editor2 is now the last editor.
      expect((await by('editor2')('PUT', entryPath('edited'), { data: { title: 'E2' } })).status).toBe(200);
      const after = (await owner('GET', entryPath('edited'))).body.data.workflow;
      expect(after.approvals).toEqual([]);
      expect(after.stage.name).toBe('Review');
      expect(after.last_editor).toEqual({ id: people.editor2.id, email: people.editor2.email, name: null });
      expectError(await by('editor2')('POST', `${entryPath('edited')}/approve`), 403, 'FORBIDDEN');
      // A write that changes nothing keeps them.
      await by('editor')('POST', `${entryPath('edited')}/approve`);
      await by('editor2')('PUT', entryPath('edited'), { data: { title: 'E2' } });
      expect((await owner('GET', entryPath('edited'))).body.data.workflow.approvals).toHaveLength(1);
      // Lists carry the last editor too (the Studio leaves the approval to someone else).
      const listed = (await owner('GET', '/content-types/article/entries?limit=100')).body.data.find((e: { slug: string }) => e.slug === 'edited');
      expect(listed.workflow.last_editor.id).toBe(people.editor2.id);
      // Restoring a version is a content change too.
      expect((await owner('POST', `${entryPath('edited')}/versions/1/restore`)).status).toBe(200);
      const restored = (await owner('GET', entryPath('edited'))).body.data.workflow;
      expect(restored.approvals).toEqual([]);
      expect(restored.last_editor.id).not.toBe(people.editor2.id);
    });
  });

  describe('the publish guard', () => {
    it('refuses direct publish and schedule outside the publish stage (409 WORKFLOW_STAGE naming it), then allows them', async () => {
      await post('guarded');
      const refused = expectError(await owner('PATCH', `${entryPath('guarded')}/publish`), 409, 'WORKFLOW_STAGE');
      expect(refused.message).toMatch(/'Draft'.*'Ready'/);
      expect((await owner('GET', entryPath('guarded'))).body.data.status).toBe('draft');
      const at = new Date(now + 60_000).toISOString();
      expectError(await owner('PATCH', `${entryPath('guarded')}/schedule`, { publish_at: at }), 409, 'WORKFLOW_STAGE');
      // Entries of an uncovered type are not guarded.
      expect((await owner('PATCH', '/content-types/note/entries/n1/publish')).status).toBe(200);
      await toReady('guarded');
      expect((await owner('PATCH', `${entryPath('guarded')}/publish`)).status).toBe(200);
    });

    it('bulk publish fails per item with the reason', async () => {
      const a = await post('bulk-a');
      const b = await post('bulk-b');
      await toReady('bulk-b');
      const res = await owner('PATCH', '/content-types/article/entries/bulk', { action: 'publish', ids: [a, b] });
      expect(res.status).toBe(200);
      expect(res.body.data.succeeded).toEqual([{ id: b, reason: null }]);
      expect(res.body.data.failed).toEqual([{ id: a, reason: expect.stringMatching(/stage 'Draft'.*'Ready'/) }]);
    });

    it('a publication scheduled in the publish stage goes ahead even if the item left it', async () => {
      await post('sched');
      await toReady('sched');
      const at = new Date(now + 60_000).toISOString();
      expect((await owner('PATCH', `${entryPath('sched')}/schedule`, { publish_at: at })).status).toBe(200);
      await owner('POST', `${entryPath('sched')}/stage`, { stage: 'Draft' });
      now += 120_000;
      await runSchedulerOnce(env.ctx);
      expect((await owner('GET', entryPath('sched'))).body.data.status).toBe('published');
    });

    it('a release publish (now) is refused with WORKFLOW_STAGE; a scheduled one fails with the reason', async () => {
      const id = await post('rel');
      const rel = (await owner('POST', '/releases', { title: 'Spring' })).body.data.id as string;
      const added = await owner('POST', `/releases/${rel}/items`, { kind: 'entry', id, action: 'publish' });
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      const refused = expectError(await owner('POST', `/releases/${rel}/publish`), 409, 'WORKFLOW_STAGE');
      expect(refused.errors).toEqual([{ path: `entry.${id}`, message: expect.stringMatching(/'Ready'/) }]);
      expect((await owner('GET', `/releases/${rel}/validation`)).body.data).toEqual({
        valid: false,
        problems: [{ path: `entry.${id}`, message: expect.stringMatching(/'Ready'/) }],
      });
      expect((await owner('GET', entryPath('rel'))).body.data.status).toBe('draft');
      await owner('POST', `/releases/${rel}/schedule`, { publish_at: new Date(now + 1000).toISOString() });
      now += 2000;
      expect(await publishDueReleases(env.ctx)).toEqual({ published: 0, failed: 1 });
      const failed = (await owner('GET', `/releases/${rel}`)).body.data;
      expect(failed.status).toBe('failed');
      expect(failed.failure).toEqual([{ path: `entry.${id}`, message: expect.stringMatching(/'Ready'/) }]);
      await toReady('rel');
      expect((await owner('POST', `/releases/${rel}/publish`)).status).toBe(200);
      expect((await owner('GET', entryPath('rel'))).body.data.status).toBe('published');
    });
  });

  describe('comments, notifications and activity', () => {
    const notes = async (itemId: string) =>
      (await env.ctx.db.kysely.selectFrom('notifications').selectAll().where('item_id', '=', itemId).orderBy('created_at').orderBy('id').execute()).map(
        (n) => ({
          kind: n.kind,
          to: n.user_id,
          comment: n.comment_id !== null,
        }),
      );

    it('tells the newly assigned, the assignees and last editor of a move, approvers, and who must change what; never the actor', async () => {
      const id = await post('told', 'Told', people.editor.key);
      await by('admin')('PATCH', `${entryPath('told')}/assignees`, { assignees: [people.editor2.id, people.admin.id] });
      expect(await notes(id)).toEqual([{ kind: 'assigned', to: people.editor2.id, comment: false }]);
      // Adding one more tells only the new one.
      await by('admin')('PATCH', `${entryPath('told')}/assignees`, { assignees: [people.editor2.id, people.admin.id, people.author.id] });
      expect((await notes(id)).slice(1)).toEqual([{ kind: 'assigned', to: people.author.id, comment: false }]);
      await env.ctx.db.kysely.deleteFrom('notifications').where('item_id', '=', id).execute();
      // Into Review (1 approval): stage_changed to the last editor and assignees, approval_requested to the assignees.
      const moved = await by('admin')('POST', `${entryPath('told')}/stage`, { stage: 'Review', comment: 'Ready for a look' });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      const sorted = (list: { kind: string; to: number; comment: boolean }[]) => [...list].sort((a, b) => (a.kind + a.to).localeCompare(b.kind + b.to));
      expect(sorted(await notes(id))).toEqual(
        sorted([
          ...[people.editor.id, people.editor2.id, people.author.id].map((to) => ({ kind: 'stage_changed', to, comment: true })),
          ...[people.editor2.id, people.author.id].map((to) => ({ kind: 'approval_requested', to, comment: false })),
        ]),
      );
      // The move's comment is a comment on the entry, by the mover.
      const comments = await env.ctx.db.kysely.selectFrom('comments').selectAll().where('entry_id', '=', id).execute();
      expect(comments.map((c) => [c.body, c.author_id])).toEqual([['Ready for a look', people.admin.id]]);
      await env.ctx.db.kysely.deleteFrom('notifications').where('item_id', '=', id).execute();
      const asked = await by('editor2')('POST', `${entryPath('told')}/request-changes`, { comment: 'Sharper title', field: 'title' });
      expect(asked.status, JSON.stringify(asked.body)).toBe(200);
      expect(sorted(await notes(id))).toEqual(
        sorted([people.editor.id, people.admin.id, people.author.id].map((to) => ({ kind: 'changes_requested', to, comment: true }))),
      );
      const anchored = await env.ctx.db.kysely.selectFrom('comments').selectAll().where('entry_id', '=', id).where('body', '=', 'Sharper title').execute();
      expect(anchored.map((c) => c.field)).toEqual(['title']);
      // A bad anchor refuses the whole change request, naming the body's keys.
      const bad = expectError(await by('editor2')('POST', `${entryPath('told')}/request-changes`, { comment: 'x', field: 'nope' }), 400, 'VALIDATION_FAILED');
      expect(bad.errors[0].path).toBe('body.field');
      expectError(await by('editor2')('POST', `${entryPath('told')}/request-changes`, { comment: '   ' }), 400, 'VALIDATION_FAILED');
    });

    it('with nobody assigned, an item entering a stage that needs approvals asks the owners and admins', async () => {
      const id = await post('unassigned', 'U', people.editor.key);
      await by('editor')('POST', `${entryPath('unassigned')}/stage`, { stage: 'Review' });
      const asked = (await notes(id)).filter((n) => n.kind === 'approval_requested').map((n) => n.to);
      expect(asked.sort()).toEqual([ownerId, people.admin.id].sort());
    });

    it('records an activity row of type item for every workflow change', async () => {
      const id = await post('active');
      const count = async () =>
        (await env.ctx.db.kysely.selectFrom('activity').select('id').where('type', '=', 'item').where('item_id', '=', id).execute()).length;
      await owner('POST', `${entryPath('active')}/stage`, { stage: 'Review' });
      await by('editor')('POST', `${entryPath('active')}/approve`);
      await owner('PATCH', `${entryPath('active')}/assignees`, { assignees: [people.editor.id] });
      await by('editor')('POST', `${entryPath('active')}/request-changes`, { comment: 'Hmm' });
      expect(await count()).toBe(4);
    });
  });

  describe('pages', () => {
    it('a workflow covering pages: the field, moves, the guard and the list filter', async () => {
      const pages = await owner('POST', '/workflows', { name: 'Site', pages: true, stages: [{ name: 'Draft' }, { name: 'Live', roles: ['admin'] }] });
      expect(pages.status, JSON.stringify(pages.body)).toBe(201);
      const created = await owner('POST', '/pages', { slug: 'about', seo: { title: 'About' }, blocks: [] });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect((await owner('GET', '/pages/about')).body.data.page.workflow.stage.name).toBe('Draft');
      expectError(await owner('PATCH', '/pages/about/publish'), 409, 'WORKFLOW_STAGE');
      expectError(await by('editor')('POST', '/pages/about/stage', { stage: 'Live' }), 403, 'FORBIDDEN');
      expect((await by('admin')('POST', '/pages/about/stage', { stage: 'Live' })).status).toBe(200);
      const live = (await owner('GET', '/pages?stage=Live')).body.data;
      expect(live.map((p: { slug: string }) => p.slug)).toEqual(['about']);
      expect(live[0].workflow.stage.name).toBe('Live');
      expect((await owner('PATCH', '/pages/about/publish')).status).toBe(200);
      expect((await owner('DELETE', `/workflows/${pages.body.data.id}`)).status).toBe(200);
      expect((await owner('GET', '/pages')).body.data[0].workflow).toBeNull();
    });
  });

  describe('assignees, filters, events and cleanup', () => {
    it('sets assignees by id or email (members only) and filters lists by stage and assignee', async () => {
      await post('filter-a');
      await post('filter-b');
      const set = await by('editor')('PATCH', `${entryPath('filter-a')}/assignees`, { assignees: [people.editor2.id, people.admin.email.toUpperCase()] });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.data.assignees.map((p: { id: number }) => p.id).sort()).toEqual([people.editor2.id, people.admin.id].sort());
      const bad = expectError(await owner('PATCH', `${entryPath('filter-a')}/assignees`, { assignees: ['stranger@example.com'] }), 400, 'VALIDATION_FAILED');
      expect(bad.errors[0].path).toBe('body.assignees.0');
      await owner('POST', `${entryPath('filter-b')}/stage`, { stage: 'Review' });
      const slugs = async (q: string, key = ownerKey) => {
        const res = await as(key)('GET', `/content-types/article/entries?limit=100&${q}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        // Only this test's entries: earlier tests leave others in the stages.
        return res.body.data.map((e: { slug: string }) => e.slug).filter((slug: string) => slug.startsWith('filter-'));
      };
      expect(await slugs('stage=Review')).toContain('filter-b');
      expect(await slugs('stage=Review')).not.toContain('filter-a');
      expect(await slugs(`stage=${wf.stages[0].id}`)).toContain('filter-a');
      expect(await slugs('stage=Draft')).not.toContain('filter-b');
      expect(await slugs(`assignee=${people.admin.id}`)).toEqual(['filter-a']);
      expect(await slugs('assignee=me', people.editor2.key)).toEqual(['filter-a']);
      expect(await slugs('assignee=me')).toEqual([]);
      expect(await slugs('stage=Review&assignee=me', people.editor2.key)).toEqual([]);
      expectError(await owner('GET', '/content-types/article/entries?stage=Nowhere'), 400, 'VALIDATION_FAILED');
      expectError(await owner('GET', '/content-types/article/entries?assignee=someone'), 400, 'VALIDATION_FAILED');
      // Replacing the list drops the others.
      const one = await owner('PATCH', `${entryPath('filter-a')}/assignees`, { assignees: [people.admin.id] });
      expect(one.body.data.assignees.map((p: { id: number }) => p.id)).toEqual([people.admin.id]);
    });

    it('records entry.stage_changed (not live) with the stage in the webhook payload; *.stage_changed subscribes to it', async () => {
      const hook = await owner('POST', '/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['entry.stage_changed'] });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      // The rule's own spelling: every kind's stage_changed (entries and pages), nothing else.
      const any = await owner('POST', '/webhooks', { url: 'http://127.0.0.1:9/any', events: ['*.stage_changed'] });
      expect(any.status, JSON.stringify(any.body)).toBe(201);
      const id = await post('hooked');
      await owner('POST', `${entryPath('hooked')}/stage`, { stage: 'Review' });
      const events = await env.ctx.db.kysely.selectFrom('events').selectAll().where('item_id', '=', id).orderBy('id').execute();
      const moved = events.find((e) => e.type === 'entry.stage_changed');
      expect(moved).toBeDefined();
      expect(Boolean(moved!.live)).toBe(false);
      const deliveries = await env.ctx.db.kysely.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', hook.body.data.id).execute();
      expect(deliveries).toHaveLength(1);
      expect(JSON.parse(deliveries[0].payload).data).toMatchObject({ id, slug: 'hooked', stage: { id: wf.stages[1].id, name: 'Review' } });
      const anyDeliveries = await env.ctx.db.kysely.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', any.body.data.id).execute();
      expect(anyDeliveries.map((d) => JSON.parse(d.payload).type)).toEqual(['entry.stage_changed']);
      await owner('DELETE', `/webhooks/${any.body.data.id}`);
    });

    it('PATCH removing a stage moves its items to the first; deleting an entry or the workflow drops the states', async () => {
      const id = await post('cleanup');
      await owner('POST', `${entryPath('cleanup')}/stage`, { stage: 'Review' });
      await by('editor')('POST', `${entryPath('cleanup')}/approve`);
      const patched = await owner('PATCH', `/workflows/${wf.id}`, {
        stages: [
          { id: wf.stages[0].id, name: 'Draft' },
          { name: 'Legal', required_approvals: 2 },
          { id: wf.stages[2].id, name: 'Ready', roles: ['editor', 'admin'] },
        ],
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data.publish_stage).toBe(wf.stages[2].id);
      const state = (await owner('GET', entryPath('cleanup'))).body.data.workflow;
      expect(state.stage.name).toBe('Draft');
      expect(state.approvals).toEqual([]);
      // A type added later starts in the first stage; a type taken out loses its items' states.
      const n1 = (await owner('GET', '/content-types/note/entries/n1')).body.data.id as string;
      expect((await owner('PATCH', `/workflows/${wf.id}`, { content_types: ['article', 'note'] })).status).toBe(200);
      expect((await owner('GET', '/content-types/note/entries/n1')).body.data.workflow.stage.name).toBe('Draft');
      expect((await owner('POST', '/content-types/note/entries/n1/stage', { stage: 'Legal' })).status).toBe(200);
      expect(await env.ctx.db.kysely.selectFrom('workflow_items').select('id').where('entry_id', '=', n1).execute()).toHaveLength(1);
      expect((await owner('PATCH', `/workflows/${wf.id}`, { content_types: ['article'] })).body.data.content_types).toEqual(['article']);
      expect(await env.ctx.db.kysely.selectFrom('workflow_items').select('id').where('entry_id', '=', n1).execute()).toEqual([]);
      expect((await owner('GET', '/content-types/note/entries/n1')).body.data.workflow).toBeNull();
      await owner('PATCH', `${entryPath('cleanup')}/assignees`, { assignees: [people.editor.id] });
      expect((await owner('DELETE', entryPath('cleanup'))).status).toBe(200);
      const rows = await env.ctx.db.kysely.selectFrom('workflow_items').select('id').where('entry_id', '=', id).execute();
      expect(rows).toEqual([]);
      expect((await owner('DELETE', `/workflows/${wf.id}`)).status).toBe(200);
      expect(await env.ctx.db.kysely.selectFrom('workflow_items').select('id').where('workspace_id', '=', wsId).execute()).toEqual([]);
      expect((await owner('GET', entryPath('first'))).body.data.workflow).toBeNull();
      // Without a workflow, publishing is as before.
      expect((await owner('PATCH', `${entryPath('first')}/publish`)).status).toBe(200);
      expect(ownerId).toBeGreaterThan(0);
    });
  });
});
