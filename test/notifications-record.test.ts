/**
 * Creating notifications and Studio activity (docs/workflow.md "Notifications" (D132), "Who else
 * is here" (D133); src/modules/notifications/record.ts, src/modules/activity/record.ts): rows for
 * the people told, never the actor or non-members, one activity row per person, nothing when the
 * write rolls back, and one e-mail per notification after the commit when SMTP is configured.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import { notify } from '../src/modules/notifications/record.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { startSmtp, type TestSmtp } from './smtp.js';
import { setPasswordForUser } from '../src/modules/auth/sessions.js';
import { memberWithPassword, PASSWORD, signedIn } from './studio-helpers.js';

describe.each(dialects())('notify on %s', (dialect) => {
  let env: TestEnv;
  let smtp: TestSmtp;
  let ws: Awaited<ReturnType<typeof seedWorkspace>>;
  let other: Awaited<ReturnType<typeof seedWorkspace>>;
  let author: { id: number; email: string };
  let reviewer: { id: number; email: string };
  let outsider: { id: number; email: string };
  const at = new Date('2026-11-29T12:00:00.000Z');

  beforeAll(async () => {
    smtp = await startSmtp();
    env = await createTestEnv(dialect, { config: { smtpUrl: smtp.url, smtpFrom: 'Quire Test <studio@quire.test>' } });
    ws = await seedWorkspace(env.ctx);
    other = await seedWorkspace(env.ctx);
    author = await memberWithPassword(env.ctx, ws.workspace.slug, 'author');
    reviewer = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    outsider = await memberWithPassword(env.ctx, other.workspace.slug, 'editor');
  });
  afterAll(async () => {
    await env?.close();
    await smtp?.close();
  });

  const rowsOf = (userId: number) => env.ctx.db.kysely.selectFrom('notifications').selectAll().where('user_id', '=', userId).execute();
  const activityOf = (userId: number) =>
    env.ctx.db.kysely.selectFrom('activity').selectAll().where('workspace_id', '=', ws.workspace.id).where('user_id', '=', userId).execute();

  it('tells the recipients who are members, not the actor, once each, and e-mails each after the commit', async () => {
    const ids = await withTransaction(env.ctx.db, (trx) =>
      notify(trx, env.ctx, at, {
        workspaceId: ws.workspace.id,
        kind: 'changes_requested',
        recipients: [author.id, author.id, reviewer.id, outsider.id],
        actorUserId: reviewer.id,
        item: { kind: 'entry', id: 'e1', contentType: 'post', slug: 'hello', title: 'Hello world' },
        stage: { id: 's1', name: 'Review' },
        message: 'requested changes on "Hello world"',
      }),
    );
    expect(ids).toHaveLength(1);
    const [row] = await rowsOf(author.id);
    expect(row).toMatchObject({ kind: 'changes_requested', actor_user_id: reviewer.id, item_id: 'e1', read_at: null, workspace_id: ws.workspace.id });
    expect(await rowsOf(reviewer.id)).toHaveLength(0);
    expect(await rowsOf(outsider.id)).toHaveLength(0);
    const activity = await activityOf(author.id);
    expect(activity).toHaveLength(1);
    const data = JSON.parse(activity[0].data) as { notification: Record<string, unknown> };
    expect(data.notification).toMatchObject({
      id: row.id,
      kind: 'changes_requested',
      read: false,
      actor: { id: reviewer.id, email: reviewer.email },
      item: { kind: 'entry', id: 'e1', content_type: 'post', slug: 'hello', title: 'Hello world' },
      stage: { id: 's1', name: 'Review' },
    });
    const [mail] = await smtp.waitFor(1);
    expect(mail.to).toEqual([author.email]);
    expect(mail.data).toContain('requested changes on "Hello world"');
    expect(mail.data).toContain(`http://quire.test/studio/${ws.workspace.slug}/content/post/e1`);
  });

  it('tells no one whose role may not read the item (a notification names it)', async () => {
    smtp.messages.length = 0;
    await setPasswordForUser(env.ctx, ws.user.id, PASSWORD);
    const owner = await signedIn(env.app, ws.user.email, ws.workspace.id);
    for (const slug of ['news', 'post'])
      expect(
        (await owner.call('POST', '/api/v1/manage/content-types', { body: { name: slug, slug, fields: [{ name: 'title', field_type: 'text' }] } })).status,
      ).toBe(201);
    const role = await owner.call('POST', '/api/v1/manage/roles', {
      body: { name: 'News only', permissions: [{ resource: 'entries', actions: ['read', 'update'], content_types: ['news'] }] },
    });
    expect(role.status, JSON.stringify(role.body)).toBe(201);
    const limited = await memberWithPassword(env.ctx, ws.workspace.slug, 'editor');
    expect((await owner.call('PATCH', `/api/v1/manage/users/${limited.id}`, { body: { role: 'News only' } })).status).toBe(200);
    const tell = (item: { kind: 'entry' | 'page'; id: string; contentType?: string }) =>
      withTransaction(env.ctx.db, (trx) =>
        notify(trx, env.ctx, at, {
          workspaceId: ws.workspace.id,
          kind: 'mentioned',
          recipients: [limited.id, author.id],
          actorUserId: reviewer.id,
          item,
          message: 'mentioned you',
        }),
      );
    // A post: the author is told, the person limited to news is not.
    expect(await tell({ kind: 'entry', id: 'p1', contentType: 'post' })).toHaveLength(1);
    expect((await rowsOf(limited.id)).length).toBe(0);
    // News: both. A page: the role has no pages, so only the author.
    expect(await tell({ kind: 'entry', id: 'n1', contentType: 'news' })).toHaveLength(2);
    expect(await tell({ kind: 'page', id: 'home' })).toHaveLength(1);
    expect((await rowsOf(limited.id)).map((r) => r.item_id)).toEqual(['n1']);
    // One e-mail per notification: the author's three and the news one.
    expect((await smtp.waitFor(4)).filter((m) => m.to.includes(limited.email))).toHaveLength(1);
  });

  it('tells no one of a write that rolls back', async () => {
    smtp.messages.length = 0;
    const before = (await rowsOf(author.id)).length;
    await expect(
      withTransaction(env.ctx.db, async (trx) => {
        await notify(trx, env.ctx, at, {
          workspaceId: ws.workspace.id,
          kind: 'assigned',
          recipients: [author.id],
          actorUserId: reviewer.id,
          message: 'assigned you',
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await rowsOf(author.id)).toHaveLength(before);
    await new Promise((r) => setTimeout(r, 200));
    expect(smtp.messages).toHaveLength(0);
  });
});
