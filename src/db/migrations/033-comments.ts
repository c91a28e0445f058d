/**
 * Comments on entries and pages (docs/workflow.md "Comments").
 *
 * - `comments`: one row per comment. Exactly one of `entry_id` / `page_id` is set; both reference
 *   their item with ON DELETE CASCADE, so deleting an entry or page (or its content type, or the
 *   workspace) deletes its comments. `parent_id` names the thread's first comment of a reply
 *   (one level: a reply answers a top-level comment), also ON DELETE CASCADE: replies go with
 *   their parent. `field` / `locale` anchor a comment to a field path and locale (null: the whole
 *   item). `resolved_at` / `resolved_by` are set on a thread's first comment only. `edited_at`:
 *   when the body last changed after it was written (null: never).
 * - `comment_mentions`: the members a comment mentions (`@email`), gone with the comment or the
 *   person.
 *
 * Authors and resolvers are kept as user ids with ON DELETE SET NULL: a comment outlives its
 * author's account.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('item_kind', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.references('entries.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.references('pages.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('field', 'text')
    .addColumn('locale', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .execute();
  // An item's comments, oldest first; a thread's replies; the workspace's (export).
  await db.schema.createIndex('comments_entry').on('comments').columns(['entry_id', 'created_at']).execute();
  await db.schema.createIndex('comments_page').on('comments').columns(['page_id', 'created_at']).execute();
  await db.schema.createIndex('comments_parent').on('comments').column('parent_id').execute();
  await db.schema.createIndex('comments_workspace').on('comments').column('workspace_id').execute();

  await db.schema
    .createTable('comment_mentions')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('comment_mentions_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema.createIndex('comment_mentions_user').on('comment_mentions').column('user_id').execute();
}
