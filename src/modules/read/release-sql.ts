/**
 * The tables of the release perspective (docs/releases.md "Reading the workspace as a release
 * will make it"; D111): for release R, each table the published perspective reads, with R's
 * items laid over it, as common table expressions of the statement that reads them:
 *
 * | CTE | is the published table … | with R's `publish` items | and R's `unpublish` items |
 * |---|---|---|---|
 * | release_entries, release_pages | entries, pages | published now (status `published`, the release version's `data` / `seo` as the published copy, published at R's `publish_at` or the time of the request, by whoever last wrote the release version) | drafts (no published copy) |
 * | release_entry_translations, release_page_seo_translations, release_blocks, release_block_translations | the `published_*` copies | the release version's rows instead of the item's published ones | without the item's rows |
 *
 * So the release perspective is the published perspective over these tables: the same
 * conditions (visibleCondition), columns (contentColumns), filters and sorts read them, and every
 * item outside R is exactly what production readers see. Release versions are the snapshots
 * release_items keeps (migration 023), read with the JSON helpers of src/db/json-sql.ts.
 *
 * Each CTE is NOT MATERIALIZED: the planner of either database folds it into the query that
 * names it, so a lookup by id, slug or content type stays an index lookup on the real table plus
 * one primary-key probe of release_items (release_id, kind, item_id) per row, instead of a copy
 * of the workspace's content per statement. A CTE the statement does not name costs nothing.
 */
import { sql, type Expression, type QueryCreator, type RawBuilder } from 'kysely';
import { jsonElementsSql, jsonIntSql, jsonMemberSql, jsonTextSql } from '../../db/json-sql.js';
import type {
  Database,
  Db,
  Dialect,
  EntriesTable,
  PagesTable,
  PublishedBlocksTable,
  PublishedBlockTranslationsTable,
  PublishedEntryTranslationsTable,
  PublishedPageSeoTranslationsTable,
} from '../../db/types.js';

/** The CTEs a release perspective reads, named as ReadSource names them. */
export interface ReleaseTables {
  release_entries: EntriesTable;
  release_entry_translations: PublishedEntryTranslationsTable;
  release_pages: PagesTable;
  release_page_seo_translations: PublishedPageSeoTranslationsTable;
  release_blocks: PublishedBlocksTable;
  release_block_translations: PublishedBlockTranslationsTable;
}

/** The tables a read-model query may name: the database's, and the release perspective's CTEs. */
export type ReadDatabase = Database & ReleaseTables;

type Kind = 'entry' | 'page';

/** A CTE's row as Kysely sees it while building the statement (ReleaseTables types the reads). */
type Row = Record<string, unknown>;

/** `release_items ri` of release `id` and kind `kind`, as FROM-clause conditions. */
function itemsOf(id: string, kind: Kind): RawBuilder<unknown> {
  return sql`"ri"."release_id" = ${id} and "ri"."kind" = ${kind}`;
}

/** Columns of entries and pages the release leaves as they are (attributes and the working copy). */
const ITEM_COLUMNS = [
  'id',
  'workspace_id',
  'slug',
  'position',
  'version',
  'created_at',
  'updated_at',
  'created_by',
  'updated_by',
  'latest_version',
  'has_pending_changes',
];

/** The item table (entries or pages) with the release's items laid over its publication columns. */
function itemTable(dialect: Dialect, id: string, now: string, kind: Kind): RawBuilder<Row> {
  const table = kind === 'entry' ? 'entries' : 'pages';
  const content = kind === 'entry' ? 'published_data' : 'published_seo';
  const member = kind === 'entry' ? 'data' : 'seo';
  const kept = [...ITEM_COLUMNS, ...(kind === 'entry' ? ['content_type_id', 'data'] : ['seo'])];
  const i = (c: string) => sql.ref(`i.${c}`);
  const action = sql.ref('ri.action');
  const snapshot = sql.ref('ri.snapshot');
  // Parenthesized: Kysely writes a raw CTE body as it is.
  return sql<Row>`(select ${sql.join(kept.map(i))},
    case when ${action} = 'publish' then 'published' when ${action} = 'unpublish' then 'draft' else ${i('status')} end as "status",
    case when ${action} is null then ${i('publish_at')} end as "publish_at",
    case when ${action} = 'publish' then coalesce((select "r"."publish_at" from "releases" "r" where "r"."id" = ${id}), ${now})
         when ${action} = 'unpublish' then null else ${i('published_at')} end as "published_at",
    case when ${action} = 'publish' then ${sql.ref('ri.updated_by')} when ${action} = 'unpublish' then null else ${i('published_by')} end as "published_by",
    case when ${action} = 'publish' then ${i('latest_version')} + 1 when ${action} = 'unpublish' then null else ${i('published_version')} end as "published_version",
    case when ${action} = 'publish' then ${jsonMemberSql(dialect, snapshot, member)} when ${action} = 'unpublish' then null else ${i(content)} end as ${sql.id(content)}
    from ${sql.table(table)} as "i" left join "release_items" as "ri" on ${itemsOf(id, kind)} and "ri"."item_id" = ${i('id')})`;
}

/**
 * A published copy's table with the release's items laid over it: its rows of items outside the
 * release, then the rows each `publish` item's release version holds (`columns`: each column as
 * read from one array element `j.value` of the snapshot member `member`, in `element`).
 */
function copyTable(
  id: string,
  kind: Kind,
  table: string,
  itemColumn: string,
  element: Record<string, RawBuilder<unknown>>,
  member: string,
  dialect: Dialect,
): RawBuilder<Row> {
  const columns = Object.keys(element);
  return sql<Row>`(select ${sql.join(columns.map((c) => sql.ref(`p.${c}`)))} from ${sql.table(table)} as "p"
      where not exists (select 1 from "release_items" as "ri" where ${itemsOf(id, kind)} and "ri"."item_id" = ${sql.ref(`p.${itemColumn}`)})
    union all
    select ${sql.join(columns.map((c) => sql`${element[c]} as ${sql.id(c)}`))}
      from "release_items" as "ri" cross join ${jsonElementsSql(dialect, sql.ref('ri.snapshot'), member, 'j')}
      where ${itemsOf(id, kind)} and "ri"."action" = 'publish')`;
}

/** A published copy's table laid over: its CTE, table, item column, snapshot member and each column read from one snapshot row. */
interface CopySpec {
  cte: Exclude<keyof ReleaseTables, 'release_entries' | 'release_pages'>;
  kind: Kind;
  table: string;
  itemColumn: string;
  member: string;
  columns: (d: Dialect, value: Expression<unknown>, item: RawBuilder<unknown>) => Record<string, RawBuilder<unknown>>;
}

const COPIES: CopySpec[] = [
  {
    cte: 'release_entry_translations',
    kind: 'entry',
    table: 'published_entry_translations',
    itemColumn: 'entry_id',
    member: 'translations',
    columns: (d, v, item) => ({ entry_id: item, locale: jsonTextSql(d, v, 'locale'), id: jsonIntSql(d, v, 'id'), data: jsonMemberSql(d, v, 'data') }),
  },
  {
    cte: 'release_page_seo_translations',
    kind: 'page',
    table: 'published_page_seo_translations',
    itemColumn: 'page_id',
    member: 'seo_translations',
    columns: (d, v, item) => ({ page_id: item, locale: jsonTextSql(d, v, 'locale'), id: jsonIntSql(d, v, 'id'), seo: jsonMemberSql(d, v, 'seo') }),
  },
  {
    cte: 'release_blocks',
    kind: 'page',
    table: 'published_blocks',
    itemColumn: 'page_id',
    member: 'blocks',
    columns: (d, v, item) => ({
      id: jsonTextSql(d, v, 'id'),
      page_id: item,
      block_type_id: jsonTextSql(d, v, 'block_type_id'),
      parent_id: jsonTextSql(d, v, 'parent_id'),
      position: jsonIntSql(d, v, 'position'),
      data: jsonMemberSql(d, v, 'data'),
    }),
  },
  {
    cte: 'release_block_translations',
    kind: 'page',
    table: 'published_block_translations',
    itemColumn: 'page_id',
    member: 'block_translations',
    columns: (d, v, item) => ({
      block_id: jsonTextSql(d, v, 'block_id'),
      page_id: item,
      locale: jsonTextSql(d, v, 'locale'),
      id: jsonIntSql(d, v, 'id'),
      data: jsonMemberSql(d, v, 'data'),
    }),
  },
];

/**
 * The query creator of release `id` at `now` (ISO text): every statement it starts carries the
 * release perspective's CTEs (see the module comment).
 */
export function releaseQueries(db: Db, id: string, now: string): QueryCreator<ReadDatabase> {
  const d = db.dialect;
  const item = sql`${sql.ref('ri.item_id')}`;
  // Typed as the database's creator while the CTEs are added; ReleaseTables types the reads.
  let creator = db.kysely as QueryCreator<Database>;
  for (const kind of ['entry', 'page'] as const) {
    creator = creator.with(
      (cte) => cte(kind === 'entry' ? 'release_entries' : 'release_pages').notMaterialized(),
      () => itemTable(d, id, now, kind),
    ) as unknown as QueryCreator<Database>;
  }
  for (const c of COPIES) {
    const columns = c.columns(d, sql.ref('j.value'), item);
    creator = creator.with(
      (cte) => cte(c.cte).notMaterialized(),
      () => copyTable(id, c.kind, c.table, c.itemColumn, columns, c.member, d),
    ) as unknown as QueryCreator<Database>;
  }
  return creator as unknown as QueryCreator<ReadDatabase>;
}
