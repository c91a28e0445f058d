/**
 * Reading notifications (docs/workflow.md "Notifications"): `GET /notifications` and
 * `POST /notifications/read`. A person reads and marks only their own, in the workspace of the
 * request; a management key reads its creator's (a key acts for its creator). Notifications are
 * created by notify (./record.ts) only.
 */
import type { Context } from '../../context.js';
import { invalid } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { offsetPage } from '../../lib/pagination.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import { peopleByIds } from '../comments/repository.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../delivery/cursor.js';
import { presentNotification, type Notification } from './model.js';
import { countUnread, listNotificationRows, markNotificationsRead, type Reader } from './repository.js';

/** The query of GET /notifications. */
export interface NotificationListQuery {
  unread?: boolean;
  limit?: number;
  cursor?: string;
}

function readerOf(actor: Actor): Reader {
  return { workspaceId: actor.workspaceId, userId: actor.userId };
}

/** What a notifications cursor is bound to: this person, workspace and filter. */
function binding(reader: Reader, unread: boolean): CursorBinding {
  return {
    contentTypeId: `${reader.workspaceId}:${reader.userId}`,
    sort: 'created_at:desc',
    filters: JSON.stringify({ unread }),
    locale: null,
    environment: 'notifications',
  };
}

/**
 * GET /notifications: the caller's notifications, newest first, one page (`limit`, default 10,
 * at most 100), `unread` only the unread ones; meta `{page_size, next_cursor, unread}` where
 * `unread` counts all the caller's unread ones. Cursors are signed and bound to the person and
 * the filter: another's answers 400 at `query.cursor`. Actors are read in one query per page.
 */
export async function listNotifications(
  ctx: Context,
  actor: Actor,
  q: NotificationListQuery,
): Promise<{ items: Notification[]; meta: { page_size: number; next_cursor: string | null; unread: number } }> {
  const reader = readerOf(actor);
  const unread = q.unread === true;
  const limit = offsetPage(1, q.limit).limit;
  const bound = binding(reader, unread);
  let after = null;
  if (q.cursor !== undefined) {
    const p = decodeCursor(ctx.secret, bound, q.cursor);
    if (typeof p.value !== 'string' || p.byRow) throw invalid('query.cursor', 'is not a valid cursor for this list; pass meta.next_cursor back unchanged');
    after = { createdAt: p.value, id: p.id };
  }
  // One row more than asked tells whether a next page exists.
  const rows = await listNotificationRows(ctx.db, reader, { unread, after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  const people = await peopleByIds(
    ctx.db,
    page.flatMap((r) => (r.actor_user_id === null ? [] : [Number(r.actor_user_id)])),
  );
  const items = page.map((r) => presentNotification({ ...r, actor_user_id: r.actor_user_id === null ? null : Number(r.actor_user_id) }, people));
  const last = page[page.length - 1];
  const next = rows.length > limit ? encodeCursor(ctx.secret, bound, { value: last.created_at, id: last.id }) : null;
  return { items, meta: { page_size: items.length, next_cursor: next, unread: await countUnread(ctx.db, reader) } };
}

/**
 * POST /notifications/read `{ids}` or `{all: true}`: marks the caller's unread notifications
 * read (ids of others', or unknown ids, change nothing); returns how many changed. 400 at
 * `body.ids.<i>` for an id that is not a uuid.
 */
export async function readNotifications(ctx: Context, actor: Actor, body: { ids: string[] } | { all: true }): Promise<{ read: number }> {
  let ids: string[] | 'all' = 'all';
  if ('ids' in body) {
    const bad = body.ids.findIndex((id) => !isUuid(id));
    if (bad >= 0) throw invalid(`body.ids.${bad}`, 'must be a notification id (uuid)');
    ids = body.ids.map((id) => id.toLowerCase());
  }
  return { read: await markNotificationsRead(ctx.db, readerOf(actor), ids, iso(ctx.clock())) };
}
