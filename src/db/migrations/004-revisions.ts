/**
 * A per-workspace `revision` counter that the database itself bumps on every write that can
 * change what a key may read: entries and their translations, content types and fields, pages,
 * SEO translations, blocks and their translations, media, API keys and memberships. Triggers,
 * rather than application code, keep it exact: no write path (operations, importer, scheduler,
 * a future module, a manual SQL fix) can forget it, and every instance sharing the database sees
 * the same value. Caches (authenticated keys, the delivery schema, delivery responses) compare
 * their entry's revision with the current one on each request: one indexed read.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

/** How each table reaches its workspace id, from a row alias (NEW or OLD). */
const PATHS: Record<string, (row: string) => string> = {
  entries: (r) => `${r}.workspace_id`,
  content_types: (r) => `${r}.workspace_id`,
  pages: (r) => `${r}.workspace_id`,
  media: (r) => `${r}.workspace_id`,
  api_keys: (r) => `${r}.workspace_id`,
  memberships: (r) => `${r}.workspace_id`,
  entry_translations: (r) => `(SELECT workspace_id FROM entries WHERE id = ${r}.entry_id)`,
  fields: (r) => `(SELECT workspace_id FROM content_types WHERE id = ${r}.content_type_id)`,
  page_seo_translations: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
  blocks: (r) => `(SELECT workspace_id FROM pages WHERE id = ${r}.page_id)`,
  block_translations: (r) => `(SELECT p.workspace_id FROM blocks b JOIN pages p ON p.id = b.page_id WHERE b.id = ${r}.block_id)`,
};

export const REVISION_TABLES = Object.keys(PATHS);

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('workspaces')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect === 'sqlite') {
    for (const [table, path] of Object.entries(PATHS)) {
      for (const [op, row] of [
        ['INSERT', 'NEW'],
        ['UPDATE', 'NEW'],
        ['DELETE', 'OLD'],
      ] as const) {
        await sql
          .raw(
            `CREATE TRIGGER "quire_rev_${table}_${op.toLowerCase()}" AFTER ${op} ON "${table}" BEGIN ` +
              `UPDATE workspaces SET revision = revision + 1 WHERE id = ${path(row)}; END`,
          )
          .execute(db);
      }
    }
    return;
  }

  const cases = Object.entries(PATHS)
    .map(([table, path]) => `    WHEN '${table}' THEN ws := ${path('r')};`)
    .join('\n');
  await sql
    .raw(
      `CREATE OR REPLACE FUNCTION quire_bump_revision() RETURNS trigger AS $$
DECLARE
  r record;
  ws text;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  CASE TG_TABLE_NAME
${cases}
    ELSE ws := NULL;
  END CASE;
  UPDATE workspaces SET revision = revision + 1 WHERE id = ws;
  RETURN NULL;
END
$$ LANGUAGE plpgsql`,
    )
    .execute(db);
  for (const table of Object.keys(PATHS)) {
    await sql
      .raw(`CREATE TRIGGER "quire_rev_${table}" AFTER INSERT OR UPDATE OR DELETE ON "${table}" FOR EACH ROW EXECUTE FUNCTION quire_bump_revision()`)
      .execute(db);
  }
}
