/**
 * Comments on entries and pages (docs/workflow.md "Comments"; src/modules/comments/), on every
 * dialect: create, list, edit, resolve and reopen, delete; anchors (field paths of entries and
 * pages, locales: 400 naming the path); replies (one level, anchored with their thread, deleted
 * with it); who may do what (a viewer comments and resolves, nobody edits another's text, only
 * the author, owners and admins delete, a key acts for its creator); mentions (members notified
 * and e-mailed, other tokens left as text); deleting the item deletes its comments; audit rows
 * and Studio activity for each write.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { withTransaction } from '../src/db/transaction.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createComment, mentionedEmails } from '../src/modules/comments/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type Res, type TestEnv } from './helpers.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import { memberWithPassword, PASSWORD, signedIn, type Browser } from './studio-helpers.js';

const M = '/api/v1/manage';

describe('mention tokens', () => {
  it('reads @email tokens, once each, without trailing punctuation, and not inside other words', () => {
    expect(mentionedEmails('@Ann@Example.com, please look (cc @bob@example.org). mail@example.com is not one')).toEqual(['ann@example.com', 'bob@example.org']);
    expect(mentionedEmails('no @mentions here, @ann@example.com! and @ann@example.com again')).toEqual(['ann@example.com']);
  });
});

describe.each(dialects())('comments (%s)', (dialect) => {
  let env: TestEnv;
  let smtp: TestSmtp;
  let wsId: string;
  let ownerKey: string;
  let owner: Browser;
  const people: Record<'viewer' | 'editor' | 'author' | 'admin', { id: number; email: string; browser: Browser }> = {} as never;
  let blockId: string;
  let pageId: string;

  const ownerReq = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    call(env.app, method, `${M}${url}`, { key: ownerKey, body });
  const as = (who: keyof typeof people, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    people[who].browser.call(method, `${M}${url}`, { body });
  const created = (res: Res) => {
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const paths = (res: Res) => expectError(res, 400, 'VALIDATION_FAILED').errors as { path: string; message: string }[];

  beforeAll(async () => {
    smtp = await startSmtp();
    env = await createTestEnv(dialect, { config: { smtpUrl: smtp.url, smtpFrom: 'Quire Test <studio@quire.test>' } });
    const s = await seedWorkspace(env.ctx, { locales: ['en', 'de'] });
    wsId = s.workspace.id;
    ownerKey = s.keys.management;
    await setPasswordForUser(env.ctx, s.user.id, PASSWORD);
    owner = await signedIn(env.app, s.user.email, wsId);
    for (const role of ['viewer', 'editor', 'author', 'admin'] as const) {
      const m = await memberWithPassword(env.ctx, s.workspace.slug, role);
      people[role] = { ...m, browser: await signedIn(env.app, m.email, wsId) };
    }
    created(
      await ownerReq('POST', '/content-types', {
        name: 'Post',
        slug: 'post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text', localizable: true },
          { name: 'body', field_type: 'textarea' },
        ],
      }),
    );
    created(await ownerReq('POST', '/content-types', { name: 'Hero', slug: 'hero', is_block: true, fields: [{ name: 'headline', field_type: 'text' }] }));
    created(await ownerReq('POST', '/content-types/post/entries', { slug: 'hello', data: { title: 'Hello world' } }));
    created(await ownerReq('POST', '/content-types/post/entries', { slug: 'other', data: { title: 'Other' } }));
    pageId = created(await ownerReq('POST', '/pages', { slug: 'home', seo: { title: 'Home' }, blocks: [{ type: 'hero', data: { headline: 'Hi' } }] })).id;
    blockId = (await ownerReq('GET', '/pages/home')).body.data.blocks[0].id;
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  it('creates, lists, edits and deletes a comment on an entry, with the Comment shape', async () => {
    const c = created(await as('editor', 'POST', '/content-types/post/entries/hello/comments', { body: '  Needs a better intro.  ' }));
    const entry = (await ownerReq('GET', '/content-types/post/entries/hello')).body.data;
    expect(c).toMatchObject({
      item: { kind: 'entry', id: entry.id, content_type: 'post', slug: 'hello' },
      field: null,
      locale: null,
      parent_id: null,
      body: 'Needs a better intro.',
      author: { id: people.editor.id, email: people.editor.email },
      mentions: [],
      resolved: false,
      resolved_by: null,
      resolved_at: null,
      edited: false,
    });
    expect(Object.keys(c).sort()).toEqual(
      [
        'author',
        'body',
        'created_at',
        'edited',
        'field',
        'id',
        'item',
        'locale',
        'mentions',
        'parent_id',
        'resolved',
        'resolved_at',
        'resolved_by',
        'updated_at',
      ].sort(),
    );
    // The entry by its id works as well as by its slug.
    const list = await as('viewer', 'GET', `/content-types/post/entries/${entry.id}/comments`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(c.id);

    const edited = await as('editor', 'PATCH', `/comments/${c.id}`, { body: 'Needs a shorter intro.' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data).toMatchObject({ body: 'Needs a shorter intro.', edited: true });

    expectError(await as('editor', 'POST', '/content-types/post/entries/hello/comments', { body: '   ' }), 400, 'VALIDATION_FAILED');
    expect(paths(await as('editor', 'POST', '/content-types/post/entries/hello/comments', { body: 'x'.repeat(10_001) }))[0].path).toBe('body.body');
    expectError(await as('editor', 'POST', '/content-types/post/entries/missing/comments', { body: 'Hi' }), 404, 'NOT_FOUND');

    expect((await as('editor', 'DELETE', `/comments/${c.id}`)).status).toBe(200);
    expectError(await as('editor', 'PATCH', `/comments/${c.id}`, { body: 'again' }), 404, 'NOT_FOUND');
  });

  it('anchors comments to field paths and locales, and names the path of a wrong one', async () => {
    const onField = created(await as('viewer', 'POST', '/content-types/post/entries/hello/comments', { body: 'Typo', field: 'title', locale: 'de' }));
    expect(onField).toMatchObject({ field: 'title', locale: 'de' });
    let errors = paths(await as('viewer', 'POST', '/content-types/post/entries/hello/comments', { body: 'x', field: 'subtitle' }));
    expect(errors).toEqual([{ path: 'body.field', message: expect.stringContaining("'subtitle' is not a field of content type 'post'") }]);
    errors = paths(await as('viewer', 'POST', '/content-types/post/entries/hello/comments', { body: 'x', locale: 'fr' }));
    expect(errors).toEqual([{ path: 'body.locale', message: expect.stringContaining("'fr' is not a locale") }]);

    for (const field of ['title', 'slug', 'seo.description', `blocks.${blockId}.headline`]) {
      expect(created(await as('viewer', 'POST', '/pages/home/comments', { body: 'ok', field })).field).toBe(field);
    }
    errors = paths(await as('viewer', 'POST', '/pages/home/comments', { body: 'x', field: `blocks.${blockId}.subline` }));
    expect(errors[0]).toMatchObject({ path: 'body.field', message: expect.stringContaining(`'blocks.${blockId}.subline'`) });
    errors = paths(await as('viewer', 'POST', '/pages/home/comments', { body: 'x', field: 'blocks.00000000-0000-4000-8000-000000000000.headline' }));
    expect(errors[0]).toMatchObject({ path: 'body.field', message: expect.stringContaining('has no block') });
    errors = paths(await as('viewer', 'POST', '/pages/home/comments', { body: 'x', field: 'seo.author' }));
    expect(errors[0]).toMatchObject({ path: 'body.field', message: expect.stringContaining("'seo.author'") });
    // The page by its id.
    expect((await as('viewer', 'GET', `/pages/${pageId}/comments`)).body.data.length).toBe(4);
  });

  it('threads replies one level deep, anchored with their thread, and deletes them with it', async () => {
    const root = created(await as('editor', 'POST', '/pages/home/comments', { body: 'Hero too long', field: `blocks.${blockId}.headline` }));
    const reply = created(await as('author', 'POST', '/pages/home/comments', { body: 'Shortened', parent_id: root.id }));
    expect(reply).toMatchObject({ parent_id: root.id, field: `blocks.${blockId}.headline`, locale: null });
    const nested = created(await as('viewer', 'POST', '/pages/home/comments', { body: 'Thanks', parent_id: reply.id }));
    expect(nested.parent_id).toBe(root.id);
    expect(paths(await as('viewer', 'POST', '/pages/home/comments', { body: 'x', parent_id: root.id, field: 'title' }))[0].path).toBe('body.field');
    expect(paths(await as('viewer', 'POST', '/content-types/post/entries/hello/comments', { body: 'x', parent_id: root.id }))[0].path).toBe('body.parent_id');

    expect((await as('editor', 'DELETE', `/comments/${root.id}`)).status).toBe(200);
    const left = (await as('viewer', 'GET', '/pages/home/comments')).body.data.map((c: { id: string }) => c.id);
    expect(left).not.toContain(reply.id);
    expect(left).not.toContain(nested.id);
  });

  it('resolves and reopens threads (anyone who may comment), and filters by status', async () => {
    created(await ownerReq('POST', '/content-types/post/entries', { slug: 'threads', data: { title: 'Threads' } }));
    const url = '/content-types/post/entries/threads/comments';
    const open = created(await as('editor', 'POST', url, { body: 'Still open' }));
    const done = created(await as('editor', 'POST', url, { body: 'Will be resolved' }));
    const reply = created(await as('author', 'POST', url, { body: 'Fixed', parent_id: done.id }));

    const resolved = await as('viewer', 'PATCH', `/comments/${done.id}`, { resolved: true });
    expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
    expect(resolved.body.data).toMatchObject({ resolved: true, resolved_by: { id: people.viewer.id }, edited: false });
    expect(resolved.body.data.resolved_at).toEqual(expect.any(String));
    expect(paths(await as('viewer', 'PATCH', `/comments/${reply.id}`, { resolved: true }))[0].path).toBe('body.resolved');

    const ids = async (status: string) => (await as('viewer', 'GET', `${url}?status=${status}`)).body.data.map((c: { id: string }) => c.id);
    expect(await ids('open')).toEqual([open.id]);
    expect(await ids('resolved')).toEqual([done.id, reply.id]);
    expect(await ids('all')).toEqual([open.id, done.id, reply.id]);
    const all = (await as('viewer', 'GET', url)).body.data;
    expect(all.find((c: { id: string }) => c.id === reply.id)).toMatchObject({ resolved: true, resolved_by: { id: people.viewer.id } });
    expectError(await as('viewer', 'GET', `${url}?status=closed`), 400, 'VALIDATION_FAILED');

    const reopened = await as('author', 'PATCH', `/comments/${done.id}`, { resolved: false });
    expect(reopened.body.data).toMatchObject({ resolved: false, resolved_by: null, resolved_at: null });
    expect(await ids('resolved')).toEqual([]);

    // A reply to a resolved thread reopens it.
    expect((await as('viewer', 'PATCH', `/comments/${open.id}`, { resolved: true })).body.data.resolved).toBe(true);
    const late = created(await as('author', 'POST', url, { body: 'One more thing', parent_id: open.id }));
    expect(late.resolved).toBe(false);
    expect(await ids('resolved')).toEqual([]);
    expect(await ids('open')).toEqual([open.id, done.id, reply.id, late.id]);
  });

  it('lets only the author change the text, and the author, owners and admins delete', async () => {
    const c = created(await as('viewer', 'POST', '/content-types/post/entries/hello/comments', { body: 'A viewer may comment' }));
    let b = expectError(await as('editor', 'PATCH', `/comments/${c.id}`, { body: 'Hijacked' }), 403, 'FORBIDDEN');
    expect(b.message).toMatch(/author/);
    expectError(await as('admin', 'PATCH', `/comments/${c.id}`, { body: 'Hijacked' }), 403, 'FORBIDDEN');
    b = expectError(await as('editor', 'DELETE', `/comments/${c.id}`), 403, 'FORBIDDEN');
    expect(b.message).toMatch(/owners and admins/);
    expectError(await as('author', 'DELETE', `/comments/${c.id}`), 403, 'FORBIDDEN');
    expect((await as('viewer', 'GET', '/content-types/post/entries/hello/comments')).body.data.find((x: { id: string }) => x.id === c.id).body).toBe(
      'A viewer may comment',
    );

    // A key acts for its creator: the viewer's key edits the viewer's comment.
    const key = (await createApiKey(env.ctx, wsId, people.viewer.id, { keyClass: 'management', name: 'viewer key' })).key;
    const byKey = await call(env.app, 'PATCH', `${M}/comments/${c.id}`, { key, body: { body: 'Edited by my key' } });
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(200);
    const keyComment = created(await call(env.app, 'POST', `${M}/content-types/post/entries/hello/comments`, { key, body: { body: 'From a key' } }));
    expect(keyComment.author.id).toBe(people.viewer.id);

    expect((await as('admin', 'DELETE', `/comments/${c.id}`)).status).toBe(200);
    expect((await owner.call('DELETE', `${M}/comments/${keyComment.id}`)).status).toBe(200);
  });

  it('answers 404 for a comment of another workspace', async () => {
    const c = created(await as('viewer', 'POST', '/content-types/post/entries/hello/comments', { body: 'Mine' }));
    const other = await seedWorkspace(env.ctx);
    expectError(await call(env.app, 'PATCH', `${M}/comments/${c.id}`, { key: other.keys.management, body: { resolved: true } }), 404, 'NOT_FOUND');
    expectError(await call(env.app, 'DELETE', `${M}/comments/${c.id}`, { key: other.keys.management }), 404, 'NOT_FOUND');
  });

  it('turns @email of members into mentions that notify and e-mail them; other tokens stay text', async () => {
    smtp.messages.length = 0;
    const body = `@${people.admin.email.toUpperCase()} and @${people.editor.email}: see this. @nobody@example.com too`;
    const c = created(await as('editor', 'POST', '/content-types/post/entries/hello/comments', { body }));
    expect(c.body).toBe(body);
    expect(c.mentions.map((p: { id: number }) => p.id).sort()).toEqual([people.admin.id, people.editor.id].sort());
    const rows = await env.ctx.db.kysely.selectFrom('notifications').selectAll().where('comment_id', '=', c.id).execute();
    // The author mentioned themself: only the admin is told.
    expect(rows.map((r) => Number(r.user_id))).toEqual([people.admin.id]);
    expect(rows[0]).toMatchObject({ kind: 'mentioned', item_kind: 'entry', message: 'mentioned you in a comment on "Hello world"' });
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual([people.admin.email]);
    expect(mail.data).toContain('mentioned you in a comment on "Hello world"');

    // Editing the text notifies only the people newly mentioned.
    const edited = await as('editor', 'PATCH', `/comments/${c.id}`, { body: `${body} and @${people.viewer.email}` });
    expect(edited.body.data.mentions).toHaveLength(3);
    const after = await env.ctx.db.kysely.selectFrom('notifications').selectAll().where('comment_id', '=', c.id).execute();
    expect(after.map((r) => Number(r.user_id)).sort()).toEqual([people.admin.id, people.viewer.id].sort());
  });

  it("writes a comment inside another write's transaction (createComment), and nothing of it when that write rolls back", async () => {
    const entry = (await ownerReq('GET', '/content-types/post/entries/hello')).body.data;
    const actor = systemActor(wsId, people.author.id);
    const c = await withTransaction(env.ctx.db, (trx) =>
      createComment(trx, env.ctx, actor, { kind: 'entry', id: entry.id }, { body: 'From a stage move', field: 'title' }),
    );
    expect(c).toMatchObject({ field: 'title', author: { id: people.author.id }, item: { kind: 'entry', slug: 'hello' } });
    const before = await env.ctx.db.kysely.selectFrom('comments').select('id').execute();
    const told = async () => (await env.ctx.db.kysely.selectFrom('notifications').select('id').where('user_id', '=', people.admin.id).execute()).length;
    const toldBefore = await told();
    await expect(
      withTransaction(env.ctx.db, async (trx) => {
        await createComment(trx, env.ctx, actor, { kind: 'entry', id: entry.id }, { body: `@${people.admin.email} rolled back` });
        throw new Error('the move failed');
      }),
    ).rejects.toThrow('the move failed');
    expect(await env.ctx.db.kysely.selectFrom('comments').select('id').execute()).toHaveLength(before.length);
    expect(await told()).toBe(toldBefore);
    // An item of another workspace is not found.
    const other = await seedWorkspace(env.ctx);
    await expect(
      withTransaction(env.ctx.db, (trx) =>
        createComment(trx, env.ctx, systemActor(other.workspace.id, other.user.id), { kind: 'entry', id: entry.id }, { body: 'x' }),
      ),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('records an audit row and Studio activity for each comment write', async () => {
    const c = created(await as('author', 'POST', '/pages/home/comments', { body: 'Audited' }));
    await as('author', 'PATCH', `/comments/${c.id}`, { body: 'Audited!', resolved: true });
    await as('author', 'DELETE', `/comments/${c.id}`);
    const audit = await env.ctx.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id'])
      .where('target_id', '=', c.id)
      .orderBy('at')
      .orderBy('action')
      .execute();
    expect(audit.map((a) => a.action).sort()).toEqual(['comment.created', 'comment.deleted', 'comment.resolved', 'comment.updated']);
    expect(audit.every((a) => Number(a.actor_user_id) === people.author.id)).toBe(true);
    const activity = await env.ctx.db.kysely
      .selectFrom('activity')
      .selectAll()
      .where('workspace_id', '=', wsId)
      .where('type', '=', 'comment')
      .where('item_id', '=', pageId)
      .execute();
    const mine = activity.map((a) => JSON.parse(a.data) as { comment_id: string; action: string }).filter((d) => d.comment_id === c.id);
    expect(mine.map((d) => d.action)).toEqual(['created', 'updated', 'updated', 'deleted']);
  });

  it('answers 404 for the comments of an entry whose type the role may not read', async () => {
    const role = await owner.call('POST', `${M}/roles`, { body: { name: 'Pages only', permissions: [{ resource: 'pages', actions: ['read'] }] } });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const m = await memberWithPassword(
      env.ctx,
      (await env.ctx.db.kysely.selectFrom('workspaces').select('slug').where('id', '=', wsId).executeTakeFirstOrThrow()).slug,
      'viewer',
    );
    expect((await owner.call('PATCH', `${M}/users/${m.id}`, { body: { role: role.body.data.id } })).status).toBe(200);
    const narrow = await signedIn(env.app, m.email, wsId);
    const c = created(await as('editor', 'POST', '/content-types/post/entries/hello/comments', { body: 'Hidden from pages-only people' }));
    expectError(await narrow.call('GET', `${M}/content-types/post/entries/hello/comments`), 404, 'NOT_FOUND');
    expectError(await narrow.call('POST', `${M}/content-types/post/entries/hello/comments`, { body: { body: 'x' } }), 404, 'NOT_FOUND');
    expectError(await narrow.call('PATCH', `${M}/comments/${c.id}`, { body: { resolved: true } }), 404, 'NOT_FOUND');
    expect((await narrow.call('GET', `${M}/pages/home/comments`)).status).toBe(200);
  });

  it('deletes an item’s comments with the item', async () => {
    const entry = created(await ownerReq('POST', '/content-types/post/entries', { slug: 'doomed', data: { title: 'Doomed' } }));
    const c = created(await as('viewer', 'POST', '/content-types/post/entries/doomed/comments', { body: 'Bye' }));
    created(await as('viewer', 'POST', '/content-types/post/entries/doomed/comments', { body: 'Reply', parent_id: c.id }));
    expect((await ownerReq('DELETE', '/content-types/post/entries/doomed')).status).toBe(200);
    const left = await env.ctx.db.kysely.selectFrom('comments').select('id').where('entry_id', '=', entry.id).execute();
    expect(left).toEqual([]);
    expectError(await as('viewer', 'PATCH', `/comments/${c.id}`, { resolved: true }), 404, 'NOT_FOUND');

    const page = created(await ownerReq('POST', '/pages', { slug: 'gone' }));
    created(await as('viewer', 'POST', '/pages/gone/comments', { body: 'Bye' }));
    expect((await ownerReq('DELETE', '/pages/gone')).status).toBe(200);
    expect(await env.ctx.db.kysely.selectFrom('comments').select('id').where('page_id', '=', page.id).execute()).toEqual([]);
  });

  it('deletes a workspace’s comments with the workspace', async () => {
    const other = await seedWorkspace(env.ctx);
    const key = other.keys.management;
    created(await call(env.app, 'POST', `${M}/pages`, { key, body: { slug: 'p' } }));
    const c = created(await call(env.app, 'POST', `${M}/pages/p/comments`, { key, body: { body: 'Going' } }));
    await env.ctx.db.kysely.deleteFrom('workspaces').where('id', '=', other.workspace.id).execute();
    expect(await env.ctx.db.kysely.selectFrom('comments').select('id').where('id', '=', c.id).execute()).toEqual([]);
  });
});
