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
import { memberWithPassword } from './studio-helpers.js';

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
