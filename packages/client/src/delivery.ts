/**
 * The delivery API (`/api/v1/public`, a delivery key): entries, pages, media, the schema,
 * previews and sync. Every `data` string of the wire is parsed (docs/api.md "Wire format").
 */
import { QuireError } from './errors.js';
import { readGraphqlSchema, runGraphql, type GraphqlOptions, type GraphqlQuery, type GraphqlResult } from './graphql.js';
import { listPage, followCursors } from './lists.js';
import { parseBlocks, parseData, parseEntry, withData } from './parse.js';
import { parsePage } from './manage.js';
import type { ManagedBlock, ManagedPage } from './pages.js';
import type { EntryFilter, EntrySort, FieldSelection, PageSort, SelectedData } from './query.js';
import type { QueryValue, RequestOptions, Transport } from './transport.js';
import type {
  AnyData,
  BlockTranslation,
  ContentTypeMap,
  DeliveryContentType,
  DeliveryEntry,
  DeliveryEntryDetail,
  DeliveryMedia,
  DeliverySchema,
  FieldsData,
  ListPage,
  ManagedEntry,
  Page,
  PageTree,
  TypeSlug,
} from './types.js';
import type { PageMeta, WireData } from './wire.js';

const BASE = '/api/v1/public';

/** Options every call takes. */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Options of the reads a preview key may make as a release will make the workspace (D111, docs/releases.md). */
export interface ReleaseOption {
  /** A release id: items at their release version, the rest as published (preview keys; a production key gets 403). */
  release?: string;
}

/**
 * Options of the delivery reads that can carry the origin of each text (D140, docs/visual-editing.md).
 * Preview keys only: a production key asking for it gets 400 VALIDATION_FAILED.
 */
export interface StegaOption {
  /**
   * Hide, at the end of each text string, where it comes from (item, field, locale, block), with
   * the invisible encoding of `@vercel/stega`, for click-to-edit (`@quire/client/visual-editing`).
   * Ids, slugs, URLs, dates and select values stay byte-identical.
   */
  stega?: boolean;
}

/**
 * Options of an entry list of type `T`. With generated types, `fields`, `filter` and `sort` are
 * checked against the model (src/query.ts) and `fields` narrows the entries' `data`.
 */
export interface EntryListOptions<T extends string = string, S extends FieldSelection<T> = FieldSelection<T>> extends CallOptions, ReleaseOption, StegaOption {
  /** Resolve `data` for this locale (per-field fallback to the default locale). */
  locale?: string;
  /** Names to return: `['title', 'body_html', 'author.name']` (or a comma-separated string). */
  fields?: S;
  /** `<field>:asc|desc`, e.g. `published_at:desc`: a system key, a sortable field, or `position` on orderable types. */
  sort?: EntrySort<T>;
  /** Page size, 1 to 100 (default 10). */
  limit?: number;
  /** Offset page (1 to 1000); ignored with `cursor`. */
  page?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** Filters on filterable fields, with the operators of each field type. */
  filter?: EntryFilter<T>;
}

export interface EntryGetOptions<T extends string = string, S extends FieldSelection<T> = FieldSelection<T>> extends CallOptions, ReleaseOption, StegaOption {
  /** The content type, needed when the slug is used by entries of several types. */
  type?: T;
  locale?: string;
  /** Names to return, as for lists; narrows `data`. */
  fields?: S;
}

export interface PageListOptions extends CallOptions, ReleaseOption, StegaOption {
  locale?: string;
  /** `position:asc` (navigation order, the default) or `created_at`, `updated_at`, `published_at`, `slug` with `:asc|desc`. */
  sort?: PageSort;
  limit?: number;
  page?: number;
  cursor?: string;
}

type SyncWireItem = WireData<'/api/v1/public/sync', 'get'>[number];
type SyncEntryWire = Extract<SyncWireItem, { content_type_id: string }>;
type SyncPageWire = Extract<SyncWireItem, { seo_translations: unknown }>;
type SyncMediaWire = Extract<SyncWireItem, { mime_type: string }>;

/**
 * An entry of content type `T` in a sync (D83, docs/front-ends.md "Sync"): stored values, not
 * resolved (relations and media as ids), the default locale's in `data` and every other locale's
 * in `translations`, all parsed.
 */
export type SyncEntryItem<T extends string = string> = Omit<SyncEntryWire, 'sys' | 'data' | 'translations'> & {
  sys: { type: 'entry'; id: string; slug: string; content_type: T };
  data: FieldsData<T>;
  translations: { locale: string; data: Partial<FieldsData<T>> }[];
};
/** A page in a sync: its record, block tree (stored values, data parsed) and every translation. */
export type SyncPageItem = Omit<SyncPageWire, 'sys' | 'blocks' | 'block_translations'> & {
  sys: { type: 'page'; id: string; slug: string };
  blocks: ManagedBlock[];
  block_translations: BlockTranslation[];
};
/** A media asset in a sync, as GET /media/{id} answers it. */
export type SyncMediaItem = Omit<SyncMediaWire, 'sys'> & { sys: { type: 'media'; id: string; slug: null } };
/** "Remove it from your copy": the item was deleted or the key no longer sees it; only `sys`. */
export type SyncDeletion =
  | { sys: { type: 'deleted_entry'; id: string; slug: string | null; content_type: string } }
  | { sys: { type: 'deleted_page'; id: string; slug: string | null } }
  | { sys: { type: 'deleted_media'; id: string; slug: null } };

/** An entry of any generated content type (a plain record of any type when none were generated). */
type AnySyncEntry = keyof ContentTypeMap extends never
  ? SyncEntryItem
  : { [K in keyof ContentTypeMap & string]: SyncEntryItem<K> }[keyof ContentTypeMap & string];

/** One item of a sync answer (D83): `sys.type` says what it is; test it with `isSyncItem`. */
export type SyncItem = AnySyncEntry | SyncPageItem | SyncMediaItem | SyncDeletion;
/** What `sys.type` can be. */
export type SyncItemType = SyncItem['sys']['type'];

/**
 * Whether a sync item is of kind `type`, narrowing it (TypeScript does not narrow a union by a
 * nested key such as `sys.type`): `if (isSyncItem(item, 'entry')) item.data`.
 */
export function isSyncItem<K extends SyncItemType>(item: SyncItem, type: K): item is Extract<SyncItem, { sys: { type: K } }> {
  return item.sys.type === type;
}

/** Whether a sync item is an entry of content type `type`: `if (isSyncEntry(item, 'post')) item.data.title`. */
export function isSyncEntry<T extends TypeSlug>(item: SyncItem, type: T): item is Extract<SyncItem, { sys: { type: 'entry' } }> & SyncEntryItem<T> {
  return item.sys.type === 'entry' && item.sys.content_type === type;
}

/** One page of a sync: its items, and either the token of the next page or the next sync token. */
export interface SyncPage {
  items: SyncItem[];
  /** Pass as `{pageToken}` for the next page of this sync; null on its last page. */
  nextPageToken: string | null;
  /** Set on the last page: keep it and pass as `{token}` to get what changed since. */
  nextSyncToken: string | null;
}

/** Where a sync starts: everything (`initial`), the changes since a sync token, or the next page of a sync. */
export type SyncStart = { initial: true } | { token: string } | { pageToken: string };

/** An async iterable over every item of a sync; `syncToken` is set once it has been read to the end. */
export interface SyncIteration extends AsyncIterable<SyncItem> {
  /** The `next_sync_token` of the sync's last page; null until iteration has finished. */
  readonly syncToken: string | null;
}

/** `fields` as the comma-separated list the API takes. */
function fieldList(fields: readonly string[] | string | undefined): string | undefined {
  return typeof fields === 'string' || fields === undefined ? fields : fields.join(',');
}

/** `filter` as `filter[field]` / `filter[field][op]` query parameters (arrays comma-joined). */
export function filterQuery(filter: object | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const text = (v: unknown) => (Array.isArray(v) ? v.map(String).join(',') : String(v));
  for (const [field, value] of Object.entries(filter ?? {}) as [string, unknown][]) {
    if (value === undefined) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [op, v] of Object.entries(value)) if (v !== undefined) out[`filter[${field}][${op}]`] = text(v);
    } else if (Array.isArray(value)) out[`filter[${field}][in]`] = text(value);
    else out[`filter[${field}]`] = text(value);
  }
  return out;
}

function req(options: CallOptions | undefined): RequestOptions {
  return { signal: options?.signal };
}

type PreviewWire = WireData<'/api/v1/public/preview', 'get'>;

/** What a preview token names, as its working copy: an entry, or (a page token) a page with its block tree. */
export type PreviewItem<T extends TypeSlug = string> =
  { kind: 'entry'; entry: Omit<ManagedEntry<FieldsData<T>>, 'etag'> } | { kind: 'page'; page: Omit<ManagedPage, 'etag'> };
type SyncWireMeta = { next_page_token?: string | null; next_sync_token?: string | null };

/** Delivery entries: `client.entries`. */
export class DeliveryEntries {
  constructor(private readonly t: Transport) {}

  /**
   * One page of entries of `type` (relations and media resolved one level deep); with `fields`
   * the entries' `data` holds only the names asked for, and so does its type.
   */
  async list<T extends TypeSlug, const S extends FieldSelection<T> = never>(
    type: T,
    options: EntryListOptions<T, S> = {},
  ): Promise<ListPage<DeliveryEntry<SelectedData<T, S>>>> {
    const query: Record<string, QueryValue> = {
      type,
      locale: options.locale,
      release: options.release,
      stega: options.stega,
      fields: fieldList(options.fields),
      sort: options.sort,
      limit: options.limit,
      page: options.page,
      cursor: options.cursor,
      ...filterQuery(options.filter),
    };
    const res = await this.t.request<{ data: unknown }[], PageMeta>('GET', `${BASE}/entries`, { ...req(options), query });
    return listPage(
      res.data.map((e) => withData(e) as unknown as DeliveryEntry<SelectedData<T, S>>),
      res.meta,
    );
  }

  /**
   * Every entry of `type` matching the options, fetched page by page (cursors) as the loop asks:
   * `for await (const post of client.entries.iterate('post', {sort: 'published_at:desc'}))`.
   */
  iterate<T extends TypeSlug, const S extends FieldSelection<T> = never>(
    type: T,
    options: Omit<EntryListOptions<T, S>, 'page'> = {},
  ): AsyncGenerator<DeliveryEntry<SelectedData<T, S>>, void, undefined> {
    return followCursors((cursor) => this.list<T, S>(type, { ...options, cursor }), options.cursor);
  }

  /** One entry by slug (404 NOT_FOUND when it is not visible to the key); `fields` narrows `data` as in lists. */
  async get<T extends TypeSlug = string, const S extends FieldSelection<T> = never>(
    slug: string,
    options: EntryGetOptions<T, S> = {},
  ): Promise<DeliveryEntryDetail<SelectedData<T, S>>> {
    const res = await this.t.request<{ entry: { data: unknown }; is_fallback: boolean; locale_requested: string }>(
      'GET',
      `${BASE}/entries/${encodeURIComponent(slug)}`,
      {
        ...req(options),
        query: { type: options.type, locale: options.locale, release: options.release, stega: options.stega, fields: fieldList(options.fields) },
      },
    );
    const entry = withData(res.data.entry) as unknown as DeliveryEntry<SelectedData<T, S>>;
    return { ...entry, is_fallback: res.data.is_fallback, locale_requested: res.data.locale_requested };
  }
}

/** Delivery pages: `client.pages`. */
export class DeliveryPages {
  constructor(private readonly t: Transport) {}

  /** One page of published pages (no blocks), by navigation order unless `sort` says otherwise. */
  async list(options: PageListOptions = {}): Promise<ListPage<Page>> {
    const { signal, ...query } = options;
    const res = await this.t.request<Page[], PageMeta>('GET', `${BASE}/pages`, { signal, query: { ...query } });
    return listPage(res.data, res.meta);
  }

  /** Every page, following cursors. */
  iterate(options: Omit<PageListOptions, 'page'> = {}): AsyncGenerator<Page, void, undefined> {
    return followCursors((cursor) => this.list({ ...options, cursor }), options.cursor);
  }

  /** One page with its block tree, every block's `data` parsed (and resolved for `locale`). */
  async get(slug: string, options: { locale?: string } & CallOptions & ReleaseOption & StegaOption = {}): Promise<PageTree> {
    const res = await this.t.request<{
      page: Page;
      blocks: { data: unknown }[];
      seo_translations: PageTree['seo_translations'];
      block_translations: { data: unknown }[];
    }>('GET', `${BASE}/pages/${encodeURIComponent(slug)}`, {
      ...req(options),
      query: { locale: options.locale, release: options.release, stega: options.stega },
    });
    return {
      page: res.data.page,
      blocks: parseBlocks(res.data.blocks) as PageTree['blocks'],
      seo_translations: res.data.seo_translations,
      block_translations: res.data.block_translations.map((t) => withData(t) as BlockTranslation),
    };
  }
}

/** The delivery surface of a client (the parts that need no management key). */
export class Delivery {
  readonly entries: DeliveryEntries;
  readonly pages: DeliveryPages;
  readonly media: { get(id: string, options?: CallOptions): Promise<DeliveryMedia> };
  readonly contentTypes: {
    /** The content types (and block types) the key may read, with their fields. */
    list(options?: CallOptions): Promise<DeliveryContentType[]>;
    /** One content type by slug (404 NOT_FOUND when the key may not read it). */
    get(slug: string, options?: CallOptions): Promise<DeliveryContentType>;
  };

  constructor(protected readonly transport: Transport) {
    const t = transport;
    this.entries = new DeliveryEntries(t);
    this.pages = new DeliveryPages(t);
    this.media = {
      get: async (id, options) => (await t.request<DeliveryMedia>('GET', `${BASE}/media/${encodeURIComponent(id)}`, req(options))).data,
    };
    this.contentTypes = {
      list: async (options) => (await this.schema(options)).content_types,
      get: async (slug, options) => {
        const found = (await this.schema(options)).content_types.find((ct) => ct.slug === slug);
        if (found) return found;
        throw new QuireError({ code: 'NOT_FOUND', status: 404, message: `Content type '${slug}' is not readable with this key` });
      },
    };
  }

  /** The workspace's schema as the key sees it: content types with fields, and the workspace's locales. */
  async schema(options?: CallOptions): Promise<DeliverySchema> {
    return (await this.transport.request<DeliverySchema>('GET', `${BASE}/schema`, req(options))).data;
  }

  /**
   * Runs a GraphQL query against the delivery API with the client's key (docs/graphql.md):
   * `{data, errors}`, `data` typed by a TypedDocumentNode / TypedDocumentString (graphql-codegen)
   * or by `TResult`. HTTP refusals (401, 400, 405, 429) throw QuireError with `code` the first
   * error's `extensions.code`; field errors (BAD_USER_INPUT, FORBIDDEN) come back in `errors`.
   * `{method: 'GET'}` makes it cacheable, `{persisted: true}` sends only the query's hash.
   */
  async graphql<TResult = Record<string, unknown>, TVariables = Record<string, unknown>>(
    query: GraphqlQuery<TResult, TVariables>,
    variables?: TVariables,
    options?: GraphqlOptions,
  ): Promise<GraphqlResult<TResult>> {
    return runGraphql(this.transport, query, variables, options);
  }

  /** The workspace's GraphQL schema in the schema language (SDL), as `quire typegen --graphql` writes it. */
  async graphqlSchema(options?: CallOptions): Promise<string> {
    return readGraphqlSchema(this.transport, options);
  }

  /** The workspace's locale codes and its default locale. */
  async locales(options?: CallOptions): Promise<{ default: string; locales: string[] }> {
    const ws = (await this.schema(options)).workspace;
    return { default: ws.default_locale, locales: ws.locales };
  }

  /**
   * The entry a preview token names, in any status, as its working copy (the management shape:
   * default-locale `data` and every translation, parsed). Needs a delivery key of the workspace.
   */
  async preview<T extends TypeSlug = string>(token: string, options?: CallOptions & StegaOption): Promise<Omit<ManagedEntry<FieldsData<T>>, 'etag'>> {
    const item = await this.previewItem<T>(token, options);
    if (item.kind === 'page') throw new TypeError('This preview token names a page, not an entry: read it with previewItem(token)');
    return item.entry;
  }

  /**
   * What a preview token names, entry or page, as its working copy: `{kind: 'entry', entry}` (as
   * `preview`) or `{kind: 'page', page}` (the page record, its block tree and translations, `data`
   * parsed). For front ends that receive tokens of both kinds from the Studio's live preview.
   * `stega: true` (a preview key, entry tokens only) hides each text value's origin in it.
   */
  async previewItem<T extends TypeSlug = string>(token: string, options?: CallOptions & StegaOption): Promise<PreviewItem<T>> {
    const res = await this.transport.request<PreviewWire>('GET', `${BASE}/preview`, { ...req(options), query: { token, stega: options?.stega } });
    const data = res.data;
    if ('page' in data) {
      const { etag: _etag, ...page } = parsePage({ ...res, data });
      return { kind: 'page', page };
    }
    return { kind: 'entry', entry: parseEntry(data.entry) as unknown as Omit<ManagedEntry<FieldsData<T>>, 'etag'> };
  }

  /**
   * One page of a sync (D83): `{initial: true}` starts with everything the key may see, `{token}`
   * asks what changed since an earlier sync, `{pageToken}` continues a sync. Entry items have
   * their `data` (and translations' `data`) parsed.
   */
  async sync(start: SyncStart, options?: CallOptions & ReleaseOption): Promise<SyncPage> {
    const from = 'initial' in start ? { initial: true } : 'token' in start ? { sync_token: start.token } : { page_token: start.pageToken };
    const query = { ...from, release: options?.release };
    const res = await this.transport.request<unknown[] | { items: unknown[] }, SyncWireMeta>('GET', `${BASE}/sync`, { ...req(options), query });
    const items = Array.isArray(res.data) ? res.data : (res.data?.items ?? []);
    return {
      items: items.map(parseSyncItem),
      nextPageToken: res.meta?.next_page_token ?? null,
      nextSyncToken: res.meta?.next_sync_token ?? null,
    };
  }

  /**
   * Every item of a sync, page after page; the generator returns the next sync token, also
   * available as `syncToken` on the iterable once the loop has finished:
   * `const it = client.syncAll({initial: true}); for await (const item of it) ...; save(it.syncToken)`.
   */
  syncAll(start: SyncStart, options?: CallOptions & ReleaseOption): SyncIteration {
    const state = { syncToken: null as string | null };
    const sync = (s: SyncStart) => this.sync(s, options);
    async function* run(): AsyncGenerator<SyncItem, string | null, undefined> {
      let next: SyncStart = start;
      for (;;) {
        const page = await sync(next);
        yield* page.items;
        if (page.nextPageToken) next = { pageToken: page.nextPageToken };
        else {
          state.syncToken = page.nextSyncToken;
          return page.nextSyncToken;
        }
      }
    }
    return {
      [Symbol.asyncIterator]: run,
      get syncToken() {
        return state.syncToken;
      },
    };
  }
}

/** A sync item of the wire with every `data` parsed: entries and their translations, page blocks and block translations. */
function parseSyncItem(wire: unknown): SyncItem {
  const item = wire as SyncItem & {
    data?: unknown;
    translations?: { data?: unknown }[];
    blocks?: { data: unknown }[];
    block_translations?: { data?: unknown }[];
  };
  const out: Record<string, unknown> = { ...item };
  if ('data' in item) out.data = parseData<AnyData>(item.data);
  if (Array.isArray(item.translations)) out.translations = item.translations.map((t) => ({ ...t, data: parseData(t.data) }));
  if (Array.isArray(item.blocks)) out.blocks = parseBlocks(item.blocks);
  if (Array.isArray(item.block_translations)) out.block_translations = item.block_translations.map((t) => ({ ...t, data: parseData(t.data) }));
  return out as SyncItem;
}
