/**
 * Release versions (variants) of entries and pages (docs/releases.md "Release versions"; D111):
 * read and written through the usual item endpoints with `?release={id}`. A variant is the
 * item's content as a snapshot (the form its history keeps); the working copy and the published
 * version are never touched here.
 *
 * - GET answers the item in its usual wire shape, its content taken from the variant (404 when
 *   the item has no `publish` item in the release).
 * - PUT validates like a PUT of the working copy (types, unknown keys, validation rules,
 *   references, unique values against the other entries; required fields wait for the
 *   publication, D22) and replaces the variant; `translations` and `seo_translations` absent keep
 *   the variant's; block translations absent keep the variant's for kept blocks. Slug, position
 *   and schedule are attributes of the item, not of a version (D70): a different slug answers 400.
 *   Scope `content:write`; the release must be open or failed (409 otherwise).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/types.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import { changedKeys, recordAudit } from '../audit/record.js';
import { releaseAudit } from './audit.js';
import type { Actor } from '../auth/permissions.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { assertUniqueValues, prepareContent } from '../entries/content.js';
import type { Entry } from '../entries/model.js';
import { entryChangedFields, entryNotFound, requireEntryType, requireWorkspaceOf, type EntryWriteInput } from '../entries/operations.js';
import { findEntry, type EntryRef } from '../entries/repository.js';
import { entrySnapshotFromJson, type EntrySnapshot } from '../entries/snapshot.js';
import { entryWriteScope } from '../entries/write-scope.js';
import { prepareBlocks } from '../pages/blocks.js';
import type { PageContent } from '../pages/model.js';
import { pageNotFound, parseWrite, type PageWriteInput } from '../pages/operations.js';
import { findPage, type PageRef } from '../pages/repository.js';
import { pageSnapshotFromJson, type PageSnapshot } from '../pages/snapshot.js';
import { presentItem } from '../publishing/core.js';
import { isEditable, type ReleaseItemKind, type ReleaseItemRecord, type ReleaseRecord } from './model.js';
import { findItem, findRelease, findReleaseForUpdate, updateItemSnapshot } from './repository.js';

/** 404 for a release the workspace does not have. */
export function releaseNotFound(id: string): AppError {
  return notFound(`release '${id}'`);
}

/** The release `id` of the actor's workspace; 404 when absent (or not a uuid). */
export async function requireRelease(ctx: Context, actor: Actor, id: string): Promise<ReleaseRecord> {
  const release = await findRelease(ctx.db, actor.workspaceId, id);
  if (!release) throw releaseNotFound(id);
  return release;
}

/** 409 unless the release's content may still change (open or failed). */
export function assertEditable(release: ReleaseRecord): void {
  if (!isEditable(release.status)) {
    throw new AppError('INVALID_STATE_TRANSITION', `release cannot be changed in status '${release.status}': only open and failed releases can`);
  }
}

/** The release `id` of the workspace, locked until the transaction ends; 404 when absent, 409 unless it is open or failed. */
export async function lockEditableRelease(db: Db, workspaceId: string, id: string): Promise<ReleaseRecord> {
  const release = await findReleaseForUpdate(db, workspaceId, id);
  if (!release) throw releaseNotFound(id);
  assertEditable(release);
  return release;
}

/** The `publish` item of `itemId` in the release, or 404 naming what is missing. */
async function requireVariant(ctx: Context, release: ReleaseRecord, kind: ReleaseItemKind, itemId: string, label: string): Promise<ReleaseItemRecord> {
  const item = await findItem(ctx.db, release.id, kind, itemId);
  if (!item || item.action !== 'publish' || item.snapshot === null) throw notFound(`release version of ${label} in release '${release.id}'`);
  return item;
}

/** The entry as a snapshot holds its content, on the entry's current attributes. */
function entryWithSnapshot(entry: Entry, snapshot: EntrySnapshot): Entry {
  return { ...entry, data: snapshot.data, translations: snapshot.translations.map((t) => ({ ...t, entry_id: entry.id })) };
}

/** GET …/entries/{entry_slug}?release={id}: the entry with its release version's content. */
export async function getEntryVariant(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, releaseId: string): Promise<Entry> {
  const release = await requireRelease(ctx, actor, releaseId);
  const ct = await requireEntryType(ctx, actor, typeSlug);
  const entry = await findEntry(ctx.db, ct.id, ref);
  if (!entry) throw entryNotFound(ct, ref);
  const item = await requireVariant(ctx, release, 'entry', entry.id, `entry '${entry.slug}'`);
  return entryWithSnapshot(presentItem(entry, ctx.clock()), entrySnapshotFromJson(item.snapshot));
}

/** PUT …/entries/{entry_slug}?release={id}: replaces the entry's release version (see the module comment). */
export async function updateEntryVariant(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  ref: EntryRef,
  releaseId: string,
  input: EntryWriteInput,
): Promise<Entry> {
  authorize(actor, 'releases:write');
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const release = await lockEditableRelease(db, actor.workspaceId, releaseId);
    const ct = await requireEntryType(tx, actor, typeSlug);
    const entry = await findEntry(db, ct.id, ref);
    if (!entry) throw entryNotFound(ct, ref);
    if (input.slug !== undefined && input.slug !== entry.slug)
      throw invalid('body.slug', 'is an attribute of the entry, not of a release version: change it without ?release');
    const item = await requireVariant(tx, release, 'entry', entry.id, `entry '${entry.slug}'`);
    const old = entrySnapshotFromJson(item.snapshot);
    const ws = await requireWorkspaceOf(tx, actor);
    const content = await prepareContent(db, ws, ct, input, { requireRequired: false });
    // A release version of an entry is a write of that entry (D120): its type, locales, fields, creator.
    const written = entryWriteScope({ slug: entry.slug, data: old.data, translations: old.translations }, { ...content, slug: undefined }, ws.default_locale);
    authorizeItem(actor, { resource: 'releases', action: 'update', createdBy: release.created_by });
    authorizeItem(actor, { resource: 'entries', action: 'update', contentType: ct.slug, createdBy: entry.created_by, ...written });
    await assertUniqueValues(db, ct, content.data, entry.id);
    const now = iso(ctx.clock());
    const oldByLocale = new Map(old.translations.map((t) => [t.locale, t]));
    const snapshot: EntrySnapshot = {
      data: content.data,
      translations:
        content.translations === undefined
          ? old.translations
          : content.translations.map((t) => {
              const before = oldByLocale.get(t.locale);
              return { id: before?.id ?? 0, locale: t.locale, data: t.data, created_at: before?.created_at ?? now, updated_at: now };
            }),
    };
    await updateItemSnapshot(db, release.id, 'entry', entry.id, snapshot, now, actor.userId);
    const changedFields = entryChangedFields({ slug: entry.slug, data: old.data, translations: old.translations }, content, undefined);
    await recordAudit(db, releaseAudit(actor, release, now, 'release.item_updated', changedFields));
    return entryWithSnapshot(presentItem(entry, ctx.clock()), snapshot);
  });
}

/** The page as a snapshot holds its content, on the page's current attributes. */
function pageWithSnapshot(content: Pick<PageContent, 'page'>, snapshot: PageSnapshot): PageContent {
  const page = content.page;
  return {
    page: { ...page, seo: snapshot.seo },
    blocks: snapshot.blocks.map((b) => ({ ...b, page_id: page.id })),
    seoTranslations: snapshot.seo_translations.map((t) => ({ ...t, page_id: page.id })),
    blockTranslations: snapshot.block_translations,
  };
}

/** GET /pages/{slug}?release={id}: the page with its release version's SEO and block tree. */
export async function getPageVariant(ctx: Context, actor: Actor, ref: PageRef, releaseId: string): Promise<PageContent> {
  const release = await requireRelease(ctx, actor, releaseId);
  const page = await findPage(ctx.db, actor.workspaceId, ref);
  if (!page) throw pageNotFound(ref);
  const item = await requireVariant(ctx, release, 'page', page.id, `page '${page.slug}'`);
  return pageWithSnapshot({ page: presentItem(page, ctx.clock()) }, pageSnapshotFromJson(item.snapshot));
}

/** PUT /pages/{slug}?release={id}: replaces the page's release version (see the module comment). */
export async function updatePageVariant(ctx: Context, actor: Actor, ref: PageRef, releaseId: string, input: PageWriteInput): Promise<PageContent> {
  authorize(actor, 'releases:write');
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const release = await lockEditableRelease(db, actor.workspaceId, releaseId);
    authorizeItem(actor, { resource: 'releases', action: 'update', createdBy: release.created_by });
    const ws = await requireWorkspaceOf(tx, actor);
    const parsed = parseWrite(input, ws, false);
    const page = await findPage(db, ws.id, ref);
    if (!page) throw pageNotFound(ref);
    if (input.slug !== undefined && input.slug !== page.slug)
      throw invalid('body.slug', 'is an attribute of the page, not of a release version: change it without ?release');
    const item = await requireVariant(tx, release, 'page', page.id, `page '${page.slug}'`);
    const old = pageSnapshotFromJson(item.snapshot);
    const types = await listAllContentTypes(db, ws.id);
    const blocks = await prepareBlocks(db, ws, types, parsed.blocks, { requireRequired: false, currentIds: new Set(old.blocks.map((b) => b.id)) });
    const typeSlugs = new Map(types.map((t) => [t.id, t.slug]));
    const oldSeo = new Map(old.seo_translations.map((t) => [t.locale, t]));
    const oldBlockTr = new Map(old.block_translations.map((t) => [`${t.block_id}\u0000${t.locale}`, t]));
    const snapshot: PageSnapshot = {
      seo: parsed.seo,
      seo_translations:
        parsed.seoTranslations === undefined
          ? old.seo_translations
          : parsed.seoTranslations.map((t) => ({ id: oldSeo.get(t.locale)?.id ?? 0, locale: t.locale, seo: t.seo })),
      blocks: blocks.map((b) => ({
        id: b.id,
        block_type_id: b.block_type_id,
        type: typeSlugs.get(b.block_type_id) ?? '',
        parent_id: b.parent_id,
        position: b.position,
        data: b.data,
      })),
      block_translations: blocks.flatMap((b) =>
        b.translations === undefined
          ? old.block_translations.filter((t) => t.block_id === b.id)
          : b.translations.map((t) => ({ id: oldBlockTr.get(`${b.id}\u0000${t.locale}`)?.id ?? 0, block_id: b.id, locale: t.locale, data: t.data })),
      ),
    };
    await updateItemSnapshot(db, release.id, 'page', page.id, snapshot, iso(ctx.clock()), actor.userId);
    const changedFields = [
      ...changedKeys({ seo: old.seo }, { seo: snapshot.seo }),
      'blocks',
      ...(parsed.seoTranslations === undefined ? [] : ['seo_translations']),
    ];
    await recordAudit(db, releaseAudit(actor, release, iso(ctx.clock()), 'release.item_updated', changedFields));
    return pageWithSnapshot({ page: presentItem(page, ctx.clock()) }, snapshot);
  });
}
