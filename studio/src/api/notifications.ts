/**
 * Calls of the signed-in person's notifications (D132; docs/studio.md "Comments, notifications and
 * who else is here"): the newest first with the unread count, and marking them read.
 */
import { api } from './client';
import type { Static } from '@sinclair/typebox';
import type { NotificationSchema } from '../../../src/http/schemas/notifications.js';

/** A notification (GET /notifications): `message` is one sentence shown after the actor's name. */
export type StudioNotification = Static<typeof NotificationSchema>;
export type NotificationKind = StudioNotification['kind'];

export interface NotificationList {
  items: StudioNotification[];
  unread: number;
}

/** GET /notifications: the newest `limit`, and how many are unread in all. */
export async function listNotifications(limit = 20): Promise<NotificationList> {
  const res = await api<StudioNotification[], { unread: number; next_cursor: string | null }>('/notifications', { query: { limit } });
  return { items: res.data, unread: res.meta?.unread ?? res.data.filter((n) => !n.read).length };
}

/** POST /notifications/read: the given ones, or all of the person's. */
export async function markNotificationsRead(which: { ids: string[] } | { all: true }): Promise<number> {
  return (await api<{ read: number }>('/notifications/read', { method: 'POST', body: which })).data.read;
}

/**
 * Where a notification leads in the Studio: its entry's or page's editor (with `?comment=<id>` when
 * it is about a comment: the editor opens the comment panel on its thread), or its release; null for none.
 */
export function notificationLink(workspace: string, n: Pick<StudioNotification, 'item' | 'release'> & { comment_id?: string | null }): string | null {
  const comment = n.comment_id ? `?comment=${encodeURIComponent(n.comment_id)}` : '';
  if (n.item?.kind === 'entry' && n.item.content_type)
    return `/${workspace}/content/${encodeURIComponent(n.item.content_type)}/${encodeURIComponent(n.item.slug ?? n.item.id)}${comment}`;
  if (n.item?.kind === 'page' && n.item.slug) return `/${workspace}/pages/${encodeURIComponent(n.item.slug)}${comment}`;
  if (n.release) return `/${workspace}/releases/${encodeURIComponent(n.release.id)}`;
  return null;
}
