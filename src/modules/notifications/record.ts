/**
 * Creating notifications (docs/workflow.md "Notifications" (D132)): the one way any operation
 * tells people something (assigned, mentioned, approval requested, changes requested, stage
 * changed, release failed). Inside the writing transaction it stores one row per person and one
 * Studio activity row per person (their open Studios show it at once, src/modules/activity/); after
 * the commit, when SMTP_URL is set, it e-mails each person (./email.ts). A rolled-back write tells
 * no one.
 *
 * Who is told is the caller's rule; this module only drops the person who acted (nobody is told
 * of their own action), duplicates, people who are no longer members of the workspace, and people
 * whose role may not read the item (a notification names it: a custom role limited to some
 * content types, or without pages, hears nothing of the others).
 */
import type { Context } from '../../context.js';
import { canReadType, decideItem, effectiveScopes } from '../access/authorize.js';
import { rolesOfWorkspace } from '../access/repository.js';
import { SCOPES, type Actor } from '../auth/permissions.js';
import type { Db, NotificationsTable } from '../../db/types.js';
import { afterCommit } from '../../db/transaction.js';
import { newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import { recordActivity } from '../activity/record.js';
import { sendNotificationEmails, type NotificationEmail } from './email.js';
import { presentNotification, type NotificationKind, type Person } from './model.js';

/** What notify reads of the context: settings and logger (e-mail), the role rows (who may read the item). */
export type NotifyContext = Pick<Context, 'config' | 'log' | 'caches' | 'db'>;

/** One thing to tell some people. */
export interface NotificationInput {
  workspaceId: string;
  kind: NotificationKind;
  /** User ids of the people to tell (the actor and non-members are dropped). */
  recipients: readonly number[];
  /** The person who acted; null for the system (a scheduled release). */
  actorUserId: number | null;
  /** The entry or page it is about, with what it is called now (kept: the item may be deleted later). */
  item?: { kind: 'entry' | 'page'; id: string; contentType?: string | null; slug?: string | null; title?: string | null } | null;
  release?: { id: string; name: string } | null;
  commentId?: string | null;
  stage?: { id: string; name: string } | null;
  /** One plain sentence, e.g. `moved "Summer sale" to Review`. Shown after the actor's name. */
  message: string;
}

/**
 * Tells `input.recipients` inside the write's transaction `trx` (call inside withTransaction);
 * e-mails them after the commit when SMTP is configured. Returns the ids of the notifications
 * stored (one per person told).
 */
export async function notify(trx: Db, ctx: NotifyContext, at: Date | string, input: NotificationInput): Promise<string[]> {
  const wanted = [...new Set(input.recipients)].filter((id) => id !== input.actorUserId);
  if (wanted.length === 0) return [];
  const members = await trx.kysely
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.name', 'memberships.role'])
    .where('memberships.workspace_id', '=', input.workspaceId)
    .where('memberships.user_id', 'in', wanted)
    .execute();
  if (input.item) {
    const item = input.item;
    const roles = await rolesOfWorkspace({ ...ctx, db: trx }, input.workspaceId);
    const readable = members.filter((m) => {
      // The person as the one permission check sees them in a Studio session.
      const person: Actor = {
        keyId: `notify:${m.id}`,
        keyClass: 'management',
        workspaceId: input.workspaceId,
        userId: Number(m.id),
        role: m.role,
        keyScopes: new Set(SCOPES),
        scopes: effectiveScopes(SCOPES, m.role, roles),
        environment: null,
        contentTypes: [],
        roles,
      };
      if (item.kind === 'entry') return item.contentType ? canReadType(person, item.contentType) : true;
      return decideItem(person, { resource: 'pages', action: 'read' }) === null;
    });
    members.splice(0, members.length, ...readable);
  }
  if (members.length === 0) return [];
  const people = new Map<number, Person>(members.map((m) => [Number(m.id), { id: Number(m.id), email: m.email, name: m.name }]));
  if (input.actorUserId !== null) {
    const actor = await trx.kysely.selectFrom('users').select(['id', 'email', 'name']).where('id', '=', input.actorUserId).executeTakeFirst();
    if (actor) people.set(Number(actor.id), { id: Number(actor.id), email: actor.email, name: actor.name });
  }
  const createdAt = typeof at === 'string' ? at : iso(at);
  const subject = input.item
    ? { content_type: input.item.contentType ?? null, slug: input.item.slug ?? null, title: input.item.title ?? null }
    : input.release
      ? { name: input.release.name }
      : null;
  const rows: NotificationsTable[] = wanted
    .filter((id) => people.has(id) && members.some((m) => Number(m.id) === id))
    .map((userId) => ({
      id: newId(),
      workspace_id: input.workspaceId,
      user_id: userId,
      kind: input.kind,
      actor_user_id: input.actorUserId,
      item_kind: input.item?.kind ?? null,
      item_id: input.item?.id ?? null,
      release_id: input.release?.id ?? null,
      comment_id: input.commentId ?? null,
      stage: input.stage ? JSON.stringify({ id: input.stage.id, name: input.stage.name }) : null,
      subject: subject === null ? null : JSON.stringify(subject),
      message: input.message,
      created_at: createdAt,
      read_at: null,
    }));
  await trx.kysely.insertInto('notifications').values(rows).execute();
  for (const row of rows) {
    await recordActivity(trx, createdAt, {
      workspaceId: input.workspaceId,
      type: 'notification',
      item: input.item ? { kind: input.item.kind, id: input.item.id, contentType: input.item.contentType ?? null } : null,
      userId: row.user_id,
      data: { notification: presentNotification(row, people) },
    });
  }
  if (ctx.config.smtpUrl) {
    const workspace = await trx.kysely.selectFrom('workspaces').select('slug').where('id', '=', input.workspaceId).executeTakeFirst();
    const emails: NotificationEmail[] = rows.map((row) => ({
      to: people.get(row.user_id)!.email,
      notification: presentNotification(row, people),
      workspaceSlug: workspace?.slug ?? '',
    }));
    // After the commit, unawaited: the request that acted does not wait for an SMTP server.
    afterCommit(trx, () => void sendNotificationEmails(ctx, emails));
  }
  return rows.map((r) => r.id);
}
