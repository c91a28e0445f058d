/**
 * The management API (`/api/v1/manage`, a management key or a Studio session): entries and pages
 * (CRUD, states, duplicates, reorders, versions), media (upload, list, edit, delete), content
 * types and fields, preview tokens. Writes carry an automatic Idempotency-Key (retried safely,
 * see transport.ts) and take `ifMatch` (an ETag from an earlier answer) for optimistic locking.
 */
import { readData, seg, write, writeData, type ReadOptions, type WriteOptions } from './calls.js';
import { followCursors, followPages, listPage } from './lists.js';
import { parseBlocks, parseEntry, withData } from './parse.js';
import type { ApiResponse, Transport } from './transport.js';
import type { ManagedBlock, ManagedPage, ManagedPageRecord, PageCreate, PagePatch, PageReplace } from './pages.js';
import type { EntrySort, PageSort } from './query.js';
import type { BlockTranslation, FieldsData, ListPage, ManagedEntry, Page, TypeSlug } from './types.js';
import { ManagedReleases } from './releases.js';
import { ManagedSession } from './session.js';
import { nameOf, toBlob, type UploadSource } from './upload.js';
import { ManagedWebhooks } from './webhooks.js';
import { ManagedApiKeys, ManagedPeople, ManagedWorkspace } from './workspace.js';
import type { PageMeta, WireBody, WireData, WireQuery } from './wire.js';

const BASE = '/api/v1/manage';

export type { ReadOptions, WriteOptions } from './calls.js';

/** Reads of an item's working copy, or (with `release`, a release id) of its release version in that release (docs/releases.md). */
export interface ReleaseReadOptions extends ReadOptions {
  release?: string;
}

/** Writes of an item's working copy, or (with `release`) of its release version in that release. */
export interface ReleaseWriteOptions extends WriteOptions {
  release?: string;
}

/** Values of localized fields per locale: `{de: {title: 'Hallo'}}`. */
export type TranslationsInput<D> = Record<string, { data: Partial<D> }> | TranslationItemInput<D>[];

/**
 * One translation in array form. The keys a translation read carries besides `locale` and `data`
 * are refused by the server (400 "is not a known key"), so they are typed `never`: a read's
 * translations passed back are a type error, not a 400 (send `{locale, data}` of each).
 */
export interface TranslationItemInput<D> {
  locale: string;
  data: Partial<D>;
  id?: never;
  entry_id?: never;
  created_at?: never;
  updated_at?: never;
}

/**
 * The keys of an entry read that an entry write does not take: the server refuses them
 * (additional keys answer 400), so passing a read back as it is must not typecheck either.
 */
type EntryReadOnlyKeys = { [K in Exclude<keyof ManagedEntry, 'slug' | 'data' | 'translations'>]?: never };

/** Body of an entry create or replace: `{slug?, data, translations?}`, nothing else. */
export interface EntryInput<D> extends EntryReadOnlyKeys {
  /** Default: derived from the display field. */
  slug?: string;
  /** Default-locale values (relations and media as ids). */
  data: Partial<D>;
  translations?: TranslationsInput<D>;
}

/** Query of a management entry list of type `T`; `sort` checked like delivery's (system keys, sortable fields, position on orderable types). */
export type EntryListQuery<T extends string = string> = Omit<WireQuery<'/api/v1/manage/content-types/{slug}/entries', 'get'>, 'sort'> & { sort?: EntrySort<T> };
export type EntryVersion = WireData<'/api/v1/manage/content-types/{slug}/entries/{entry_slug}/versions', 'get'>[number];
export type BulkResult = WireData<'/api/v1/manage/content-types/{slug}/entries/bulk', 'patch'>;
export type BulkAction = WireBody<'/api/v1/manage/content-types/{slug}/entries/bulk', 'patch'>['action'];
export type MediaAsset = WireData<'/api/v1/manage/media/{id}', 'get'>;
export type MediaListQuery = Omit<WireQuery<'/api/v1/manage/media', 'get'>, 'x-workspace-id'>;
export type ContentType = WireData<'/api/v1/manage/content-types/{slug}', 'get'>;
export type ContentTypeCreate = WireBody<'/api/v1/manage/content-types', 'post'>;
export type ContentTypeUpdate = WireBody<'/api/v1/manage/content-types/{slug}', 'patch'>;
export type Field = WireData<'/api/v1/manage/content-types/{slug}/fields', 'get'>[number];
export type FieldCreate = WireBody<'/api/v1/manage/content-types/{slug}/fields', 'post'>;
export type FieldUpdate = WireBody<'/api/v1/manage/content-types/{slug}/fields/{fieldId}', 'patch'>;
export type FieldDeletionImpact = WireData<'/api/v1/manage/content-types/{slug}/fields/{fieldId}/deletion-impact', 'get'>;
export type FieldLocalizationImpact = WireData<'/api/v1/manage/content-types/{slug}/fields/{fieldId}/localization-impact', 'get'>;
export type BlockUsage = WireData<'/api/v1/manage/content-types/{slug}/block-usage', 'get'>;
export type MediaUsage = WireData<'/api/v1/manage/media/{id}/usage', 'get'>;
export type MediaFolders = WireData<'/api/v1/manage/media/folders', 'get'>;
export type PreviewToken = WireData<'/api/v1/manage/preview-tokens', 'post'>;
export type PageListQuery = Omit<WireQuery<'/api/v1/manage/pages', 'get'>, 'sort'> & { sort?: PageSort };
/** The answer of a page write: the page record, with its new ETag. */
export type PageWriteResult = ManagedPageRecord & { etag: string | null };

/** Options of a media upload. */
export interface UploadOptions extends WriteOptions {
  /** The file name to store (default: the File's name or the stream's path, else `upload`). */
  filename?: string;
  /** The type of a stream's bytes, for the multipart part (the server reads the real type from the bytes). */
  contentType?: string;
  altText?: string;
  title?: string;
  description?: string;
  folder?: string;
  focalX?: number;
  focalY?: number;
  /** X-Workspace-ID for this upload (default: the client's workspaceId, if any; a key needs none). */
  workspaceId?: string;
}

/** Management entries: `client.manage.entries`. */
export class ManagedEntries {
  constructor(private readonly t: Transport) {}

  private path(type: string, slug?: string, rest = ''): string {
    return `${BASE}/content-types/${seg(type)}/entries${slug === undefined ? '' : `/${seg(slug)}`}${rest}`;
  }

  private entry<T extends string>(res: ApiResponse<unknown>): ManagedEntry<FieldsData<T>> {
    return { ...parseEntry(res.data as { data: unknown; translations: { data: unknown }[] }), etag: res.etag } as unknown as ManagedEntry<FieldsData<T>>;
  }

  /** One page of entries of `type` (working copies, any status). */
  async list<T extends TypeSlug>(type: T, query: EntryListQuery<T> = {}, options?: ReadOptions): Promise<ListPage<ManagedEntry<FieldsData<T>>>> {
    const res = await this.t.request<unknown[], PageMeta>('GET', this.path(type), { query: { ...query }, signal: options?.signal });
    return listPage(
      res.data.map((e) => ({ ...parseEntry(e as { data: unknown; translations: { data: unknown }[] }), etag: null }) as unknown as ManagedEntry<FieldsData<T>>),
      res.meta,
    );
  }

  /** Every entry of `type` matching `query`, following cursors. */
  iterate<T extends TypeSlug>(
    type: T,
    query: Omit<EntryListQuery<T>, 'page'> = {},
    options?: ReadOptions,
  ): AsyncGenerator<ManagedEntry<FieldsData<T>>, void, undefined> {
    return followCursors((cursor) => this.list(type, { ...query, cursor }, options), query.cursor);
  }

  /** One entry's working copy by slug, with its ETag; with `release`, its release version in that release. */
  async get<T extends TypeSlug>(type: T, slug: string, options?: ReleaseReadOptions): Promise<ManagedEntry<FieldsData<T>>> {
    return this.entry<T>(await this.t.request('GET', this.path(type, slug), { signal: options?.signal, query: { release: options?.release } }));
  }

  /** Creates a draft entry. */
  async create<T extends TypeSlug>(type: T, input: EntryInput<FieldsData<T>>, options?: WriteOptions): Promise<ManagedEntry<FieldsData<T>>> {
    return this.entry<T>(await this.t.request('POST', this.path(type), write(options, { body: input })));
  }

  /**
   * Replaces an entry's data (and translations, when given); a published entry gains pending
   * changes. With `release`, replaces its release version in that release instead.
   */
  async update<T extends TypeSlug>(
    type: T,
    slug: string,
    input: EntryInput<FieldsData<T>>,
    options?: ReleaseWriteOptions,
  ): Promise<ManagedEntry<FieldsData<T>>> {
    return this.entry<T>(await this.t.request('PUT', this.path(type, slug), write(options, { body: input, query: { release: options?.release } })));
  }

  /** Deletes an entry. */
  async delete(type: TypeSlug, slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('DELETE', this.path(type, slug), write(options));
  }

  /** Publishes the working copy (409 INVALID_STATE_TRANSITION when already published without changes). */
  async publish(type: TypeSlug, slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(type, slug, '/publish'), write(options));
  }

  /** Takes a published or scheduled entry back to draft. */
  async unpublish(type: TypeSlug, slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(type, slug, '/unpublish'), write(options));
  }

  /** Archives an entry. */
  async archive(type: TypeSlug, slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(type, slug, '/archive'), write(options));
  }

  /** Schedules publication at `publishAt` (a Date or an ISO 8601 time in the future). */
  async schedule(type: TypeSlug, slug: string, publishAt: Date | string, options?: WriteOptions): Promise<void> {
    const publish_at = publishAt instanceof Date ? publishAt.toISOString() : publishAt;
    await this.t.request('PATCH', this.path(type, slug, '/schedule'), write(options, { body: { publish_at } }));
  }

  /** Copies an entry as a new draft (`<slug>-copy`). */
  async duplicate<T extends TypeSlug>(type: T, slug: string, options?: WriteOptions): Promise<ManagedEntry<FieldsData<T>>> {
    return this.entry<T>(await this.t.request('POST', this.path(type, slug, '/duplicate'), write(options)));
  }

  /** Runs a state action on up to 100 entries by id; each succeeds or fails alone. */
  async bulk(type: TypeSlug, action: BulkAction, ids: string[], options?: WriteOptions & { publishAt?: Date | string }): Promise<BulkResult> {
    const publish_at = options?.publishAt instanceof Date ? options.publishAt.toISOString() : options?.publishAt;
    return (await this.t.request<BulkResult>('PATCH', this.path(type, undefined, '/bulk'), write(options, { body: { action, ids, publish_at } }))).data;
  }

  /** Deletes up to 100 entries by id. */
  async bulkDelete(type: TypeSlug, ids: string[], options?: WriteOptions): Promise<BulkResult> {
    return (await this.t.request<BulkResult>('DELETE', this.path(type, undefined, '/bulk'), write(options, { body: { ids } }))).data;
  }

  /** Sets the manual order of an orderable type: every entry id, in order. */
  async reorder(type: TypeSlug, order: string[], options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(type, undefined, '/reorder'), write(options, { body: { order } }));
  }

  /** The entry's history (newest first), its snapshots, and restoring one. */
  versions = {
    list: async (
      type: TypeSlug,
      slug: string,
      query: { page?: number; limit?: number; cursor?: string } = {},
      options?: ReadOptions,
    ): Promise<ListPage<EntryVersion>> => {
      const res = await this.t.request<EntryVersion[], PageMeta>('GET', this.path(type, slug, '/versions'), { query, signal: options?.signal });
      return listPage(res.data, res.meta);
    },
    get: async <T extends TypeSlug>(type: T, slug: string, version: number, options?: ReadOptions): Promise<ManagedEntry<FieldsData<T>>> =>
      this.entry<T>(await this.t.request('GET', this.path(type, slug, `/versions/${version}`), { signal: options?.signal })),
    restore: async <T extends TypeSlug>(type: T, slug: string, version: number, options?: WriteOptions): Promise<ManagedEntry<FieldsData<T>>> =>
      this.entry<T>(await this.t.request('POST', this.path(type, slug, `/versions/${version}/restore`), write(options))),
  };
}

/** A management page detail (record, block tree, translations) with `data` parsed and the ETag attached. */
export function parsePage(res: ApiResponse<unknown>): ManagedPage {
  const d = res.data as { page: ManagedPageRecord; blocks?: { data: unknown }[]; block_translations?: { data: unknown }[] } & Record<string, unknown>;
  return {
    ...d,
    blocks: parseBlocks(d.blocks ?? []) as ManagedBlock[],
    block_translations: (d.block_translations ?? []).map((t) => withData(t) as BlockTranslation),
    etag: res.etag,
  } as unknown as ManagedPage;
}

/** The page record a page write answers, with its ETag. */
function pageRecord(res: ApiResponse<unknown>): PageWriteResult {
  return { ...(res.data as ManagedPageRecord), etag: res.etag };
}

/** Management pages: `client.manage.pages`. */
export class ManagedPages {
  constructor(private readonly t: Transport) {}

  private path(slug?: string, rest = ''): string {
    return `${BASE}/pages${slug === undefined ? '' : `/${seg(slug)}`}${rest}`;
  }

  /** One page of page records (any status). */
  async list(query: PageListQuery = {}, options?: ReadOptions): Promise<ListPage<Page>> {
    const res = await this.t.request<Page[], PageMeta>('GET', this.path(), { query: { ...query }, signal: options?.signal });
    return listPage(res.data, res.meta);
  }

  /** Every page record, page after page. */
  iterate(query: Omit<PageListQuery, 'page'> = {}, options?: ReadOptions): AsyncGenerator<Page, void, undefined> {
    return followPages((page) => this.list({ ...query, page }, options));
  }

  /** One page's working copy with its block tree and ETag; with `release`, its release version in that release. */
  async get(slug: string, options?: ReleaseReadOptions): Promise<ManagedPage> {
    return parsePage(await this.t.request('GET', this.path(slug), { signal: options?.signal, query: { release: options?.release } }));
  }

  /** Creates a draft page; blocks' `data` may be objects. Answers the page record. */
  async create(input: PageCreate, options?: WriteOptions): Promise<PageWriteResult> {
    return pageRecord(await this.t.request('POST', this.path(), write(options, { body: input })));
  }

  /**
   * Replaces a page's SEO and whole block tree (PUT; blocks not sent are deleted). A tree read
   * with `get` may be sent back as it is: `update(slug, {seo: read.page.seo, blocks: read.blocks})`.
   * With `release`, replaces the page's release version in that release instead.
   */
  async update(slug: string, input: PageReplace, options?: ReleaseWriteOptions): Promise<PageWriteResult> {
    return pageRecord(await this.t.request('PUT', this.path(slug), write(options, { body: input, query: { release: options?.release } })));
  }

  /**
   * Changes a page's attributes (slug, SEO, SEO translations) and leaves its blocks alone
   * (PATCH /pages/{slug}, docs/pages.md): only the keys sent change.
   */
  async patch(slug: string, input: PagePatch, options?: WriteOptions): Promise<PageWriteResult> {
    return pageRecord(await this.t.request('PATCH', this.path(slug), write(options, { body: input })));
  }

  async delete(slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('DELETE', this.path(slug), write(options));
  }
  async publish(slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(slug, '/publish'), write(options));
  }
  async unpublish(slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(slug, '/unpublish'), write(options));
  }
  /** Archives a page; answers the page record. */
  async archive(slug: string, options?: WriteOptions): Promise<PageWriteResult> {
    return pageRecord(await this.t.request('PATCH', this.path(slug, '/archive'), write(options)));
  }
  async schedule(slug: string, publishAt: Date | string, options?: WriteOptions): Promise<void> {
    const publish_at = publishAt instanceof Date ? publishAt.toISOString() : publishAt;
    await this.t.request('PATCH', this.path(slug, '/schedule'), write(options, { body: { publish_at } }));
  }
  /** Copies a page as a new draft (`<slug>-copy`); answers the copy's record. */
  async duplicate(slug: string, options?: WriteOptions): Promise<PageWriteResult> {
    return pageRecord(await this.t.request('POST', this.path(slug, '/duplicate'), write(options)));
  }
  /** Navigation order: every page id of the workspace, in order. */
  async reorder(order: string[], options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(undefined, '/reorder'), write(options, { body: { order } }));
  }
  /** Orders the children of one parent block (or the roots, parentId null). */
  async reorderBlocks(slug: string, order: string[], parentId?: string | null, options?: WriteOptions): Promise<void> {
    await this.t.request('PATCH', this.path(slug, '/blocks/reorder'), write(options, { body: { order, parent_id: parentId } }));
  }

  versions = {
    list: async (slug: string, query: { page?: number; limit?: number; cursor?: string } = {}, options?: ReadOptions): Promise<ListPage<EntryVersion>> => {
      const res = await this.t.request<EntryVersion[], PageMeta>('GET', this.path(slug, '/versions'), { query, signal: options?.signal });
      return listPage(res.data, res.meta);
    },
    get: async (slug: string, version: number, options?: ReadOptions): Promise<ManagedPage> =>
      parsePage(await this.t.request('GET', this.path(slug, `/versions/${version}`), { signal: options?.signal })),
    restore: async (slug: string, version: number, options?: WriteOptions): Promise<PageWriteResult> =>
      pageRecord(await this.t.request('POST', this.path(slug, `/versions/${version}/restore`), write(options))),
  };
}

/** Management media: `client.manage.media`. */
export class ManagedMedia {
  constructor(private readonly t: Transport) {}

  /**
   * The X-Workspace-ID of one call, when it names one. A key belongs to one workspace, so uploads
   * and deletes need none (docs/media.md); a Studio session of several workspaces names it, per
   * call or with the client's `workspaceId` (which the transport sends on every request).
   */
  private workspaceHeader(workspaceId: string | undefined): Record<string, string> {
    return workspaceId ? { 'X-Workspace-ID': workspaceId } : {};
  }

  /**
   * Uploads a file (image, video or PDF, at most 10 MB) from a Blob or File, a web
   * ReadableStream, a Node.js stream (e.g. fs.createReadStream) or bytes, as multipart/form-data.
   * Retried with the same body and Idempotency-Key on network errors, 429 and 503.
   */
  async upload(source: UploadSource, options: UploadOptions = {}): Promise<MediaAsset> {
    const headers = this.workspaceHeader(options.workspaceId);
    const blob = await toBlob(source, options.contentType);
    const form = new FormData();
    // Text parts first: the server reads them before the file's bytes.
    if (options.altText !== undefined) form.append('alt_text', options.altText);
    if (options.title !== undefined) form.append('title', options.title);
    if (options.description !== undefined) form.append('description', options.description);
    if (options.folder !== undefined) form.append('folder', options.folder);
    if (options.focalX !== undefined) form.append('focal_x', String(options.focalX));
    if (options.focalY !== undefined) form.append('focal_y', String(options.focalY));
    form.append('file', blob, options.filename ?? nameOf(source) ?? 'upload');
    return (await this.t.request<MediaAsset>('POST', `${BASE}/media/upload`, write(options, { form, headers }))).data;
  }

  async list(query: MediaListQuery = {}, options?: ReadOptions): Promise<ListPage<MediaAsset>> {
    const res = await this.t.request<MediaAsset[], PageMeta>('GET', `${BASE}/media`, { query: { ...query }, signal: options?.signal });
    return listPage(res.data, res.meta);
  }

  iterate(query: Omit<MediaListQuery, 'page'> = {}, options?: ReadOptions): AsyncGenerator<MediaAsset, void, undefined> {
    return followPages((page) => this.list({ ...query, page }, options));
  }

  async get(id: string, options?: ReadOptions): Promise<MediaAsset> {
    return (await this.t.request<MediaAsset>('GET', `${BASE}/media/${seg(id)}`, { signal: options?.signal })).data;
  }

  /** The entries and pages that use an asset (what deleting it would leave without). */
  async usage(id: string, options?: ReadOptions): Promise<MediaUsage> {
    return readData(this.t, `${BASE}/media/${seg(id)}/usage`, undefined, options);
  }

  /** The media folders of the workspace. */
  async folders(options?: ReadOptions): Promise<MediaFolders> {
    return readData(this.t, `${BASE}/media/folders`, undefined, options);
  }

  /** Changes name, alt text, title, description, folder (moves the file) or focal point. */
  async update(id: string, patch: WireBody<'/api/v1/manage/media/{id}', 'put'>, options?: WriteOptions): Promise<MediaAsset> {
    return (await this.t.request<MediaAsset>('PUT', `${BASE}/media/${seg(id)}`, write(options, { body: patch }))).data;
  }

  async delete(id: string, options?: WriteOptions & { workspaceId?: string }): Promise<void> {
    await this.t.request('DELETE', `${BASE}/media/${seg(id)}`, write(options, { headers: this.workspaceHeader(options?.workspaceId) }));
  }
}

/** Content types and their fields: `client.manage.contentTypes`. */
export class ManagedContentTypes {
  constructor(private readonly t: Transport) {}

  async list(query: WireQuery<'/api/v1/manage/content-types', 'get'> = {}, options?: ReadOptions): Promise<ListPage<ContentType>> {
    const res = await this.t.request<ContentType[], PageMeta>('GET', `${BASE}/content-types`, { query: { ...query }, signal: options?.signal });
    return listPage(res.data, res.meta);
  }
  iterate(query: { is_block?: boolean; limit?: number } = {}, options?: ReadOptions): AsyncGenerator<ContentType, void, undefined> {
    return followPages((page) => this.list({ ...query, page }, options));
  }
  async get(slug: string, options?: ReadOptions): Promise<ContentType> {
    return (await this.t.request<ContentType>('GET', `${BASE}/content-types/${seg(slug)}`, { signal: options?.signal })).data;
  }
  async create(input: ContentTypeCreate, options?: WriteOptions): Promise<ContentType> {
    return (await this.t.request<ContentType>('POST', `${BASE}/content-types`, write(options, { body: input }))).data;
  }
  async update(slug: string, patch: ContentTypeUpdate, options?: WriteOptions): Promise<ContentType> {
    return (await this.t.request<ContentType>('PATCH', `${BASE}/content-types/${seg(slug)}`, write(options, { body: patch }))).data;
  }
  /** Deletes an empty content type (409 CONTENT_TYPE_NOT_EMPTY otherwise). */
  async delete(slug: string, options?: WriteOptions): Promise<void> {
    await this.t.request('DELETE', `${BASE}/content-types/${seg(slug)}`, write(options));
  }

  /** The pages whose blocks use block type `slug` (404 for a content type that is not a block type's). */
  async blockUsage(slug: string, options?: ReadOptions): Promise<BlockUsage> {
    return readData(this.t, `${BASE}/content-types/${seg(slug)}/block-usage`, undefined, options);
  }

  /** A content type's fields: list, add, edit (label, filterable, sortable), reorder, and what a change would touch. */
  fields = {
    list: async (slug: string, options?: ReadOptions): Promise<Field[]> => readData(this.t, this.fieldsPath(slug), undefined, options),
    create: async (slug: string, input: FieldCreate, options?: WriteOptions): Promise<void> => {
      await writeData(this.t, 'POST', this.fieldsPath(slug), input, options);
    },
    /** Changes a field's label, filterable or sortable (a flag on a big type waits for its index: see `index_build`). */
    update: async (slug: string, fieldId: string, patch: FieldUpdate, options?: WriteOptions): Promise<void> => {
      await writeData(this.t, 'PATCH', this.fieldsPath(slug, `/${seg(fieldId)}`), patch, options);
    },
    /** Sets the order of the fields: every field id of the type, in order. */
    reorder: async (slug: string, order: string[], options?: WriteOptions): Promise<void> => {
      await writeData(this.t, 'PATCH', this.fieldsPath(slug, '/reorder'), { order }, options);
    },
    /** How many entries hold a value of the field (what deleting it would lose). */
    deletionImpact: async (slug: string, fieldId: string, options?: ReadOptions): Promise<FieldDeletionImpact> =>
      readData(this.t, this.fieldsPath(slug, `/${seg(fieldId)}/deletion-impact`), undefined, options),
    /** How many entries hold translations of the field, per locale. */
    localizationImpact: async (slug: string, fieldId: string, options?: ReadOptions): Promise<FieldLocalizationImpact> =>
      readData(this.t, this.fieldsPath(slug, `/${seg(fieldId)}/localization-impact`), undefined, options),
  };

  private fieldsPath(slug: string, rest = ''): string {
    return `${BASE}/content-types/${seg(slug)}/fields${rest}`;
  }
}

/** The management surface: `client.manage`. */
export class Management {
  readonly entries: ManagedEntries;
  readonly pages: ManagedPages;
  readonly media: ManagedMedia;
  readonly contentTypes: ManagedContentTypes;
  readonly webhooks: ManagedWebhooks;
  readonly releases: ManagedReleases;
  /** Members and invitations (owners and admins, on a Studio session). */
  readonly people: ManagedPeople;
  /** API keys (owners and admins, on a Studio session). */
  readonly apiKeys: ManagedApiKeys;
  readonly workspace: ManagedWorkspace;
  /** Studio sessions: sign in and out, one-time links, passwords. */
  readonly session: ManagedSession;

  constructor(private readonly t: Transport) {
    this.entries = new ManagedEntries(t);
    this.pages = new ManagedPages(t);
    this.media = new ManagedMedia(t);
    this.contentTypes = new ManagedContentTypes(t);
    this.webhooks = new ManagedWebhooks(t);
    this.releases = new ManagedReleases(t);
    this.people = new ManagedPeople(t);
    this.apiKeys = new ManagedApiKeys(t);
    this.workspace = new ManagedWorkspace(t);
    this.session = new ManagedSession(t);
  }

  /** Mints a preview token (48 hours) for one entry, for `client.preview(token)` with a delivery key. */
  async previewToken(entryId: string, options?: WriteOptions): Promise<PreviewToken> {
    return (await this.t.request<PreviewToken>('POST', `${BASE}/preview-tokens`, write(options, { body: { entry_id: entryId } }))).data;
  }

  /** Mints a preview token (48 hours) for one page (its working copy), for `client.previewItem(token)`. */
  async pagePreviewToken(pageId: string, options?: WriteOptions): Promise<PreviewToken> {
    return (await this.t.request<PreviewToken>('POST', `${BASE}/preview-tokens`, write(options, { body: { page_id: pageId } }))).data;
  }
}
