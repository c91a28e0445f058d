/**
 * SQL of the delivery API's page reads. Each function is one query whatever the size of the
 * page: a page by slug with its SEO translation in the requested locale joined, a list page with
 * the same join and its sort values, the list's total, and every block of a page with its
 * translation in the requested locale joined. Sort keys and keyset conditions are the delivery
 * module's own SQL fragments, applied to the `pages` table.
 *
 * What each perspective reads is the read model's (src/modules/read/resolver.ts): the published
 * perspective (production keys) a page's published copy (`published_seo`, published SEO
 * translations, published blocks and their translations; docs/api.md "Working copies, publishing
 * changes and history" (D70)) and the publication's
 * time and author as `updated_at`/`updated_by`, the working perspective (preview keys) its
 * working copy: the same queries on tables of the same shape; a release perspective (D111) the
 * published copies with the release's items laid over them (the read model's tables, which
 * readerOf and selectPages add to the statement). Visible pages: visibleCondition (D21: due
 * scheduled pages count as published).
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/types.js';
import type { CursorPosition } from '../delivery/cursor.js';
import type { SortValue } from '../delivery/model.js';
import { keysetCondition, nullsOrdered, sortExpression } from '../delivery/query/conditions.js';
import type { Perspective } from '../read/perspective.js';
import { contentColumns, readerOf, readSource, selectPages, visibleCondition } from '../read/resolver.js';
import type { SortSpec } from '../delivery/sort.js';
import { listBlockTranslations, type PageRow } from './repository.js';

/** A visible page with its SEO translation in the requested locale (null columns when none). */
export interface DeliveryPageRow extends PageRow {
  tr_id: number | null;
  tr_seo: unknown;
  /** List rows with a locale: whether any block of the page has a translation in it (0/1 or boolean). */
  tr_blocks?: unknown;
  sort_value?: SortValue;
}

/** A block with its translation in the requested locale (null columns when none or not asked). */
export interface DeliveryBlockRow {
  id: string;
  page_id: string;
  block_type_id: string;
  parent_id: string | null;
  position: number;
  data: unknown;
  tr_id: number | null;
  tr_data: unknown;
}

/** The page columns delivery reads (the content and updated_* columns depend on the perspective: contentColumns). */
export const PAGE_COLUMNS = [
  'pages.id',
  'pages.workspace_id',
  'pages.slug',
  'pages.status',
  'pages.position',
  'pages.publish_at',
  'pages.published_at',
  'pages.version',
  'pages.created_at',
  'pages.created_by',
  'pages.published_by',
  'pages.published_version',
  'pages.latest_version',
  'pages.has_pending_changes',
] as const;

export interface DeliveryPageQuery {
  workspaceId: string;
  perspective: Perspective;
  /** ISO time of the request (D21). */
  now: string;
  /** Locale whose SEO translation is joined; null for the default locale (nothing to join). */
  locale: string | null;
}

/** SELECT of page columns plus the SEO translation in `locale` (null columns for the default locale). */
function pageSelect(db: Db, locale: string | null, perspective: Perspective, now: string) {
  const src = readSource(perspective);
  return selectPages(db, perspective, now)
    .$if(locale !== null, (qb) => qb.leftJoin(`${src.seoTranslations} as t`, (j) => j.onRef('t.page_id', '=', 'pages.id').on('t.locale', '=', locale ?? '')))
    .select(PAGE_COLUMNS)
    .select(contentColumns(perspective, 'pages'))
    .select(
      locale === null
        ? [sql<number | null>`null`.as('tr_id'), sql<unknown>`null`.as('tr_seo')]
        : [sql<number | null>`${sql.ref('t.id')}`.as('tr_id'), sql<unknown>`${sql.ref('t.seo')}`.as('tr_seo')],
    );
}

/** The visible page of the workspace with this slug, or null. */
export async function findDeliveryPageRow(db: Db, q: DeliveryPageQuery & { slug: string }): Promise<DeliveryPageRow | null> {
  const row = await pageSelect(db, q.locale, q.perspective, q.now)
    .where('pages.workspace_id', '=', q.workspaceId)
    .where('pages.slug', '=', q.slug)
    .where(visibleCondition(q.perspective, q.now, 'pages'))
    .executeTakeFirst();
  return (row as DeliveryPageRow | undefined) ?? null;
}

function whereList(q: DeliveryPageQuery): Expression<SqlBool>[] {
  return [sql<SqlBool>`"pages"."workspace_id" = ${q.workspaceId}`, visibleCondition(q.perspective, q.now, 'pages')];
}

/**
 * One page of the visible pages in the order of `sort` (then id), after `after` (cursor mode) or
 * from `offset`, each with its SEO translation and its sort value.
 */
export async function listDeliveryPageRows(
  db: Db,
  q: DeliveryPageQuery & { sort: SortSpec },
  page: { limit: number; offset?: number; after?: CursorPosition },
): Promise<DeliveryPageRow[]> {
  const key = sortExpression(db.dialect, q.sort, q.now, 'pages', q.perspective);
  const conditions = whereList(q);
  if (page.after) conditions.push(keysetCondition(key, q.sort, page.after, 'pages'));
  const dir = q.sort.direction;
  const src = readSource(q.perspective);
  let query = pageSelect(db, q.locale, q.perspective, q.now)
    .select(sql<SortValue>`${key}`.as('sort_value'))
    .$if(q.locale !== null, (qb) =>
      qb.select(
        sql<boolean>`exists (select 1 from ${sql.table(src.blockTranslations)} bt join ${sql.table(src.blocks)} b on b.id = bt.block_id and b.page_id = bt.page_id
          where b.page_id = ${sql.ref('pages.id')} and bt.locale = ${q.locale ?? ''})`.as('tr_blocks'),
      ),
    )
    .where((eb) => eb.and(conditions))
    .orderBy(key, (ob) => nullsOrdered(ob, q.sort))
    .orderBy('pages.id', dir)
    .limit(page.limit);
  if (page.offset) query = query.offset(page.offset);
  return (await query.execute()) as DeliveryPageRow[];
}

/** The number of visible pages (offset mode's `total_data`). */
export async function countDeliveryPageRows(db: Db, q: DeliveryPageQuery): Promise<number> {
  const row = await selectPages(db, q.perspective, q.now)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) => eb.and(whereList(q)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Every block of a page, with its translation in `locale` joined when one is asked for. */
export async function findDeliveryBlockRows(db: Db, pageId: string, locale: string | null, perspective: Perspective, now: string): Promise<DeliveryBlockRow[]> {
  const src = readSource(perspective);
  const rows = await readerOf(db, perspective, now)
    .selectFrom(`${src.blocks} as b`)
    .$if(locale !== null, (qb) =>
      qb.leftJoin(`${src.blockTranslations} as t`, (j) => {
        // Blocks are keyed per page, working and published alike (a block id may be on two pages).
        return j
          .onRef('t.block_id', '=', 'b.id')
          .on('t.locale', '=', locale ?? '')
          .on(sql.ref('t.page_id'), '=', pageId);
      }),
    )
    .select(['b.id', 'b.page_id', 'b.block_type_id', 'b.parent_id', 'b.position', 'b.data'])
    .select(
      locale === null
        ? [sql<number | null>`null`.as('tr_id'), sql<unknown>`null`.as('tr_data')]
        : [sql<number | null>`${sql.ref('t.id')}`.as('tr_id'), sql<unknown>`${sql.ref('t.data')}`.as('tr_data')],
    )
    .where('b.page_id', '=', pageId)
    .execute();
  return rows as DeliveryBlockRow[];
}

/** Every SEO translation of a page as `perspective` sees it at `now`, by locale. */
export async function listDeliverySeoTranslations(
  db: Db,
  pageId: string,
  perspective: Perspective,
  now: string,
): Promise<{ id: number; page_id: string; locale: string; seo: unknown }[]> {
  const rows = await readerOf(db, perspective, now)
    .selectFrom(readSource(perspective).seoTranslations)
    .select(['id', 'page_id', 'locale', 'seo'])
    .where('page_id', '=', pageId)
    .orderBy('locale')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/** Every block translation of a page as `perspective` sees it at `now`, by block then locale. */
export async function listDeliveryBlockTranslations(
  db: Db,
  pageId: string,
  perspective: Perspective,
  now: string,
): Promise<{ id: number; block_id: string; locale: string; data: unknown }[]> {
  // The working copies' translations are the management API's own read.
  if (perspective === 'working') return listBlockTranslations(db, pageId);
  const rows = await readerOf(db, perspective, now)
    .selectFrom(readSource(perspective).blockTranslations as 'published_block_translations' | 'release_block_translations')
    .select(['id', 'block_id', 'locale', 'data'])
    .where('page_id', '=', pageId)
    .orderBy('block_id')
    .orderBy('locale')
    .execute();
  return rows.map((r) => ({ ...r, id: Number(r.id) }));
}

/**
 * Every block of several pages, each with its translation in `locale` joined when one is asked
 * for: findDeliveryBlockRows for any number of pages in one query.
 */
export async function findDeliveryBlockRowsOfPages(
  db: Db,
  pageIds: readonly string[],
  locale: string | null,
  perspective: Perspective,
  now: string,
): Promise<DeliveryBlockRow[]> {
  if (pageIds.length === 0) return [];
  const src = readSource(perspective);
  const rows = await readerOf(db, perspective, now)
    .selectFrom(`${src.blocks} as b`)
    .$if(locale !== null, (qb) =>
      // Blocks are keyed per page, working and published alike (a block id may be on two pages).
      qb.leftJoin(`${src.blockTranslations} as t`, (j) =>
        j
          .onRef('t.block_id', '=', 'b.id')
          .on('t.locale', '=', locale ?? '')
          .onRef('t.page_id', '=', 'b.page_id'),
      ),
    )
    .select(['b.id', 'b.page_id', 'b.block_type_id', 'b.parent_id', 'b.position', 'b.data'])
    .select(
      locale === null
        ? [sql<number | null>`null`.as('tr_id'), sql<unknown>`null`.as('tr_data')]
        : [sql<number | null>`${sql.ref('t.id')}`.as('tr_id'), sql<unknown>`${sql.ref('t.data')}`.as('tr_data')],
    )
    .where('b.page_id', 'in', [...pageIds])
    .execute();
  return rows as DeliveryBlockRow[];
}
