/**
 * Release writes move what the release perspective depends on (docs/releases.md "Reading the
 * workspace as a release will make it"; D111). Preview keys reading `?release={id}` have their
 * answers cached under the workspace's `draft_revision` (migration 005), and sync tokens of a
 * release remember the release's items as they were:
 *
 * - `releases.items_revision`: bumped by every insert, update and delete of the release's items
 *   (items added, removed, their action or release version changed, their publication recorded);
 * - `draft_revision` of the release's workspace: bumped by the same writes, and by a change of a
 *   release's `status` or `publish_at` (what the perspective shows as the items' publication
 *   time) or its deletion. `revision` is left alone: production readers see a release only once
 *   it is published, which writes the published copies (whose own triggers bump it).
 *
 * One trigger per table and operation on SQLite, one function per table on PostgreSQL, as
 * migration 005 does for content tables. An item deleted with its release (ON DELETE CASCADE)
 * finds no release row any more: the release's own delete trigger bumps the workspace.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

const ITEM_BUMP = (row: string) =>
  `UPDATE releases SET items_revision = items_revision + 1 WHERE id = ${row}.release_id; ` +
  `UPDATE workspaces SET draft_revision = draft_revision + 1 WHERE id = (SELECT workspace_id FROM releases WHERE id = ${row}.release_id);`;

const RELEASE_BUMP = (row: string) => `UPDATE workspaces SET draft_revision = draft_revision + 1 WHERE id = ${row}.workspace_id;`;

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('releases')
    .addColumn('items_revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  if (dialect === 'sqlite') {
    for (const [op, row] of [
      ['INSERT', 'NEW'],
      ['UPDATE', 'NEW'],
      ['DELETE', 'OLD'],
    ] as const) {
      await sql.raw(`CREATE TRIGGER "quire_rev_release_items_${op.toLowerCase()}" AFTER ${op} ON "release_items" BEGIN ${ITEM_BUMP(row)} END`).execute(db);
    }
    await sql.raw(`CREATE TRIGGER "quire_rev_releases_update" AFTER UPDATE OF status, publish_at ON "releases" BEGIN ${RELEASE_BUMP('NEW')} END`).execute(db);
    await sql.raw(`CREATE TRIGGER "quire_rev_releases_delete" AFTER DELETE ON "releases" BEGIN ${RELEASE_BUMP('OLD')} END`).execute(db);
    return;
  }
  for (const [name, bump] of [
    ['quire_bump_release_items', ITEM_BUMP('r')],
    ['quire_bump_releases', RELEASE_BUMP('r')],
  ] as const) {
    await sql
      .raw(
        `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  ${bump}
  RETURN NULL;
END
$$ LANGUAGE plpgsql`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `CREATE TRIGGER "quire_rev_release_items" AFTER INSERT OR UPDATE OR DELETE ON "release_items" FOR EACH ROW EXECUTE FUNCTION quire_bump_release_items()`,
    )
    .execute(db);
  await sql
    .raw(`CREATE TRIGGER "quire_rev_releases" AFTER UPDATE OF status, publish_at OR DELETE ON "releases" FOR EACH ROW EXECUTE FUNCTION quire_bump_releases()`)
    .execute(db);
}
