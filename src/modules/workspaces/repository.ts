/** SQL for workspaces. */
import type { QueryTemplates } from '../../caches.js';
import type { Db } from '../../db/types.js';
import { fromJsonColumn } from '../../lib/json.js';

export interface Workspace {
  id: string;
  name: string;
  slug: string;
  default_locale: string;
  locales: string[];
  /** Studio preview link template (D91), null when unset. */
  preview_url_template: string | null;
  created_at: string;
  updated_at: string;
}

type Row = {
  id: string;
  name: string;
  slug: string;
  default_locale: string;
  locales: unknown;
  preview_url_template: string | null;
  created_at: string;
  updated_at: string;
};

const COLUMNS = ['id', 'name', 'slug', 'default_locale', 'locales', 'preview_url_template', 'created_at', 'updated_at'] as const;

function toWorkspace(row: Row): Workspace {
  return { ...row, locales: fromJsonColumn<string[]>(row.locales, [row.default_locale]) };
}

export async function findWorkspaceById(db: Db, id: string): Promise<Workspace | null> {
  const row = await db.kysely.selectFrom('workspaces').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toWorkspace(row) : null;
}

export async function findWorkspaceBySlug(db: Db, slug: string): Promise<Workspace | null> {
  const row = await db.kysely.selectFrom('workspaces').select(COLUMNS).where('slug', '=', slug).executeTakeFirst();
  return row ? toWorkspace(row) : null;
}

export async function countWorkspaces(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertWorkspace(db: Db, ws: Workspace): Promise<void> {
  await db.kysely
    .insertInto('workspaces')
    .values({ ...ws, locales: JSON.stringify(ws.locales) })
    .execute();
}

export async function updateWorkspaceLocales(db: Db, id: string, defaultLocale: string, locales: string[], now: string): Promise<void> {
  await db.kysely
    .updateTable('workspaces')
    .set((eb) => ({
      default_locale: defaultLocale,
      locales: JSON.stringify(locales),
      updated_at: now,
      revision: eb('revision', '+', 1),
      draft_revision: eb('draft_revision', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
}

/** Writes the settings the Studio edits (D91); moves both revisions, like any model change. */
export async function updateWorkspaceSettings(
  db: Db,
  id: string,
  patch: { name: string; default_locale: string; locales: string[]; preview_url_template: string | null },
  now: string,
): Promise<void> {
  await db.kysely
    .updateTable('workspaces')
    .set((eb) => ({
      name: patch.name,
      default_locale: patch.default_locale,
      locales: JSON.stringify(patch.locales),
      preview_url_template: patch.preview_url_template,
      updated_at: now,
      revision: eb('revision', '+', 1),
      draft_revision: eb('draft_revision', '+', 1),
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * Rows holding `locale` in the workspace: translations of entries, page SEO and blocks, working
 * copies and published copies alike (all must go before the locale can).
 */
export async function countLocaleTranslations(db: Db, workspaceId: string, locale: string): Promise<number> {
  const k = db.kysely;
  const entryIds = k.selectFrom('entries').select('id').where('workspace_id', '=', workspaceId);
  const pageIds = k.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId);
  const counts = await Promise.all([
    k
      .selectFrom('entry_translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locale', '=', locale)
      .where('entry_id', 'in', entryIds)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('published_entry_translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locale', '=', locale)
      .where('entry_id', 'in', entryIds)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('page_seo_translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locale', '=', locale)
      .where('page_id', 'in', pageIds)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('published_page_seo_translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locale', '=', locale)
      .where('page_id', 'in', pageIds)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('block_translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locale', '=', locale)
      .where('page_id', 'in', pageIds)
      .executeTakeFirstOrThrow(),
    k
      .selectFrom('published_block_translations')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('locale', '=', locale)
      .where('page_id', 'in', pageIds)
      .executeTakeFirstOrThrow(),
  ]);
  return counts.reduce((sum, c) => sum + Number(c.n), 0);
}

/** True when the workspace holds at least one entry or page. */
export async function holdsContent(db: Db, workspaceId: string): Promise<boolean> {
  const entry = await db.kysely.selectFrom('entries').select('id').where('workspace_id', '=', workspaceId).limit(1).executeTakeFirst();
  if (entry) return true;
  const page = await db.kysely.selectFrom('pages').select('id').where('workspace_id', '=', workspaceId).limit(1).executeTakeFirst();
  return Boolean(page);
}

/** A workspace's two revisions (migration 005). */
export interface WorkspaceRevisions {
  /** Bumped by every change production readers can see (published content, model, keys, media). */
  revision: number;
  /** Bumped by every change, working copies included (what preview readers see). */
  draft: number;
}

/**
 * The workspace's current revisions (migrations 004 and 005: bumped by triggers on every write
 * that can change what it serves), or null when it does not exist. Runs on every API request,
 * so the query is compiled once per context (`templates`) and only its parameter changes. On
 * SQLite it is one synchronous read, or, while a transaction holds the connection, a read of the
 * committed state on a reader thread (a revision bumped by that transaction shows at its commit).
 */
export async function readWorkspaceRevision(db: Db, workspaceId: string, templates: QueryTemplates): Promise<WorkspaceRevisions | null> {
  const now = readWorkspaceRevisionNow(db, workspaceId, templates);
  if (now !== undefined) return now;
  // While a transaction is open on the SQLite connection (readNow declines), a reader thread
  // answers with what is committed instead of waiting for the transaction to end.
  const reader = db.readNow ? (db.heavyReads ?? db.kysely) : db.kysely;
  const row = (await reader.executeQuery<{ revision: number; draft_revision: number }>({ ...revisionQuery(db, templates), parameters: [workspaceId] })).rows[0];
  return row ? { revision: Number(row.revision), draft: Number(row.draft_revision) } : null;
}

function revisionQuery(db: Db, templates: QueryTemplates) {
  return (templates.workspaceRevision ??= db.kysely.selectFrom('workspaces').select(['revision', 'draft_revision']).where('id', '=', '').compile());
}

/**
 * readWorkspaceRevision answered synchronously where the connection can (SQLite outside a
 * transaction: Db.readNow); undefined where it cannot (PostgreSQL, or a transaction open), and
 * readWorkspaceRevision must be awaited instead.
 */
export function readWorkspaceRevisionNow(db: Db, workspaceId: string, templates: QueryTemplates): WorkspaceRevisions | null | undefined {
  if (!db.readNow) return undefined;
  const now = db.readNow(revisionQuery(db, templates).sql, [workspaceId]);
  if (!now) return undefined;
  const row = now.row as { revision: number; draft_revision: number } | undefined;
  return row ? { revision: Number(row.revision), draft: Number(row.draft_revision) } : null;
}
