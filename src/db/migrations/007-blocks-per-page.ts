/**
 * Block ids are unique within their page, no longer across the installation (issue 8: no
 * oracle). A client may name a new block with any uuid; before, a uuid held by a block of
 * another workspace was refused ("belongs to another page"), which told the client that the id
 * exists elsewhere. Now `blocks` is keyed by (page_id, id), its parent reference is (page_id,
 * parent_id), and `block_translations` carries its page: (page_id, block_id) references the
 * block, unique per locale. The published copies were keyed this way by migration 005.
 *
 * Both tables are rebuilt (SQLite cannot change a primary key in place; one path serves both
 * databases): new tables are created and filled, the old ones dropped, the new ones renamed, and
 * the revision triggers of migration 005 recreated with block translations reaching their
 * workspace through their own page id. Translation ids (integers) are kept.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';
import { createRevisionTriggers, PATHS } from './005-versions.js';

/** Migration 005's trigger paths, with block translations reaching their page directly. */
export const PATHS_007: Readonly<Record<string, (row: string) => string>> = {
  ...PATHS,
  block_translations: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
};

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  await db.schema
    .createTable('blocks_007')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('block_type_id', 'text', (c) => c.notNull().references('content_types.id'))
    .addColumn('parent_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('data', json, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blocks_pk', ['page_id', 'id'])
    .addForeignKeyConstraint('blocks_parent', ['page_id', 'parent_id'], 'blocks_007', ['page_id', 'id'], (fk) => fk.onDelete('cascade'))
    .execute();
  await db.schema
    .createTable('block_translations_007')
    .addColumn('id', dialect === 'postgres' ? 'serial' : 'integer', (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('data', json, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addForeignKeyConstraint('block_translations_block', ['page_id', 'block_id'], 'blocks_007', ['page_id', 'id'], (fk) => fk.onDelete('cascade'))
    .addUniqueConstraint('block_translations_page_block_locale', ['page_id', 'block_id', 'locale'])
    .execute();

  await sql`insert into blocks_007 (id, page_id, block_type_id, parent_id, position, data, created_at, updated_at)
    select id, page_id, block_type_id, parent_id, position, data, created_at, updated_at from blocks`.execute(db);
  await sql`insert into block_translations_007 (id, page_id, block_id, locale, data, created_at, updated_at)
    select t.id, b.page_id, t.block_id, t.locale, t.data, t.created_at, t.updated_at from block_translations t join blocks b on b.id = t.block_id`.execute(db);

  await db.schema.dropTable('block_translations').execute();
  await db.schema.dropTable('blocks').execute();
  await db.schema.alterTable('blocks_007').renameTo('blocks').execute();
  await db.schema.alterTable('block_translations_007').renameTo('block_translations').execute();
  if (dialect === 'postgres') {
    // The serial column's sequence was created for block_translations_007: continue after the kept ids.
    await sql`select setval(pg_get_serial_sequence('block_translations', 'id'), coalesce((select max(id) from block_translations), 0) + 1, false)`.execute(db);
  }
  await db.schema.createIndex('blocks_page_parent_position').on('blocks').columns(['page_id', 'parent_id', 'position']).execute();
  await db.schema.createIndex('blocks_block_type').on('blocks').columns(['block_type_id', 'page_id']).execute();
  await createRevisionTriggers(db, dialect, PATHS_007);
}
