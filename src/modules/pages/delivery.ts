/**
 * Delivery of pages (docs/api.md "GET /api/v1/public/pages", "GET /api/v1/public/pages/{slug}",
 * docs/pages.md "Translations and localization"; docs/api.md
 * "Delivery keys" (D13), "GET /api/v1/public/pages" (D14), "States and scheduling" (D21), "Rules
 * Quire decided" (D24), "Localization" (D40), "The `fields` parameter" (D41), "Pagination" (D44);
 * docs/pages.md "Translations and localization" (D45)). `actor` is a delivery key: production keys
 * see
 * published pages (a due scheduled page counts as published, D21), preview keys also drafts and
 * scheduled pages; any delivery key of the workspace may read its pages (D13).
 *
 * - `workspace_id` is optional (D14); when given it must be the key's workspace, else 403.
 * - `locale` must be a workspace locale (400). With it, `page.seo` and every block's `data` are
 *   resolved field by field (a translated value overrides the default one; a block without a
 *   translation keeps its default data; an absent SEO translation falls back to `page.seo`), and
 *   `seo_translations` / `block_translations` hold only that locale (D45); the page carries
 *   `is_fallback`, true when the locale is not the default and the page has no translation in it
 *   (neither SEO nor any block), as entries do (rule 3). Without `locale`, data is the default
 *   locale's and both arrays hold every translation.
 * - Relation and media fields inside blocks resolve one level deep like entries (D41), with the
 *   delivery module's own resolution: the ids of every block are collected first, then one query
 *   loads the related entries and one the media, whatever the number of blocks.
 * - The list is sorted `position:asc` by default (also `created_at`, `updated_at`,
 *   `published_at`, `slug`), paginated by offset or by signed cursor with the entries' meta.
 *
 * A page read costs: the schema fingerprint (cached model), the page (SEO translation joined),
 * its blocks (translations joined), at most one query for related entries and one for media;
 * without `locale`, one more each for the SEO and block translation lists.
 */
import type { Context } from '../../context.js';
import { forbidden, notFound } from '../../errors.js';
import { offsetMeta, offsetPage } from '../../lib/pagination.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../delivery/cursor.js';
import { fullProjection, type Projection } from '../delivery/fields-selection.js';
import { isFallback, resolveRequestedLocale, type RequestedLocale } from '../delivery/localization.js';
import type { DeliveryListMeta, DeliverySchema, DeliveryType } from '../delivery/model.js';
import { projectData } from '../delivery/present.js';
import { objectColumn, resolveReferenceGroups, type LocalizedData } from '../delivery/relations.js';
import { loadDeliverySchema } from '../delivery/schema-cache.js';
import type { SortSpec } from '../delivery/sort.js';
import { perspectiveBinding, perspectiveOf, type Perspective } from '../read/perspective.js';
import { effectiveStatus } from '../publishing/states.js';
import {
  countDeliveryPageRows,
  findDeliveryBlockRows,
  findDeliveryBlockRowsOfPages,
  findDeliveryPageRow,
  listDeliveryBlockTranslations,
  listDeliveryPageRows,
  listDeliverySeoTranslations,
  type DeliveryPageQuery,
  type DeliveryPageRow,
} from './delivery-repository.js';
import type { Block, BlockTranslation, Page, PageContent, SeoOverrides, SeoTranslation } from './model.js';
import { parsePageSort } from './operations.js';
import { toPage } from './repository.js';
import { notePages } from '../read/cache-tags.js';
import { overlaySeo, pickSeo, SEO_TRACED_FIELDS } from './seo.js';
import { treePaths } from './tree.js';
import {
  blockOrigin,
  jsonPath,
  jsonPathOfDotted,
  pageOrigin,
  sourceMapOf,
  traceSeo,
  traceValue,
  type OriginItem,
  type SourceMap,
  type Trace,
  type TracedField,
} from '../read/source-map.js';
import { checkTraceRequest, openTrace, restTraceRequest } from '../read/trace.js';

export interface DeliveryPageListInput {
  workspace_id?: string;
  locale?: string;
  page?: number;
  limit?: number;
  sort?: string;
  cursor?: string;
  /** D140 (preview keys only). */
  source_maps?: boolean;
  stega?: boolean;
}

export interface DeliveryPageInput {
  workspace_id?: string;
  locale?: string;
  /** D140 (preview keys only). */
  source_maps?: boolean;
  stega?: boolean;
}

/** A delivered page: `is_fallback` only when a locale was requested (D40). */
export type DeliveredPage = Page & { is_fallback?: boolean };

/** A delivered page with its blocks, their `data` resolved (D41, D45), and its translations. */
export interface DeliveredPageContent extends PageContent {
  page: DeliveredPage;
}

/** D14: 403 FORBIDDEN when `workspace_id` names another workspace than the key's. */
function checkWorkspace(actor: Actor, workspaceId: string | undefined): void {
  if (workspaceId !== undefined && workspaceId.toLowerCase() !== actor.workspaceId) {
    throw forbidden(`This API key belongs to another workspace than '${workspaceId}'`);
  }
}

/** The delivery sort of pages: the same rules as management lists (parsePageSort). */
function pageSort(raw: string | undefined): SortSpec {
  return parsePageSort(raw);
}

/**
 * A delivered page: effective status (D21) and, for a requested locale, SEO overlaid (D45) and
 * `is_fallback` (docs/pages.md "Translations and localization" rule 4: no translation of the page in that locale at all).
 */
function presentPage(
  row: DeliveryPageRow,
  now: string,
  locale: RequestedLocale,
  blocksTranslated: boolean,
  tracing: { trace: Trace; at: string } | null = null,
): DeliveredPage {
  const page = effectiveStatus(toPage(row), now);
  const translation = row.tr_seo === null || row.tr_seo === undefined ? null : pickSeo(objectColumn(row.tr_seo));
  let seo = translation === null ? page.seo : overlaySeo(page.seo, translation);
  if (tracing) {
    const origin = pageOrigin(tracing.trace, page);
    seo = traceSeo(tracing.trace, jsonPath(tracing.at, 'seo'), origin, seo, SEO_TRACED_FIELDS, translation, locale);
  }
  const delivered: DeliveredPage = { ...page, seo };
  if (locale.requested !== null) delivered.is_fallback = isFallback(locale, row.tr_id !== null || blocksTranslated);
  return delivered;
}

/** A truthy SQL flag (SQLite 0/1, PostgreSQL boolean). */
function flag(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

/** A page list checked and resolved, ready to read: REST's GET /pages and GraphQL's pageCollection. */
export interface PageListPlan {
  schema: DeliverySchema;
  locale: RequestedLocale;
  now: string;
  query: DeliveryPageQuery & { sort: SortSpec };
  /** What the list's cursors are bound to (D44). */
  binding: CursorBinding;
}

/**
 * Checks a page list request (403 workspace_id, 400 locale and sort) and resolves what it reads.
 * `model`: the workspace's model when the caller already read it for this request (GraphQL reads it once per request), else read here.
 */
export async function planPageList(
  ctx: Context,
  actor: Actor,
  input: { workspace_id?: string; locale?: string; sort?: string },
  model?: DeliverySchema,
): Promise<PageListPlan> {
  checkWorkspace(actor, input.workspace_id);
  const schema = model ?? (await loadDeliverySchema(ctx, actor));
  const locale = resolveRequestedLocale(schema.workspace, input.locale);
  const sort = pageSort(input.sort);
  notePages(ctx, schema.workspace.id, [], true);
  const perspective = perspectiveOf(actor);
  const now = iso(ctx.clock());
  const query = { workspaceId: schema.workspace.id, perspective, now, locale: locale.isDefault ? null : locale.locale, sort };
  // Cursors of pages are bound to the workspace's page list, its sort, locale and environment.
  const binding: CursorBinding = {
    contentTypeId: `pages:${schema.workspace.id}`,
    sort: sort.text,
    filters: '',
    locale: locale.requested,
    environment: perspectiveBinding(perspective),
  };
  return { schema, locale, now, query, binding };
}

/** The cursor resuming after `row` in `plan`'s list. */
export function pageCursor(ctx: Context, plan: PageListPlan, row: DeliveryPageRow): string {
  return encodeCursor(ctx.secret, plan.binding, { value: row.sort_value ?? null, id: row.id });
}

/** Up to `limit` rows of `plan`'s list after `cursor` (from the start without one), and whether more follow. 400 at `query.cursor` for another query's cursor. */
export async function readPageWindow(
  ctx: Context,
  plan: PageListPlan,
  page: { limit: number; cursor?: string },
): Promise<{ rows: DeliveryPageRow[]; more: boolean }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(ctx.secret, plan.binding, page.cursor);
  const fetched = await listDeliveryPageRows(ctx.db, plan.query, { limit: page.limit + 1, after });
  notePages(
    ctx,
    plan.schema.workspace.id,
    fetched.slice(0, page.limit).map((r) => r.id),
  );
  return { rows: fetched.slice(0, page.limit), more: fetched.length > page.limit };
}

/** The number of visible pages of `plan`'s list. */
export async function countPageList(ctx: Context, plan: PageListPlan): Promise<number> {
  return countDeliveryPageRows(ctx.db, plan.query);
}

/** A list row as delivered: effective status, SEO in the locale, `is_fallback` (from the row's block-translation flag). */
export function deliveredListPage(plan: PageListPlan, row: DeliveryPageRow, tracing: { trace: Trace; at: string } | null = null): DeliveredPage {
  return presentPage(row, plan.now, plan.locale, flag(row.tr_blocks), tracing);
}

/**
 * GET /pages: one page of the visible pages. Errors: 400 (bad locale, sort, cursor or limit), 400
 * PAGE_TOO_DEEP (page > 1000 in offset mode), 403 (workspace_id of another workspace).
 */
export async function listDeliveryPages(ctx: Context, actor: Actor, input: DeliveryPageListInput): Promise<{ items: DeliveredPage[]; meta: DeliveryListMeta }> {
  const traceRequest = restTraceRequest(input);
  checkTraceRequest(actor, traceRequest);
  const plan = await planPageList(ctx, actor, input);
  const { locale, query } = plan;
  let rows: DeliveryPageRow[];
  let meta: DeliveryListMeta;
  if (input.cursor !== undefined) {
    const limit = offsetPage(1, input.limit).limit;
    const window = await readPageWindow(ctx, plan, { limit, cursor: input.cursor });
    rows = window.rows;
    meta = { page_size: rows.length, next_cursor: window.more ? pageCursor(ctx, plan, rows[rows.length - 1]) : null };
  } else {
    const window = offsetPage(input.page, input.limit);
    rows = await listDeliveryPageRows(ctx.db, query, { limit: window.limit, offset: window.offset });
    notePages(
      ctx,
      plan.schema.workspace.id,
      rows.map((r) => r.id),
    );
    // A short, non-empty page tells the total without counting.
    const total = rows.length > 0 && rows.length < window.limit ? window.offset + rows.length : await countDeliveryPageRows(ctx.db, query);
    const more = rows.length > 0 && window.offset + rows.length < total;
    meta = offsetMeta(window, total, rows.length, more ? pageCursor(ctx, plan, rows[rows.length - 1]) : null);
  }
  if (locale.requested !== null) meta.locale_requested = locale.requested;
  const trace = openTrace(ctx.config.publicUrl, actor, plan.schema.workspace, traceRequest);
  const items = rows.map((r, i) => deliveredListPage(plan, r, trace && { trace, at: `$[${i}]` }));
  if (trace?.map) meta.source_map = sourceMapOf(trace);
  return { items, meta };
}

/** The projection of a block type, built once per loaded schema (ctx.caches.blockProjections). */
function projectionOf(ctx: Context, type: DeliveryType): Projection {
  const projections = ctx.caches.blockProjections;
  let p = projections.get(type);
  if (!p) {
    p = fullProjection(type);
    projections.set(type, p);
  }
  return p;
}

/** A block as read: its localized data (`item`), its type's full projection and its translation's id in the locale. */
export interface LoadedBlock extends Block {
  item: LocalizedData;
  projection: Projection;
  trId: number | null;
}

/**
 * GET /pages/{slug}: the page detail object (docs/api.md "GET /api/v1/public/pages/{slug}") of one
 * visible page. Errors: 400 (bad
 * locale), 403 (workspace_id of another workspace), 404 (no visible page with that slug).
 */
export async function getDeliveryPage(ctx: Context, actor: Actor, slug: string, input: DeliveryPageInput): Promise<DeliveredPageContent> {
  return (await readDeliveryPage(ctx, actor, slug, input)).content;
}

/**
 * getDeliveryPage with its Content Source Map (D140): `sourceMap` when `input.source_maps`,
 * strings with stega when `input.stega`; paths start at the envelope's `data` as the wire nests it
 * (`$.page.seo.title`, `$.blocks[0].children[1].data.headline`, `$.block_translations[0].data.x`).
 * Errors: getDeliveryPage's, and 400 at `query.source_maps`/`query.stega` for a production key.
 */
export async function readDeliveryPage(
  ctx: Context,
  actor: Actor,
  slug: string,
  input: DeliveryPageInput,
): Promise<{ content: DeliveredPageContent; sourceMap: SourceMap | null }> {
  const traceRequest = restTraceRequest(input);
  checkTraceRequest(actor, traceRequest);
  const { schema, locale, perspective, now, row } = await findVisiblePage(ctx, actor, slug, input);
  const trace = openTrace(ctx.config.publicUrl, actor, schema.workspace, traceRequest);
  const joined = locale.isDefault ? null : locale.locale;

  const [blockRows, allSeo, allBlockTr] = await Promise.all([
    findDeliveryBlockRows(ctx.db, row.id, joined, perspective, now),
    locale.requested === null ? listDeliverySeoTranslations(ctx.db, row.id, perspective, now) : null,
    locale.requested === null ? listDeliveryBlockTranslations(ctx.db, row.id, perspective, now) : null,
  ]);
  const blocks = loadBlocks(ctx, schema, blockRows);
  const refs = await resolveReferenceGroups(ctx, schema, actor, perspective, now, locale, groupByProjection(blocks));
  // Where each block lands in the nested wire tree (toWireBlocks nests by the same order).
  const paths = trace === null ? null : treePaths(blocks);
  const originOf = (b: LoadedBlock) => blockOrigin(trace!, { id: b.id, type: b.type, path: paths!.get(b.id) ?? '' }, row);
  const resolved: Block[] = blocks.map((b) => ({
    id: b.id,
    page_id: b.page_id,
    block_type_id: b.block_type_id,
    type: b.type,
    parent_id: b.parent_id,
    position: b.position,
    data: projectData(b.projection, b.item, refs, trace && { trace, at: `${jsonPathOfDotted(paths!.get(b.id) ?? '')}.data`, origin: originOf(b), locale }),
  }));

  let seoTranslations: SeoTranslation[];
  let blockTranslations: BlockTranslation[];
  if (allSeo && allBlockTr) {
    seoTranslations = allSeo.map((t) => ({ id: t.id, locale: t.locale, page_id: t.page_id, seo: pickSeo(objectColumn(t.seo)) }));
    blockTranslations = allBlockTr.map((t) => ({ id: t.id, block_id: t.block_id, locale: t.locale, data: objectColumn(t.data) }));
  } else {
    seoTranslations = row.tr_id === null ? [] : [{ id: Number(row.tr_id), locale: locale.locale, page_id: row.id, seo: pickSeo(objectColumn(row.tr_seo)) }];
    blockTranslations = blocks
      .filter((b) => b.trId !== null)
      .map((b) => ({ id: Number(b.trId), block_id: b.id, locale: locale.locale, data: b.item.translation ?? {} }));
  }
  // By block id, then locale, in code-point order: the rows come in whatever order each database
  // gives (and collations differ), and an answer must be the same bytes on SQLite and PostgreSQL.
  blockTranslations.sort((a, b) => codePointCompare(a.block_id, b.block_id) || codePointCompare(a.locale, b.locale));
  if (trace !== null) {
    const byId = new Map(blocks.map((b) => [b.id, b]));
    const pageItem = pageOrigin(trace, row);
    seoTranslations = seoTranslations.map((t, i) => ({
      ...t,
      seo: traceRaw(trace, `$.seo_translations[${i}].seo`, pageItem, t.seo as Record<string, unknown>, (key) => seoField(key), t.locale) as SeoOverrides,
    }));
    blockTranslations = blockTranslations.map((t, i) => {
      const b = byId.get(t.block_id);
      if (!b) return t;
      const type = schema.byId.get(b.block_type_id)!;
      return { ...t, data: traceRaw(trace, `$.block_translations[${i}].data`, originOf(b), t.data, (key) => type.fieldsByName.get(key), t.locale) };
    });
  }
  const content: DeliveredPageContent = {
    page: presentPage(
      row,
      now,
      locale,
      blocks.some((b) => b.trId !== null),
      trace && { trace, at: '$.page' },
    ),
    blocks: resolved,
    seoTranslations,
    blockTranslations,
  };
  return { content, sourceMap: trace?.map ? sourceMapOf(trace) : null };
}

/** An SEO key as a traced field (`seo.<key>`), or undefined for another key. */
function seoField(key: string): TracedField | undefined {
  const f = SEO_TRACED_FIELDS.find((s) => s.name === key);
  return f && { name: `seo.${f.name}`, field_type: f.field_type };
}

/** Stored values of one locale (a translation as delivered) at `at`, each key traced as its field; unknown keys as they are. */
function traceRaw(
  trace: Trace,
  at: string,
  item: OriginItem,
  values: Record<string, unknown>,
  fieldOf: (key: string) => TracedField | undefined,
  locale: string,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(values)) {
    const field = fieldOf(key);
    out[key] = field ? traceValue(trace, jsonPath(at, key), item, field, locale, v) : v;
  }
  return out;
}

/** A visible page as read, with what reading it resolved. */
export interface FoundPage {
  schema: DeliverySchema;
  locale: RequestedLocale;
  perspective: Perspective;
  now: string;
  row: DeliveryPageRow;
}

/**
 * The visible page with this slug, its SEO translation in the locale joined: 403 (workspace_id),
 * 400 (locale), 404. `model`: the workspace's model when the caller already read it for this request (GraphQL reads it once per request), else read here.
 */
export async function findVisiblePage(ctx: Context, actor: Actor, slug: string, input: DeliveryPageInput, model?: DeliverySchema): Promise<FoundPage> {
  checkWorkspace(actor, input.workspace_id);
  const schema = model ?? (await loadDeliverySchema(ctx, actor));
  const locale = resolveRequestedLocale(schema.workspace, input.locale);
  const perspective = perspectiveOf(actor);
  const now = iso(ctx.clock());
  const row = await findDeliveryPageRow(ctx.db, { workspaceId: schema.workspace.id, slug, perspective, now, locale: locale.isDefault ? null : locale.locale });
  if (!row) throw notFound(`page '${slug}'`);
  notePages(ctx, schema.workspace.id, [row.id]);
  return { schema, locale, perspective, now, row };
}

/** The delivered page of a found page whose blocks were read (`blocksTranslated`: any block has a translation in the locale). */
export function deliveredPage(found: FoundPage, blocksTranslated: boolean): DeliveredPage {
  return presentPage(found.row, found.now, found.locale, blocksTranslated);
}

/**
 * The blocks of several pages as `perspective` sees them, with their translations in `locale`,
 * by page id (flat, in no particular order; a block of a type gone from the schema is left out):
 * one query for any number of pages (GraphQL's batched `blocks`, D102).
 */
export async function readPageBlocks(
  ctx: Context,
  schema: DeliverySchema,
  perspective: Perspective,
  locale: RequestedLocale,
  pageIds: readonly string[],
): Promise<Map<string, LoadedBlock[]>> {
  const rows = await findDeliveryBlockRowsOfPages(ctx.db, [...new Set(pageIds)], locale.isDefault ? null : locale.locale, perspective, iso(ctx.clock()));
  const out = new Map<string, LoadedBlock[]>();
  for (const b of loadBlocks(ctx, schema, rows)) {
    const list = out.get(b.page_id);
    if (list) list.push(b);
    else out.set(b.page_id, [b]);
  }
  return out;
}

function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Parses block rows; a block whose type is gone from the schema is left out (with its subtree). */
function loadBlocks(ctx: Context, schema: DeliverySchema, rows: Awaited<ReturnType<typeof findDeliveryBlockRows>>): LoadedBlock[] {
  const out: LoadedBlock[] = [];
  for (const r of rows) {
    const type = schema.byId.get(r.block_type_id);
    if (!type) continue;
    const translation = r.tr_data === null || r.tr_data === undefined ? null : objectColumn(r.tr_data);
    out.push({
      id: r.id,
      page_id: r.page_id,
      block_type_id: r.block_type_id,
      type: type.slug,
      parent_id: r.parent_id,
      position: Number(r.position),
      data: {},
      item: { data: objectColumn(r.data), translation },
      projection: projectionOf(ctx, type),
      trId: r.tr_id === null ? null : Number(r.tr_id),
    });
  }
  return out;
}

function groupByProjection(blocks: readonly LoadedBlock[]): { projection: Projection; items: LocalizedData[] }[] {
  const groups = new Map<Projection, LocalizedData[]>();
  for (const b of blocks) {
    const list = groups.get(b.projection);
    if (list) list.push(b.item);
    else groups.set(b.projection, [b.item]);
  }
  return [...groups].map(([projection, items]) => ({ projection, items }));
}
