/**
 * Releases (docs/releases.md; D110–D113): changes to entries and pages grouped to go live together.
 *
 * - `releases`: one row per release of a workspace; `status` is `open`, `scheduled`, `published`
 *   or `failed`; `publish_at` the scheduled time (null unless scheduled), `published_at` when it
 *   went live; `failure` the JSON array of `{path, message}` reasons of the last failed scheduled
 *   publication (null otherwise); `reverted_at` when its revert was published.
 * - `release_items`: what a release does to one entry or page: `action` `publish` or
 *   `unpublish`; a `publish` item holds its release version (variant) in `snapshot`, the same
 *   JSON snapshot the item's history keeps (entries: data and translations; pages: SEO, SEO
 *   translations, blocks, block translations), copied from the working copy when added
 *   (`base_version`: the history version it was copied from). `prior_*` record what the item was
 *   before the release was published (its status, publication time and published version), and
 *   `result_version` the version the release published, so a revert can put back exactly that
 *   and tell which items were published again since.
 * - `entry_versions.release_id`, `page_versions.release_id`: the release a `publish` version came
 *   from (null for every other version).
 *
 * Rows go with their workspace; items with their release. Deleting an entry or page removes it
 * from every release (its items go with it, see src/modules/releases/repository.ts).
 */
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  await db.schema
    .createTable('releases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('publish_at', 'text')
    .addColumn('published_at', 'text')
    .addColumn('reverted_at', 'text')
    .addColumn('failure', json)
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('releases_workspace').on('releases').columns(['workspace_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('releases_due').on('releases').columns(['status', 'publish_at']).execute();

  await db.schema
    .createTable('release_items')
    .addColumn('release_id', 'text', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('item_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('base_version', 'integer', (c) => c.notNull())
    .addColumn('snapshot', json)
    .addColumn('prior_status', 'text')
    .addColumn('prior_published_at', 'text')
    .addColumn('prior_published_version', 'integer')
    .addColumn('result_version', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addPrimaryKeyConstraint('release_items_pk', ['release_id', 'kind', 'item_id'])
    .execute();
  await db.schema.createIndex('release_items_item').on('release_items').columns(['kind', 'item_id']).execute();

  await db.schema.alterTable('entry_versions').addColumn('release_id', 'text').execute();
  await db.schema.alterTable('page_versions').addColumn('release_id', 'text').execute();
}
