/**
 * The two writers that bypass the publish guard (docs/workflow.md "The publish guard"), on every
 * dialect: the Contentful importer publishes what the export has published into a type a
 * workflow covers, whatever the entry's stage, and a workspace restore brings a published item
 * back published in the stage it was exported in (items come back as exported). The API's own
 * publish of the same item is still refused (409 WORKFLOW_STAGE).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { exportWorkspace } from '../src/modules/export/export.js';
import { restoreWorkspaceExport } from '../src/modules/export/restore.js';
import type { ContentfulExport } from '../src/modules/import/contentful/export.js';
import { importContentful } from '../src/modules/import/operations.js';
import { findWorkspaceBySlug } from '../src/modules/workspaces/repository.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';

/** A one-type export; each entry published (`publishedVersion`) unless `draft`, at `version`. */
function eventsExport(entries: { id: string; title: string; version?: number; draft?: boolean }[]): ContentfulExport {
  return {
    locales: [{ code: 'en-US', default: true }],
    contentTypes: [{ sys: { id: 'event' }, name: 'Event', displayField: 'title', fields: [{ id: 'title', name: 'Title', type: 'Symbol' }] }],
    entries: entries.map((e) => ({
      sys: { id: e.id, contentType: { sys: { id: 'event' } }, version: e.version ?? 2, ...(e.draft ? {} : { publishedVersion: (e.version ?? 2) - 1 }) },
      fields: { title: { 'en-US': e.title } },
    })),
    assets: [],
  };
}

describe.each(dialects())('the publish guard bypass (%s)', (dialect) => {
  let env: TestEnv;
  let other: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    other = await createTestEnv(dialect);
  });
  afterAll(async () => {
    await env?.close();
    await other?.close();
  });

  it('the Contentful importer publishes published entries of a covered type whatever their stage', async () => {
    const first = await importContentful(env.ctx, { workspace: 'events', export: eventsExport([{ id: 'berlin', title: 'Berlin' }]) });
    const key = first.keys!.management;
    const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });
    const types = (await req('GET', '/content-types')).body.data as { slug: string }[];
    const slug = types.map((t) => t.slug).find((s) => s.toLowerCase().includes('event'))!;
    const created = await req('POST', '/workflows', {
      name: 'Editorial',
      content_types: [slug],
      stages: [{ name: 'Draft' }, { name: 'Review', required_approvals: 1 }, { name: 'Ready' }],
      publish_stage: 'Ready',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);

    // A second run: a new published entry, and a published one changed in Contentful.
    const again = await importContentful(env.ctx, {
      workspace: 'events',
      export: eventsExport([
        { id: 'berlin', title: 'Berlin, moved', version: 5 },
        { id: 'paris', title: 'Paris' },
        { id: 'rome', title: 'Rome', draft: true },
      ]),
    });
    expect(again.failures).toEqual([]);
    const list = (await req('GET', `/content-types/${slug}/entries?limit=100`)).body.data as {
      slug: string;
      status: string;
      has_pending_changes: boolean;
      workflow: { stage: { name: string } } | null;
    }[];
    const bySlug = Object.fromEntries(list.map((e) => [e.slug, e]));
    // Berlin's slug follows its new title (the importer's slug rule).
    for (const s of ['berlin-moved', 'paris']) {
      expect(bySlug[s], s).toMatchObject({ status: 'published', has_pending_changes: false, workflow: { stage: { name: 'Draft' } } });
    }
    expect(bySlug.rome).toMatchObject({ status: 'draft', workflow: { stage: { name: 'Draft' } } });
    const delivered = await call(env.app, 'GET', `${P}/entries?type=${slug}&limit=100`, { key: first.keys!.delivery });
    expect(delivered.status).toBe(200);
    expect((delivered.body.data as { slug: string; data: string }[]).map((e) => [e.slug, JSON.parse(e.data).title]).sort()).toEqual([
      ['berlin-moved', 'Berlin, moved'],
      ['paris', 'Paris'],
    ]);
    // The API's own publication of the same kind of item is still guarded.
    expectError(await req('PATCH', `/content-types/${slug}/entries/rome/publish`), 409, 'WORKFLOW_STAGE');
  });

  it('a restore brings a published item back published in the stage it was exported in', async () => {
    const s = await seedWorkspace(env.ctx);
    const key = s.keys.management;
    const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });
    expect((await req('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
    const created = await req('POST', '/workflows', { name: 'Editorial', content_types: ['post'], stages: [{ name: 'Draft' }, { name: 'Ready' }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await req('POST', '/content-types/post/entries', { slug: 'hello', data: { title: 'Hello' } })).status).toBe(201);
    expect((await req('POST', '/content-types/post/entries/hello/stage', { stage: 'Ready' })).status).toBe(200);
    expect((await req('PATCH', '/content-types/post/entries/hello/publish')).status).toBe(200);
    // Moving back keeps the publication: the item is published, in Draft.
    expect((await req('POST', '/content-types/post/entries/hello/stage', { stage: 'Draft' })).status).toBe(200);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-workflow-bypass-'));
    try {
      const out = path.join(dir, 'x');
      await exportWorkspace(env.ctx, { workspace: s.workspace.slug, out, withUsers: true });
      const copy = `${s.workspace.slug}-copy-${randomBytes(2).toString('hex')}`;
      await restoreWorkspaceExport(other.ctx, { source: out, workspace: copy });
      const ws = (await findWorkspaceBySlug(other.ctx.db, copy))!;
      const owner = await other.ctx.db.kysely
        .selectFrom('memberships')
        .select('user_id')
        .where('workspace_id', '=', ws.id)
        .where('role', '=', 'owner')
        .executeTakeFirstOrThrow();
      const copyKey = (await createApiKey(other.ctx, ws.id, owner.user_id, { keyClass: 'management', name: 'k' })).key;
      const entry = (await call(other.app, 'GET', `${M}/content-types/post/entries/hello`, { key: copyKey })).body.data;
      expect(entry).toMatchObject({ status: 'published', workflow: { stage: { name: 'Draft' } } });
      // Published again through the API, it would be refused: the restore alone bypasses the guard.
      expect((await call(other.app, 'PUT', `${M}/content-types/post/entries/hello`, { key: copyKey, body: { data: { title: 'Hello again' } } })).status).toBe(
        200,
      );
      expectError(await call(other.app, 'PATCH', `${M}/content-types/post/entries/hello/publish`, { key: copyKey }), 409, 'WORKFLOW_STAGE');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
