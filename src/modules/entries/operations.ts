/**
 * Entry operations (docs/api.md "Entries", "Wire format" (D2), "ETag and If-Match" (D5),
 * "States and scheduling" (D21, D22), "Rules Quire decided" (D26, D34, D36), "Fields" (D31),
 * "Working copies, publishing changes and history" (D70, D71), "History" (D72)): list, get, create,
 * update (PUT), delete, duplicate and reorder. State changes and
 * history live in publishing.ts, bulk actions in bulk.ts. Plain functions of (ctx, actor, …) used
 * by the HTTP routes, the importer, the demo seeding and tests. Every write runs in one
 * transaction, bumps the entry's `version` (its ETag) and records `updated_by`; content writes go
 * through the publishing core's write sequence (src/modules/publishing/core.ts), which records
 * history and keeps a published entry's published version apart from its working copy.
 *
 * Scopes: writes need `content:write`; reads need a valid management key only (D11).
 * Entries belong to content types that are not block types (block content lives in pages).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { type AppError, invalid, notFound } from '../../errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { assertCompleteOrder } from '../../lib/order.js';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { workflowListCondition } from '../workflows/filters.js';
import { dataFieldStoredSql } from '../../db/dialect.js';
import { offsetMeta, offsetPage, type OffsetMeta } from '../../lib/pagination.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../delivery/cursor.js';
import { iso } from '../../lib/time.js';
import { authorize, authorizeItem, canReadType } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { requireContentType } from '../content-types/lookup.js';
import type { ContentType } from '../content-types/model.js';
import { checkIfMatch } from '../publishing/preconditions.js';
import { beginWrite, finishContentWrite, presentItem, recordFirstVersion } from '../publishing/core.js';
import { ENTRY_TABLES, type VersionAction } from '../publishing/repository.js';
import { columnSort, parseSort } from '../publishing/sort.js';
import { newDraftColumns, writeGoesLive, type Status } from '../publishing/states.js';
import type { Db } from '../../db/types.js';
import { entrySpec } from './spec.js';
import { entryWriteScope } from './write-scope.js';
import { changedKeys, recordItemAudit } from '../audit/record.js';
import { recordItemEvents } from '../events/record.js';
import { findWorkspaceById, type Workspace } from '../workspaces/repository.js';
import { assertSlugFree, assertUniqueValues, deriveSlug, nextFreeSlug, prepareContent, slugProblem, type PreparedContent } from './content.js';
import type { Entry } from './model.js';
import {
  deleteEntryRow,
  entryExists,
  entryPositions,
  findEntry,
  findEntryForUpdate,
  insertEntryRow,
  listEntryRows,
  lockContentType,
  maxPosition,
  replaceTranslations,
  updateEntryRow,
  type EntryRef,
} from './repository.js';

export type { EntryRef } from './repository.js';

/** Options of writes to one existing entry. */
export interface WriteOptions {
  /** Raw `If-Match` header: 412 PRECONDITION_FAILED unless it names the current ETag (D5). */
  ifMatch?: string;
}

/** Options of content writes: the version's action (`import` for the importer; D72). */
export interface ContentWriteOptions extends WriteOptions {
  action?: VersionAction;
}

/** Body of POST and PUT (D2 forms accepted for data and translations). */
export interface EntryWriteInput {
  slug?: string;
  data: unknown;
  /** Object keyed by locale or array of {locale, data}; on PUT, absent keeps the current ones. */
  translations?: unknown;
}

/** POST input; `id` is for the importer and demo seeding only (not accepted over HTTP). */
export interface CreateEntryInput extends EntryWriteInput {
  id?: string;
}

export interface ListEntriesQuery {
  page?: number;
  limit?: number;
  status?: Status;
  /** `<field>:<asc|desc>` with created_at, updated_at, published_at, slug, position (orderable types) or a sortable field. */
  sort?: string;
  /** Case-insensitive substring of the display field's default-locale value or of the slug (at most 200 characters). */
  search?: string;
  /** A workflow stage (id or name): the entries in it (docs/workflow.md). */
  stage?: string;
  /** A user id or `me`: the entries assigned to that person (docs/workflow.md). */
  assignee?: string;
  /** `meta.next_cursor` of the previous page: keyset pagination, no total. */
  cursor?: string;
}

/** The meta of a management entry list: offset pages carry totals, cursor pages only the next cursor. */
export type EntryListMeta = OffsetMeta | { page_size: number; next_cursor: string | null };

/** Longest `search` accepted (the Studio contract). */
export const MAX_SEARCH = 200;

/** `lower(expr) LIKE %text%` with LIKE's wildcards in `text` escaped. */
function containsCondition(expr: RawBuilder<unknown>, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`lower(${expr}) like ${pattern} escape '\\'`;
}

/**
 * The `search` condition: the slug or the display field's default-locale value (the working
 * copy's `data`) contains `text`, ignoring case. A substring test reads every row of the content
 * type (no index serves `%text%`); at 100,000 entries of one type it stays within tens of
 * milliseconds (docs/api.md gives the figures).
 */
function searchCondition(ctx: Context, ct: ContentType, text: string): RawBuilder<SqlBool> {
  const bySlug = containsCondition(sql`${sql.ref('entries.slug')}`, text);
  const field = ct.display_field ? ct.fields.find((f) => f.name === ct.display_field) : undefined;
  if (!field) return bySlug;
  const value = dataFieldStoredSql(ctx.db.dialect, field.name, 'entries', 'data');
  return sql<SqlBool>`(${bySlug} or ${containsCondition(value, text)})`;
}

/** The order of a content type's entries when `sort` is absent. */
function defaultSort(ct: ContentType) {
  return ct.orderable ? columnSort('position', 'asc') : columnSort('created_at', 'desc');
}

/** 404 unless the content type exists in the workspace; 400 for a block type (no entries). */
export async function requireEntryType(ctx: Context, actor: Actor, slug: string): Promise<ContentType> {
  // A type the actor's role may not read is answered as absent (D120).
  if (!canReadType(actor, slug)) throw notFound(`content type '${slug}'`);
  const ct = await requireContentType(ctx, actor.workspaceId, slug);
  if (ct.is_block) throw invalid('params.slug', `'${slug}' is a block type: its content lives in page blocks, not entries`);
  return ct;
}

/** The actor's workspace (locales for translations). */
export async function requireWorkspaceOf(ctx: Context, actor: Actor): Promise<Workspace> {
  const ws = await findWorkspaceById(ctx.db, actor.workspaceId);
  if (!ws) throw notFound('workspace');
  return ws;
}

export function entryNotFound(ct: ContentType, ref: EntryRef): AppError {
  return notFound('id' in ref ? `entry '${ref.id}' of content type '${ct.slug}'` : `entry '${ref.slug}' of content type '${ct.slug}'`);
}

/** The entry as clients see it now: a due scheduled entry is published (D21). */
function present(ctx: Context, entry: Entry): Entry {
  return presentItem(entry, ctx.clock());
}

/**
 * GET …/entries: every status (or one, by `status`), optionally narrowed by `search`; offset
 * pagination (docs/api.md "Pagination") with totals, or keyset pagination with `cursor` (no total, so
 * a page costs the same at any depth). A cursor is signed and bound to the type, sort, status and
 * search; another query's cursor answers 400 at `query.cursor`.
 */
export async function listEntries(ctx: Context, actor: Actor, typeSlug: string, q: ListEntriesQuery = {}): Promise<{ items: Entry[]; meta: EntryListMeta }> {
  const ct = await requireEntryType(ctx, actor, typeSlug);
  const sort = parseSort(
    { label: `content type '${ct.slug}'`, orderable: ct.orderable, fields: new Map(ct.fields.map((f) => [f.name, f])), default: defaultSort(ct) },
    q.sort,
  );
  const search = q.search?.trim() ? q.search.trim() : undefined;
  if (search !== undefined && search.length > MAX_SEARCH) throw invalid('query.search', `must be at most ${MAX_SEARCH} characters`);
  const binding: CursorBinding = {
    contentTypeId: ct.id,
    sort: sort.text,
    // The workflow filters join the binding only when given, so earlier cursors stay valid.
    filters: JSON.stringify({
      status: q.status ?? null,
      search: search ?? null,
      ...(q.stage !== undefined ? { stage: q.stage } : {}),
      ...(q.assignee !== undefined ? { assignee: q.assignee } : {}),
    }),
    locale: null,
    environment: 'management',
  };
  const conditions = [
    ...(search === undefined ? [] : [searchCondition(ctx, ct, search)]),
    ...[await workflowListCondition(ctx.db, actor, 'entry', ct.id, q)].filter((c) => c !== undefined),
  ];
  const where = conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
  const base = { status: q.status, now: iso(ctx.clock()), sort, where };
  if (q.cursor !== undefined) {
    const limit = offsetPage(1, q.limit).limit;
    const after = decodeCursor(ctx.secret, binding, q.cursor);
    // One row more than asked tells whether a next page exists.
    const page = await listEntryRows(ctx.db, ct.id, { ...base, after, offset: 0, limit: limit + 1, withTotal: false });
    const items = page.items.slice(0, limit);
    const next = page.items.length > limit ? encodeCursor(ctx.secret, binding, page.positions[limit - 1]) : null;
    return { items: items.map((e) => present(ctx, e)), meta: { page_size: items.length, next_cursor: next } };
  }
  const window = offsetPage(q.page, q.limit);
  const { items, total, positions } = await listEntryRows(ctx.db, ct.id, { ...base, offset: window.offset, limit: window.limit });
  const count = total ?? 0;
  const more = items.length > 0 && window.offset + items.length < count;
  return {
    items: items.map((e) => present(ctx, e)),
    meta: offsetMeta(window, count, items.length, more ? encodeCursor(ctx.secret, binding, positions[positions.length - 1]) : null),
  };
}

/** GET …/entries/{entry_slug} (or by id for the importer). 404 when absent. */
export async function getEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef): Promise<Entry> {
  const ct = await requireEntryType(ctx, actor, typeSlug);
  const entry = await findEntry(ctx.db, ct.id, ref);
  if (!entry) throw entryNotFound(ct, ref);
  return present(ctx, entry);
}

/**
 * POST …/entries: a draft at the end of the type's order. Required fields are not enforced yet
 * (D22). 400 for invalid data, 409 SLUG_TAKEN / UNIQUE_VIOLATION.
 */
export async function createEntry(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  input: CreateEntryInput,
  opts: { action?: VersionAction } = {},
): Promise<Entry> {
  authorize(actor, 'content:write');
  if (input.id !== undefined && !isUuid(input.id)) throw invalid('id', 'must be a uuid');
  if (input.slug !== undefined) {
    const problem = slugProblem(input.slug);
    if (problem) throw invalid('body.slug', problem);
  }
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const ct = await requireEntryType(tx, actor, typeSlug);
    const ws = await requireWorkspaceOf(tx, actor);
    const content = await prepareContent(db, ws, ct, input, { requireRequired: false });
    const written = entryWriteScope(null, { slug: input.slug, data: content.data, translations: content.translations }, ws.default_locale);
    authorizeItem(actor, { resource: 'entries', action: 'create', contentType: ct.slug, ...written });
    await lockContentType(db, ct.id);
    const id = input.id?.toLowerCase() ?? newId();
    if (input.id !== undefined && (await entryExists(db, id))) throw invalid('id', `an entry with id '${id}' already exists`);
    await assertUniqueValues(db, ct, content.data, null);
    let slug: string;
    if (input.slug !== undefined) {
      await assertSlugFree(db, ct, input.slug, null);
      slug = input.slug;
    } else {
      slug = await deriveSlug(db, ct, content.data, id);
    }
    const clock = ctx.clock();
    const now = iso(clock);
    await insertEntryRow(db, {
      id,
      workspace_id: ws.id,
      content_type_id: ct.id,
      slug,
      data: content.data,
      position: (await maxPosition(db, ct.id)) + 1,
      ...newDraftColumns(now, actor.userId),
    });
    if (content.translations?.length) await replaceTranslations(db, id, content.translations, now);
    const created = await findEntry(db, ct.id, { id });
    if (!created) throw new Error('entry vanished after insert');
    await recordFirstVersion(db, entrySpec(ct), created, actor, clock, opts.action ?? 'create');
    return created;
  });
}

/** The body of a content write, or a function computing it from the locked entry (restore). */
export type EntryWriteSource = EntryWriteInput | ((db: Db, ct: ContentType, stored: Entry) => Promise<EntryWriteInput>);

/**
 * PUT …/entries/{entry_slug}: replaces the working copy's `data` (and `translations` when given;
 * absent keeps them), optionally renames the slug. The status stays: a published entry keeps
 * serving its published version, and shows `has_pending_changes` while its working copy differs
 * from the published version (D70).
 * A scheduled entry must keep its required fields, since it goes live as it is (D22, D71).
 */
export async function updateEntry(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  ref: EntryRef,
  source: EntryWriteSource,
  opts: ContentWriteOptions = {},
): Promise<Entry> {
  authorize(actor, 'content:write');
  if (typeof source !== 'function' && source.slug !== undefined) {
    const problem = slugProblem(source.slug);
    if (problem) throw invalid('body.slug', problem);
  }
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const ct = await requireEntryType(tx, actor, typeSlug);
    await lockContentType(db, ct.id);
    const stored = await findEntryForUpdate(db, ct.id, ref);
    if (!stored) throw entryNotFound(ct, ref);
    const now = ctx.clock();
    const current = await beginWrite(db, ENTRY_TABLES, stored, opts.ifMatch, now);
    const input = typeof source === 'function' ? await source(db, ct, stored) : source;
    const ws = await requireWorkspaceOf(tx, actor);
    const content = await prepareContent(db, ws, ct, input, { requireRequired: writeGoesLive(current) });
    const written = entryWriteScope(stored, { slug: input.slug, data: content.data, translations: content.translations }, ws.default_locale);
    authorizeItem(actor, { resource: 'entries', action: 'update', contentType: ct.slug, createdBy: stored.created_by, ...written });
    await assertUniqueValues(db, ct, content.data, stored.id);
    if (input.slug !== undefined && input.slug !== stored.slug) await assertSlugFree(db, ct, input.slug, stored.id);
    await updateEntryRow(db, stored.id, { slug: input.slug ?? stored.slug, data: content.data });
    if (content.translations !== undefined) await replaceTranslations(db, stored.id, content.translations, iso(now));
    await finishContentWrite(db, entrySpec(ct), { ...current, data: content.data }, actor, now, {
      action: opts.action,
      coalesceSeconds: ctx.config.versionCoalesceSeconds,
      changedFields: entryChangedFields(stored, content, input.slug),
    });
    const updated = await findEntry(db, ct.id, { id: stored.id });
    if (!updated) throw new Error('entry vanished after update');
    return updated;
  });
}

/** DELETE …/entries/{entry_slug}: removes the entry and its translations. */
export async function deleteEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, opts: WriteOptions = {}): Promise<void> {
  authorize(actor, 'content:write');
  await withTransaction(ctx.db, async (db) => {
    const ct = await requireEntryType({ ...ctx, db }, actor, typeSlug);
    const stored = await findEntryForUpdate(db, ct.id, ref);
    if (!stored) throw entryNotFound(ct, ref);
    authorizeItem(actor, { resource: 'entries', action: 'delete', contentType: ct.slug, createdBy: stored.created_by });
    checkIfMatch(opts.ifMatch, stored);
    await recordItemEvents(db, ctx.clock(), 'entry', [stored.id], 'deleted');
    await recordItemAudit(db, ctx.clock(), actor, 'entry', [stored.id], 'deleted');
    await deleteEntryRow(db, stored.id);
  });
}

/**
 * POST …/entries/{entry_slug}/duplicate (D26): a new draft with slug `<slug>-copy` (then
 * `-copy-2` …), the same data and translations, appended last. Values of `is_unique` fields are
 * left out of the copy, since two entries cannot share them; the copy is a draft, so it may lack
 * them until edited.
 */
export async function duplicateEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef): Promise<Entry> {
  authorize(actor, 'content:write');
  return withTransaction(ctx.db, async (db) => {
    const ct = await requireEntryType({ ...ctx, db }, actor, typeSlug);
    await lockContentType(db, ct.id);
    const source = await findEntry(db, ct.id, ref);
    if (!source) throw entryNotFound(ct, ref);
    const unique = new Set(ct.fields.filter((f) => f.is_unique).map((f) => f.name));
    const data = Object.fromEntries(Object.entries(source.data).filter(([k]) => !unique.has(k)));
    const ws = await requireWorkspaceOf({ ...ctx, db }, actor);
    const written = entryWriteScope(null, { slug: `${source.slug}-copy`, data, translations: source.translations }, ws.default_locale);
    authorizeItem(actor, { resource: 'entries', action: 'create', contentType: ct.slug, ...written });
    const id = newId();
    const clock = ctx.clock();
    const now = iso(clock);
    await insertEntryRow(db, {
      id,
      workspace_id: source.workspace_id,
      content_type_id: ct.id,
      slug: await nextFreeSlug(db, ct.id, `${source.slug}-copy`),
      data,
      position: (await maxPosition(db, ct.id)) + 1,
      ...newDraftColumns(now, actor.userId),
    });
    if (source.translations.length)
      await replaceTranslations(
        db,
        id,
        source.translations.map((t) => ({ locale: t.locale, data: t.data })),
        now,
      );
    const copy = await findEntry(db, ct.id, { id });
    if (!copy) throw new Error('entry vanished after insert');
    await recordFirstVersion(db, entrySpec(ct), copy, actor, clock, 'duplicate');
    return copy;
  });
}

/**
 * PATCH …/entries/reorder (D34, D36): `order` lists every entry id of the type exactly once;
 * positions become 0, 1, 2 … in that order. 400 for a type that is not orderable or an
 * incomplete list.
 */
export async function reorderEntries(ctx: Context, actor: Actor, typeSlug: string, order: string[]): Promise<void> {
  authorize(actor, 'content:write');
  await withTransaction(ctx.db, async (db) => {
    const ct = await requireEntryType({ ...ctx, db }, actor, typeSlug);
    if (!ct.orderable) throw invalid('params.slug', `content type '${ct.slug}' is not orderable; make it orderable to reorder its entries`);
    // Moving every entry of the type: not an item of one's own (D120's own_only refuses it).
    authorizeItem(actor, { resource: 'entries', action: 'update', contentType: ct.slug, createdBy: null });
    await lockContentType(db, ct.id);
    const current = await entryPositions(db, ct.id);
    assertCompleteOrder(
      order,
      current.map((e) => e.id),
      'body.order',
    );
    const byId = new Map(current.map((e) => [e.id, e]));
    const now = iso(ctx.clock());
    const moved: string[] = [];
    for (let i = 0; i < order.length; i++) {
      const e = byId.get(order[i])!;
      if (e.position === i) continue;
      await updateEntryRow(db, e.id, { position: i, version: e.version + 1, updated_at: now, updated_by: actor.userId });
      moved.push(e.id);
    }
    // Position is on the delivery wire: a moved entry changed for webhooks and sync (D82, D83).
    await recordItemEvents(db, now, 'entry', moved, 'updated');
    await recordItemAudit(db, now, actor, 'entry', moved, 'updated', ['position']);
  });
}

/**
 * The top-level field names a content write changes (D122's `changed_fields`): default-locale
 * values, each translation's values (when translations are sent) and `slug`.
 */
export function entryChangedFields(
  stored: Pick<Entry, 'data' | 'slug'> & { translations: readonly { locale: string; data: Entry['data'] }[] },
  content: PreparedContent,
  slug: string | undefined,
): string[] {
  const names = new Set(changedKeys(stored.data, content.data));
  if (content.translations !== undefined) {
    const before = new Map(stored.translations.map((t) => [t.locale, t.data]));
    const after = new Map(content.translations.map((t) => [t.locale, t.data]));
    for (const locale of new Set([...before.keys(), ...after.keys()])) {
      for (const name of changedKeys(before.get(locale) ?? {}, after.get(locale) ?? {})) names.add(name);
    }
  }
  if (slug !== undefined && slug !== stored.slug) names.add('slug');
  return [...names];
}
