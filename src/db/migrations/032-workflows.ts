/**
 * Review workflows (docs/workflow.md "Workflows and stages", "Approvals", "The publish guard").
 *
 * - `workflows`: one row per workflow of a workspace. `stages` is the JSON array of
 *   `{id, name, required_approvals, roles}` in order (the first stage is where items start);
 *   `publish_stage` the id of the stage an item must be in to be published; `content_type_ids`
 *   the JSON array of the entry types it covers, `pages` whether it covers the pages (a type, or
 *   the pages, belong to at most one workflow: the operation checks it).
 * - `workflow_items`: an item's place in its workflow, when it has one stored (an item with none is
 *   in the first stage). Exactly one of `entry_id` / `page_id` is set; both reference their item
 *   with ON DELETE CASCADE, so deleting an entry or page (or its content type, or the workspace)
 *   drops its state, and deleting the workflow drops every item's state.
 * - `workflow_assignees`, `workflow_approvals`: people per item state, gone with it (and with the
 *   person). Approvals are of the current working copy: a content write deletes them.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('workflows')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type_ids', 'text', (c) => c.notNull())
    .addColumn('pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stages', 'text', (c) => c.notNull())
    .addColumn('publish_stage', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('workflows_workspace_name').on('workflows').columns(['workspace_id', 'name']).unique().execute();

  await db.schema
    .createTable('workflow_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('workflow_id', 'text', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('item_kind', 'text', (c) => c.notNull())
    .addColumn('entry_id', 'text', (c) => c.references('entries.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.references('pages.id').onDelete('cascade'))
    .addColumn('stage_id', 'text', (c) => c.notNull())
    .addColumn('stage_changed_at', 'text')
    .addColumn('stage_changed_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('workflow_items_entry').on('workflow_items').column('entry_id').unique().execute();
  await db.schema.createIndex('workflow_items_page').on('workflow_items').column('page_id').unique().execute();
  await db.schema.createIndex('workflow_items_workflow').on('workflow_items').columns(['workflow_id', 'stage_id']).execute();

  for (const table of ['workflow_assignees', 'workflow_approvals']) {
    await db.schema
      .createTable(table)
      .addColumn('workflow_item_id', 'text', (c) => c.notNull().references('workflow_items.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['workflow_item_id', 'user_id'])
      .execute();
    await db.schema.createIndex(`${table}_user`).on(table).columns(['user_id']).execute();
  }
}
