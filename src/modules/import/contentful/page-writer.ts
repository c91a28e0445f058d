/**
 * Writes planned pages (page-mapping.ts) through the page operations (createPage, updatePage,
 * publishPage), so they are validated exactly like API writes; each page is written in one
 * transaction and published in the next.
 *
 * Idempotence: a stored page is compared with the plan first (slug, SEO, SEO translations, and
 * every block's id, position, type, data and translations) and written only when it differs, so a
 * second import of the same export changes nothing: same versions, same updated_at. A page the
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
import type { PageContent } from '../../pages/model.js';
import { createPage, updatePage } from '../../pages/operations.js';
import { publishPage } from '../../pages/publishing.js';
import { findPage, loadPageContent } from '../../pages/repository.js';
import { completeSeo } from '../../pages/seo.js';
import { presentItem } from '../../publishing/core.js';
import type { EntryFailure, ProgressListener } from './content-writer.js';
import type { PlannedPage } from './page-mapping.js';

export interface PageCounts {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  published: number;
  failed: number;
  /** Blocks of the planned pages. */
  blocks: number;
}

export interface WritePagesInput {
  pages: readonly PlannedPage[];
  /** Final slug of each planned page id (assignPageSlugs). */
  slugs: ReadonlyMap<string, string>;
  /** Block type slug → names of its relation and relation_list fields. */
  relationFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** Quire ids of entries that could not be imported: links to them are left out. */
  missingEntries: ReadonlySet<string>;
  onProgress?: ProgressListener;
}

/** Comparable text of translations keyed by locale. */
function byLocale<T extends { locale: string }>(list: readonly T[], value: (t: T) => unknown): string {
  return stableStringify(Object.fromEntries(list.map((t) => [t.locale, value(t)])));
}

/** True when the stored page already holds the planned slug, SEO and blocks. */
function samePage(stored: PageContent, planned: PlannedPage, slug: string, blocks: ReturnType<typeof blockInputs>): boolean {
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

/** Creates, updates and publishes pages as planned, in plan order (the navigation order of new pages). */
export async function writePages(ctx: Context, actor: Actor, input: WritePagesInput): Promise<{ counts: PageCounts; failures: EntryFailure[] }> {
  const counts: PageCounts = { total: input.pages.length, created: 0, updated: 0, unchanged: 0, published: 0, failed: 0, blocks: 0 };
  const failures: EntryFailure[] = [];
  let done = 0;
  for (const planned of input.pages) {
    counts.blocks += planned.blocks.length;
    const slug = input.slugs.get(planned.id)!;
    const blocks = blockInputs(planned, input.relationFields, input.missingEntries);
    const body = {
      slug,
      seo: planned.seo,
      seo_translations: Object.entries(planned.seoTranslations).map(([locale, seo]) => ({ locale, seo })),
      blocks,
    };
    try {
      // Written first, published after: a page the API refuses to publish stays a draft, as
      // refused entries do.
      const changed = await withTransaction(ctx.db, async (db) => {
        const tx = { ...ctx, db };
        const stored = await findPage(db, actor.workspaceId, { id: planned.id });
        if (!stored) {
          await createPage(tx, actor, { id: planned.id, ...body }, { action: 'import' });
          counts.created += 1;
          return true;
        }
        if (!samePage(await loadPageContent(db, stored), planned, slug, blocks)) {
          await updatePage(tx, actor, { id: planned.id }, body, { action: 'import' });
          counts.updated += 1;
          return true;
        }
        return false;
      });
      const published = await withTransaction(ctx.db, async (db) => {
        const current = await findPage(db, actor.workspaceId, { id: planned.id });
        const shown = current ? presentItem(current, ctx.clock()) : null;
        // Published and unchanged stays as it is; a changed working copy is published again (D70).
        if (!planned.published || !shown || (shown.status === 'published' && !shown.has_pending_changes)) return false;
        await publishPage({ ...ctx, db }, actor, { id: planned.id }, { action: 'import' });
        counts.published += 1;
        return true;
      });
      if (!changed && !published) counts.unchanged += 1;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      counts.failed += 1;
      failures.push({ entry: planned.cfId, type: 'page', message: failureMessage(err) });
    }
    done += 1;
    input.onProgress?.({ phase: 'pages', done, total: input.pages.length });
  }
  return { counts, failures };
}
