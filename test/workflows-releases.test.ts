/**
 * A release's publication and review workflow approvals (docs/workflow.md "Approvals"), on every
 * dialect. A release publishing an item whose working copy has other changes records that
 * working copy again after the release version: it stays its author's, so the author still
 * cannot approve their own change and the publisher, who changed nothing, may. A release that
 * replaces an item's working copy (one without pending changes) is a content change: the
 * approvals of the copy it replaced go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { memberWithPassword } from './studio-helpers.js';

const M = '/api/v1/manage';
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH';

describe.each(dialects())('release publication and workflow approvals (%s)', (dialect) => {
  let env: TestEnv;
  let owner: (method: Method, url: string, body?: unknown) => ReturnType<typeof call>;
  let author: (method: Method, url: string, body?: unknown) => ReturnType<typeof call>;
  let reviewer: (method: Method, url: string, body?: unknown) => ReturnType<typeof call>;
  let authorId: number;
  let reviewerId: number;
  let ownerId: number;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    ownerId = s.user.id;
    const as = (key: string) => (method: Method, url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });
    owner = as(s.keys.management);
    const member = async (role: string) => {
      const m = await memberWithPassword(env.ctx, s.workspace.slug, role);
      return { id: m.id, key: (await createApiKey(env.ctx, s.workspace.id, m.id, { keyClass: 'management', name: role })).key };
    };
    const a = await member('editor');
    const r = await member('editor');
    author = as(a.key);
    reviewer = as(r.key);
    authorId = a.id;
    reviewerId = r.id;
    expect((await owner('POST', '/content-types', { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] })).status).toBe(201);
    const wf = await owner('POST', '/workflows', {
      name: 'Editorial',
      content_types: ['post'],
      stages: [{ name: 'Draft' }, { name: 'Ready', required_approvals: 1 }],
    });
    expect(wf.status, JSON.stringify(wf.body)).toBe(201);
  });
  afterAll(async () => env?.close());

  async function releaseOf(slug: string): Promise<string> {
    const id = (await owner('GET', `/content-types/post/entries/${slug}`)).body.data.id as string;
    const rel = (await owner('POST', '/releases', { title: `R ${slug}` })).body.data.id as string;
    expect((await owner('POST', `/releases/${rel}/items`, { kind: 'entry', id, action: 'publish' })).status).toBe(200);
    return rel;
  }

  it('the working copy recorded again after the release version stays its author’s', async () => {
    expect((await author('POST', '/content-types/post/entries', { slug: 'kept', data: { title: 'v1' } })).status).toBe(201);
    expect((await owner('POST', '/content-types/post/entries/kept/stage', { stage: 'Ready' })).status).toBe(200);
    const rel = await releaseOf('kept');
    // The author changes the working copy after the release took its version.
    expect((await author('PUT', '/content-types/post/entries/kept', { data: { title: 'v2' } })).status).toBe(200);
    expect((await owner('POST', `/releases/${rel}/publish`)).status).toBe(200);
    const entry = (await owner('GET', '/content-types/post/entries/kept')).body.data;
    expect(entry).toMatchObject({ status: 'published', has_pending_changes: true });
    expect(JSON.parse(entry.data).title).toBe('v2');
    expectError(await author('POST', '/content-types/post/entries/kept/approve'), 403, 'FORBIDDEN');
    const approved = await owner('POST', '/content-types/post/entries/kept/approve');
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.data.approvals.map((a: { user: { id: number } }) => a.user.id)).toEqual([ownerId]);
    const history = await env.ctx.db.kysely
      .selectFrom('entry_versions')
      .select(['version', 'action', 'created_by'])
      .where('entry_id', '=', entry.id)
      .orderBy('version')
      .execute();
    expect(history.slice(-2).map((v) => [v.action, Number(v.created_by)])).toEqual([
      ['publish', ownerId],
      ['update', authorId],
    ]);
  });

  it('a release replacing a working copy clears its approvals', async () => {
    expect((await author('POST', '/content-types/post/entries', { slug: 'replaced', data: { title: 'v1' } })).status).toBe(201);
    expect((await owner('POST', '/content-types/post/entries/replaced/stage', { stage: 'Ready' })).status).toBe(200);
    expect((await owner('PATCH', '/content-types/post/entries/replaced/publish')).status).toBe(200);
    const rel = await releaseOf('replaced');
    // The release's version of the entry differs from its published one.
    const id = (await owner('GET', '/content-types/post/entries/replaced')).body.data.id as string;
    expect((await owner('PUT', `/content-types/post/entries/replaced?release=${rel}`, { data: { title: 'release copy' } })).status).toBe(200);
    const approved = (await reviewer('POST', '/content-types/post/entries/replaced/approve')).body.data.approvals;
    expect(approved.map((a: { user: { id: number } }) => a.user.id)).toEqual([reviewerId]);
    expect((await owner('POST', `/releases/${rel}/publish`)).status).toBe(200);
    const entry = (await owner('GET', '/content-types/post/entries/replaced')).body.data;
    expect(entry.id).toBe(id);
    expect(entry).toMatchObject({ status: 'published', has_pending_changes: false });
    expect(JSON.parse(entry.data).title).toBe('release copy');
    expect(entry.workflow.approvals).toEqual([]);
  });
});
