/**
 * Comments on entries and pages (docs/workflow.md "Comments"): the rules of
 * `GET|POST {item}/comments`, `PATCH /comments/{id}` and `DELETE /comments/{id}`, and
 * `createComment`, which other writes (a workflow's stage move or change request) call inside
 * their own transaction.
 *
 * - Anyone who may read the item may comment on it, reply, resolve and reopen (viewers too; a key
 *   acts for its creator). Its text is changed by its author only; it is deleted by its author or
 *   by owners and admins (the one check: authorizeComment). An entry of a type the role may not
 *   read is answered 404, as everywhere.
 * - `field` anchors a comment to an entry's field, or a page's `title`, `slug`, `seo.<key>` or
 *   `blocks.<blockId>.<field>` (a block of the page's working copy, a field of its block type);
 *   `locale` to an enabled locale of the workspace. A wrong one is 400 at `body.field` /
 *   `body.locale`, naming the path or locale.
 * - Threads are one level deep: a reply to a reply answers its thread's first comment, and takes
 *   the thread's anchor. A thread is resolved and reopened on its first comment; replies show the
 *   thread's state, and a reply to a resolved thread reopens it.
 * - `@email` tokens naming members of the workspace become `mentions` and notify those members
 *   (kind `mentioned`); editing the text notifies only the people newly mentioned. Other tokens
 *   stay text.
 * - Every write is audit-logged (`comment.created|updated|resolved|reopened|deleted`) and recorded
 *   as Studio activity (`comment`, `{item, comment_id, action}`) in its transaction.
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/types.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import { recordActivity } from '../activity/record.js';
import { authorizeComment, canReadType } from '../access/authorize.js';
import { auditEntry, recordAudit } from '../audit/record.js';
import type { Actor } from '../auth/permissions.js';
import { entryDisplayValue, pageSeoTitle } from '../content-types/display.js';
import type { ContentType } from '../content-types/model.js';
import { findContentTypeById } from '../content-types/repository.js';
import { requireEntryType } from '../entries/operations.js';
import { findEntry } from '../entries/repository.js';
import { notify } from '../notifications/record.js';
import type { Person } from '../notifications/model.js';
import { SEO_KEYS } from '../pages/model.js';
import { findPage } from '../pages/repository.js';
import { findWorkspaceById } from '../workspaces/repository.js';
import {
  blockOfPageForComment,
  commentBodies,
  commentRowsByIds,
  deleteCommentRow,
  entryRowForComment,
  findCommentRow,
  insertCommentRow,
  listCommentRows,
  membersByEmail,
  mentionsOf,
  peopleByIds,
  replaceMentions,
  updateCommentRow,
  type CommentRow,
  type ItemKind,
} from './repository.js';

/** Longest comment text, in characters. */
export const MAX_COMMENT_LENGTH = 10_000;

/** A comment as clients see it. */
export interface Comment {
  id: string;
  item: { kind: ItemKind; id: string; content_type: string | null; slug: string };
  field: string | null;
  locale: string | null;
  parent_id: string | null;
  body: string;
  author: Person | null;
  mentions: Person[];
  resolved: boolean;
  resolved_by: Person | null;
  resolved_at: string | null;
  created_at: string;
  updated_at: string;
  edited: boolean;
}

/** What POST {item}/comments takes. */
export interface CommentInput {
  body: string;
  field?: string | null;
  locale?: string | null;
  parent_id?: string | null;
}

/** What PATCH /comments/{id} takes. */
export interface CommentPatch {
  body?: string;
  resolved?: boolean;
}

/** An item comments are about, loaded in the write's transaction. */
export interface CommentItem {
  kind: ItemKind;
  id: string;
  workspaceId: string;
  slug: string;
  /** An entry's content type; null for a page. */
  contentType: ContentType | null;
  /** What people call it (display field, SEO title), for notifications. */
  title: string | null;
}

/** How a write names an item it already found: `{kind, id}`. */
export interface ItemIdentity {
  kind: ItemKind;
  id: string;
}

type Ctx = Pick<Context, 'config' | 'log' | 'clock' | 'caches' | 'db'>;

function itemWire(item: CommentItem): Comment['item'] {
  return { kind: item.kind, id: item.id, content_type: item.contentType?.slug ?? null, slug: item.slug };
}

/** 404 for an entry or page that is absent or that `actor` may not read. */
function itemNotFound(kind: ItemKind, id: string): AppError {
  return notFound(`${kind} '${id}'`);
}

/**
 * Loads the item `{kind, id}` of `actor`'s workspace through `db`, or throws 404 when it is absent,
 * of another workspace, or of a content type `actor` may not read.
 */
export async function loadCommentItem(db: Db, actor: Actor, ref: ItemIdentity): Promise<CommentItem> {
  if (ref.kind === 'entry') {
    const row = await entryRowForComment(db, ref.id);
    if (!row || row.workspace_id !== actor.workspaceId) throw itemNotFound('entry', ref.id);
    const ct = await findContentTypeById(db, row.content_type_id);
    if (!ct || !canReadType(actor, ct.slug)) throw itemNotFound('entry', ref.id);
    return {
      kind: 'entry',
      id: row.id,
      workspaceId: row.workspace_id,
      slug: row.slug,
      contentType: ct,
      title: entryDisplayValue(row.data, ct.display_field) ?? null,
    };
  }
  const page = await findPage(db, actor.workspaceId, { id: ref.id });
  if (!page) throw itemNotFound('page', ref.id);
  return { kind: 'page', id: page.id, workspaceId: page.workspace_id, slug: page.slug, contentType: null, title: pageSeoTitle(page.seo) ?? null };
}

/**
 * The entry `entryRef` (its slug, or its id) of content type `typeSlug`, as the comment routes
 * name it: 404 when the type or entry is absent or the type unreadable for `actor`.
 */
export async function entryItem(ctx: Context, actor: Actor, typeSlug: string, entryRef: string): Promise<ItemIdentity> {
  const ct = await requireEntryType(ctx, actor, typeSlug);
  const entry =
    (await findEntry(ctx.db, ct.id, { slug: entryRef })) ?? (isUuid(entryRef) ? await findEntry(ctx.db, ct.id, { id: entryRef.toLowerCase() }) : null);
  if (!entry) throw notFound(`entry '${entryRef}' of content type '${ct.slug}'`);
  return { kind: 'entry', id: entry.id };
}

/** The page `pageRef` (its slug, or its id) of `actor`'s workspace: 404 when absent. */
export async function pageItem(ctx: Pick<Context, 'db'>, actor: Actor, pageRef: string): Promise<ItemIdentity> {
  const page =
    (await findPage(ctx.db, actor.workspaceId, { slug: pageRef })) ??
    (isUuid(pageRef) ? await findPage(ctx.db, actor.workspaceId, { id: pageRef.toLowerCase() }) : null);
  if (!page) throw notFound(`page '${pageRef}'`);
  return { kind: 'page', id: page.id };
}

/** The text of a comment, checked: 400 at `path` when blank or too long. Surrounding blanks are dropped. */
function checkBody(body: string, path: string): string {
  const text = body.trim();
  if (text.length === 0) throw invalid(path, 'must not be empty');
  if (text.length > MAX_COMMENT_LENGTH) throw invalid(path, `must be at most ${MAX_COMMENT_LENGTH} characters (got ${text.length})`);
  return text;
}

/** The field paths of a page besides its blocks'. */
const PAGE_PATHS = ['title', 'slug', ...SEO_KEYS.map((k) => `seo.${k}`)];

/** Checks `field` against the item's fields (see the module comment): 400 at `body.field` naming the path. */
async function checkField(db: Db, item: CommentItem, field: string): Promise<void> {
  if (item.kind === 'entry') {
    const ct = item.contentType!;
    if (ct.fields.some((f) => f.name === field)) return;
    const names = ct.fields.map((f) => f.name).join(', ');
    throw invalid('body.field', `'${field}' is not a field of content type '${ct.slug}'${names ? ` (fields: ${names})` : ''}`);
  }
  if (PAGE_PATHS.includes(field)) return;
  const parts = field.split('.');
  if (parts[0] === 'blocks' && parts.length === 3) {
    const [, blockId, name] = parts;
    const block = await blockOfPageForComment(db, item.id, blockId);
    if (!block) throw invalid('body.field', `'${field}': page '${item.slug}' has no block '${blockId}'`);
    const type = await findContentTypeById(db, block.block_type_id);
    if (type?.fields.some((f) => f.name === name)) return;
    throw invalid('body.field', `'${field}': block type '${type?.slug ?? block.block_type_id}' has no field '${name}'`);
  }
  throw invalid('body.field', `'${field}' is not a field path of a page: title, slug, seo.<${SEO_KEYS.join('|')}> or blocks.<block id>.<field>`);
}

/** Checks `locale` against the workspace's locales: 400 at `body.locale` naming it. */
async function checkLocale(db: Db, workspaceId: string, locale: string): Promise<void> {
  const ws = await findWorkspaceById(db, workspaceId);
  if (ws?.locales.includes(locale)) return;
  throw invalid('body.locale', `'${locale}' is not a locale of this workspace (${ws?.locales.join(', ') ?? 'none'})`);
}

/** `@email` tokens: an @ at the start or after a blank or opening bracket, then an address. */
const MENTION = /(^|[\s([{<"'])@([^\s@<>()[\]{},;:"']+@[^\s@<>()[\]{},;:"']+\.[^\s@<>()[\]{},;:"']+)/g;

/** The addresses `@email` tokens of `body` name (lower case, once each; trailing dots dropped). */
export function mentionedEmails(body: string): string[] {
  const out = new Set<string>();
  for (const m of body.matchAll(MENTION)) out.add(m[2].replace(/[.!?]+$/, '').toLowerCase());
  return [...out];
}

/** The members `body` mentions. */
async function mentionedMembers(db: Db, workspaceId: string, body: string): Promise<Person[]> {
  return membersByEmail(db, workspaceId, mentionedEmails(body));
}

/** The wire form of `rows` (all of one item, `item`): three queries (threads, mentions, people). */
async function present(db: Db, item: CommentItem, rows: readonly CommentRow[]): Promise<Comment[]> {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missingRoots = [...new Set(rows.flatMap((r) => (r.parent_id && !byId.has(r.parent_id) ? [r.parent_id] : [])))];
  for (const r of await commentRowsByIds(db, missingRoots)) byId.set(r.id, r);
  const mentions = await mentionsOf(
    db,
    rows.map((r) => r.id),
  );
  const root = (r: CommentRow) => (r.parent_id ? (byId.get(r.parent_id) ?? r) : r);
  const people = await peopleByIds(db, [
    ...rows.flatMap((r) => [r.author_id, root(r).resolved_by]).filter((id): id is number => id !== null),
    ...[...mentions.values()].flat(),
  ]);
  const person = (id: number | null) => (id === null ? null : (people.get(Number(id)) ?? null));
  return rows.map((r) => {
    const thread = root(r);
    return {
      id: r.id,
      item: itemWire(item),
      field: r.field,
      locale: r.locale,
      parent_id: r.parent_id,
      body: r.body,
      author: person(r.author_id),
      mentions: (mentions.get(r.id) ?? []).flatMap((id) => (people.has(id) ? [people.get(id)!] : [])),
      resolved: thread.resolved_at !== null,
      resolved_by: thread.resolved_at !== null ? person(thread.resolved_by) : null,
      resolved_at: thread.resolved_at,
      created_at: r.created_at,
      updated_at: r.updated_at,
      edited: r.edited_at !== null,
    };
  });
}

/** Records the write's activity (the Studio's streams) and audit row. */
async function recordCommentWrite(
  trx: Db,
  at: string,
  actor: Actor,
  item: CommentItem,
  commentId: string,
  action: 'created' | 'updated' | 'deleted',
  audit: 'created' | 'updated' | 'resolved' | 'reopened' | 'deleted',
  changedFields?: string[],
): Promise<void> {
  await recordActivity(trx, at, {
    workspaceId: item.workspaceId,
    type: 'comment',
    item: { kind: item.kind, id: item.id, contentType: item.contentType?.slug ?? null },
    data: { item: itemWire(item), comment_id: commentId, action },
  });
  await recordAudit(
    trx,
    auditEntry(item.workspaceId, at, actor, `comment.${audit}`, { kind: 'comment', id: commentId, slug: `${item.kind}:${item.slug}` }, changedFields),
  );
}

/** Notifies `people` that `actor` mentioned them in comment `commentId` on `item`. */
async function notifyMentions(trx: Db, ctx: Ctx, at: string, actor: Actor, item: CommentItem, commentId: string, people: readonly Person[]): Promise<void> {
  if (people.length === 0) return;
  await notify(trx, ctx, at, {
    workspaceId: item.workspaceId,
    kind: 'mentioned',
    recipients: people.map((p) => p.id),
    actorUserId: actor.userId > 0 ? actor.userId : null,
    item: { kind: item.kind, id: item.id, contentType: item.contentType?.slug ?? null, slug: item.slug, title: item.title },
    commentId,
    message: `mentioned you in a comment on "${item.title ?? item.slug}"`,
  });
}

/**
 * Writes a comment by `actor` on `item` (`{kind, id}` of an item the caller found in its
 * workspace) inside the caller's transaction `trx`: checks the text, anchor and parent, stores it
 * with its mentions, notifies the members mentioned, records activity and the audit row. Returns
 * the comment as clients see it. Errors: 404 for an item `actor` may not read or a parent of
 * another item; 400 VALIDATION_FAILED at `body.body`, `body.field`, `body.locale` or
 * `body.parent_id`. Rules: docs/workflow.md "Comments". Called by POST {item}/comments and by the
 * workflow's stage moves and change requests.
 */
export async function createComment(trx: Db, ctx: Ctx, actor: Actor, ref: ItemIdentity, input: CommentInput): Promise<Comment> {
  const item = await loadCommentItem(trx, actor, ref);
  const body = checkBody(input.body, 'body.body');
  let field = input.field ?? null;
  let locale = input.locale ?? null;
  let parentId: string | null = null;
  let reopens = false;
  if (input.parent_id !== undefined && input.parent_id !== null) {
    const parent = isUuid(input.parent_id) ? await findCommentRow(trx, item.workspaceId, input.parent_id.toLowerCase()) : null;
    const parentItem = parent ? (parent.item_kind === 'entry' ? parent.entry_id : parent.page_id) : null;
    if (!parent || parentItem !== item.id) throw invalid('body.parent_id', `'${input.parent_id}' is not a comment of this ${item.kind}`);
    const root = parent.parent_id === null ? parent : await findCommentRow(trx, item.workspaceId, parent.parent_id);
    if (!root) throw invalid('body.parent_id', `'${input.parent_id}' is not a comment of this ${item.kind}`);
    // A reply sits where its thread does.
    if (field !== null && field !== root.field)
      throw invalid('body.field', `a reply is anchored where its thread is (${root.field === null ? 'no field' : `'${root.field}'`})`);
    if (locale !== null && locale !== root.locale)
      throw invalid('body.locale', `a reply is anchored where its thread is (${root.locale === null ? 'no locale' : `'${root.locale}'`})`);
    parentId = root.id;
    field = root.field;
    locale = root.locale;
    reopens = root.resolved_at !== null;
  } else {
    if (field !== null) await checkField(trx, item, field);
    if (locale !== null) await checkLocale(trx, item.workspaceId, locale);
  }
  const at = iso(ctx.clock());
  const row: CommentRow = {
    id: newId(),
    workspace_id: item.workspaceId,
    item_kind: item.kind,
    entry_id: item.kind === 'entry' ? item.id : null,
    page_id: item.kind === 'page' ? item.id : null,
    parent_id: parentId,
    field,
    locale,
    body,
    author_id: actor.userId > 0 ? actor.userId : null,
    resolved_at: null,
    resolved_by: null,
    created_at: at,
    updated_at: at,
    edited_at: null,
  };
  await insertCommentRow(trx, row);
  const mentioned = await mentionedMembers(trx, item.workspaceId, body);
  await replaceMentions(
    trx,
    row.id,
    mentioned.map((p) => p.id),
  );
  await recordCommentWrite(trx, at, actor, item, row.id, 'created', 'created');
  if (reopens && parentId !== null) {
    // A reply to a resolved thread is a new question: the thread opens again, so it is not missed.
    await updateCommentRow(trx, parentId, { resolved_at: null, resolved_by: null, updated_at: at });
    await recordCommentWrite(trx, at, actor, item, parentId, 'updated', 'reopened', ['resolved']);
  }
  await notifyMentions(trx, ctx, at, actor, item, row.id, mentioned);
  const [comment] = await present(trx, item, [row]);
  return comment;
}

/** GET {item}/comments `?status=open|resolved|all` (default all): the item's comments, oldest first; replies follow their thread's state. */
export async function listComments(ctx: Context, actor: Actor, ref: ItemIdentity, status: 'open' | 'resolved' | 'all' = 'all'): Promise<Comment[]> {
  const item = await loadCommentItem(ctx.db, actor, ref);
  const comments = await present(ctx.db, item, await listCommentRows(ctx.db, item.kind, item.id));
  return status === 'all' ? comments : comments.filter((c) => c.resolved === (status === 'resolved'));
}

/** POST {item}/comments: createComment in a transaction of its own. */
export async function addComment(ctx: Context, actor: Actor, ref: ItemIdentity, input: CommentInput): Promise<Comment> {
  return withTransaction(ctx.db, (trx) => createComment(trx, ctx, actor, ref, input));
}

/** A comment of `actor`'s workspace and its item, or 404 (also when the item may not be read). */
async function loadComment(db: Db, actor: Actor, id: string): Promise<{ row: CommentRow; item: CommentItem }> {
  const row = isUuid(id) ? await findCommentRow(db, actor.workspaceId, id.toLowerCase()) : null;
  if (!row) throw notFound(`comment '${id}'`);
  const itemId = row.item_kind === 'entry' ? row.entry_id : row.page_id;
  try {
    return { row, item: await loadCommentItem(db, actor, { kind: row.item_kind as ItemKind, id: itemId! }) };
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') throw notFound(`comment '${id}'`);
    throw err;
  }
}

/**
 * PATCH /comments/{id} `{body?, resolved?}`: changes the text (its author only: 403 otherwise;
 * mentions follow the new text and only people newly mentioned are notified) and/or resolves or
 * reopens its thread (anyone who may read the item; a reply answers 400 at `body.resolved`: its
 * thread is resolved on its first comment). 404 for a comment of another workspace or of an item
 * `actor` may not read. Rules: docs/workflow.md "Comments".
 */
export async function updateComment(ctx: Context, actor: Actor, id: string, patch: CommentPatch): Promise<Comment> {
  return withTransaction(ctx.db, async (trx) => {
    const { row, item } = await loadComment(trx, actor, id);
    const at = iso(ctx.clock());
    const values: Partial<CommentRow> = {};
    let newlyMentioned: Person[] = [];
    if (patch.body !== undefined) {
      authorizeComment(actor, 'edit', row.author_id === null ? null : Number(row.author_id));
      const body = checkBody(patch.body, 'body.body');
      if (body !== row.body) {
        values.body = body;
        values.edited_at = at;
        const before = new Set((await mentionsOf(trx, [row.id])).get(row.id) ?? []);
        const mentioned = await mentionedMembers(trx, item.workspaceId, body);
        await replaceMentions(
          trx,
          row.id,
          mentioned.map((p) => p.id),
        );
        newlyMentioned = mentioned.filter((p) => !before.has(p.id));
      }
    }
    let resolution: 'resolved' | 'reopened' | null = null;
    if (patch.resolved !== undefined) {
      if (row.parent_id !== null) throw invalid('body.resolved', `a reply is resolved with its thread: resolve comment '${row.parent_id}'`);
      if (patch.resolved !== (row.resolved_at !== null)) {
        resolution = patch.resolved ? 'resolved' : 'reopened';
        values.resolved_at = patch.resolved ? at : null;
        values.resolved_by = patch.resolved && actor.userId > 0 ? actor.userId : null;
      }
    }
    if (Object.keys(values).length > 0) {
      values.updated_at = at;
      await updateCommentRow(trx, row.id, values);
      if (values.body !== undefined) await recordCommentWrite(trx, at, actor, item, row.id, 'updated', 'updated', ['body']);
      if (resolution) await recordCommentWrite(trx, at, actor, item, row.id, 'updated', resolution, ['resolved']);
      await notifyMentions(trx, ctx, at, actor, item, row.id, newlyMentioned);
    }
    const [comment] = await present(trx, item, [{ ...row, ...values }]);
    return comment;
  });
}

/**
 * DELETE /comments/{id}: deletes it and, for a thread's first comment, its replies. Its author,
 * or owners and admins (403 otherwise); 404 for a comment of another workspace or of an item
 * `actor` may not read. Rules: docs/workflow.md "Comments".
 */
export async function deleteComment(ctx: Context, actor: Actor, id: string): Promise<void> {
  await withTransaction(ctx.db, async (trx) => {
    const { row, item } = await loadComment(trx, actor, id);
    authorizeComment(actor, 'delete', row.author_id === null ? null : Number(row.author_id));
    const at = iso(ctx.clock());
    await recordCommentWrite(trx, at, actor, item, row.id, 'deleted', 'deleted');
    await deleteCommentRow(trx, row.id);
  });
}

/**
 * A restored workspace's mentions (docs/workflow.md "Comments"): read again from each comment's
 * text against the workspace's members as restored, since user ids differ between
 * installations. Notifies no one (a restore tells nothing new). Returns how many were stored.
 */
export async function restoreMentions(db: Db, workspaceId: string): Promise<number> {
  let count = 0;
  let after: string | null = null;
  for (;;) {
    const rows = await commentBodies(db, workspaceId, after, 500);
    for (const row of rows) {
      const people = await mentionedMembers(db, workspaceId, row.body);
      if (people.length === 0) continue;
      await replaceMentions(
        db,
        row.id,
        people.map((p) => p.id),
      );
      count += people.length;
    }
    if (rows.length < 500) return count;
    after = rows[rows.length - 1].id;
  }
}
