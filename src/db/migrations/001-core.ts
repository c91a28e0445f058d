/**
 * Core tables: workspaces, users, memberships, API keys, content types, fields, entries and their
 * translations, media records, idempotency records and installation settings.
 */
import { sql, type ColumnDefinitionBuilder, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  const serialPk = dialect === 'postgres' ? 'serial' : 'integer';
  const now = (b: ColumnDefinitionBuilder) => b.notNull();

  await db.schema
    .createTable('workspaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('default_locale', 'text', (c) => c.notNull())
    .addColumn('locales', json, (c) => c.notNull())
    .addColumn('created_at', 'text', now)
    .addColumn('updated_at', 'text', now)
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', serialPk, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text')
    .addColumn('created_at', 'text', now)
    .execute();

  await db.schema
    .createTable('memberships')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', now)
    .addColumn('updated_at', 'text', now)
    .addPrimaryKeyConstraint('memberships_pk', ['workspace_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key_class', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_hint', 'text', (c) => c.notNull())
    .addColumn('scopes', json, (c) => c.notNull())
    .addColumn('environment', 'text')
    .addColumn('content_types', json, (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', now)
    .execute();

  await db.schema
    .createTable('content_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('display_field', 'text')
    .addColumn('is_block', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('orderable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', now)
    .addColumn('updated_at', 'text', now)
    .addUniqueConstraint('content_types_workspace_slug', ['workspace_id', 'slug'])
    .execute();

  await db.schema
    .createTable('fields')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('content_type_id', 'text', (c) => c.notNull().references('content_types.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('field_type', 'text', (c) => c.notNull())
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_unique', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('localizable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('filterable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sortable', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('options', 'text')
    .addColumn('validation', 'text')
    .addColumn('created_at', 'text', now)
    .addColumn('updated_at', 'text', now)
    .addUniqueConstraint('fields_content_type_name', ['content_type_id', 'name'])
    .execute();

  await db.schema
    .createTable('entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('content_type_id', 'text', (c) => c.notNull().references('content_types.id'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('data', json, (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('publish_at', 'text')
    .addColumn('published_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', now)
    .addColumn('updated_at', 'text', now)
    .addColumn('created_by', 'integer')
    .addColumn('updated_by', 'integer')
    .addUniqueConstraint('entries_content_type_slug', ['content_type_id', 'slug'])
    .execute();
  await db.schema.createIndex('entries_type_created').on('entries').columns(['content_type_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('entries_type_position').on('entries').columns(['content_type_id', 'position', 'id']).execute();
  await db.schema.createIndex('entries_type_updated').on('entries').columns(['content_type_id', 'updated_at', 'id']).execute();
  await db.schema.createIndex('entries_type_published').on('entries').columns(['content_type_id', 'published_at', 'id']).execute();
  await db.schema.createIndex('entries_workspace_slug').on('entries').columns(['workspace_id', 'slug']).execute();
  await db.schema.createIndex('entries_status_publish_at').on('entries').columns(['status', 'publish_at']).execute();

  await db.schema
    .createTable('entry_translations')
    .addColumn('id', serialPk, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('entry_id', 'text', (c) => c.notNull().references('entries.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('data', json, (c) => c.notNull())
    .addColumn('created_at', 'text', now)
    .addColumn('updated_at', 'text', now)
    .addUniqueConstraint('entry_translations_entry_locale', ['entry_id', 'locale'])
    .execute();

  await db.schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('storage_key', 'text')
    .addColumn('mime_type', 'text', (c) => c.notNull())
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .addColumn('alt_text', 'text')
    .addColumn('focal_x', 'real')
    .addColumn('focal_y', 'real')
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('original_name', 'text', (c) => c.notNull())
    .addColumn('folder', 'text')
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('uploaded_by', 'integer')
    .addColumn('created_at', 'text', now)
    .addColumn('updated_at', 'text', now)
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('media_workspace_folder').on('media').columns(['workspace_id', 'folder', 'created_at']).execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('idem_key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response', 'text')
    .addColumn('created_at', 'text', now)
    .addColumn('expires_at', 'text', now)
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'idem_key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();

  await db.schema
    .createTable('settings')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
