/**
 * Delivery API operations (docs/api.md "Delivery API", "Pagination", "Localization";
 * docs/api.md "Wire format" (D1, D6), "Delivery keys" (D13), "States and scheduling" (D21), "Rules
 * Quire decided" (D36), "Localization" (D40), "The `fields` parameter" (D41), "Delivery API" (D42),
 * "Sorting" (D43), "Pagination" (D44)): list entries of a content type, get one entry by
 * slug, and describe the workspace's schema. `actor` is a delivery key (its environment and
 * whitelist decide what is visible).
 *
 * A list request costs: the schema fingerprint (one query, none when the key's workspace revision
 * was already verified: schema-cache.ts; the model itself is cached), the page
 * (one query, translations joined, on a reader thread on SQLite: heavyReader; the total in offset mode comes with it: per-status counters
 * without filters, a count capped past the page with filters, `total_is_exact: false` when the
 * cap was reached), and at most one query for related entries and one for media.
 */
import type { Context } from '../../context.js';
import { heavyReader } from '../../db/types.js';
import { AppError, invalid } from '../../errors.js';
import { offsetMeta, offsetPage } from '../../lib/pagination.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import { fieldOptions } from '../content-types/model.js';
import { decodeCursor, encodeCursor, type CursorBinding } from './cursor.js';
import { parseFieldSelection, type Projection } from './fields-selection.js';
import { canonicalTree, type FilterNode } from './filter-tree.js';
import { canonicalFilters, parseFilters, type FilterCondition } from './filters.js';
import { resolveRequestedLocale, type RequestedLocale } from './localization.js';
import type { DeliveryEntry, DeliveryListMeta, DeliverySchema, DeliveryType, EntryRow } from './model.js';
import { presentEntries } from './present.js';
import { countEntryRows, findEntryRowsBySlug, listEntryRows, listTotal, type EntryListQuery, type ListTotal } from './query/repository.js';
import { loadDeliverySchema } from './schema-cache.js';
import { parseSort, type SortSpec } from './sort.js';
import { perspectiveBinding, perspectiveOf, type Perspective } from '../read/perspective.js';
import { canReadEntriesOf, requireEntryType } from './visibility.js';
import { sourceMapOf, type SourceMap } from '../read/source-map.js';
import { checkTraceRequest, openTrace, restTraceRequest } from '../read/trace.js';
import { noteEntries, noteEntryList } from '../read/cache-tags.js';

export interface ListEntriesInput {
  type: string;
  locale?: string;
  fields?: string;
  page?: number;
  limit?: number;
  sort?: string;
  cursor?: string;
  /** Raw `filter[...]` query keys and values (parsed by parseFilters). */
  filters?: Readonly<Record<string, unknown>>;
  /** D140: `meta.source_map` and stega strings (preview keys only). */
  source_maps?: boolean;
  stega?: boolean;
}

/** A list of entries checked and resolved, ready to read: what REST lists and GraphQL collections share. */
export interface EntryListPlan {
  schema: DeliverySchema;
  type: DeliveryType;
  locale: RequestedLocale;
  perspective: Perspective;
  now: string;
  query: EntryListQuery;
  /** What the list's cursors are bound to (D44). */
  binding: CursorBinding;
}

/** The order and conditions of a list, parsed against its type (REST: `sort`, `filter[...]`; GraphQL: `order`, `where`). */
export interface EntryListConditions {
  sort: SortSpec;
  filters: FilterCondition[];
  /** Conditions REST's filter list cannot say (OR, columns): filter-tree.ts. */
  where?: FilterNode | null;
}

/**
 * Checks a list request and resolves what it reads: the type (404 unknown or block type, 403
 * outside the whitelist), the locale (400), then `parse` for the order and conditions (its own
 * 400s), the reader's perspective and the cursor binding.
 * `model`: the workspace's model when the caller already read it for this request (GraphQL reads it once per request), else read here.
 */
export async function planEntryList(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  localeText: string | undefined,
  parse: (schema: DeliverySchema, type: DeliveryType) => EntryListConditions,
  model?: DeliverySchema,
): Promise<EntryListPlan> {
  const schema = model ?? (await loadDeliverySchema(ctx, actor));
  const type = requireEntryType(schema, actor, typeSlug);
  const locale = resolveRequestedLocale(schema.workspace, localeText);
  const { sort, filters, where = null } = parse(schema, type);
  noteEntryList(ctx, schema.workspace.id, type.slug);
  const perspective = perspectiveOf(actor);
  const now = iso(ctx.clock());
  const query: EntryListQuery = { contentTypeId: type.id, perspective, now, locale: locale.isDefault ? null : locale.locale, filters, where, sort };
  const binding: CursorBinding = {
    contentTypeId: type.id,
    sort: sort.text,
    filters: where === null ? canonicalFilters(filters) : `${canonicalFilters(filters)}&${canonicalTree(where)}`,
    locale: locale.requested,
    // The visibility word for the published and working perspectives, the release for a release.
    environment: perspectiveBinding(perspective),
  };
  return { schema, type, locale, perspective, now, query, binding };
}

/** The cursor resuming after `row` in `plan`'s list. */
export function entryCursor(ctx: Context, plan: EntryListPlan, row: EntryRow): string {
  return encodeCursor(ctx.secret, plan.binding, { value: row.sort_value ?? null, id: row.id });
}

/**
 * Up to `limit` rows of `plan`'s list after `cursor` (from the start without one), and whether
 * more follow. `backward` reads the list in reverse order from the cursor (from the end without
 * one) and returns those rows in the list's order (GraphQL `last`/`before`): the same order with
 * every direction flipped, missing values still the smallest, so it is exactly the reverse.
 * Errors: 400 at `query.cursor` for a cursor of another query.
 */
export async function readEntryWindow(
  ctx: Context,
  plan: EntryListPlan,
  page: { limit: number; cursor?: string; backward?: boolean },
): Promise<{ rows: EntryRow[]; more: boolean }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(ctx.secret, plan.binding, page.cursor);
  const sort = plan.query.sort;
  const query = page.backward ? { ...plan.query, sort: { ...sort, direction: sort.direction === 'asc' ? ('desc' as const) : ('asc' as const) } } : plan.query;
  // A list may read much of a big type (a `contains` filter, a deep offset): on SQLite it runs on
  // a reader thread, so the process keeps answering meanwhile (docs/scaling.md "No stalls").
  // One row more than asked tells whether more follow.
  const fetched = await listEntryRows(heavyReader(ctx.db), query, { limit: page.limit + 1, after });
  const rows = fetched.slice(0, page.limit);
  noteEntries(
    ctx,
    plan.schema.workspace.id,
    rows.map((r) => ({ id: r.id, typeSlug: plan.type.slug })),
  );
  return { rows: page.backward ? rows.reverse() : rows, more: fetched.length > page.limit };
}

/** The number of entries `plan`'s list holds, or a lower bound (`exact: false`) past the filtered count's cap, as REST's `total_data`. */
export async function countEntryList(ctx: Context, plan: EntryListPlan): Promise<ListTotal> {
  return countEntryRows(heavyReader(ctx.db), plan.query, { limit: 100 });
}

/**
 * GET /entries: one page of the visible entries of `input.type`.
 * Errors: 400 (missing/unknown parameters, bad locale, fields, sort, filter or cursor, limit),
 * 400 PAGE_TOO_DEEP (page > 1000 in offset mode), 403 (type outside the whitelist), 404 (unknown
 * or block type).
 */
export async function listEntries(ctx: Context, actor: Actor, input: ListEntriesInput): Promise<{ items: DeliveryEntry[]; meta: DeliveryListMeta }> {
  const traceRequest = restTraceRequest(input);
  checkTraceRequest(actor, traceRequest);
  let projection: Projection | undefined;
  const plan = await planEntryList(ctx, actor, input.type, input.locale, (schema, type) => {
    projection = parseFieldSelection(schema, type, input.fields);
    return { sort: parseSort(type, input.sort), filters: parseFilters(type, input.filters ?? {}) };
  });
  const { schema, locale, perspective, now, query } = plan;
  let rows: EntryRow[];
  let meta: DeliveryListMeta;
  if (input.cursor !== undefined) {
    const limit = checkLimit(input.limit);
    const window = await readEntryWindow(ctx, plan, { limit, cursor: input.cursor });
    rows = window.rows;
    meta = { page_size: rows.length, next_cursor: window.more ? entryCursor(ctx, plan, rows[rows.length - 1]) : null };
  } else {
    const window = offsetPage(input.page, input.limit);
    // A list may read much of a big type: on SQLite it runs on a reader thread (docs/scaling.md "No stalls").
    const reader = heavyReader(ctx.db);
    const page = await listEntryRows(reader, query, { limit: window.limit, offset: window.offset, withTotal: true });
    rows = page;
    // The total comes with the rows; only a page past the end needs its own count.
    const { total, exact } = page.length > 0 ? listTotal(query, Number(page[0].total), window) : await countEntryRows(reader, query, window);
    const more = rows.length > 0 && window.offset + rows.length < total;
    meta = offsetMeta(window, total, rows.length, more ? entryCursor(ctx, plan, rows[rows.length - 1]) : null);
    if (!exact) meta.total_is_exact = false;
  }
  if (locale.requested !== null) meta.locale_requested = locale.requested;
  const trace = openTrace(ctx.config.publicUrl, actor, schema.workspace, traceRequest);
  const presented = await presentEntries(ctx, schema, actor, perspective, now, locale, projection!, rows, trace && { trace, at: (i) => `$[${i}].data` });
  if (trace?.map) meta.source_map = sourceMapOf(trace);
  return { items: presented.map((p) => p.entry), meta };
}

function checkLimit(limit: number | undefined): number {
  // Same bounds as offset mode (docs/security.md "Limits and their settings"); page is ignored with a cursor.
  return offsetPage(1, limit).limit;
}

export interface GetEntryInput {
  type?: string;
  locale?: string;
  fields?: string;
  /** D140 (preview keys only). */
  source_maps?: boolean;
  stega?: boolean;
}

export interface EntryDetail {
  entry: DeliveryEntry;
  is_fallback: boolean;
  locale_requested: string;
}

/**
 * GET /entries/{slug}: one visible entry. Without `type`, a slug shared by visible entries of
 * several content types answers 400 asking for `type` (D42); `locale_requested` is the requested
 * or the default locale (D40). Errors: 400, 403 (type outside the whitelist), 404.
 */
export async function getEntryBySlug(ctx: Context, actor: Actor, slug: string, input: GetEntryInput): Promise<EntryDetail> {
  return (await readEntryDetail(ctx, actor, slug, input)).data;
}

/**
 * getEntryBySlug with its Content Source Map (D140): `sourceMap` when `input.source_maps`, strings
 * with stega when `input.stega`; paths start at the envelope's `data` (`$.entry.data.title`).
 * Errors: getEntryBySlug's, and 400 at `query.source_maps`/`query.stega` for a production key.
 */
export async function readEntryDetail(
  ctx: Context,
  actor: Actor,
  slug: string,
  input: GetEntryInput,
): Promise<{ data: EntryDetail; sourceMap: SourceMap | null }> {
  const traceRequest = restTraceRequest(input);
  checkTraceRequest(actor, traceRequest);
  const found = await readEntryBySlug(ctx, actor, slug, input.type, input.locale);
  const { schema, type, locale, perspective, now, row } = found;
  // `fields` is checked against the entry's type, which may only be known now.
  const projection = parseFieldSelection(schema, type, input.fields);
  const trace = openTrace(ctx.config.publicUrl, actor, schema.workspace, traceRequest);
  const [presented] = await presentEntries(ctx, schema, actor, perspective, now, locale, projection, [row], trace && { trace, at: () => '$.entry.data' });
  return {
    data: { entry: presented.entry, is_fallback: presented.isFallback, locale_requested: locale.locale },
    sourceMap: trace?.map ? sourceMapOf(trace) : null,
  };
}

/** One visible entry as read, with what reading it resolved. */
export interface FoundEntry {
  schema: DeliverySchema;
  type: DeliveryType;
  locale: RequestedLocale;
  perspective: Perspective;
  now: string;
  row: EntryRow;
}

/**
 * The visible entry with this slug (of type `typeSlug` when given), as GET /entries/{slug} finds
 * it: 404 when none, 400 when the slug names entries of several readable types and no type was
 * given (D42), 403/404 for the type as requireEntryType, 400 for the locale.
 * `model`: the workspace's model when the caller already read it for this request (GraphQL reads it once per request), else read here.
 */
export async function readEntryBySlug(
  ctx: Context,
  actor: Actor,
  slug: string,
  typeSlug: string | undefined,
  localeText: string | undefined,
  model?: DeliverySchema,
): Promise<FoundEntry> {
  const schema = model ?? (await loadDeliverySchema(ctx, actor));
  const named = typeSlug === undefined ? null : requireEntryType(schema, actor, typeSlug);
  const locale = resolveRequestedLocale(schema.workspace, localeText);
  const perspective = perspectiveOf(actor);
  const now = iso(ctx.clock());
  const rows = await findEntryRowsBySlug(ctx.db, {
    workspaceId: schema.workspace.id,
    slug,
    contentTypeId: named?.id ?? null,
    perspective,
    now,
    locale: locale.isDefault ? null : locale.locale,
  });
  const readable = rows.filter((r) => {
    const t = schema.byId.get(r.content_type_id);
    return t !== undefined && canReadEntriesOf(actor, t);
  });
  if (readable.length === 0) throw new AppError('NOT_FOUND', `entry '${slug}' not found`);
  if (readable.length > 1) {
    const slugs = readable.map((r) => schema.byId.get(r.content_type_id)!.slug).sort();
    throw invalid('query.type', `entry slug '${slug}' exists in several content types (${slugs.join(', ')}); pass type to choose one`);
  }
  const row = readable[0];
  noteEntries(ctx, schema.workspace.id, [{ id: row.id, typeSlug: schema.byId.get(row.content_type_id)!.slug }]);
  return { schema, type: named ?? schema.byId.get(row.content_type_id)!, locale, perspective, now, row };
}

export interface SchemaField {
  name: string;
  type: string;
  localizable: boolean;
  required: boolean;
  unique: boolean;
  /** May be filtered (`filter[name]`) and sorted by (`sort=name:asc`) on delivery lists. */
  filterable: boolean;
  sortable: boolean;
  options: string[];
}

export interface SchemaContentType {
  id: string;
  slug: string;
  name: string;
  is_block: boolean;
  /** Entries in a manual order: `sort=position:asc|desc` applies. */
  orderable: boolean;
  display_field: string | null;
  fields: SchemaField[];
}

export interface DeliverySchemaDocument {
  content_types: SchemaContentType[];
  workspace: { name: string; slug: string; default_locale: string; locales: string[] };
}

/**
 * GET /schema (docs/api.md "GET /api/v1/public/schema", D13): the content types the key may read (block types
 * always) with their fields in compact form, and the workspace's locales. The `orderable`,
 * `filterable` and `sortable` flags say which `sort` and `filter[…]` a list accepts (D43), so
 * typegen can type them from a delivery key.
 */
export async function getDeliverySchema(ctx: Context, actor: Actor): Promise<DeliverySchemaDocument> {
  const schema = await loadDeliverySchema(ctx, actor);
  const { name, slug, default_locale, locales } = schema.workspace;
  return {
    content_types: schema.types
      .filter((t) => t.is_block || canReadEntriesOf(actor, t))
      .map((t) => ({
        id: t.id,
        slug: t.slug,
        name: t.name,
        is_block: t.is_block,
        orderable: t.orderable,
        display_field: t.display_field,
        fields: t.fields.map((f) => ({
          name: f.name,
          type: f.field_type,
          localizable: f.localizable,
          required: f.required,
          unique: f.is_unique,
          filterable: f.filterable,
          sortable: f.sortable,
          options: fieldOptions(f),
        })),
      })),
    workspace: { name, slug, default_locale, locales },
  };
}
