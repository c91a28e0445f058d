/**
 * The shape of a notification on the wire (docs/workflow.md "Notifications" (D132)) and how a
 * stored row becomes one. Shared by the list (GET /notifications) and the Studio's event stream,
 * which pushes each new notification to its person.
 */
import type { NotificationsTable } from '../../db/types.js';

/** What a person is told about. */
export const NOTIFICATION_KINDS = ['assigned', 'mentioned', 'approval_requested', 'changes_requested', 'stage_changed', 'release_failed'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** A person as notifications, comments and workflows show them. */
export interface Person {
  id: number;
  email: string;
  name: string | null;
}

/** A notification as clients see it. */
export interface Notification {
  id: string;
  kind: NotificationKind;
  read: boolean;
  created_at: string;
  actor: Person | null;
  item: { kind: 'entry' | 'page'; id: string; content_type: string | null; slug: string | null; title: string | null } | null;
  release: { id: string; name: string | null } | null;
  comment_id: string | null;
  stage: { id: string; name: string } | null;
  message: string;
}

/** Reads a JSON column written by this module; null when absent or unreadable. */
function json<T>(text: string | null): T | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/** The wire form of `row`; `people` holds (at least) its actor. */
export function presentNotification(row: NotificationsTable, people: ReadonlyMap<number, Person>): Notification {
  const subject = json<{ content_type?: string | null; slug?: string | null; title?: string | null; name?: string | null }>(row.subject) ?? {};
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    read: row.read_at !== null,
    created_at: row.created_at,
    actor: row.actor_user_id === null ? null : (people.get(row.actor_user_id) ?? null),
    item:
      row.item_kind === null || row.item_id === null
        ? null
        : {
            kind: row.item_kind as 'entry' | 'page',
            id: row.item_id,
            content_type: subject.content_type ?? null,
            slug: subject.slug ?? null,
            title: subject.title ?? null,
          },
    release: row.release_id === null ? null : { id: row.release_id, name: subject.name ?? null },
    comment_id: row.comment_id,
    stage: json<{ id: string; name: string }>(row.stage),
    message: row.message,
  };
}
