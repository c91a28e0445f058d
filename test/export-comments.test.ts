/**
 * Comments travel with a workspace export (format version 5, docs/workflow.md "Comments"):
 * comments.ndjson holds every comment of the workspace; a restore keeps threads, anchors and the
 * resolved state, maps authors and resolvers to the restored members (null without members),
 * reads mentions again from the text against the restored members and notifies no one. An
 * export whose comments could not have been made (a reply to another item's thread, a comment
 * about nothing) is refused whole.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { exportWorkspace } from '../src/modules/export/export.js';
import { restoreWorkspaceExport } from '../src/modules/export/restore.js';
import { findWorkspaceBySlug } from '../src/modules/workspaces/repository.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { memberWithPassword, PASSWORD, signedIn, type Browser } from './studio-helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('comments in an export (%s)', (dialect) => {
  let env: TestEnv;
  /** Other databases: a restore keeps ids, so it goes where the original is not. */
  let other: TestEnv;
  let third: TestEnv;
  let owner: Browser;
  let viewer: { id: number; email: string; browser: Browser };
  let slug: string;
  let dir: string;
  const ids: Record<string, string> = {};
  const out = () => path.join(dir, `x-${randomBytes(3).toString('hex')}`);
  const copyName = () => `${slug}-copy-${randomBytes(2).toString('hex')}`;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    other = await createTestEnv(dialect);
    third = await createTestEnv(dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-export-comments-'));
    const s = await seedWorkspace(env.ctx, { locales: ['en', 'de'] });
    slug = s.workspace.slug;
    await setPasswordForUser(env.ctx, s.user.id, PASSWORD);
    owner = await signedIn(env.app, s.user.email, s.workspace.id);
    const m = await memberWithPassword(env.ctx, slug, 'viewer');
    viewer = { ...m, browser: await signedIn(env.app, m.email, s.workspace.id) };
    const ok = async (res: Promise<{ status: number; body: any }>, status = 201) => {
      const r = await res;
      expect(r.status, JSON.stringify(r.body)).toBe(status);
      return r.body.data;
    };
    await ok(
      owner.call('POST', `${M}/content-types`, { body: { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text', localizable: true }] } }),
    );
    await ok(owner.call('POST', `${M}/content-types/post/entries`, { body: { slug: 'hello', data: { title: 'Hello' } } }));
    await ok(owner.call('POST', `${M}/pages`, { body: { slug: 'home' } }));
    const url = `${M}/content-types/post/entries/hello/comments`;
    ids.thread = (await ok(viewer.browser.call('POST', url, { body: { body: `@${s.user.email} is this right?`, field: 'title', locale: 'de' } }))).id;
    ids.reply = (await ok(owner.call('POST', url, { body: { body: `Yes, @${viewer.email}`, parent_id: ids.thread } }))).id;
    await ok(owner.call('PATCH', `${M}/comments/${ids.thread}`, { body: { resolved: true } }), 200);
    ids.page = (await ok(owner.call('POST', `${M}/pages/home/comments`, { body: { body: 'Needs a hero' } }))).id;
  });
  afterAll(async () => {
    await env?.close();
    await other?.close();
    await third?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restores threads, anchors, resolved state, authors and mentions, and notifies no one', async () => {
    const target = out();
    const exported = await exportWorkspace(env.ctx, { workspace: slug, out: target, withUsers: true });
    expect(exported.counts.comments).toBe(3);
    const manifest = JSON.parse(fs.readFileSync(path.join(target, 'manifest.json'), 'utf8'));
    expect(manifest.version).toBe(5);

    const copy = copyName();
    const restored = await restoreWorkspaceExport(other.ctx, { source: target, workspace: copy });
    expect(restored.counts.comments).toBe(3);
    const ws = (await findWorkspaceBySlug(other.ctx.db, copy))!;
    const people = await other.ctx.db.kysely.selectFrom('users').select(['id', 'email']).execute();
    const idOf = (email: string) => Number(people.find((p) => p.email === email)!.id);
    const ownerEmail = (await env.ctx.db.kysely.selectFrom('users').select('email').where('id', '!=', viewer.id).executeTakeFirstOrThrow()).email;
    const rows = await other.ctx.db.kysely.selectFrom('comments').selectAll().where('workspace_id', '=', ws.id).orderBy('id').execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids.thread)).toMatchObject({ field: 'title', locale: 'de', parent_id: null, author_id: idOf(viewer.email), resolved_by: idOf(ownerEmail) });
    expect(byId.get(ids.thread)!.resolved_at).not.toBeNull();
    expect(byId.get(ids.reply)).toMatchObject({ parent_id: ids.thread, field: 'title', locale: 'de', author_id: idOf(ownerEmail) });
    expect(byId.get(ids.page)).toMatchObject({ item_kind: 'page', entry_id: null });
    const mentions = await other.ctx.db.kysely.selectFrom('comment_mentions').selectAll().where('comment_id', 'in', [ids.thread, ids.reply]).execute();
    expect(mentions.map((m) => [m.comment_id, Number(m.user_id)]).sort()).toEqual(
      [
        [ids.thread, idOf(ownerEmail)],
        [ids.reply, idOf(viewer.email)],
      ].sort(),
    );
    expect(await other.ctx.db.kysely.selectFrom('notifications').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
  });

  it('restores comments without authors when the export holds no members', async () => {
    const target = out();
    await exportWorkspace(env.ctx, { workspace: slug, out: target, withUsers: false });
    const copy = copyName();
    await restoreWorkspaceExport(third.ctx, { source: target, workspace: copy });
    const ws = (await findWorkspaceBySlug(third.ctx.db, copy))!;
    const rows = await third.ctx.db.kysely.selectFrom('comments').select(['author_id', 'resolved_by']).where('workspace_id', '=', ws.id).execute();
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.author_id === null && r.resolved_by === null)).toBe(true);
  });

  it('refuses an export whose comments the API could not have made, and restores nothing', async () => {
    const target = out();
    await exportWorkspace(env.ctx, { workspace: slug, out: target, withUsers: true });
    const file = path.join(target, 'comments.ndjson');
    const manifestFile = path.join(target, 'manifest.json');
    const lines = fs
      .readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const rewrite = (rows: Record<string, unknown>[]) => {
      const text = rows.map((r) => `${JSON.stringify(r)}\n`).join('');
      fs.writeFileSync(file, text);
      // The manifest's hash is recomputed as a hostile author would.
      const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
      manifest.files['comments.ndjson'] = { bytes: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
      fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    };
    const db = await createTestEnv(dialect);
    const refused = async (message: RegExp) => {
      const copy = copyName();
      await expect(restoreWorkspaceExport(db.ctx, { source: target, workspace: copy })).rejects.toMatchObject({
        errors: [{ message: expect.stringMatching(message) }],
      });
      expect(await findWorkspaceBySlug(db.ctx.db, copy)).toBeNull();
    };
    try {
      // A reply whose thread is about another item.
      rewrite(lines.map((r) => (r.id === ids.page ? { ...r, parent_id: ids.thread } : r)));
      await refused(/comments\.ndjson line \d+: parent_id .* names no thread of the same item/);
      // A comment about an entry that names none.
      rewrite(lines.map((r) => (r.id === ids.reply ? { ...r, entry_id: null } : r)));
      await refused(/comments\.ndjson line \d+: a comment is about exactly the entry/);
      // A comment about an entry of no workspace of this export.
      rewrite(lines.map((r) => (r.id === ids.reply ? { ...r, entry_id: '01234567-89ab-7def-8123-456789abcdef' } : r)));
      await refused(/comments\.ndjson line \d+: entry_id .* names no entry of this export/);
    } finally {
      await db.close();
    }
  });
});
