/**
 * Calls of comments on entries and pages (D131; docs/studio.md "Comments, notifications and who
 * else is here"). `item` is an entry's or page's path under /api/v1/manage (entryPath in
 * screens/entries/api.ts, pagePath in screens/pages/api.ts). A comment is anchored to a field
 * (`title`, `seo.description`, `blocks.<blockId>.<field>`) and, for a localized field, the locale
 * it was written in; replies name their thread's first comment as `parent_id`.
 */
import { useQuery } from '@tanstack/react-query';
import { useWsKey } from '../app/queries';
import { api } from './client';
import type { Person } from './types';
import type { Static } from '@sinclair/typebox';
import type { CommentSchema } from '../../../src/http/schemas/comments.js';

/** A person as comments and notifications show one. */
export type CommentPerson = Person;

/** A comment (GET {item}/comments); `author` is null once the account is deleted. */
export type Comment = Static<typeof CommentSchema>;
export type CommentItem = Comment['item'];

export interface NewComment {
  body: string;
  field?: string | null;
  locale?: string | null;
  parent_id?: string | null;
}

/** A person's name as the Studio shows it: the name, else the e-mail address; "Someone" for none (an API key, a deleted account). */
export const personName = (p: CommentPerson | null | undefined): string => (p ? p.name || p.email : 'Someone');

/** GET {item}/comments: all of the item's comments, oldest first. */
export async function listComments(item: string): Promise<Comment[]> {
  return (await api<Comment[]>(`${item}/comments`, { query: { status: 'all' } })).data;
}

export async function createComment(item: string, body: NewComment): Promise<Comment> {
  const sent = { body: body.body, field: body.field ?? undefined, locale: body.locale ?? undefined, parent_id: body.parent_id ?? undefined };
  return (await api<Comment>(`${item}/comments`, { method: 'POST', body: sent })).data;
}

/** PATCH /comments/{id}: a new body (its author only) or resolved / reopened (anyone who may comment). */
export async function updateComment(id: string, body: { body?: string; resolved?: boolean }): Promise<Comment> {
  return (await api<Comment>(`/comments/${encodeURIComponent(id)}`, { method: 'PATCH', body })).data;
}

/** DELETE /comments/{id}: its author, or an owner or admin; the replies go with it. */
export async function deleteComment(id: string): Promise<void> {
  await api<null>(`/comments/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The query key of an item's comments (invalidated by the event stream's `comment` frames). */
export const commentsKey = (item: string) => ['comments', item];

/**
 * An item's comments. Until the event stream refreshes them, they are read again every 30 s
 * while an editor is open.
 */
export function useItemComments(item: string | null, live = false) {
  const key = useWsKey();
  return useQuery({
    queryKey: key(...commentsKey(item ?? '')),
    queryFn: () => listComments(item!),
    enabled: item !== null,
    refetchInterval: live ? false : 30_000,
  });
}

/** The key a comment is counted under: its field and, for a localized field, its locale. */
export const anchorKey = (field: string | null, locale: string | null) => `${field ?? ''}\u0000${locale ?? ''}`;

/** The number of open threads (first comments not resolved) per anchor. */
export function openCounts(comments: readonly Comment[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const c of comments) {
    if (c.parent_id !== null || c.resolved) continue;
    const k = anchorKey(c.field, c.locale);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

export interface Thread {
  root: Comment;
  replies: Comment[];
}

/** Threads in the order their first comments were written (newest last), replies oldest first. */
export function threadsOf(comments: readonly Comment[]): Thread[] {
  const byId = new Map<string, Thread>();
  const out: Thread[] = [];
  const sorted = [...comments].sort((a, b) => a.created_at.localeCompare(b.created_at));
  for (const c of sorted) {
    if (c.parent_id === null) {
      const t = { root: c, replies: [] };
      byId.set(c.id, t);
      out.push(t);
    }
  }
  for (const c of sorted) if (c.parent_id !== null) byId.get(c.parent_id)?.replies.push(c);
  return out;
}
