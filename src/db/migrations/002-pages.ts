/**
 * Pages and their block trees (docs/pages.md "The model"): pages with SEO and its translations,
 * blocks typed by a block type (a content type with is_block) with their translations.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  const serialPk = dialect === 'postgres' ? 'serial' : 'integer';
  const pk = (c: ColumnDefinitionBuilder) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement());
  const req = (c: ColumnDefinitionBuilder) => c.notNull();

  await db.schema
    .createTable('pages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('slug', 'text', req)
    .addColumn('status', 'text', req)
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seo', json, req)
    .addColumn('publish_at', 'text')
    .addColumn('published_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', req)
    .addColumn('updated_at', 'text', req)
    .addColumn('created_by', 'integer')
    .addColumn('updated_by', 'integer')
    .addUniqueConstraint('pages_workspace_slug', ['workspace_id', 'slug'])
    .execute();
  await db.schema.createIndex('pages_workspace_position').on('pages').columns(['workspace_id', 'position', 'id']).execute();
  await db.schema.createIndex('pages_status_publish_at').on('pages').columns(['status', 'publish_at']).execute();

  await db.schema
    .createTable('page_seo_translations')
    .addColumn('id', serialPk, pk)
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('locale', 'text', req)
    .addColumn('seo', json, req)
    .addColumn('created_at', 'text', req)
    .addColumn('updated_at', 'text', req)
    .addUniqueConstraint('page_seo_translations_page_locale', ['page_id', 'locale'])
    .execute();

  await db.schema
    .createTable('blocks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('block_type_id', 'text', (c) => c.notNull().references('content_types.id'))
    .addColumn('parent_id', 'text', (c) => c.references('blocks.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('data', json, req)
    .addColumn('created_at', 'text', req)
    .addColumn('updated_at', 'text', req)
    .execute();
  await db.schema.createIndex('blocks_page_parent_position').on('blocks').columns(['page_id', 'parent_id', 'position']).execute();
  await db.schema.createIndex('blocks_block_type').on('blocks').columns(['block_type_id', 'page_id']).execute();

  await db.schema
    .createTable('block_translations')
    .addColumn('id', serialPk, pk)
    .addColumn('block_id', 'text', (c) => c.notNull().references('blocks.id').onDelete('cascade'))
    .addColumn('locale', 'text', req)
    .addColumn('data', json, req)
    .addColumn('created_at', 'text', req)
    .addColumn('updated_at', 'text', req)
    .addUniqueConstraint('block_translations_block_locale', ['block_id', 'locale'])
    .execute();
}
