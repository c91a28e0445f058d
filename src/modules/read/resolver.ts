/**
 * The read model's resolver: for a perspective (src/modules/read/perspective.ts), where content
 * is read and which items are seen. Delivery of entries and pages, sync, the counts of lists and
 * of the overview, and the key and response caches all ask it (docs/api.md "States and scheduling"
 * (D21), "Working copies, publishing changes and history" (D70)):
 * - tables and columns: the published perspective reads the published copies (`published_data`,
 *   `published_seo`, the `published_*` translation and block tables) and shows the publication's
 *   time and author as `updated_at`/`updated_by`; the working perspective reads the working copies;
 * - visible items: published reads published items and scheduled items whose `publish_at` has
 *   passed (a due scheduled item IS published, before the publishing job rewrites its row);
 *   working also reads drafts and scheduled items; archived items are never read;
 * - freshness: which workspace revision a perspective's answers depend on (migration 005's
 *   triggers keep both: `revision` counts changes published readers can see, `draft_revision`
 *   every change).
 * The status rule itself (what "published", "scheduled" and "due" mean in SQL) is
 * src/modules/publishing/status-sql.ts; this module decides which of it each perspective sees.
 */
import { sql, type AliasedRawBuilder, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { DataColumn } from '../../db/dialect.js';
import { plannerKnowsSelectivity } from '../../db/planner.js';
import type { Dialect } from '../../db/types.js';
import type { Actor } from '../auth/permissions.js';
import { dueCondition, publishedUpdatedAt, statusCondition, type ItemTable } from '../publishing/status-sql.js';
import type { WorkspaceRevisions } from '../workspaces/repository.js';
import { perspectiveOf, type Perspective } from './perspective.js';

export { dueCondition, type ItemTable };

/** The tables and columns a perspective reads content from. */
export interface ReadSource {
  /** The entry column holding the content (each has its own expression indexes). */
  entryData: DataColumn;
  entryTranslations: 'entry_translations' | 'published_entry_translations';
  /** The page column holding SEO. */
  pageSeo: 'seo' | 'published_seo';
  seoTranslations: 'page_seo_translations' | 'published_page_seo_translations';
  blocks: 'blocks' | 'published_blocks';
  blockTranslations: 'block_translations' | 'published_block_translations';
}

const PUBLISHED_SOURCE: ReadSource = {
  entryData: 'published_data',
  entryTranslations: 'published_entry_translations',
  pageSeo: 'published_seo',
  seoTranslations: 'published_page_seo_translations',
  blocks: 'published_blocks',
  blockTranslations: 'published_block_translations',
};

const WORKING_SOURCE: ReadSource = {
  entryData: 'data',
  entryTranslations: 'entry_translations',
  pageSeo: 'seo',
  seoTranslations: 'page_seo_translations',
  blocks: 'blocks',
  blockTranslations: 'block_translations',
};

/** Where `perspective` reads content: the published copies or the working copies (D70). */
export function readSource(perspective: Perspective): ReadSource {
  switch (perspective) {
    case 'published':
      return PUBLISHED_SOURCE;
    case 'working':
      return WORKING_SOURCE;
  }
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
  switch (perspective) {
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
  if (plannerKnowsSelectivity(dialect)) {
    switch (perspective) {
      case 'working':
        return sql<SqlBool>`${status} in ('published', 'scheduled', 'draft')`;
      case 'published':
        return statusCondition('published', now, table);
    }
  }
  switch (perspective) {
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
 * (bumped only by changes published readers can see), `draft_revision` for working (every change).
 */
export function revisionFor(perspective: Perspective, revisions: WorkspaceRevisions): number {
  switch (perspective) {
    case 'published':
      return revisions.revision;
    case 'working':
      return revisions.draft;
  }
}

/**
 * The revision an authenticated actor is checked against (the key cache) and its cached answers
 * are keyed on (the delivery cache): a delivery key's perspective's revision. Management answers
 * are never cached, and what a management key's cache entry depends on (the key, its creator's
 * membership) bumps both revisions, so management actors are checked against `revision`, which
 * saving a working copy leaves alone.
 */
export function actorRevision(actor: Pick<Actor, 'keyClass' | 'environment'>, revisions: WorkspaceRevisions): number {
  return revisions[actorRevisionKind(actor)];
}

/** Which of the workspace's two revisions actorRevision reads for `actor`. */
export function actorRevisionKind(actor: Pick<Actor, 'keyClass' | 'environment'>): keyof WorkspaceRevisions {
  return actor.keyClass === 'delivery' && perspectiveOf(actor) === 'working' ? 'draft' : 'revision';
}
