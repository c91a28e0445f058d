/**
 * The status rule of entries and pages in SQL, in one place (DECISIONS.md D20, D21): a scheduled
 * item whose `publish_at` has passed IS published, before the publishing job rewrites its row.
 * Management lists filter with statusCondition, delivery with visibleCondition, and the job and
 * the write path's catch-up find due items with dueCondition; all three say the same thing as
 * effectiveStatus() in states.ts says in TypeScript.
 *
 * `table` names the item table (`entries` or `pages`: both have the same publication columns).
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Status } from './states.js';

/** Tables with the publication columns (status, publish_at, published_at) and an id. */
export type ItemTable = 'entries' | 'pages';

/** Who reads: production keys see published versions, preview keys working copies (D70). */
export type Visibility = 'production' | 'preview';

const col = (table: ItemTable, name: string) => sql.ref(`${table}.${name}`);

/** Scheduled rows whose time has come (`now`: ISO text). */
export function dueCondition(now: string, table: ItemTable): Expression<SqlBool> {
  return sql<SqlBool>`(${col(table, 'status')} = 'scheduled' and ${col(table, 'publish_at')} <= ${now})`;
}

/**
 * Rows whose effective status is `status` at `now`: `published` includes due scheduled rows,
 * `scheduled` excludes them.
 */
export function statusCondition(status: Status, now: string, table: ItemTable): Expression<SqlBool> {
  const s = col(table, 'status');
  switch (status) {
    case 'published':
      return sql<SqlBool>`(${s} = 'published' or ${dueCondition(now, table)})`;
    case 'scheduled':
      return sql<SqlBool>`(${s} = 'scheduled' and (${col(table, 'publish_at')} is null or ${col(table, 'publish_at')} > ${now}))`;
    default:
      return sql<SqlBool>`${s} = ${status}`;
  }
}

/**
 * Rows a key of `visibility` may see at `now`: production sees published rows and due scheduled
 * rows; preview also sees drafts and scheduled rows. Archived: never.
 *
 * Written as a CASE on SQLite on purpose: the status alone is never the selective part of a
 * delivery query (content type, id or slug are), and an index-friendly `status = … OR …` leads
 * SQLite (which has no statistics) to scan the whole status index instead of looking items up by
 * id or type. `dialect` 'postgres' gives the plain terms, which PostgreSQL's statistics estimate.
 */
export function visibleCondition(
  visibility: Visibility,
  now: string,
  table: ItemTable = 'entries',
  dialect: 'sqlite' | 'postgres' = 'sqlite',
): Expression<SqlBool> {
  const status = col(table, 'status');
  // PostgreSQL estimates a CASE = 1 as matching 0.5% of the rows and, at scale, sorts every row
  // of a type instead of walking a sort index; its statistics size the plain terms right.
  if (dialect === 'postgres') {
    if (visibility === 'preview') return sql<SqlBool>`${status} in ('published', 'scheduled', 'draft')`;
    return statusCondition('published', now, table);
  }
  if (visibility === 'preview') {
    return sql<SqlBool>`(case when ${status} in ('published', 'scheduled', 'draft') then 1 else 0 end) = 1`;
  }
  return sql<SqlBool>`(case when ${status} = 'published' then 1 when ${status} = 'scheduled' and ${col(table, 'publish_at')} <= ${now} then 1 else 0 end) = 1`;
}

/**
 * The visibility condition split into index-friendly terms, one per visible status range; counts
 * without filters sum one `(content_type_id, status[, publish_at])` index range per term.
 */
export function visibleStatusTerms(visibility: Visibility, now: string, table: ItemTable = 'entries'): Expression<SqlBool>[] {
  const s = col(table, 'status');
  if (visibility === 'preview') return (['draft', 'published', 'scheduled'] as const).map((status) => sql<SqlBool>`${s} = ${sql.lit(status)}`);
  return [sql<SqlBool>`${s} = 'published'`, dueCondition(now, table)];
}

/** The effective publication time: a due scheduled row is published at its `publish_at` (D21). */
export function effectivePublishedAt(now: string, table: ItemTable): RawBuilder<unknown> {
  return sql`(case when ${dueCondition(now, table)} then ${col(table, 'publish_at')} else ${col(table, 'published_at')} end)`;
}

/**
 * The publication time as production readers see it, written so that an index can serve it
 * (index `entries_type_pub_published`, src/db/dialect.ts PRODUCTION_SORT_EXPRESSIONS): a scheduled
 * row's `publish_at`, any other row's `published_at`. It does not depend on `now`, yet on every
 * row production may see (published, or scheduled and due) it equals effectivePublishedAt.
 */
export function productionPublishedAt(table: ItemTable): RawBuilder<unknown> {
  return sql`(case when ${col(table, 'status')} = 'scheduled' then ${col(table, 'publish_at')} else ${col(table, 'published_at')} end)`;
}

/**
 * `updated_at` as production readers see it (D70): the time of the published version, i.e. the
 * last publication (a due scheduled row: its `publish_at`). Saving a working copy does not
 * change it, so production answers, their order included, do not move on a save.
 */
export function publishedUpdatedAt(table: ItemTable): RawBuilder<string> {
  return sql<string>`coalesce(${col(table, 'published_at')}, ${col(table, 'publish_at')}, ${col(table, 'updated_at')})`;
}
