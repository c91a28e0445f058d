/**
 * PostgreSQL: a transaction bumps a workspace's revisions once, not once per row it writes
 * (docs/scaling.md "Large writes"). The revision triggers (migrations 005 and 025) updated the
 * workspace's row for every row written, so a transaction writing thousands of rows (a release of
 * 1,000 items, its revert, an import) updated that one row thousands of times; each update must
 * walk the row's chain of versions the same transaction left behind, so the n-th write cost ~n
 * and the transaction ~n²: a 1,000-item revert took 7.9 s, its 200-row statements growing from 260
 * to 610 ms as it went.
 *
 * Now each trigger remembers, for the rest of the transaction (a transaction-local setting named
 * after the workspace, `quire.rev_<md5 of its id>`: `d` when `draft_revision` was bumped, `p`
 * when `revision` was too), that the workspace has moved, and skips the UPDATE when it already
 * has as far as this row needs. Readers compare revisions for equality only (caches, key cache,
 * sync tokens of a release), and other transactions see the revisions change at the commit,
 * together with the rows, as before; the numbers just grow more slowly. A savepoint rolled back
 * takes its bump and its setting with it. The same for a release's `items_revision`
 * (`quire.rel_<md5 of its id>`).
 *
 * SQLite keeps its per-row triggers: it updates a row in place, so the n-th update costs what the
 * first did. The functions are rewritten from their text as migrations 005 and 025 left it; a
 * function that does not read as expected stops the migration.
 */
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../types.js';

const WORKSPACE_BUMP = `  UPDATE workspaces SET draft_revision = draft_revision + 1, revision = revision + (CASE WHEN prod THEN 1 ELSE 0 END) WHERE id = ws;`;

const WORKSPACE_BUMP_ONCE = `  IF ws IS NULL THEN RETURN NULL; END IF;
  bumped := coalesce(current_setting('quire.rev_' || md5(ws), true), '');
  IF bumped = 'p' OR (bumped = 'd' AND NOT prod) THEN RETURN NULL; END IF;
${WORKSPACE_BUMP}
  PERFORM set_config('quire.rev_' || md5(ws), CASE WHEN prod THEN 'p' ELSE 'd' END, true);`;

const ITEMS_BUMP =
  `UPDATE releases SET items_revision = items_revision + 1 WHERE id = r.release_id; ` +
  `UPDATE workspaces SET draft_revision = draft_revision + 1 WHERE id = (SELECT workspace_id FROM releases WHERE id = r.release_id);`;

const ITEMS_BUMP_ONCE = `IF coalesce(current_setting('quire.rel_' || md5(r.release_id::text), true), '') = 'd' THEN RETURN NULL; END IF;
  ${ITEMS_BUMP}
  PERFORM set_config('quire.rel_' || md5(r.release_id::text), 'd', true);`;

/** `CREATE OR REPLACE FUNCTION` text of `name` with each `[from, to]` replaced once; throws when a `from` is missing. */
async function rewrite(db: Kysely<unknown>, name: string, edits: readonly (readonly [string, string])[]): Promise<void> {
  const { rows } = await sql<{ def: string }>`select pg_get_functiondef(${name}::regproc) as def`.execute(db);
  let def = rows[0]!.def;
  for (const [from, to] of edits) {
    if (!def.includes(from)) throw new Error(`migration 028: function ${name} does not contain: ${from}`);
    def = def.replace(from, to);
  }
  await sql.raw(def).execute(db);
}

export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await rewrite(db, 'quire_bump_revision', [
    ['  prod boolean;\nBEGIN', '  prod boolean;\n  bumped text;\nBEGIN'],
    [WORKSPACE_BUMP, WORKSPACE_BUMP_ONCE],
  ]);
  await rewrite(db, 'quire_bump_release_items', [[ITEMS_BUMP, ITEMS_BUMP_ONCE]]);
}

export async function down(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await rewrite(db, 'quire_bump_revision', [
    ['  prod boolean;\n  bumped text;\nBEGIN', '  prod boolean;\nBEGIN'],
    [WORKSPACE_BUMP_ONCE, WORKSPACE_BUMP],
  ]);
  await rewrite(db, 'quire_bump_release_items', [[ITEMS_BUMP_ONCE, ITEMS_BUMP]]);
}
