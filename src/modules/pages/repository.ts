/**
 * SQL for pages, their SEO translations, blocks and block translations (one Kysely code path for
 * SQLite and PostgreSQL). Management reads and writes; the delivery reads are in
 * delivery-repository.ts.
 *
 * Concurrency: like entries, writers take row locks (src/db/lock.ts) before reading what they
 * will change: lockWorkspacePages for writes that check slugs or positions across the workspace's
 * pages, findPageForUpdate for writes to one page (its blocks included). Lock order is always
 * workspace, then page.
 *
 * Block ids are unique within their page only (migration 007), so every block statement names
 * the page as well as the id.
 *
 * Block trees are written so that the foreign keys (`parent_id` → blocks, ON DELETE CASCADE)
 * hold at every statement: new blocks are inserted parents first, kept blocks are then moved to
 * their new parents, and only then are the blocks no longer sent deleted (their removal cannot
 * cascade into a kept block, which no longer hangs below them).
 */
import type { Db } from '../../db/types.js';
import { fromJsonColumn, isPlainObject, stableStringify } from '../../lib/json.js';
import { ITEM_COLUMNS, toItemRecord, type ItemRow } from '../publishing/item.js';
import { deleteItemRow, insertItemRow, itemStore, PAGE_TABLES, updateItemRow, updateItemRows, type ItemRef } from '../publishing/repository.js';
import type { Block, BlockData, BlockTranslation, Page, PageContent, Seo, SeoOverrides, SeoTranslation } from './model.js';
import { pickSeo, seoFromColumn } from './seo.js';

/** Addresses one page of a workspace. */
export type PageRef = ItemRef;

/** Rows per multi-row INSERT (well below both databases' bound-parameter limits). */
const INSERT_CHUNK = 200;

export type PageRow = ItemRow & { seo: unknown };

/** The page row's columns (not the published SEO, which only delivery reads). */
export const PAGE_ROW_COLUMNS = [...ITEM_COLUMNS, 'seo'] as const;

export function toPage(row: PageRow): Page {
  return { ...toItemRecord(row), seo: seoFromColumn(fromJsonColumn<unknown>(row.seo, {})) };
}

/** A JSON column holding an object; anything else reads as an empty object. */
export function objectFromColumn(value: unknown): Record<string, unknown> {
  const parsed = fromJsonColumn<unknown>(value, {});
  return isPlainObject(parsed) ? parsed : {};
}

/**
 * Reads and locks of pages (the shared ItemStore, scoped by workspace): findPage (by id or
 * slug), findPageForUpdate (locks its row first), lockWorkspacePages (serializes writers that
 * check slugs or navigation positions), listPageRows (a management page and the total),
 * pageIdBySlug, pageSlugsLike, maxPagePosition and pageExists.
 */
export const {
  find: findPage,
  findForUpdate: findPageForUpdate,
  lockScope: lockWorkspacePages,
  list: listPageRows,
  idBySlug: pageIdBySlug,
  slugsLike: pageSlugsLike,
  maxPosition: maxPagePosition,
  exists: pageExists,
} = itemStore<PageRow, Page>(PAGE_TABLES, PAGE_ROW_COLUMNS, 'workspace_id', async (_db, rows) => rows.map(toPage));

/** The blocks (flat, with their type slugs), SEO translations and block translations of a page. */
export async function loadPageContent(db: Db, page: Page): Promise<PageContent> {
  const blockRows = await db.kysely
    .selectFrom('blocks as b')
    .innerJoin('content_types as ct', 'ct.id', 'b.block_type_id')
    .select(['b.id', 'b.page_id', 'b.block_type_id', 'ct.slug as type', 'b.parent_id', 'b.position', 'b.data'])
    .where('b.page_id', '=', page.id)
    .orderBy('b.position')
    .orderBy('b.id')
    .execute();
  // Sequential on purpose: inside a transaction both run on the one connection anyway.
  const seoTranslations = await listSeoTranslations(db, page.id);
  const blockTranslations = await listBlockTranslations(db, page.id);
  return {
    page,
    blocks: blockRows.map((r) => ({ ...r, position: Number(r.position), data: objectFromColumn(r.data) })),
    seoTranslations,
    blockTranslations,
  };
}

/** Every SEO translation of a page, by locale. */
export async function listSeoTranslations(db: Db, pageId: string): Promise<SeoTranslation[]> {
  const rows = await db.kysely
    .selectFrom('page_seo_translations')
    .select(['id', 'page_id', 'locale', 'seo'])
    .where('page_id', '=', pageId)
    .orderBy('locale')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), page_id: r.page_id, locale: r.locale, seo: pickSeo(objectFromColumn(r.seo)) }));
}

/** Every translation of every block of a page, by block then locale. */
export async function listBlockTranslations(db: Db, pageId: string): Promise<BlockTranslation[]> {
  const rows = await db.kysely
    .selectFrom('block_translations as t')
    .select(['t.id', 't.block_id', 't.locale', 't.data'])
    .where('t.page_id', '=', pageId)
    .orderBy('t.block_id')
    .orderBy('t.locale')
    .execute();
  return rows.map((r) => ({ id: Number(r.id), block_id: r.block_id, locale: r.locale, data: objectFromColumn(r.data) }));
}

export const insertPageRow = (db: Db, page: Page): Promise<void> => insertItemRow(db, PAGE_TABLES, page);

/** Working-copy columns and attributes of a page row; publication columns go through the publishing core. */
export type PagePatch = Partial<Pick<Page, 'slug' | 'seo' | 'position' | 'version' | 'updated_at' | 'updated_by'>>;

export const updatePageRow = (db: Db, id: string, patch: PagePatch): Promise<void> => updateItemRow(db, PAGE_TABLES, id, patch);

/** Removes a page with its blocks, every translation, its published copy and its history (D72). */
export async function deletePageRow(db: Db, id: string): Promise<void> {
  // The foreign keys cascade too; explicit deletes keep it obvious on both dialects.
  await db.kysely.deleteFrom('block_translations').where('page_id', '=', id).execute();
  await db.kysely.deleteFrom('blocks').where('page_id', '=', id).execute();
  await db.kysely.deleteFrom('page_seo_translations').where('page_id', '=', id).execute();
  await dropPagePublished(db, id);
  // A deleted page leaves every release it was in, with its release versions (D110).
  await db.kysely.deleteFrom('release_items').where('kind', '=', 'page').where('item_id', '=', id).execute();
  await deleteItemRow(db, PAGE_TABLES, id);
}

/**
 * Makes the published copy of a page (what production keys read, D70) equal to its working
 * copy: `published_seo`, published SEO translations, published blocks and their translations.
 */
export async function copyPageToPublished(db: Db, id: string): Promise<void> {
  await dropPagePublished(db, id);
  await db.kysely
    .updateTable('pages')
    .set((eb) => ({ published_seo: eb.ref('seo') }))
    .where('id', '=', id)
    .execute();
  await db.kysely
    .insertInto('published_page_seo_translations')
    .columns(['page_id', 'locale', 'id', 'seo'])
    .expression(db.kysely.selectFrom('page_seo_translations').select(['page_id', 'locale', 'id', 'seo']).where('page_id', '=', id))
    .execute();
  await db.kysely
    .insertInto('published_blocks')
    .columns(['id', 'page_id', 'block_type_id', 'parent_id', 'position', 'data'])
    .expression(db.kysely.selectFrom('blocks').select(['id', 'page_id', 'block_type_id', 'parent_id', 'position', 'data']).where('page_id', '=', id))
    .execute();
  await db.kysely
    .insertInto('published_block_translations')
    .columns(['block_id', 'page_id', 'locale', 'id', 'data'])
    .expression(db.kysely.selectFrom('block_translations as t').select(['t.block_id', 't.page_id', 't.locale', 't.id', 't.data']).where('t.page_id', '=', id))
    .execute();
}

/** A page's content as a snapshot holds it (snapshot.ts), for the batch writers below. */
export interface PageContentCopy {
  id: string;
  seo: Seo;
  seo_translations: readonly { id: number; locale: string; seo: SeoOverrides }[];
  blocks: readonly { id: string; block_type_id: string; parent_id: string | null; position: number; data: BlockData }[];
  block_translations: readonly { id: number; block_id: string; locale: string; data: BlockData }[];
}

/** Deletes the rows of a published table for these pages, 500 pages per statement. */
async function deletePublishedRows(
  db: Db,
  table: 'published_block_translations' | 'published_blocks' | 'published_page_seo_translations',
  ids: readonly string[],
): Promise<void> {
  for (let i = 0; i < ids.length; i += 500)
    await db.kysely
      .deleteFrom(table)
      .where('page_id', 'in', ids.slice(i, i + 500))
      .execute();
}

/** Inserts rows into a table, INSERT_CHUNK per statement. */
async function insertChunked<T extends 'published_page_seo_translations' | 'published_blocks' | 'published_block_translations'>(
  db: Db,
  table: T,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK)
    await db.kysely
      .insertInto(table)
      .values(rows.slice(i, i + INSERT_CHUNK) as never)
      .execute();
}

/**
 * Replaces the published copies of these pages (`published_seo`, SEO translations, blocks and
 * block translations) by the given content, a few statements per chunk of pages whatever their
 * number: a release's publication and its revert (src/modules/publishing/snapshots.ts). Parents
 * are inserted before their children (blocks sorted by depth), so the tree's keys hold.
 */
export async function writePagePublishedCopies(db: Db, items: readonly PageContentCopy[]): Promise<void> {
  if (items.length === 0) return;
  const ids = items.map((i) => i.id);
  await dropPagePublishedCopies(db, ids);
  await updateItemRows(
    db,
    PAGE_TABLES,
    items.map((i) => ({ id: i.id, columns: { published_seo: i.seo } })),
  );
  await insertChunked(
    db,
    'published_page_seo_translations',
    items.flatMap((p) => p.seo_translations.map((t) => ({ page_id: p.id, locale: t.locale, id: t.id, seo: JSON.stringify(t.seo) }))),
  );
  await insertChunked(
    db,
    'published_blocks',
    items.flatMap((p) =>
      parentsFirst(p.blocks).map((b) => ({
        id: b.id,
        page_id: p.id,
        block_type_id: b.block_type_id,
        parent_id: b.parent_id,
        position: b.position,
        data: JSON.stringify(b.data),
      })),
    ),
  );
  await insertChunked(
    db,
    'published_block_translations',
    items.flatMap((p) => p.block_translations.map((t) => ({ block_id: t.block_id, page_id: p.id, locale: t.locale, id: t.id, data: JSON.stringify(t.data) }))),
  );
}

/** The blocks of one page ordered so that every parent comes before its children. */
function parentsFirst<B extends { id: string; parent_id: string | null }>(blocks: readonly B[]): B[] {
  const byId = new Map(blocks.map((b) => [b.id, b]));
  const depth = new Map<string, number>();
  const depthOf = (b: B, seen = 0): number => {
    const known = depth.get(b.id);
    if (known !== undefined) return known;
    const parent = b.parent_id === null ? undefined : byId.get(b.parent_id);
    const d = parent && seen < blocks.length ? depthOf(parent, seen + 1) + 1 : 0;
    depth.set(b.id, d);
    return d;
  };
  return [...blocks].sort((a, b) => depthOf(a) - depthOf(b));
}

/** Removes the published copies of these pages (a release's unpublish items). */
export async function dropPagePublishedCopies(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await deletePublishedRows(db, 'published_block_translations', ids);
  await deletePublishedRows(db, 'published_blocks', ids);
  await deletePublishedRows(db, 'published_page_seo_translations', ids);
  await updateItemRows(
    db,
    PAGE_TABLES,
    ids.map((id) => ({ id, columns: { published_seo: null } })),
  );
}

/**
 * Replaces the working copies of these pages by the given content at `now`, page by page through
 * the single-page writers (SEO translations by locale, the block tree keeping the ids it shares).
 */
export async function writePageWorkingCopies(db: Db, items: readonly PageContentCopy[], now: string): Promise<void> {
  for (const item of items) {
    const page = await findPage(db, await workspaceOfPage(db, item.id), { id: item.id });
    if (!page) continue;
    const content = await loadPageContent(db, page);
    await updatePageRow(db, item.id, { seo: item.seo });
    await replaceSeoTranslations(
      db,
      item.id,
      item.seo_translations.map((t) => ({ locale: t.locale, seo: t.seo })),
      now,
    );
    const translations = new Map<string, { locale: string; data: BlockData }[]>();
    for (const t of item.block_translations) translations.set(t.block_id, [...(translations.get(t.block_id) ?? []), { locale: t.locale, data: t.data }]);
    await writeBlockTree(
      db,
      item.id,
      content.blocks,
      parentsFirst(item.blocks).map((b) => ({ ...b, translations: translations.get(b.id) ?? [] })),
      now,
    );
  }
}

async function workspaceOfPage(db: Db, id: string): Promise<string> {
  const row = await db.kysely.selectFrom('pages').select('workspace_id').where('id', '=', id).executeTakeFirst();
  return row?.workspace_id ?? '';
}

/** Removes the published copy of a page (unpublish, archive: D71). */
export async function dropPagePublished(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('published_block_translations').where('page_id', '=', id).execute();
  await db.kysely.deleteFrom('published_blocks').where('page_id', '=', id).execute();
  await db.kysely.deleteFrom('published_page_seo_translations').where('page_id', '=', id).execute();
  await db.kysely.updateTable('pages').set({ published_seo: null }).where('id', '=', id).execute();
}

/** Closes the navigation gap a deleted page leaves: later pages move up by one (new ETags). */
export async function closePositionGap(db: Db, workspaceId: string, position: number, now: string): Promise<void> {
  await db.kysely
    .updateTable('pages')
    .set((eb) => ({ position: eb('position', '-', 1), version: eb('version', '+', 1), updated_at: now }))
    .where('workspace_id', '=', workspaceId)
    .where('position', '>', position)
    .execute();
}

/** Ids, positions and versions of the workspace's pages in navigation order. */
export async function pagePositions(db: Db, workspaceId: string): Promise<{ id: string; position: number; version: number }[]> {
  const rows = await db.kysely
    .selectFrom('pages')
    .select(['id', 'position', 'version'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, position: Number(r.position), version: Number(r.version) }));
}

/**
 * Makes the page's SEO translations exactly `wanted` (one per locale): existing locales are
 * updated in place (their integer ids stay), new ones inserted, the others deleted.
 */
export async function replaceSeoTranslations(db: Db, pageId: string, wanted: { locale: string; seo: SeoOverrides }[], now: string): Promise<void> {
  const existing = await db.kysely.selectFrom('page_seo_translations').select(['id', 'locale', 'seo']).where('page_id', '=', pageId).execute();
  const wantedLocales = new Set(wanted.map((t) => t.locale));
  const stale = existing.filter((e) => !wantedLocales.has(e.locale)).map((e) => e.id);
  if (stale.length) await db.kysely.deleteFrom('page_seo_translations').where('id', 'in', stale).execute();
  const have = new Map(existing.map((e) => [e.locale, stableStringify(pickSeo(objectFromColumn(e.seo)))]));
  for (const t of wanted) {
    const stored = have.get(t.locale);
    if (stored === undefined) {
      await db.kysely
        .insertInto('page_seo_translations')
        .values({ page_id: pageId, locale: t.locale, seo: JSON.stringify(t.seo), created_at: now, updated_at: now })
        .execute();
    } else if (stored !== stableStringify(t.seo)) {
      await db.kysely
        .updateTable('page_seo_translations')
        .set({ seo: JSON.stringify(t.seo), updated_at: now })
        .where('page_id', '=', pageId)
        .where('locale', '=', t.locale)
        .execute();
    }
  }
}

/** A block as written by writeBlockTree. */
export interface BlockWrite {
  id: string;
  parent_id: string | null;
  position: number;
  block_type_id: string;
  data: BlockData;
  /** undefined keeps the stored translations (kept blocks) or writes none (new blocks). */
  translations: { locale: string; data: BlockData }[] | undefined;
}

/**
 * Makes the page's block tree exactly `wanted` (pre-order: parents before children). Blocks whose
 * id the page already has are updated where they changed; the others are inserted; blocks not in
 * `wanted` are deleted with their translations. Translations are replaced for blocks that carry
 * them (integer ids of unchanged locales stay).
 */
export async function writeBlockTree(db: Db, pageId: string, current: readonly Block[], wanted: readonly BlockWrite[], now: string): Promise<void> {
  const byId = new Map(current.map((b) => [b.id, b]));
  const inserts = wanted.filter((b) => !byId.has(b.id));
  for (let i = 0; i < inserts.length; i += INSERT_CHUNK) {
    await db.kysely
      .insertInto('blocks')
      .values(
        inserts.slice(i, i + INSERT_CHUNK).map((b) => ({
          id: b.id,
          page_id: pageId,
          block_type_id: b.block_type_id,
          parent_id: b.parent_id,
          position: b.position,
          data: JSON.stringify(b.data),
          created_at: now,
          updated_at: now,
        })),
      )
      .execute();
  }
  for (const b of wanted) {
    const old = byId.get(b.id);
    if (!old) continue;
    const dataChanged = stableStringify(old.data) !== stableStringify(b.data);
    if (!dataChanged && old.parent_id === b.parent_id && old.position === b.position && old.block_type_id === b.block_type_id) continue;
    await db.kysely
      .updateTable('blocks')
      .set({
        parent_id: b.parent_id,
        position: b.position,
        block_type_id: b.block_type_id,
        ...(dataChanged ? { data: JSON.stringify(b.data) } : {}),
        updated_at: now,
      })
      .where('page_id', '=', pageId)
      .where('id', '=', b.id)
      .execute();
  }
  const keep = new Set(wanted.map((b) => b.id));
  const removed = current.filter((b) => !keep.has(b.id)).map((b) => b.id);
  for (let i = 0; i < removed.length; i += 500) {
    const chunk = removed.slice(i, i + 500);
    await db.kysely.deleteFrom('block_translations').where('page_id', '=', pageId).where('block_id', 'in', chunk).execute();
    await db.kysely.deleteFrom('blocks').where('page_id', '=', pageId).where('id', 'in', chunk).execute();
  }
  await writeBlockTranslations(
    db,
    pageId,
    wanted.filter((b) => b.translations !== undefined),
    now,
  );
}

async function writeBlockTranslations(db: Db, pageId: string, blocks: readonly BlockWrite[], now: string): Promise<void> {
  if (!blocks.length) return;
  const ids = blocks.map((b) => b.id);
  const existing: { id: number; block_id: string; locale: string; data: unknown }[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    existing.push(
      ...(await db.kysely
        .selectFrom('block_translations')
        .select(['id', 'block_id', 'locale', 'data'])
        .where('page_id', '=', pageId)
        .where('block_id', 'in', ids.slice(i, i + 500))
        .execute()),
    );
  }
  const stored = new Map(existing.map((e) => [`${e.block_id}\u0000${e.locale}`, e]));
  const wantedKeys = new Set<string>();
  const inserts: { page_id: string; block_id: string; locale: string; data: string; created_at: string; updated_at: string }[] = [];
  for (const b of blocks) {
    for (const t of b.translations ?? []) {
      const key = `${b.id}\u0000${t.locale}`;
      wantedKeys.add(key);
      const old = stored.get(key);
      if (!old) inserts.push({ page_id: pageId, block_id: b.id, locale: t.locale, data: JSON.stringify(t.data), created_at: now, updated_at: now });
      else if (stableStringify(objectFromColumn(old.data)) !== stableStringify(t.data)) {
        await db.kysely
          .updateTable('block_translations')
          .set({ data: JSON.stringify(t.data), updated_at: now })
          .where('id', '=', old.id)
          .execute();
      }
    }
  }
  const stale = existing.filter((e) => !wantedKeys.has(`${e.block_id}\u0000${e.locale}`)).map((e) => e.id);
  for (let i = 0; i < stale.length; i += 500)
    await db.kysely
      .deleteFrom('block_translations')
      .where('id', 'in', stale.slice(i, i + 500))
      .execute();
  for (let i = 0; i < inserts.length; i += INSERT_CHUNK)
    await db.kysely
      .insertInto('block_translations')
      .values(inserts.slice(i, i + INSERT_CHUNK))
      .execute();
}

/** Ids and positions of the children of `parentId` (null: the root blocks) of a page, in order. */
export async function siblingBlocks(db: Db, pageId: string, parentId: string | null): Promise<{ id: string; position: number }[]> {
  let q = db.kysely.selectFrom('blocks').select(['id', 'position']).where('page_id', '=', pageId);
  q = parentId === null ? q.where('parent_id', 'is', null) : q.where('parent_id', '=', parentId);
  const rows = await q.orderBy('position').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, position: Number(r.position) }));
}

export async function setBlockPosition(db: Db, pageId: string, id: string, position: number, now: string): Promise<void> {
  await db.kysely.updateTable('blocks').set({ position, updated_at: now }).where('page_id', '=', pageId).where('id', '=', id).execute();
}

/**
 * Parent ids (null: a root) of those of `ids` that are blocks of the page; ids of other pages or
 * of nothing are absent. Lets a block reorder without `parent_id` infer its scope.
 */
export async function blockParents(db: Db, pageId: string, ids: string[]): Promise<Map<string, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await db.kysely.selectFrom('blocks').select(['id', 'parent_id']).where('page_id', '=', pageId).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.parent_id]));
}

/** Whether `blockId` is a block of the page. */
export async function blockOfPage(db: Db, pageId: string, blockId: string): Promise<boolean> {
  return Boolean(await db.kysely.selectFrom('blocks').select('id').where('page_id', '=', pageId).where('id', '=', blockId).executeTakeFirst());
}

/** The current slug of each of these block types (a version may name a type renamed since). */
export async function blockTypeSlugs(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await db.kysely
    .selectFrom('content_types')
    .select(['id', 'slug'])
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((r) => [r.id, r.slug]));
}
