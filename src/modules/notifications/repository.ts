/**
 * SQL of reading notifications (docs/workflow.md "Notifications"): one person's page, newest
 * first by (created_at, id) keyset, their unread count, and marking read. Every statement is
 * bound to the person and the workspace: nobody reads or marks another's.
 */
import type { Db, NotificationsTable } from '../../db/types.js';

/** Who is reading: a person in a workspace. */
export interface Reader {
  workspaceId: string;
  userId: number;
}

/** Where a page resumes: after this row (newest first). */
export interface NotificationPosition {
  createdAt: string;
  id: string;
}

/** Up to `limit` of the reader's notifications after `after`, newest first; `unread` only those not read. */
export async function listNotificationRows(
  db: Db,
  reader: Reader,
  opts: { unread: boolean; after: NotificationPosition | null; limit: number },
): Promise<NotificationsTable[]> {
  let q = db.kysely.selectFrom('notifications').selectAll().where('user_id', '=', reader.userId).where('workspace_id', '=', reader.workspaceId);
  if (opts.unread) q = q.where('read_at', 'is', null);
  if (opts.after) {
    const { createdAt, id } = opts.after;
    q = q.where((eb) => eb.or([eb('created_at', '<', createdAt), eb.and([eb('created_at', '=', createdAt), eb('id', '<', id)])]));
  }
  return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(opts.limit).execute();
}

/** How many of the reader's notifications are unread. */
export async function countUnread(db: Db, reader: Reader): Promise<number> {
  const row = await db.kysely
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', reader.userId)
    .where('workspace_id', '=', reader.workspaceId)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Marks the reader's unread notifications read (those of `ids`, or all); returns how many changed. */
export async function markNotificationsRead(db: Db, reader: Reader, ids: readonly string[] | 'all', at: string): Promise<number> {
  if (ids !== 'all' && ids.length === 0) return 0;
  let q = db.kysely
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', reader.userId)
    .where('workspace_id', '=', reader.workspaceId)
    .where('read_at', 'is', null);
  if (ids !== 'all') q = q.where('id', 'in', [...ids]);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
