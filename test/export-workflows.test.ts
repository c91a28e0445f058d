/**
 * Review workflows travel with a workspace export (docs/workflow.md "Workflows and stages";
 * docs/cli.md "Export and restore"): workflows.ndjson holds each workflow with its items' stages
 * and assignees; a restore keeps the workflow's and stages' ids, gives a stage's custom role its
 * restored key, puts each item back in its stage with its assignees (members matched by email),
 * and refuses the whole export when a workflow line is not what the API could have made.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { exportWorkspace } from '../src/modules/export/export.js';
import { restoreWorkspaceExport } from '../src/modules/export/restore.js';
import { findWorkspaceBySlug } from '../src/modules/workspaces/repository.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { memberWithPassword, PASSWORD, signedIn } from './studio-helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('workflows in an export (%s)', (dialect) => {
  let env: TestEnv;
  let other: TestEnv;
  let slug: string;
  let dir: string;
  let key: string;
  let wf: { id: string; stages: { id: string; name: string; roles: string[] | null }[] };
  let entryId: string;
  let memberEmail: string;
  const out = () => path.join(dir, `x-${randomBytes(3).toString('hex')}`);

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    other = await createTestEnv(dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-export-workflows-'));
    const s = await seedWorkspace(env.ctx);
    slug = s.workspace.slug;
    key = s.keys.management;
    const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });
    await setPasswordForUser(env.ctx, s.user.id, PASSWORD);
    const owner = await signedIn(env.app, s.user.email, s.workspace.id);
    expect((await req('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
    const role = await owner.call('POST', `${M}/roles`, { body: { name: 'Legal', permissions: [{ resource: 'entries', actions: ['read', 'update'] }] } });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const created = await req('POST', '/workflows', {
      name: 'Editorial',
      content_types: ['post'],
      stages: [{ name: 'Draft' }, { name: 'Legal review', required_approvals: 1, roles: ['Legal', 'editor'] }, { name: 'Ready' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    wf = created.body.data;
    entryId = (await req('POST', '/content-types/post/entries', { slug: 'hello', data: { title: 'Hello' } })).body.data.id;
    await req('POST', '/content-types/post/entries', { slug: 'untouched', data: { title: 'Untouched' } });
    const m = await memberWithPassword(env.ctx, slug, 'editor');
    memberEmail = m.email;
    expect((await req('POST', '/content-types/post/entries/hello/stage', { stage: 'Legal review' })).status).toBe(200);
    expect((await req('PATCH', '/content-types/post/entries/hello/assignees', { assignees: [m.email] })).status).toBe(200);
    const reviewerKey = (await createApiKey(env.ctx, s.workspace.id, m.id, { keyClass: 'management', name: 'r' })).key;
    expect((await call(env.app, 'POST', `${M}/content-types/post/entries/hello/approve`, { key: reviewerKey })).status).toBe(200);
  });
  afterAll(async () => {
    await env?.close();
    await other?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores the workflow, its stage ids, roles and items with their stages and assignees', async () => {
    const target = out();
    const exported = await exportWorkspace(env.ctx, { workspace: slug, out: target, withUsers: true });
    expect(exported.counts.workflows).toBe(1);
    const line = JSON.parse(fs.readFileSync(path.join(target, 'workflows.ndjson'), 'utf8').trim());
    expect(line).toMatchObject({ id: wf.id, name: 'Editorial', content_types: ['post'], pages: false });
    expect(line.stages[1].roles).toEqual(['Legal', 'editor']);
    expect(line.items).toEqual([{ kind: 'entry', id: entryId, stage_id: wf.stages[1].id, stage_changed_at: expect.any(String), assignees: [memberEmail] }]);

    const copy = `${slug}-copy-${randomBytes(2).toString('hex')}`;
    const restored = await restoreWorkspaceExport(other.ctx, { source: target, workspace: copy });
    expect(restored.counts.workflows).toBe(1);
    const ws = (await findWorkspaceBySlug(other.ctx.db, copy))!;
    const rows = await other.ctx.db.kysely.selectFrom('workflows').selectAll().where('workspace_id', '=', ws.id).execute();
    expect(rows.map((r) => r.id)).toEqual([wf.id]);
    const stages = JSON.parse(rows[0].stages) as { id: string; roles: string[] | null }[];
    expect(stages.map((st) => st.id)).toEqual(wf.stages.map((st) => st.id));
    const legal = await other.ctx.db.kysely
      .selectFrom('roles')
      .select('key')
      .where('workspace_id', '=', ws.id)
      .where('name', '=', 'Legal')
      .executeTakeFirstOrThrow();
    expect(stages[1].roles).toEqual([legal.key, 'editor']);
    // The item is back in its stage with its assignee; approvals start over.
    const ownerKey = (await createApiKey(other.ctx, ws.id, await ownerId(ws.id), { keyClass: 'management', name: 'k' })).key;
    const entry = (await call(other.app, 'GET', `${M}/content-types/post/entries/hello`, { key: ownerKey })).body.data;
    expect(entry.workflow).toMatchObject({ workflow_id: wf.id, stage: { id: wf.stages[1].id, name: 'Legal review' }, approvals: [] });
    expect(entry.workflow.assignees.map((p: { email: string }) => p.email)).toEqual([memberEmail]);
    expect((await call(other.app, 'GET', `${M}/content-types/post/entries/untouched`, { key: ownerKey })).body.data.workflow.stage.name).toBe('Draft');
  });

  async function ownerId(workspaceId: string): Promise<number> {
    const row = await other.ctx.db.kysely
      .selectFrom('memberships')
      .select('user_id')
      .where('workspace_id', '=', workspaceId)
      .where('role', '=', 'owner')
      .executeTakeFirstOrThrow();
    return row.user_id;
  }

  it('refuses a workflows line the API could not have made, and restores nothing', async () => {
    const target = out();
    await exportWorkspace(env.ctx, { workspace: slug, out: target, withUsers: true });
    const file = path.join(target, 'workflows.ndjson');
    const manifestFile = path.join(target, 'manifest.json');
    const line = JSON.parse(fs.readFileSync(file, 'utf8'));
    const rewrite = (text: string) => {
      fs.writeFileSync(file, text);
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      manifest.files['workflows.ndjson'] = { bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
      fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    };
    const third = await createTestEnv(dialect);
    const refused = async (message: RegExp) => {
      const copy = `${slug}-bad-${randomBytes(2).toString('hex')}`;
      await expect(restoreWorkspaceExport(third.ctx, { source: target, workspace: copy })).rejects.toMatchObject({
        errors: [{ message: expect.stringMatching(message) }],
      });
      expect(await findWorkspaceBySlug(third.ctx.db, copy)).toBeNull();
    };
    rewrite(`${JSON.stringify({ ...line, items: [{ ...line.items[0], stage_id: 'nowhere' }] })}\n`);
    await refused(/workflows\.ndjson line 1: items\.0\.stage_id/);
    rewrite(`${JSON.stringify({ ...line, content_types: ['missing'] })}\n`);
    await refused(/workflows\.ndjson line 1: content_types\.0 .*missing/);
    rewrite(`${JSON.stringify({ ...line, stages: [{ ...line.stages[0], roles: ['pilot'] }] })}\n`);
    await refused(/workflows\.ndjson line 1: stages\.0\.roles\.0/);
    rewrite(`${JSON.stringify({ ...line, items: [{ ...line.items[0], id: '01234567-89ab-7def-8123-456789abcdef' }] })}\n`);
    await refused(/workflows\.ndjson line 1: items\.0\.id/);
    await third.close();
  });
});
