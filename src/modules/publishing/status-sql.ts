/**
 * The status rule of entries and pages in SQL, in one place (docs/api.md "States and scheduling"
 * (D20, D21)): a scheduled
 * item whose `publish_at` has passed IS published, before the publishing job rewrites its row.
 * Management lists filter with statusCondition, and the job and the write path's catch-up find
 * due items with dueCondition; both say the same thing as effectiveStatus() in states.ts says in
 * TypeScript. Which statuses each reader sees (published versus working copies) is the read
 * model's: visibleCondition in src/modules/read/resolver.ts.
 *
 * `table` names the item table (`entries` or `pages`: both have the same publication columns).
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Status } from './states.js';

/** Tables with the publication columns (status, publish_at, published_at) and an id. */
export type ItemTable = 'entries' | 'pages';

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
