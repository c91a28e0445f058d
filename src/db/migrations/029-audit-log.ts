/**
 * The audit log (docs/access.md "Audit log" (D122)): one row per management write, sign-in
 * (success and failure), sign-out, key, membership, invitation, settings, webhook, release,
 * export and restore action, inserted in the same transaction as the change
 * (src/modules/audit/record.ts). Rows are never updated; only the retention prune deletes them.
 *
 * - `workspace_id`: the workspace the action touched; '' (not null) for installation-wide rows
 *   (sign-in, sign-out, password changes), which a workspace's list shows when their target is one
 *   of its members: an equality, unlike IS NULL, lets PostgreSQL walk an index in (at, id) order.
 *   No foreign key: the log outlives what it names.
 * - `actor_*`: who did it (`user`, `key` or `system`), the id and label (email or key name) it
 *   had then, and `actor_user_id` (the person; for a key its creator).
 * - `target_*`: what it was done to (kind, id, slug or name as it was then).
 * - `ip`, `user_agent`, `request_id`: the request that did it, null for the CLI and jobs.
 * - `changed_fields`: a JSON array of the top-level field names an update changed, never values.
 *
 * Indexes serve the list's filters (each within a workspace, newest first), the installation-wide
 * rows about people (newest first), and the prune and export (by time).
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_type', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_label', 'text')
    .addColumn('actor_user_id', 'integer')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('target_slug', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('request_id', 'text')
    .addColumn('changed_fields', 'text')
    .execute();
  const index = (name: string, columns: string[]) => db.schema.createIndex(name).on('audit_log').columns(columns).execute();
  // Each filter's index ends in (at, id), the list's order, so a page is an ordered walk that stops at its limit.
  await index('audit_log_workspace_at', ['workspace_id', 'at', 'id']);
  await index('audit_log_workspace_action', ['workspace_id', 'action', 'at', 'id']);
  await index('audit_log_workspace_actor', ['workspace_id', 'actor_type', 'actor_id', 'at', 'id']);
  await index('audit_log_workspace_target', ['workspace_id', 'target_kind', 'target_id', 'at', 'id']);
  await index('audit_log_at', ['at', 'id']);
}
