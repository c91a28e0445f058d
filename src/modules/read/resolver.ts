/**
 * The read model's resolver: for a perspective (src/modules/read/perspective.ts), where content
 * is read and which items are seen. Delivery of entries and pages, sync, the counts of lists and
 * of the overview, and the key and response caches all ask it (docs/api.md "States and scheduling"
 * (D21), "Working copies, publishing changes and history" (D70)):
 * - tables and columns: the published perspective reads the published copies (`published_data`,
 *   `published_seo`, the `published_*` translation and block tables) and shows the publication's
 *   time and author as `updated_at`/`updated_by`; the working perspective reads the working copies;
 *   a release perspective reads the published copies with the release's items laid over them
 *   (src/modules/read/release-sql.ts: common table expressions of the statement, which
 *   readerOf adds), and is otherwise the published perspective;
 * - visible items: published reads published items and scheduled items whose `publish_at` has
 *   passed (a due scheduled item IS published, before the publishing job rewrites its row);
 *   working also reads drafts and scheduled items; archived items are never read (a release
 *   perspective: what it will publish, never what it unpublishes);
 * - freshness: which workspace revision a perspective's answers depend on (migration 005's
 *   triggers keep both: `revision` counts changes published readers can see, `draft_revision`
 *   every change, release items and releases included since migration 025).
 * The status rule itself (what "published", "scheduled" and "due" mean in SQL) is
 * src/modules/publishing/status-sql.ts; this module decides which of it each perspective sees.
 */
import { sql, type AliasedRawBuilder, type Expression, type QueryCreator, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { DataColumn } from '../../db/dialect.js';
import { plannerKnowsSelectivity } from '../../db/planner.js';
import type { Db, Dialect } from '../../db/types.js';
import type { Actor } from '../auth/permissions.js';
import { dueCondition, publishedUpdatedAt, statusCondition, type ItemTable } from '../publishing/status-sql.js';
import type { WorkspaceRevisions } from '../workspaces/repository.js';
import { perspectiveOf, releaseOf, type Perspective } from './perspective.js';
import { releaseQueries, type ReadDatabase } from './release-sql.js';

export { dueCondition, type ItemTable, type ReadDatabase };

/** The tables and columns a perspective reads content from. */
export interface ReadSource {
  /** The entry table (a release's CTE, src/modules/read/release-sql.ts, read as `entries`). */
  entries: 'entries' | 'release_entries';
  /** The entry column holding the content (each has its own expression indexes). */
  entryData: DataColumn;
  entryTranslations: 'entry_translations' | 'published_entry_translations' | 'release_entry_translations';
  /** The page table (a release's CTE read as `pages`). */
  pages: 'pages' | 'release_pages';
  /** The page column holding SEO. */
  pageSeo: 'seo' | 'published_seo';
  seoTranslations: 'page_seo_translations' | 'published_page_seo_translations' | 'release_page_seo_translations';
  blocks: 'blocks' | 'published_blocks' | 'release_blocks';
  blockTranslations: 'block_translations' | 'published_block_translations' | 'release_block_translations';
}

const PUBLISHED_SOURCE: ReadSource = {
  entries: 'entries',
  pages: 'pages',
  entryData: 'published_data',
  entryTranslations: 'published_entry_translations',
  pageSeo: 'published_seo',
  seoTranslations: 'published_page_seo_translations',
  blocks: 'published_blocks',
  blockTranslations: 'published_block_translations',
};

const WORKING_SOURCE: ReadSource = {
  entries: 'entries',
  pages: 'pages',
  entryData: 'data',
  entryTranslations: 'entry_translations',
  pageSeo: 'seo',
  seoTranslations: 'page_seo_translations',
  blocks: 'blocks',
  blockTranslations: 'block_translations',
};

/** The published copies with a release's items laid over them, under the names of release-sql.ts. */
const RELEASE_SOURCE: ReadSource = {
  entries: 'release_entries',
  pages: 'release_pages',
  entryData: 'published_data',
  entryTranslations: 'release_entry_translations',
  pageSeo: 'published_seo',
  seoTranslations: 'release_page_seo_translations',
  blocks: 'release_blocks',
  blockTranslations: 'release_block_translations',
};

/**
 * The perspective whose rules (statuses seen, columns shown) `perspective` follows: a release
 * perspective is the published one over its own tables (release-sql.ts).
 */
function ruleOf(perspective: Perspective): 'published' | 'working' {
  return perspective === 'working' ? 'working' : 'published';
}

/**
 * Where `perspective` reads content: the published copies, the working copies (D70), or a
 * release's tables (its CTEs, which only statements started by readerOf can name).
 */
export function readSource(perspective: Perspective): ReadSource {
  if (releaseOf(perspective) !== null) return RELEASE_SOURCE;
  return perspective === 'working' ? WORKING_SOURCE : PUBLISHED_SOURCE;
}

/**
 * The query creator of a read from `perspective` at `now` (ISO text): the database's for the
 * published and working perspectives; for a release, one whose statements carry the release's
 * tables (src/modules/read/release-sql.ts). Every read-model query starts here, or from
 * selectEntries / selectPages.
 */
export function readerOf(db: Db, perspective: Perspective, now: string): QueryCreator<ReadDatabase> {
  const release = releaseOf(perspective);
  // The release tables are only named by readSource(release): the database's creator never sees them.
  return release === null ? (db.kysely as unknown as QueryCreator<ReadDatabase>) : releaseQueries(db, release, now);
}

/** `SELECT … FROM entries` as `perspective` reads them (a release's table keeps the name `entries`). */
export function selectEntries(db: Db, perspective: Perspective, now: string): SelectQueryBuilder<ReadDatabase, 'entries', object> {
  const reader = readerOf(db, perspective, now);
  const table = readSource(perspective).entries;
  return table === 'entries' ? reader.selectFrom('entries') : (reader.selectFrom(`${table} as entries`) as SelectQueryBuilder<ReadDatabase, 'entries', object>);
}

/** `SELECT … FROM pages` as `perspective` reads them (a release's table keeps the name `pages`). */
export function selectPages(db: Db, perspective: Perspective, now: string): SelectQueryBuilder<ReadDatabase, 'pages', object> {
  const reader = readerOf(db, perspective, now);
  const table = readSource(perspective).pages;
  return table === 'pages' ? reader.selectFrom('pages') : (reader.selectFrom(`${table} as pages`) as SelectQueryBuilder<ReadDatabase, 'pages', object>);
}

/** The FROM item of the entry table in raw SQL, named `entries` (see selectEntries). */
export function entriesTableSql(perspective: Perspective): RawBuilder<unknown> {
  const table = readSource(perspective).entries;
  return table === 'entries' ? sql`"entries"` : sql`${sql.table(table)} as "entries"`;
}

type ContentColumns<C extends string> = [
  AliasedRawBuilder<unknown, C>,
  AliasedRawBuilder<string, 'updated_at'>,
  AliasedRawBuilder<number | null, 'updated_by'>,
];

/**
 * The content column of `table` (as `data` for entries, `seo` for pages) and its `updated_at`,
 * `updated_by` as `perspective` sees them: the published perspective sees the publication's time
 * (a due scheduled item: its `publish_at`) and author, so saving a working copy changes nothing
 * it can see.
 */
export function contentColumns(perspective: Perspective, table: 'entries'): ContentColumns<'data'>;
export function contentColumns(perspective: Perspective, table: 'pages'): ContentColumns<'seo'>;
export function contentColumns(perspective: Perspective, table: ItemTable): ContentColumns<'data' | 'seo'>;
export function contentColumns(perspective: Perspective, table: ItemTable): ContentColumns<'data' | 'seo'> {
  const content = table === 'entries' ? 'data' : 'seo';
  const source = readSource(perspective);
  const column = table === 'entries' ? source.entryData : source.pageSeo;
  switch (ruleOf(perspective)) {
    case 'working':
      return [
        sql<unknown>`${sql.ref(`${table}.${column}`)}`.as(content),
        sql<string>`${sql.ref(`${table}.updated_at`)}`.as('updated_at'),
        sql<number | null>`${sql.ref(`${table}.updated_by`)}`.as('updated_by'),
      ];
    case 'published':
      return [
        sql<unknown>`${sql.ref(`${table}.${column}`)}`.as(content),
        publishedUpdatedAt(table).as('updated_at'),
        sql<number | null>`${sql.ref(`${table}.published_by`)}`.as('updated_by'),
      ];
  }
}

/**
 * Rows `perspective` may see at `now` (ISO text): published sees published rows and due
 * scheduled rows; working also sees drafts and scheduled rows. Archived: never.
 *
 * Written for the planner of `dialect` (src/db/planner.ts): where it keeps no statistics (SQLite)
 * as a CASE on purpose, since the status alone is never the selective part of a delivery query
 * (content type, id or slug are) and an index-friendly `status = … OR …` leads SQLite to scan the
 * whole status index instead of looking items up by id or type; where it does (PostgreSQL), as
 * the plain terms, which it estimates right (it takes a CASE = 1 for 0.5% of the rows and, at
 * scale, sorts every row of a type instead of walking a sort index). Pages and sync ask for the
 * CASE on both databases (the default), as they always have.
 */
export function visibleCondition(perspective: Perspective, now: string, table: ItemTable = 'entries', dialect: Dialect = 'sqlite'): Expression<SqlBool> {
  const status = sql.ref(`${table}.status`);
  const rule = ruleOf(perspective);
  if (plannerKnowsSelectivity(dialect)) {
    switch (rule) {
      case 'working':
        return sql<SqlBool>`${status} in ('published', 'scheduled', 'draft')`;
      case 'published':
        return statusCondition('published', now, table);
    }
  }
  switch (rule) {
    case 'working':
      return sql<SqlBool>`(case when ${status} in ('published', 'scheduled', 'draft') then 1 else 0 end) = 1`;
    case 'published':
      return sql<SqlBool>`(case when ${status} = 'published' then 1 when ${status} = 'scheduled' and ${sql.ref(`${table}.publish_at`)} <= ${now} then 1 else 0 end) = 1`;
  }
}

/**
 * The status of each row of `table` as readers see it at `now` (D21): `published` for a due
 * scheduled row, the stored status otherwise. The SQL twin of effectiveStatus() in
 * src/modules/publishing/states.ts, for grouped counts.
 */
export function effectiveStatusSql(now: string, table: ItemTable): RawBuilder<string> {
  return sql<string>`case when ${dueCondition(now, table)} then 'published' else ${sql.ref(`${table}.status`)} end`;
}

/**
 * The workspace revision answers read from `perspective` depend on: `revision` for published
 * (bumped only by changes published readers can see), `draft_revision` for working and release
 * perspectives (every change: a release shows items' attributes such as a draft's slug, and the
 * triggers of migration 025 bump it on every write of a release or its items).
 */
export function revisionFor(perspective: Perspective, revisions: WorkspaceRevisions): number {
  return perspective === 'published' ? revisions.revision : revisions.draft;
}

/**
 * The revision an authenticated actor is checked against (the key cache) and its cached answers
 * are keyed on (the delivery cache): a delivery key's perspective's revision. Management answers
 * are never cached, and what a management key's cache entry depends on (the key, its creator's
 * membership) bumps both revisions, so management actors are checked against `revision`, which
 * saving a working copy leaves alone.
 */
export function actorRevision(actor: Pick<Actor, 'keyClass' | 'environment' | 'release'>, revisions: WorkspaceRevisions): number {
  return revisions[actorRevisionKind(actor)];
}

/** Which of the workspace's two revisions actorRevision reads for `actor`. */
export function actorRevisionKind(actor: Pick<Actor, 'keyClass' | 'environment' | 'release'>): keyof WorkspaceRevisions {
  return actor.keyClass === 'delivery' && perspectiveOf(actor) !== 'published' ? 'draft' : 'revision';
}
