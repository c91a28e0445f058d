/**
 * Page state changes and history (docs/api.md "States and scheduling", "States and
 * scheduling" (D20–D23), "Working copies, publishing changes and history" (D70, D71), "History"
 * (D72)) through the publishing core of src/modules/publishing/core.ts, the one entries use;
 * what is a page's own (snapshot, published copy, required block fields) is in spec.ts.
 *
 * - publish, unpublish, archive, schedule: scope `content:publish`. `publish` is allowed from
 *   `published` when the page has pending changes (D71); refusals are 409
 *   INVALID_STATE_TRANSITION `page cannot be published from status '…'`. publish and schedule
 *   check the required fields of every block of the working copy (400 VALIDATION_FAILED with
 *   paths `blocks.0.children.1.data.<field>`). Routes answer `data` null for publish, unpublish
 *   and schedule and the Page for archive (D23).
 * - versions: list and read with any management key; restore with `content:write` (D72).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { applyVerb, itemVersion, itemVersions, parseVersionNumber, presentItem, type VersionListMeta, type VersionListQuery } from '../publishing/core.js';
import { PAGE_TABLES, type VersionAction, type VersionRecord } from '../publishing/repository.js';
import { parsePublishAt, type Verb } from '../publishing/states.js';
import type { PageContent, Page } from './model.js';
import { pageNotFound, updatePage, type PageWriteOptions } from './operations.js';
import { blockTypeSlugs, findPage, findPageForUpdate, type PageRef } from './repository.js';
import type { PageSnapshot } from './snapshot.js';
import { pageSpec } from './spec.js';
import { nestBlocks } from './tree.js';

export interface PageStateOptions extends PageWriteOptions {
  /** Required for `schedule`: ISO 8601 time in the future. */
  publishAt?: string;
  /** The version's action instead of the verb (`import` for the importer). */
  action?: VersionAction;
}

/** Applies `verb` to one page; returns the page after the change. Throws 404, 412, 409 or 400. */
export async function changePageStatus(ctx: Context, actor: Actor, ref: PageRef, verb: Verb, opts: PageStateOptions = {}): Promise<Page> {
  authorize(actor, 'content:publish');
  const now = ctx.clock();
  const publishAt = verb === 'schedule' ? parsePublishAt(opts.publishAt, now) : undefined;
  return withTransaction(ctx.db, async (db) => {
    const stored = await findPageForUpdate(db, actor.workspaceId, ref);
    if (!stored) throw pageNotFound(ref);
    authorizeItem(actor, { resource: 'pages', action: 'publish', createdBy: stored.created_by });
    await applyVerb(db, pageSpec, stored, actor, now, verb, { ifMatch: opts.ifMatch, publishAt, action: opts.action });
    return (await findPage(db, actor.workspaceId, { id: stored.id }))!;
  });
}

/** PATCH /pages/{slug}/publish: draft, scheduled, archived, or published with pending changes → published. */
export function publishPage(ctx: Context, actor: Actor, ref: PageRef, opts: PageStateOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'publish', opts);
}

/** PATCH /pages/{slug}/unpublish: published or scheduled → draft (the working copy stays). */
export function unpublishPage(ctx: Context, actor: Actor, ref: PageRef, opts: PageWriteOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'unpublish', opts);
}

/** PATCH /pages/{slug}/archive: draft, scheduled or published → archived (the working copy stays). */
export function archivePage(ctx: Context, actor: Actor, ref: PageRef, opts: PageWriteOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'archive', opts);
}

/** PATCH /pages/{slug}/schedule `{publish_at}`: draft, archived or scheduled → scheduled. */
export function schedulePage(ctx: Context, actor: Actor, ref: PageRef, publishAt: string, opts: PageWriteOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'schedule', { ...opts, publishAt });
}

async function requirePage(ctx: Context, actor: Actor, ref: PageRef): Promise<Page> {
  const page = await findPage(ctx.db, actor.workspaceId, ref);
  if (!page) throw pageNotFound(ref);
  return page;
}

/** GET /pages/{slug}/versions: the page's history, newest first, without snapshots; offset or cursor pages (itemVersions). */
export async function listPageVersions(
  ctx: Context,
  actor: Actor,
  ref: PageRef,
  q: VersionListQuery = {},
): Promise<{ items: VersionRecord[]; meta: VersionListMeta }> {
  const page = await requirePage(ctx, actor, ref);
  return itemVersions(ctx.db, ctx.secret, PAGE_TABLES, 'page', page.id, q);
}

/** The page content a snapshot holds, on the page's current attributes. */
function contentOf(page: Page, snapshot: PageSnapshot): PageContent {
  return {
    page: { ...page, seo: snapshot.seo },
    blocks: snapshot.blocks.map((b) => ({ ...b, page_id: page.id })),
    seoTranslations: snapshot.seo_translations.map((t) => ({ ...t, page_id: page.id })),
    blockTranslations: snapshot.block_translations,
  };
}

/**
 * GET /pages/{slug}/versions/{n}: the page detail as version `n` holds it (SEO, translations, the
 * block tree), on the page's current attributes, with the version's status, time and author as
 * `status`, `updated_at` and `updated_by`. 404 for an unknown version.
 */
export async function getPageVersion(
  ctx: Context,
  actor: Actor,
  ref: PageRef,
  rawVersion: string | number,
): Promise<{ content: PageContent; version: VersionRecord }> {
  const n = parseVersionNumber(rawVersion);
  const page = presentItem(await requirePage(ctx, actor, ref), ctx.clock());
  const { snapshot, ...version } = await itemVersion(ctx.db, pageSpec, page.id, n, `page '${page.slug}'`);
  const content = contentOf({ ...page, status: version.status as Page['status'], updated_at: version.created_at, updated_by: version.created_by }, snapshot);
  return { content, version };
}

/**
 * POST /pages/{slug}/versions/{n}/restore: the working copy becomes version `n`'s SEO, SEO
 * translations and block tree (block ids kept), validated like a PUT, recorded as a new version
 * with action `restore`. The status stays, so a published page then has pending changes (D72).
 */
export async function restorePageVersion(ctx: Context, actor: Actor, ref: PageRef, rawVersion: string | number, opts: PageWriteOptions = {}): Promise<Page> {
  const n = parseVersionNumber(rawVersion);
  return updatePage(
    ctx,
    actor,
    ref,
    async (db, stored) => {
      const { snapshot } = await itemVersion(db, pageSpec, stored.id, n, `page '${stored.slug}'`);
      const translations = new Map<string, { locale: string; data: Record<string, unknown> }[]>();
      for (const t of snapshot.block_translations) translations.set(t.block_id, [...(translations.get(t.block_id) ?? []), { locale: t.locale, data: t.data }]);
      const types = await blockTypeSlugs(db, [...new Set(snapshot.blocks.map((b) => b.block_type_id))]);
      const blocks = nestBlocks(
        snapshot.blocks.map((b) => ({ ...b, page_id: stored.id })),
        (b, children) => ({
          id: b.id,
          type: types.get(b.block_type_id) ?? b.type,
          data: b.data,
          translations: translations.get(b.id) ?? [],
          children,
        }),
      );
      return { seo: snapshot.seo, seo_translations: snapshot.seo_translations.map((t) => ({ locale: t.locale, seo: t.seo })), blocks };
    },
    { ...opts, action: 'restore' },
  );
}
