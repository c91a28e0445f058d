/**
 * Writes planned pages (page-mapping.ts) through the page operations (createPage, updatePage,
 * changePageStatus), so they are validated exactly like API writes; each page is written in one
 * transaction and its state changed in the next, every version with action `import` (D72).
 * States follow the export (states.ts); draft component entries of a published page become
 * blocks of its working copy only (written after publishing the page without them).
 *
 * Idempotence: a stored page is compared with the plan first (slug, SEO, SEO translations, and
 * every block's id, position, type, data and translations) and written only when it differs, so a
 * second import of the same export changes nothing: same versions, same updated_at. A page
 * changed in Quire since its last import (a newer version than its newest `import` version, or
 * another slug) whose planned content and status are what that import version recorded is left
 * alone entirely and the report warns that Quire's edits were kept; when the export's content or
 * state for it changed, the export wins (content-writer.ts states the rule; keptPages reads the
 * batch's records in a few queries). Without an import version, a published page with pending
 * changes whose published version already holds the plan keeps those changes. A page the
 * API refuses (e.g. a published page whose block lacks a required value) is reported in
 * `failures` and the import goes on; one that is written but cannot be published stays a draft.
 * Links inside blocks to entries that failed to import are left out, as the entry writer does.
 */
import type { Context } from '../../../context.js';
import { withTransaction } from '../../../db/transaction.js';
import { AppError } from '../../../errors.js';
import { stableStringify } from '../../../lib/json.js';
import type { Actor } from '../../auth/permissions.js';
import type { EntryData } from '../../entries/model.js';
import type { Block, BlockTranslation, Page, SeoOverrides, SeoTranslation } from '../../pages/model.js';
import { createPage, updatePage } from '../../pages/operations.js';
import { changePageStatus, getPageVersion } from '../../pages/publishing.js';
import { findPage, loadPageContent } from '../../pages/repository.js';
import { completeSeo } from '../../pages/seo.js';
import { pageSnapshotFromJson } from '../../pages/snapshot.js';
import { presentItem } from '../../publishing/core.js';
import { PAGE_TABLES } from '../../publishing/repository.js';
import { changedSinceImport, lastImportVersions, pageSlugsByIds } from '../repository.js';
import { stateAction, type EntryFailure, type ProgressListener } from './content-writer.js';
import type { PlannedPage } from './page-mapping.js';
import { countStates, targetStatus, zeroCounts, type CfState, type ChangedAs, type StateCounts, type TargetStatus } from './states.js';

const PAST = { publish: 'published', unpublish: 'unpublished', archive: 'archived' } as const;

export interface PageCounts {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Publish, unpublish and archive actions of this run. */
  published: number;
  unpublished: number;
  archived: number;
  failed: number;
  /** Blocks of the planned pages. */
  blocks: number;
  /** Blocks of published pages kept out of the published version (draft component entries). */
  draft_blocks: number;
  /** The export's pages by publishing state. */
  states: StateCounts;
}

export interface WritePagesInput {
  /** One batch of planned pages (planPageBatches). */
  pages: readonly PlannedPage[];
  /** The counts of the whole pages step (pageCounts), which this batch's writes add to. */
  counts: PageCounts;
  /** Pages written by earlier batches and the export's page count, for onProgress. */
  done: number;
  total: number;
  /** Final slug of each planned page id (assignPageSlugs). */
  slugs: ReadonlyMap<string, string>;
  /** Block type slug → names of its relation and relation_list fields. */
  relationFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** Quire ids of entries that could not be imported: links to them are left out. */
  missingEntries: ReadonlySet<string>;
  /** `--changed-as` (default published). */
  changedAs?: ChangedAs;
  /** The run's warnings, which this batch's add to (pages kept as edited in Quire). */
  warnings: string[];
  onProgress?: ProgressListener;
}

/** Zero counts for `pages` (the export's pages: outlines or plans), with their states. */
export function pageCounts(pages: readonly { state: CfState }[]): PageCounts {
  return { ...zeroCounts(pages.length), blocks: 0, draft_blocks: 0, states: countStates(pages.map((p) => p.state)) };
}

/** Comparable text of translations keyed by locale. */
function byLocale<T extends { locale: string }>(list: readonly T[], value: (t: T) => unknown): string {
  return stableStringify(Object.fromEntries(list.map((t) => [t.locale, value(t)])));
}

/** A page's content as samePage compares it: a stored page's, or a version's (its slug is the page's). */
interface ComparablePage {
  page: Pick<Page, 'slug' | 'seo'>;
  blocks: readonly Omit<Block, 'page_id'>[];
  seoTranslations: readonly Omit<SeoTranslation, 'page_id'>[];
  blockTranslations: readonly BlockTranslation[];
}

/** True when the stored page already holds the planned slug, SEO and blocks. */
function samePage(stored: ComparablePage, planned: PlannedPage, slug: string, blocks: readonly BlockInput[]): boolean {
  if (stored.page.slug !== slug || stableStringify(stored.page.seo) !== stableStringify(completeSeo(planned.seo))) return false;
  if (byLocale(stored.seoTranslations, (t) => t.seo) !== stableStringify(planned.seoTranslations)) return false;
  if (stored.blocks.length !== blocks.length) return false;
  const byId = new Map(stored.blocks.map((b) => [b.id, b]));
  return blocks.every((want, position) => {
    const have = byId.get(want.id);
    if (!have || have.parent_id !== null || have.position !== position || have.type !== want.type) return false;
    if (stableStringify(have.data) !== stableStringify(want.data)) return false;
    const trs = stored.blockTranslations.filter((t) => t.block_id === want.id);
    return byLocale(trs, (t) => t.data) === byLocale(want.translations, (t) => t.data);
  });
}

/** Removes relation values pointing at entries that are not there. */
function withoutMissing(data: EntryData, relationFields: ReadonlySet<string>, missing: ReadonlySet<string>): EntryData {
  if (!missing.size) return data;
  const out: EntryData = {};
  for (const [k, v] of Object.entries(data)) {
    if (relationFields.has(k) && Array.isArray(v)) out[k] = v.filter((id) => !missing.has(id as string));
    else if (!(relationFields.has(k) && missing.has(v as string))) out[k] = v;
  }
  return out;
}

type BlockInput = ReturnType<typeof blockInputs>[number];

function blockInputs(planned: PlannedPage, relationFields: ReadonlyMap<string, ReadonlySet<string>>, missing: ReadonlySet<string>) {
  return planned.blocks.map((b) => {
    const fields = relationFields.get(b.typeSlug) ?? new Set<string>();
    return {
      id: b.id,
      type: b.typeSlug,
      data: withoutMissing(b.data, fields, missing),
      translations: Object.entries(b.translations).map(([locale, data]) => ({ locale, data: withoutMissing(data, fields, missing) })),
    };
  });
}

function failureMessage(err: AppError): string {
  const details = err.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
  return details ? `${err.message}: ${details}` : err.message;
}

interface PageBody {
  slug: string;
  seo: SeoOverrides;
  seo_translations: { locale: string; seo: SeoOverrides }[];
  blocks: BlockInput[];
}

/**
 * Brings one page to `body` (working copy) and, for a published page, to `live` (published
 * version): when some blocks are held back, the page is first written and published without
 * them, then its working copy gains them (pending changes, D70). Returns whether anything changed.
 */
async function writeOnePage(
  ctx: Context,
  actor: Actor,
  planned: PlannedPage,
  want: TargetStatus,
  body: PageBody,
  live: PageBody,
  counts: PageCounts,
): Promise<boolean> {
  const load = async (db: Context['db']) => {
    const page = await findPage(db, actor.workspaceId, { id: planned.id });
    return page ? { page: presentItem(page, ctx.clock()), content: await loadPageContent(db, page) } : null;
  };
  let counted = false;
  /** Counts the page created or updated once, however many writes it takes. */
  const count = (what: 'created' | 'updated') => {
    if (!counted) counts[what] += 1;
    counted = true;
  };
  /** Makes the working copy `b`; true when it wrote. */
  const put = (b: PageBody) =>
    withTransaction(ctx.db, async (db) => {
      const tx = { ...ctx, db };
      const stored = await load(db);
      if (!stored) {
        await createPage(tx, actor, { id: planned.id, ...b }, { action: 'import' });
        count('created');
        return true;
      }
      if (samePage(stored.content, planned, b.slug, b.blocks)) return false;
      await updatePage(tx, actor, { id: planned.id }, b, { action: 'import' });
      count('updated');
      return true;
    });
  const verb = async (action: 'publish' | 'unpublish' | 'archive') => {
    await changePageStatus(ctx, actor, { id: planned.id }, action, { action: 'import' });
    counts[PAST[action]] += 1;
  };
  let changed = false;
  if (want === 'published' && live.blocks.length !== body.blocks.length) {
    // The live version must lack the held-back blocks: compare it with what is published.
    const stored = await load(ctx.db);
    let liveMatches = false;
    if (stored && stored.page.status === 'published' && stored.page.published_version !== null) {
      const published = stored.page.has_pending_changes
        ? (await getPageVersion(ctx, actor, { id: planned.id }, stored.page.published_version)).content
        : stored.content;
      liveMatches = samePage(published, planned, live.slug, live.blocks);
    }
    if (!liveMatches) {
      await put(live);
      const now = await load(ctx.db);
      if (now && (now.page.status !== 'published' || now.page.has_pending_changes)) await verb('publish');
      changed = true;
    }
    changed = (await put(body)) || changed;
  } else {
    // A published page with pending changes whose published version already holds the export's
    // content: the pending changes are edits made in Quire, kept; nothing to publish (issue 23).
    const current = want === 'published' ? await load(ctx.db) : null;
    if (current && current.page.status === 'published' && current.page.has_pending_changes && current.page.published_version !== null) {
      const published = (await getPageVersion(ctx, actor, { id: planned.id }, current.page.published_version)).content;
      if (samePage(published, planned, body.slug, body.blocks)) return false;
    }
    changed = await put(body);
    const stored = (await load(ctx.db))!;
    const action = stateAction(stored.page.status, stored.page.has_pending_changes, want);
    if (action) {
      await verb(action);
      changed = true;
    }
  }
  return changed;
}

/**
 * The pages of a batch the import leaves alone (module comment): stored pages of the workspace
 * changed in Quire since their newest `import` version, which holds the planned body and the
 * status `want`. Three queries per batch at most (slugs, pages changed since their last import,
 * then the edited pages' import versions).
 */
async function keptPages(
  ctx: Context,
  workspaceId: string,
  plans: readonly { planned: PlannedPage; want: TargetStatus; body: PageBody }[],
): Promise<Set<string>> {
  const kept = new Set<string>();
  const rows = await pageSlugsByIds(
    ctx.db,
    workspaceId,
    plans.map((p) => p.planned.id),
  );
  if (rows.size === 0) return kept;
  const changed = await changedSinceImport(
    ctx.db,
    PAGE_TABLES,
    [...rows].map(([id, row]) => ({ id, latest_version: row.latest_version })),
  );
  const edited = plans.filter(({ planned, body }) => rows.has(planned.id) && (changed.has(planned.id) || rows.get(planned.id)!.slug !== body.slug));
  if (edited.length === 0) return kept;
  const records = await lastImportVersions(
    ctx.db,
    PAGE_TABLES,
    edited.map((p) => p.planned.id),
  );
  for (const { planned, want, body } of edited) {
    const record = records.get(planned.id);
    if (!record || record.status !== want) continue;
    const snap = pageSnapshotFromJson(record.snapshot);
    const content = {
      page: { slug: body.slug, seo: snap.seo },
      blocks: snap.blocks,
      seoTranslations: snap.seo_translations,
      blockTranslations: snap.block_translations,
    };
    if (samePage(content, planned, body.slug, body.blocks)) kept.add(planned.id);
  }
  return kept;
}

/**
 * Creates, updates and publishes, unpublishes or archives one batch of pages as planned, in plan
 * order (the navigation order of new pages), adding to `input.counts`; returns the pages the API
 * refused, in that order. A page is written before its state changes: one the API refuses to
 * publish stays a draft, as refused entries do.
 */
export async function writePages(ctx: Context, actor: Actor, input: WritePagesInput): Promise<EntryFailure[]> {
  const changedAs = input.changedAs ?? 'published';
  const counts = input.counts;
  const failures: EntryFailure[] = [];
  let done = input.done;
  const plans = input.pages.map((planned) => {
    const slug = input.slugs.get(planned.id)!;
    const want = targetStatus(planned.state, changedAs);
    const blocks = blockInputs(planned, input.relationFields, input.missingEntries);
    const liveIds = new Set(planned.blocks.filter((b) => targetStatus(b.state, changedAs) === 'published').map((b) => b.id));
    const heldBack = want === 'published' ? blocks.length - liveIds.size : 0;
    const seo = {
      seo: planned.seo,
      seo_translations: Object.entries(planned.seoTranslations).map(([locale, s]) => ({ locale, seo: s })),
    };
    const body: PageBody = { slug, ...seo, blocks };
    const live: PageBody = heldBack ? { slug, ...seo, blocks: blocks.filter((b) => liveIds.has(b.id)) } : body;
    return { planned, want, heldBack, body, live };
  });
  const kept = await keptPages(ctx, actor.workspaceId, plans);
  for (const { planned, want, heldBack, body, live } of plans) {
    counts.blocks += planned.blocks.length;
    counts.draft_blocks += heldBack;
    if (kept.has(planned.id)) {
      counts.unchanged += 1;
      input.warnings.push(`page '${planned.cfId}' was edited in Quire since the last import, which the export has not changed since; Quire's edits are kept`);
      done += 1;
      input.onProgress?.({ phase: 'pages', done, total: input.total });
      continue;
    }
    try {
      if (!(await writeOnePage(ctx, actor, planned, want, body, live, counts))) counts.unchanged += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      counts.failed += 1;
      failures.push({ entry: planned.cfId, type: 'page', message: failureMessage(err) });
    }
    done += 1;
    input.onProgress?.({ phase: 'pages', done, total: input.total });
  }
  return failures;
}
