/**
 * Page operations (docs/api.md "Pages (management)", "ETag and If-Match" (D5), "States and scheduling"
 * (D22), "Rules Quire decided" (D24, D26, D34), "Fields" (D31); docs/pages.md "The model" (D25)):
 * list, get,
 * create, update (PUT), delete, duplicate, navigation reorder and block reorder. State changes
 * live in publishing.ts. Plain functions of (ctx, actor, …) used by the HTTP routes, the importer,
 * the demo seeding and tests. Every write runs in one transaction, bumps the page's `version` (its
 * ETag) and records `updated_by`.
 *
 * Scopes: writes need `content:write`; reads need a valid management key only (D11).
 *
 * Rules:
 * - Slugs (D31): `^[a-z0-9]+(?:-[a-z0-9]+)*$`, at most 200 characters, unique per workspace
 *   (409 SLUG_TAKEN); `reorder` is reserved (it names PATCH /pages/reorder).
 * - Navigation positions are 0-based: a new or duplicated page goes last, a deleted page's gap
 *   closes, PATCH /pages/reorder takes the complete list of the workspace's page ids (D34).
 * - POST and PUT take `seo`, `seo_translations` and `blocks` (seo.ts, tree.ts, blocks.ts). PUT
 *   replaces the working copy's SEO and block tree; `seo_translations` (and a kept block's
 *   `translations`) absent keep the current ones. A published page stays published and keeps
 *   serving its published version until published again (D70); a scheduled page must keep
 *   every block's required fields, since it goes live as it is (D22, D71). Content writes go
 *   through the publishing core's write sequence (src/modules/publishing/core.ts).
 * - PATCH changes the slug, SEO (the keys sent, merged into the current ones) and
 *   `seo_translations` without touching the block tree: the same write as PUT, blocks kept.
 * - A page read can be written back as it is: the read-only keys it returns on blocks and SEO
 *   translations are ignored (tree.ts, seo.ts; docs/pages.md "Writing a page back").
 * - Duplicate (D26): slug `<slug>-copy` (then `-copy-2` …), draft, same SEO and translations, a
 *   copy of the block tree with new block ids, appended last.
 */
import type { Context } from '../../context.js';
import type { Db } from '../../db/types.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid, notFound, validationError, type ErrorDetail } from '../../errors.js';
import { isUuid, newId } from '../../lib/ids.js';
import { assertCompleteOrder } from '../../lib/order.js';
import { offsetPage, type OffsetPage } from '../../lib/pagination.js';
import { firstFreeSlug, slugProblem } from '../../lib/slugs.js';
import { isPlainObject } from '../../lib/json.js';
import { iso } from '../../lib/time.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { requireWorkspaceOf } from '../entries/operations.js';
import { checkIfMatch } from '../publishing/preconditions.js';
import { beginWrite, finishContentWrite, presentItem, recordFirstVersion } from '../publishing/core.js';
import { PAGE_TABLES, type VersionAction } from '../publishing/repository.js';
import { columnSort, parseSort, type SortSpec } from '../publishing/sort.js';
import { newDraftColumns, writeGoesLive, type Status } from '../publishing/states.js';
import { pageSpec } from './spec.js';
import { changedKeys, recordItemAudit } from '../audit/record.js';
import { recordItemEvents } from '../events/record.js';
import type { Workspace } from '../workspaces/repository.js';
import { prepareBlocks } from './blocks.js';
import { SEO_KEYS, type Page, type PageContent } from './model.js';
import {
  blockOfPage,
  blockParents,
  closePositionGap,
  deletePageRow,
  findPage,
  findPageForUpdate,
  insertPageRow,
  listPageRows,
  loadPageContent,
  lockWorkspacePages,
  maxPagePosition,
  pageExists,
  pageIdBySlug,
  pagePositions,
  pageSlugsLike,
  replaceSeoTranslations,
  setBlockPosition,
  siblingBlocks,
  updatePageRow,
  writeBlockTree,
  type PageRef,
} from './repository.js';
import { completeSeo, parseSeoTranslations, parseSeoValues } from './seo.js';
import { parseBlockTree, preorder } from './tree.js';
import { workflowListCondition } from '../workflows/filters.js';

export type { PageRef } from './repository.js';

/** Page slugs that would be shadowed by the static `/pages/reorder` route. */
export const RESERVED_PAGE_SLUGS: ReadonlySet<string> = new Set(['reorder']);

/** Options of writes to one existing page. */
export interface PageWriteOptions {
  /** Raw `If-Match` header: 412 PRECONDITION_FAILED unless it names the current ETag (D5). */
  ifMatch?: string;
  /** The version's action for content writes (`import` for the importer; D72). */
  action?: VersionAction;
  /** Leave the block tree as it is and ignore `blocks` (PATCH). */
  keepBlocks?: boolean;
}

/** Body of POST and PUT /pages (D25 forms). */
export interface PageWriteInput {
  slug?: string;
  seo?: unknown;
  /** Object keyed by locale or array of {locale, seo}; on PUT, absent keeps the current ones. */
  seo_translations?: unknown;
  /** Array of `{type, data}` or a full tree (`id`, `translations`, `children`). */
  blocks?: unknown;
}

/** POST input; `id` is for the importer and demo seeding only (not accepted over HTTP). */
export interface CreatePageInput extends PageWriteInput {
  id?: string;
}

export interface ListPagesQuery {
  page?: number;
  limit?: number;
  status?: Status;
  /** `<field>:<asc|desc>` with position, created_at, updated_at, published_at or slug. */
  sort?: string;
  /** A workflow stage (id or name): the pages in it (docs/workflow.md). */
  stage?: string;
  /** A user id or `me`: the pages assigned to that person (docs/workflow.md). */
  assignee?: string;
}

/** Parses a page list `sort` (default `position:asc`, the navigation order); 400 at `query.sort` otherwise. */
export function parsePageSort(sort: string | undefined): SortSpec {
  return parseSort({ label: 'pages', orderable: true, default: columnSort('position', 'asc') }, sort);
}

/** The D31 slug rules for a page slug; null when fine. */
export function pageSlugProblem(slug: unknown): string | null {
  return slugProblem(slug, RESERVED_PAGE_SLUGS);
}

export function pageNotFound(ref: PageRef): AppError {
  return notFound('id' in ref ? `page '${ref.id}'` : `page '${ref.slug}'`);
}

/** The page as clients see it now: a due scheduled page is published (D21). */
function present(ctx: Context, page: Page): Page {
  return presentItem(page, ctx.clock());
}

/** 409 SLUG_TAKEN when another page of the workspace uses `slug`. */
async function assertPageSlugFree(db: Db, workspaceId: string, slug: string, exceptId: string | null): Promise<void> {
  const owner = await pageIdBySlug(db, workspaceId, slug);
  if (owner && owner !== exceptId) throw new AppError('SLUG_TAKEN', `page slug '${slug}' is already used in this workspace`);
}

/** `base` if free, else `base-2`, `base-3` … (D26 with base `<slug>-copy`). */
export function nextFreePageSlug(db: Db, workspaceId: string, base: string): Promise<string> {
  return firstFreeSlug(base, 'page', RESERVED_PAGE_SLUGS, (prefix) => pageSlugsLike(db, workspaceId, prefix));
}

/** Reads the body of a page write without touching the database; throws one 400 for all problems. */
export function parseWrite(input: PageWriteInput, ws: Workspace, requireSlug: boolean) {
  const errors: ErrorDetail[] = [];
  if (input.slug !== undefined || requireSlug) {
    const problem = input.slug === undefined ? 'is required' : pageSlugProblem(input.slug);
    if (problem) errors.push({ path: 'body.slug', message: problem });
  }
  // null is a wrong type here, not "nothing": taken as absent, a PUT with "seo": null cleared the
  // page's SEO and "seo_translations": null removed every translation (issue 23).
  if (input.seo === null) errors.push({ path: 'body.seo', message: `must be an object with ${SEO_KEYS.join(', ')}` });
  if (input.seo_translations === null)
    errors.push({ path: 'body.seo_translations', message: 'must be an object keyed by locale ({"de": {"title": "..."}}) or an array of {locale, seo}' });
  const seo = parseSeoValues(input.seo ?? undefined, 'body.seo', errors);
  const seoTranslations =
    input.seo_translations === undefined || input.seo_translations === null
      ? undefined
      : parseSeoTranslations(input.seo_translations, 'body.seo_translations', ws, errors);
  let blocks: ReturnType<typeof parseBlockTree> = [];
  try {
    blocks = parseBlockTree(input.blocks, 'body.blocks');
  } catch (err) {
    if (!(err instanceof AppError) || !err.errors) throw err;
    errors.push(...err.errors);
  }
  if (errors.length) throw validationError(errors);
  return { seo: completeSeo(seo), seoTranslations, blocks };
}

/** GET /pages (management): every status (or one), ordered by navigation position by default. */
export async function listPages(ctx: Context, actor: Actor, q: ListPagesQuery = {}): Promise<{ items: Page[]; total: number; window: OffsetPage }> {
  const window = offsetPage(q.page, q.limit);
  const { items, total } = await listPageRows(ctx.db, actor.workspaceId, {
    status: q.status,
    now: iso(ctx.clock()),
    sort: parsePageSort(q.sort),
    where: await workflowListCondition(ctx.db, actor, 'page', null, q),
    offset: window.offset,
    limit: window.limit,
  });
  // Offset pages always count (withTotal defaults to true).
  return { items: items.map((p) => present(ctx, p)), total: total ?? 0, window };
}

/** GET /pages/{slug} (management): the page with its block tree and every translation. 404 when absent. */
export async function getPage(ctx: Context, actor: Actor, ref: PageRef): Promise<PageContent> {
  const page = await findPage(ctx.db, actor.workspaceId, ref);
  if (!page) throw pageNotFound(ref);
  return loadPageContent(ctx.db, present(ctx, page));
}

/**
 * POST /pages: a draft page at the end of the navigation. Required block fields are not enforced
 * yet (D22). 400 for an invalid body, 409 SLUG_TAKEN.
 */
export async function createPage(ctx: Context, actor: Actor, input: CreatePageInput, opts: { action?: VersionAction } = {}): Promise<Page> {
  authorize(actor, 'content:write');
  authorizeItem(actor, { resource: 'pages', action: 'create' });
  if (input.id !== undefined && !isUuid(input.id)) throw invalid('id', 'must be a uuid');
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const ws = await requireWorkspaceOf(tx, actor);
    const parsed = parseWrite(input, ws, true);
    const slug = input.slug as string;
    await lockWorkspacePages(db, ws.id);
    const id = input.id?.toLowerCase() ?? newId();
    if (input.id !== undefined && (await pageExists(db, id))) throw invalid('id', `a page with id '${id}' already exists`);
    await assertPageSlugFree(db, ws.id, slug, null);
    const blocks = await prepareBlocks(db, ws, await listAllContentTypes(db, ws.id), parsed.blocks, { requireRequired: false, currentIds: new Set() });
    const clock = ctx.clock();
    const now = iso(clock);
    const page: Page = {
      id,
      workspace_id: ws.id,
      slug,
      position: (await maxPagePosition(db, ws.id)) + 1,
      seo: parsed.seo,
      ...newDraftColumns(now, actor.userId),
    };
    await insertPageRow(db, page);
    if (parsed.seoTranslations?.length) await replaceSeoTranslations(db, id, parsed.seoTranslations, now);
    await writeBlockTree(db, id, [], blocks, now);
    await recordFirstVersion(db, pageSpec, page, actor, clock, opts.action ?? 'create');
    return page;
  });
}

/** The body of a page write, or a function computing it from the locked page (restore). */
export type PageWriteSource = PageWriteInput | ((db: Db, stored: Page) => Promise<PageWriteInput>);

/**
 * PUT /pages/{slug}: replaces the working copy's SEO and block tree (blocks sent with an id of
 * this page keep it; blocks not sent are deleted), `seo_translations` when given, optionally the
 * slug (an attribute of the page, applied at once: D70). The status stays; a published page
 * shows `has_pending_changes` while its working copy differs from the published version; a
 * scheduled page must keep its required block fields (D22, D71).
 */
export async function updatePage(ctx: Context, actor: Actor, ref: PageRef, source: PageWriteSource, opts: PageWriteOptions = {}): Promise<Page> {
  authorize(actor, 'content:write');
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const ws = await requireWorkspaceOf(tx, actor);
    if (typeof source !== 'function') parseWrite(source, ws, false);
    await lockWorkspacePages(db, ws.id);
    const stored = await findPageForUpdate(db, ws.id, ref);
    if (!stored) throw pageNotFound(ref);
    authorizeItem(actor, { resource: 'pages', action: 'update', createdBy: stored.created_by });
    const now = ctx.clock();
    const current = await beginWrite(db, PAGE_TABLES, stored, opts.ifMatch, now);
    const input = typeof source === 'function' ? await source(db, stored) : source;
    const parsed = parseWrite(input, ws, false);
    if (input.slug !== undefined && input.slug !== stored.slug) await assertPageSlugFree(db, ws.id, input.slug, stored.id);
    const at = iso(now);
    if (!opts.keepBlocks) {
      const content = await loadPageContent(db, stored);
      const blocks = await prepareBlocks(db, ws, await listAllContentTypes(db, ws.id), parsed.blocks, {
        requireRequired: writeGoesLive(current),
        currentIds: new Set(content.blocks.map((b) => b.id)),
      });
      await writeBlockTree(db, stored.id, content.blocks, blocks, at);
    }
    await updatePageRow(db, stored.id, { slug: input.slug ?? stored.slug, seo: parsed.seo });
    if (parsed.seoTranslations !== undefined) await replaceSeoTranslations(db, stored.id, parsed.seoTranslations, at);
    // D122's changed_fields: the page's top-level parts (a sent block tree counts as changed).
    const changedFields = changedKeys({ slug: stored.slug, seo: stored.seo }, { slug: input.slug ?? stored.slug, seo: parsed.seo });
    if (parsed.seoTranslations !== undefined) changedFields.push('seo_translations');
    if (!opts.keepBlocks) changedFields.push('blocks');
    await finishContentWrite(db, pageSpec, current, actor, now, { action: opts.action, coalesceSeconds: ctx.config.versionCoalesceSeconds, changedFields });
    return (await findPage(db, ws.id, { id: stored.id }))!;
  });
}

/** Body of PATCH /pages/{slug}: what may change without the block tree. */
export interface PagePatchInput {
  slug?: string;
  /** SEO keys to change; the others keep their current value (null clears a nullable key). */
  seo?: unknown;
  /** As on PUT: when given, the page's whole set of SEO translations. */
  seo_translations?: unknown;
}

/**
 * PATCH /pages/{slug} (docs/pages.md "Changing SEO without the blocks"; issue 28 item 6): the
 * slug, SEO keys (merged into the working copy's SEO) and `seo_translations` (as on PUT), written
 * by PUT's write (updatePage: If-Match 412, a version when the content changed, pending changes on
 * a published page, a new ETag) with the block tree left as it is, so no block is validated
 * again. 400 VALIDATION_FAILED as PUT for the keys sent.
 */
export function patchPage(ctx: Context, actor: Actor, ref: PageRef, input: PagePatchInput, opts: Omit<PageWriteOptions, 'keepBlocks'> = {}): Promise<Page> {
  return updatePage(
    ctx,
    actor,
    ref,
    async (_db, stored) => ({
      ...(input.slug === undefined ? {} : { slug: input.slug }),
      // Not an object: passed on as sent, so the check names it at body.seo.
      seo: input.seo === undefined ? stored.seo : isPlainObject(input.seo) ? { ...stored.seo, ...input.seo } : input.seo,
      ...(input.seo_translations === undefined ? {} : { seo_translations: input.seo_translations }),
    }),
    { ...opts, keepBlocks: true },
  );
}

/** DELETE /pages/{slug}: removes the page, its blocks and translations; later pages move up. */
export async function deletePage(ctx: Context, actor: Actor, ref: PageRef, opts: PageWriteOptions = {}): Promise<void> {
  authorize(actor, 'content:write');
  await withTransaction(ctx.db, async (db) => {
    await lockWorkspacePages(db, actor.workspaceId);
    const stored = await findPageForUpdate(db, actor.workspaceId, ref);
    if (!stored) throw pageNotFound(ref);
    authorizeItem(actor, { resource: 'pages', action: 'delete', createdBy: stored.created_by });
    checkIfMatch(opts.ifMatch, stored);
    const now = iso(ctx.clock());
    // Later pages move up a position, which delivery shows: they changed too (D82, D83).
    const later = (await pagePositions(db, actor.workspaceId)).filter((p) => p.position > stored.position).map((p) => p.id);
    await recordItemEvents(db, now, 'page', [stored.id], 'deleted');
    await recordItemAudit(db, now, actor, 'page', [stored.id], 'deleted');
    await deletePageRow(db, stored.id);
    await closePositionGap(db, actor.workspaceId, stored.position, now);
    await recordItemEvents(db, now, 'page', later, 'updated');
  });
}

/** POST /pages/{slug}/duplicate (D26): a draft copy with new block ids, appended last. */
export async function duplicatePage(ctx: Context, actor: Actor, ref: PageRef): Promise<Page> {
  authorize(actor, 'content:write');
  authorizeItem(actor, { resource: 'pages', action: 'create' });
  return withTransaction(ctx.db, async (db) => {
    await lockWorkspacePages(db, actor.workspaceId);
    const source = await findPage(db, actor.workspaceId, ref);
    if (!source) throw pageNotFound(ref);
    const content = await loadPageContent(db, source);
    const clock = ctx.clock();
    const now = iso(clock);
    const id = newId();
    const page: Page = {
      ...source,
      id,
      slug: await nextFreePageSlug(db, actor.workspaceId, `${source.slug}-copy`),
      position: (await maxPagePosition(db, actor.workspaceId)) + 1,
      ...newDraftColumns(now, actor.userId),
    };
    await insertPageRow(db, page);
    if (content.seoTranslations.length) await replaceSeoTranslations(db, id, content.seoTranslations, now);
    const newIds = new Map(content.blocks.map((b) => [b.id, newId()]));
    const translations = new Map<string, { locale: string; data: Record<string, unknown> }[]>();
    for (const t of content.blockTranslations) {
      const list = translations.get(t.block_id) ?? [];
      list.push({ locale: t.locale, data: t.data });
      translations.set(t.block_id, list);
    }
    const copies = preorder(content.blocks).map((b) => ({
      id: newIds.get(b.id)!,
      parent_id: b.parent_id === null ? null : (newIds.get(b.parent_id) ?? null),
      position: b.position,
      block_type_id: b.block_type_id,
      data: b.data,
      translations: translations.get(b.id),
    }));
    await writeBlockTree(db, id, [], copies, now);
    await recordFirstVersion(db, pageSpec, page, actor, clock, 'duplicate');
    return page;
  });
}

/**
 * PATCH /pages/reorder (D34): `order` lists every page id of the workspace exactly once; the
 * navigation positions become 0, 1, 2 … in that order. 400 for an incomplete list.
 */
export async function reorderPages(ctx: Context, actor: Actor, order: string[]): Promise<void> {
  authorize(actor, 'content:write');
  // Moving every page: not an item of one's own (D120's own_only refuses it).
  authorizeItem(actor, { resource: 'pages', action: 'update', createdBy: null });
  await withTransaction(ctx.db, async (db) => {
    await lockWorkspacePages(db, actor.workspaceId);
    const current = await pagePositions(db, actor.workspaceId);
    assertCompleteOrder(
      order.map((id) => id.toLowerCase()),
      current.map((p) => p.id),
      'body.order',
    );
    const byId = new Map(current.map((p) => [p.id, p]));
    const now = iso(ctx.clock());
    const moved: string[] = [];
    for (let i = 0; i < order.length; i++) {
      const p = byId.get(order[i].toLowerCase())!;
      if (p.position === i) continue;
      await updatePageRow(db, p.id, { position: i, version: p.version + 1, updated_at: now, updated_by: actor.userId });
      moved.push(p.id);
    }
    // Position is on the delivery wire: a moved page changed for webhooks and sync (D82, D83).
    await recordItemEvents(db, now, 'page', moved, 'updated');
    await recordItemAudit(db, now, actor, 'page', moved, 'updated', ['position']);
  });
}

export interface BlockReorderInput {
  order: string[];
  /** The parent whose children are reordered; null: the root blocks; absent: inferred from `order`. */
  parent_id?: string | null;
}

/**
 * PATCH /pages/{slug}/blocks/reorder (D34): `order` is the complete list of the children of
 * `parent_id` (or of the root blocks); their positions become 0, 1, 2 …. Without `parent_id` the
 * scope is the one parent the listed blocks share, so a client can reorder nested children from
 * the ids alone; an empty list then means the roots. 400 when `parent_id` is not a block of the
 * page, when a listed id is not, when the listed blocks have different parents, or when the list
 * is not exactly that set. Returns the page (new ETag).
 */
export async function reorderBlocks(ctx: Context, actor: Actor, ref: PageRef, input: BlockReorderInput, opts: PageWriteOptions = {}): Promise<Page> {
  authorize(actor, 'content:write');
  return withTransaction(ctx.db, async (db) => {
    const stored = await findPageForUpdate(db, actor.workspaceId, ref);
    if (!stored) throw pageNotFound(ref);
    authorizeItem(actor, { resource: 'pages', action: 'update', createdBy: stored.created_by });
    const now = ctx.clock();
    const current = await beginWrite(db, PAGE_TABLES, stored, opts.ifMatch, now);
    const order = input.order.map((id) => id.toLowerCase());
    let parentId = input.parent_id === undefined || input.parent_id === null ? null : input.parent_id.toLowerCase();
    if (input.parent_id === undefined && order.length > 0) {
      const parents = await blockParents(db, stored.id, order);
      const foreign = [...new Set(order.filter((id) => !parents.has(id)))];
      if (foreign.length) {
        throw invalid(
          'body.order',
          `${foreign.map((id) => `'${id}'`).join(', ')} ${foreign.length === 1 ? 'is not a block' : 'are not blocks'} of page '${stored.slug}'`,
        );
      }
      const scopes = new Set(parents.values());
      if (scopes.size > 1) {
        throw invalid('body.order', 'the listed blocks have different parents; list the children of one block (or the root blocks), or send parent_id');
      }
      parentId = [...scopes][0];
    } else if (parentId !== null && (!isUuid(parentId) || !(await blockOfPage(db, stored.id, parentId)))) {
      throw invalid('body.parent_id', `'${input.parent_id}' is not a block of page '${stored.slug}'`);
    }
    const siblings = await siblingBlocks(db, stored.id, parentId);
    assertCompleteOrder(
      order,
      siblings.map((b) => b.id),
      'body.order',
    );
    const at = iso(now);
    const byId = new Map(siblings.map((b) => [b.id, b]));
    for (let i = 0; i < order.length; i++) if (byId.get(order[i])!.position !== i) await setBlockPosition(db, stored.id, order[i], i, at);
    // Block order is part of the page's content: a version, pending changes on a published page.
    await finishContentWrite(db, pageSpec, current, actor, now, {
      action: opts.action,
      coalesceSeconds: ctx.config.versionCoalesceSeconds,
      changedFields: ['blocks'],
    });
    return (await findPage(db, actor.workspaceId, { id: stored.id }))!;
  });
}
