/**
 * Working copies, published versions and history (docs/api.md "Working copies, publishing changes
 * and history" (D70, D71), "History" (D72)).
 *
 * - Entries and pages keep their working copy where it was (entries.data, entry_translations,
 *   pages.seo, page_seo_translations, blocks, block_translations) and gain a published copy that
 *   production delivery reads: entries.published_data + published_entry_translations, and
 *   pages.published_seo + published_page_seo_translations, published_blocks and
 *   published_block_translations. Both sides have the same shape, so one delivery query serves
 *   either by naming the other tables, and filters and sorts on published data get their own
 *   expression indexes (entries_pub_*).
 * - Publication columns on both item tables: published_by (who published, shown to production
 *   readers as updated_by), published_version, latest_version (the newest history version) and
 *   has_pending_changes.
 * - History: entry_versions and page_versions, one row per version with its snapshot, deleted with
 *   the item (ON DELETE CASCADE).
 * - Upgrade in place: every item's current content becomes version 1 (action `publish` for a
 *   published or scheduled item, `create` otherwise); a published item's published copy is its
 *   current content and its published_version is 1, so nothing production readers see changes.
 * - Revisions: `revision` now counts only changes production readers can see, and
 *   `draft_revision` counts every change (working copies included). Production caches key on
 *   the first, preview caches on the second, so saving a working copy keeps production answers
 *   cached. The triggers of migration 004 are replaced.
 */
import { sql, type Kysely } from 'kysely';
import { createDataIndexSql, dataFunctionsSql } from './frozen/005-entry-data-sql.js';
import type { Database, Dialect } from '../types.js';
import { entrySnapshotOf, fromJsonColumn, objectOf, pageSnapshotOf, pickSeo, seoFromColumn } from './frozen/005-snapshots.js';

/** How each tracked table reaches its workspace id, from a row alias (NEW or OLD). */
export const PATHS: Readonly<Record<string, (row: string) => string>> = {
  entries: (r) => `${r}.workspace_id`,
  content_types: (r) => `${r}.workspace_id`,
  pages: (r) => `${r}.workspace_id`,
  media: (r) => `${r}.workspace_id`,
  api_keys: (r) => `${r}.workspace_id`,
  memberships: (r) => `${r}.workspace_id`,
  entry_translations: (r) => `(SELECT workspace_id FROM entries WHERE id = ${r}.entry_id)`,
  published_entry_translations: (r) => `(SELECT workspace_id FROM entries WHERE id = ${r}.entry_id)`,
  fields: (r) => `(SELECT workspace_id FROM content_types WHERE id = ${r}.content_type_id)`,
  page_seo_translations: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
  published_page_seo_translations: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
  blocks: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
  published_blocks: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
  block_translations: (r) => `(SELECT p.workspace_id FROM blocks b JOIN pages p ON p.id = b.page_id WHERE b.id = ${r}.block_id)`,
  published_block_translations: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
};

/** Every table whose changes bump a workspace revision (`draft_revision` always). */
export const REVISION_TABLES = Object.keys(PATHS);

/** Tables whose every change is a working-copy change only: they never bump `revision`. */
export const WORKING_COPY_TABLES: ReadonlySet<string> = new Set(['entry_translations', 'page_seo_translations', 'blocks', 'block_translations']);

/** Columns of an item row that production readers see (content is in the published copy). */
const VISIBLE_COLUMNS: Record<'entries' | 'pages', string[]> = {
  entries: ['status', 'publish_at', 'published_at', 'published_by', 'slug', 'position', 'content_type_id', 'published_data'],
  pages: ['status', 'publish_at', 'published_at', 'published_by', 'slug', 'position', 'published_seo'],
};

/**
 * SQL deciding whether a change of `table` bumps `revision` (production), given the operation.
 * Item rows matter to production when they are or were visible (published or scheduled) and,
 * for updates, a visible column changed; a scheduled item's content counts too, since it goes
 * live at its time without another write.
 */
export function productionChange(dialect: Dialect, table: string, op: 'INSERT' | 'UPDATE' | 'DELETE'): string {
  if (WORKING_COPY_TABLES.has(table)) return 'FALSE';
  if (table !== 'entries' && table !== 'pages') return 'TRUE';
  const live = (r: string) => `${r}.status IN ('published', 'scheduled')`;
  if (op === 'INSERT') return live('NEW');
  if (op === 'DELETE') return live('OLD');
  const distinct = dialect === 'sqlite' ? 'IS NOT' : 'IS DISTINCT FROM';
  const changed = VISIBLE_COLUMNS[table].map((c) => `OLD.${c} ${distinct} NEW.${c}`).join(' OR ');
  return `((${live('OLD')} OR ${live('NEW')}) AND (${changed} OR NEW.status = 'scheduled'))`;
}

/**
 * Replaces migration 004's triggers with ones that keep both revisions; `paths` says how each
 * tracked table reaches its workspace (later migrations that reshape a table pass their own).
 */
export async function createRevisionTriggers(
  db: Kysely<unknown>,
  dialect: Dialect,
  paths: Readonly<Record<string, (row: string) => string>> = PATHS,
): Promise<void> {
  if (dialect === 'sqlite') {
    for (const [table, path] of Object.entries(paths)) {
      for (const [op, row] of [
        ['INSERT', 'NEW'],
        ['UPDATE', 'NEW'],
        ['DELETE', 'OLD'],
      ] as const) {
        const name = `quire_rev_${table}_${op.toLowerCase()}`;
        await sql.raw(`DROP TRIGGER IF EXISTS "${name}"`).execute(db);
        await sql
          .raw(
            `CREATE TRIGGER "${name}" AFTER ${op} ON "${table}" BEGIN ` +
              `UPDATE workspaces SET draft_revision = draft_revision + 1, ` +
              `revision = revision + (CASE WHEN ${productionChange(dialect, table, op)} THEN 1 ELSE 0 END) ` +
              `WHERE id = ${path(row)}; END`,
          )
          .execute(db);
      }
    }
    return;
  }
  const cases = Object.entries(paths)
    .map(([table, path]) => {
      const prod = (['INSERT', 'UPDATE', 'DELETE'] as const).map((op) => `WHEN TG_OP = '${op}' THEN ${productionChange(dialect, table, op)}`).join(' ');
      return `    WHEN '${table}' THEN ws := ${path('r')}; prod := CASE ${prod} ELSE FALSE END;`;
    })
    .join('\n');
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION quire_bump_revision() RETURNS trigger AS $$
DECLARE
  r record;
  ws text;
  prod boolean;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  CASE TG_TABLE_NAME
${cases}
    ELSE ws := NULL; prod := FALSE;
  END CASE;
  UPDATE workspaces SET draft_revision = draft_revision + 1, revision = revision + (CASE WHEN prod THEN 1 ELSE 0 END) WHERE id = ws;
  RETURN NULL;
END
$$ LANGUAGE plpgsql`,
    )
    .execute(db);
  for (const table of Object.keys(paths)) {
    await sql.raw(`DROP TRIGGER IF EXISTS "quire_rev_${table}" ON "${table}"`).execute(db);
    await sql
      .raw(`CREATE TRIGGER "quire_rev_${table}" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION quire_bump_revision()`)
      .execute(db);
  }
}

/** Rows per batch when building the first version of existing items. */
const BATCH = 200;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  const json = dialect === 'postgres' ? sql`jsonb` : sql`text`;
  const k = db as unknown as Kysely<Database>;

  await db.schema
    .alterTable('workspaces')
    .addColumn('draft_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  for (const table of ['entries', 'pages']) {
    await db.schema.alterTable(table).addColumn('published_by', 'integer').execute();
    await db.schema.alterTable(table).addColumn('published_version', 'integer').execute();
    await db.schema
      .alterTable(table)
      .addColumn('latest_version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema
      .alterTable(table)
      .addColumn('has_pending_changes', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable('entries').addColumn('published_data', json).execute();
  await db.schema.alterTable('pages').addColumn('published_seo', json).execute();

  await db.schema
    .createTable('published_entry_translations')
    .addColumn('entry_id', 'text', (c) => c.notNull().references('entries.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('data', json, (c) => c.notNull())
    .addPrimaryKeyConstraint('published_entry_translations_pk', ['entry_id', 'locale'])
    .execute();
  await db.schema
    .createTable('published_page_seo_translations')
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('seo', json, (c) => c.notNull())
    .addPrimaryKeyConstraint('published_page_seo_translations_pk', ['page_id', 'locale'])
    .execute();
  // Keyed per page: a block id is unique among working copies only. A block a page's working copy
  // gave up may sit in that page's published copy while another page's working copy, and then
  // its published copy, holds it too.
  await db.schema
    .createTable('published_blocks')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('block_type_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('data', json, (c) => c.notNull())
    .addPrimaryKeyConstraint('published_blocks_pk', ['page_id', 'id'])
    .execute();
  await db.schema.createIndex('published_blocks_page').on('published_blocks').columns(['page_id', 'parent_id', 'position']).execute();
  await db.schema.createIndex('published_blocks_block_type').on('published_blocks').columns(['block_type_id', 'page_id']).execute();
  await db.schema
    .createTable('published_block_translations')
    .addColumn('block_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull().references('pages.id').onDelete('cascade'))
    .addColumn('locale', 'text', (c) => c.notNull())
    .addColumn('id', 'integer', (c) => c.notNull())
    .addColumn('data', json, (c) => c.notNull())
    .addPrimaryKeyConstraint('published_block_translations_pk', ['page_id', 'block_id', 'locale'])
    .addForeignKeyConstraint('published_block_translations_block', ['page_id', 'block_id'], 'published_blocks', ['page_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('published_block_translations_page').on('published_block_translations').columns(['page_id', 'locale']).execute();

  for (const [table, owner, fk] of [
    ['entry_versions', 'entries', 'entry_id'],
    ['page_versions', 'pages', 'page_id'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn(fk, 'text', (c) => c.notNull().references(`${owner}.id`).onDelete('cascade'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('snapshot', json, (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('created_by', 'integer')
      .addPrimaryKeyConstraint(`${table}_pk`, [fk, 'version'])
      .execute();
  }

  // Published copies of what is live (or going live) today: the current content.
  const live = sql`status in ('published', 'scheduled')`;
  await sql`update entries set published_data = data, published_by = updated_by where ${live}`.execute(db);
  await sql`insert into published_entry_translations (entry_id, locale, id, data)
    select t.entry_id, t.locale, t.id, t.data from entry_translations t join entries e on e.id = t.entry_id where e.${sql.raw("status in ('published', 'scheduled')")}`.execute(
    db,
  );
  await sql`update pages set published_seo = seo, published_by = updated_by where ${live}`.execute(db);
  await sql`insert into published_page_seo_translations (page_id, locale, id, seo)
    select t.page_id, t.locale, t.id, t.seo from page_seo_translations t join pages p on p.id = t.page_id where p.${sql.raw("status in ('published', 'scheduled')")}`.execute(
    db,
  );
  await sql`insert into published_blocks (id, page_id, block_type_id, parent_id, position, data)
    select b.id, b.page_id, b.block_type_id, b.parent_id, b.position, b.data from blocks b join pages p on p.id = b.page_id where p.${sql.raw("status in ('published', 'scheduled')")}`.execute(
    db,
  );
  await sql`insert into published_block_translations (block_id, page_id, locale, id, data)
    select t.block_id, b.page_id, t.locale, t.id, t.data from block_translations t join blocks b on b.id = t.block_id join pages p on p.id = b.page_id
    where p.${sql.raw("status in ('published', 'scheduled')")}`.execute(db);
  await sql`update entries set published_version = 1 where status = 'published'`.execute(db);
  await sql`update pages set published_version = 1 where status = 'published'`.execute(db);

  // Version 1 of every existing item: its current content.
  const action = (status: string) => (status === 'published' || status === 'scheduled' ? 'publish' : 'create');
  for (let after = ''; ;) {
    const rows = await k
      .selectFrom('entries')
      .select(['id', 'status', 'data', 'updated_at', 'updated_by'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (!rows.length) break;
    const trs = await k
      .selectFrom('entry_translations')
      .selectAll()
      .where(
        'entry_id',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('locale')
      .execute();
    const values = rows.map((r) => {
      const translations = trs
        .filter((t) => t.entry_id === r.id)
        .map((t) => ({
          id: Number(t.id),
          entry_id: t.entry_id,
          locale: t.locale,
          data: objectOf(t.data),
          created_at: t.created_at,
          updated_at: t.updated_at,
        }));
      const snapshot = entrySnapshotOf({ data: objectOf(r.data), translations });
      return {
        entry_id: r.id,
        version: 1,
        action: action(r.status),
        status: r.status,
        snapshot: JSON.stringify(snapshot),
        created_at: r.updated_at,
        created_by: r.updated_by,
      };
    });
    await k.insertInto('entry_versions').values(values).execute();
    after = rows[rows.length - 1].id;
  }
  for (let after = ''; ;) {
    const rows = await k
      .selectFrom('pages')
      .select(['id', 'status', 'seo', 'updated_at', 'updated_by'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (!rows.length) break;
    const values = [];
    for (const r of rows) {
      const blocks = await k
        .selectFrom('blocks as b')
        .innerJoin('content_types as ct', 'ct.id', 'b.block_type_id')
        .select(['b.id', 'b.page_id', 'b.block_type_id', 'ct.slug as type', 'b.parent_id', 'b.position', 'b.data'])
        .where('b.page_id', '=', r.id)
        .orderBy('b.position')
        .orderBy('b.id')
        .execute();
      const seoTr = await k.selectFrom('page_seo_translations').selectAll().where('page_id', '=', r.id).orderBy('locale').execute();
      const blockTr = await k
        .selectFrom('block_translations as t')
        .innerJoin('blocks as b', 'b.id', 't.block_id')
        .select(['t.id', 't.block_id', 't.locale', 't.data'])
        .where('b.page_id', '=', r.id)
        .orderBy('t.block_id')
        .orderBy('t.locale')
        .execute();
      const snapshot = pageSnapshotOf({
        page: { seo: seoFromColumn(fromJsonColumn<unknown>(r.seo, {})) },
        blocks: blocks.map((b) => ({
          ...b,
          position: Number(b.position),
          data: objectOf(b.data),
        })),
        seoTranslations: seoTr.map((t) => ({ id: Number(t.id), page_id: t.page_id, locale: t.locale, seo: pickSeo(objectOf(t.seo)) })),
        blockTranslations: blockTr.map((t) => ({ id: Number(t.id), block_id: t.block_id, locale: t.locale, data: objectOf(t.data) })),
      });
      values.push({
        page_id: r.id,
        version: 1,
        action: action(r.status),
        status: r.status,
        snapshot: JSON.stringify(snapshot),
        created_at: r.updated_at,
        created_by: r.updated_by,
      });
    }
    await k.insertInto('page_versions').values(values).execute();
    after = rows[rows.length - 1].id;
  }

  // Expression indexes on the published data for every field that has one on the working data.
  const indexed = await k
    .selectFrom('fields')
    .select(['name', 'field_type'])
    .where((eb) => eb.or([eb('filterable', '=', 1), eb('sortable', '=', 1)]))
    .execute();
  // A datetime field's index calls a function that migration 019 would otherwise create later.
  for (const ddl of dataFunctionsSql(dialect)) await sql.raw(ddl).execute(db);
  for (const f of indexed) await sql.raw(createDataIndexSql(dialect, f.name, f.field_type, 'published_data')).execute(db);

  await createRevisionTriggers(db, dialect);
}
