/**
 * SQL of comments (docs/workflow.md "Comments"; migration 033): comment rows, their mentions, and
 * the people they name. A list of an item's comments is three statements whatever its length
 * (comments, mentions, people).
 */
import type { CommentsTable, Db } from '../../db/types.js';
import type { Person } from '../notifications/model.js';

export type CommentRow = CommentsTable;
export type ItemKind = 'entry' | 'page';

const itemColumn = (kind: ItemKind) => (kind === 'entry' ? 'entry_id' : 'page_id');

/** Every comment of one item, oldest first (ties by id, which grows with time). */
export async function listCommentRows(db: Db, kind: ItemKind, itemId: string): Promise<CommentRow[]> {
  return db.kysely.selectFrom('comments').selectAll().where(itemColumn(kind), '=', itemId).orderBy('created_at').orderBy('id').execute();
}

/** One comment of the workspace, or null. */
export async function findCommentRow(db: Db, workspaceId: string, id: string): Promise<CommentRow | null> {
  return (await db.kysely.selectFrom('comments').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst()) ?? null;
}

/** The comments with these ids (a thread's first comments, for replies' resolved state). */
export async function commentRowsByIds(db: Db, ids: readonly string[]): Promise<CommentRow[]> {
  if (ids.length === 0) return [];
  return db.kysely
    .selectFrom('comments')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
}

export async function insertCommentRow(db: Db, row: CommentRow): Promise<void> {
  await db.kysely.insertInto('comments').values(row).execute();
}

export async function updateCommentRow(db: Db, id: string, values: Partial<Omit<CommentRow, 'id'>>): Promise<void> {
  await db.kysely.updateTable('comments').set(values).where('id', '=', id).execute();
}

/** Deletes a comment; its replies and mentions go with it (ON DELETE CASCADE). */
export async function deleteCommentRow(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('comments').where('id', '=', id).execute();
}

/** The ids of a comment's replies. */
export async function replyIds(db: Db, parentId: string): Promise<string[]> {
  return (await db.kysely.selectFrom('comments').select('id').where('parent_id', '=', parentId).execute()).map((r) => r.id);
}

/** The mentioned user ids of these comments, by comment id. */
export async function mentionsOf(db: Db, commentIds: readonly string[]): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>();
  if (commentIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('comment_mentions')
    .select(['comment_id', 'user_id'])
    .where('comment_id', 'in', [...commentIds])
    .orderBy('user_id')
    .execute();
  for (const r of rows) out.set(r.comment_id, [...(out.get(r.comment_id) ?? []), Number(r.user_id)]);
  return out;
}

/** Makes a comment's mentions exactly `userIds`. */
export async function replaceMentions(db: Db, commentId: string, userIds: readonly number[]): Promise<void> {
  await db.kysely.deleteFrom('comment_mentions').where('comment_id', '=', commentId).execute();
  if (userIds.length > 0)
    await db.kysely
      .insertInto('comment_mentions')
      .values(userIds.map((user_id) => ({ comment_id: commentId, user_id })))
      .execute();
}

/** Members of the workspace whose e-mail (compared in lower case) is one of `emails`. */
export async function membersByEmail(db: Db, workspaceId: string, emails: readonly string[]): Promise<Person[]> {
  if (emails.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .select(['users.id', 'users.email', 'users.name'])
    .where('memberships.workspace_id', '=', workspaceId)
    .where((eb) =>
      eb(
        eb.fn('lower', ['users.email']),
        'in',
        emails.map((e) => e.toLowerCase()),
      ),
    )
    .execute();
  return rows.map((r) => ({ id: Number(r.id), email: r.email, name: r.name }));
}

/** The people with these ids (absent ids are left out), in one query. */
export async function peopleByIds(db: Db, ids: readonly number[]): Promise<Map<number, Person>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('users').select(['id', 'email', 'name']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [Number(r.id), { id: Number(r.id), email: r.email, name: r.name }]));
}

/**
 * Sets the parent of a reply restored without one (a restore inserts comments before their
 * parents may exist): only to a thread's first comment of the same item and workspace. Returns
 * false when `parentId` names no such comment.
 */
export async function linkReply(db: Db, workspaceId: string, id: string, parentId: string): Promise<boolean> {
  const parent = await db.kysely
    .selectFrom('comments')
    .select(['entry_id', 'page_id', 'parent_id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', parentId)
    .executeTakeFirst();
  const reply = await db.kysely
    .selectFrom('comments')
    .select(['entry_id', 'page_id'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!parent || !reply || parent.parent_id !== null || parent.entry_id !== reply.entry_id || parent.page_id !== reply.page_id || id === parentId) return false;
  await db.kysely.updateTable('comments').set({ parent_id: parentId }).where('id', '=', id).execute();
  return true;
}

/** The id and text of every comment of the workspace, `limit` at a time after `afterId` (id order). */
export async function commentBodies(db: Db, workspaceId: string, afterId: string | null, limit: number): Promise<{ id: string; body: string }[]> {
  let q = db.kysely.selectFrom('comments').select(['id', 'body']).where('workspace_id', '=', workspaceId);
  if (afterId !== null) q = q.where('id', '>', afterId);
  return q.orderBy('id').limit(limit).execute();
}

/** What a comment needs of an entry (any workspace: the caller checks it), or undefined. */
export async function entryRowForComment(
  db: Db,
  id: string,
): Promise<{ id: string; workspace_id: string; content_type_id: string; slug: string; data: unknown } | undefined> {
  return db.kysely.selectFrom('entries').select(['id', 'workspace_id', 'content_type_id', 'slug', 'data']).where('id', '=', id).executeTakeFirst();
}

/** The block type of block `blockId` of page `pageId`'s working copy, or undefined. */
export async function blockOfPageForComment(db: Db, pageId: string, blockId: string): Promise<{ block_type_id: string } | undefined> {
  return db.kysely.selectFrom('blocks').select(['block_type_id']).where('page_id', '=', pageId).where('id', '=', blockId).executeTakeFirst();
}
