/**
 * The pages step of `quire import contentful` (issue 3 item 4): after content types, assets and
 * entries are written, the export's page entries are planned (contentful/page-mapping.ts) against
 * what was imported and written through the page operations (contentful/page-writer.ts).
 *
 * Memory stays bounded (issue 12 item 4): a light first pass keeps each page's id, wanted slug and
 * state (slugs are unique per workspace, so every page's wanted slug is needed before the first is
 * written); then pages are planned with their blocks and written a batch at a time, and only
 * counts, failures and warnings carry over from one batch to the next.
 */
import type { Context } from '../../context.js';
import type { Actor } from '../auth/permissions.js';
import { RESERVED_PAGE_SLUGS } from '../pages/operations.js';
import type { LocaleMapping } from './contentful/content-mapping.js';
import { entryIdFor } from './contentful/content-mapping.js';
import type { EntryFailure, ProgressListener } from './contentful/content-writer.js';
import { assignPageSlugs, outlinePages, planPageBatches, type EntryCatalog, type PageModel } from './contentful/page-mapping.js';
import { pageCounts, writePages, type PageCounts } from './contentful/page-writer.js';
import type { SchemaPlan } from './contentful/schema-mapping.js';
import type { ChangedAs } from './contentful/states.js';
import { pageSlugsOf } from './repository.js';

export interface ImportPagesInput {
  /** The export's entries (page entries, their components and SEO entries are read from it). */
  catalog: EntryCatalog;
  model: PageModel;
  /** The schema plan after applyPageModel. */
  schema: SchemaPlan;
  locales: LocaleMapping;
  /** Quire id of an imported entry or asset, and an asset's URL, by Contentful id (undefined: not imported). */
  entryId(cfId: string): string | undefined;
  assetId(cfId: string): string | undefined;
  assetUrl(cfId: string): string | undefined;
  /** Entries the entries step could not write: links to them are left out. */
  entryFailures: readonly EntryFailure[];
  /** Content type slug → its relation field names (block types included). */
  relationFields: ReadonlyMap<string, ReadonlySet<string>>;
  /** The importer's batch size: the most pages, and the most blocks, planned and held at once. */
  batchSize: number;
  changedAs?: ChangedAs;
  onProgress?: ProgressListener;
}

/**
 * Plans and writes the export's pages a batch at a time (see the module comment); returns counts,
 * failures and warnings, each in export order, the same as planning every page at once would give.
 */
export async function importPages(
  ctx: Context,
  actor: Actor,
  input: ImportPagesInput,
): Promise<{ counts: PageCounts; failures: EntryFailure[]; warnings: string[] }> {
  const pc = {
    workspaceId: actor.workspaceId,
    locales: input.locales,
    schema: input.schema,
    entryId: input.entryId,
    assetId: input.assetId,
    assetUrl: input.assetUrl,
  };
  const outlines = outlinePages(input.catalog, input.model, pc);
  const ownIds = new Set(outlines.map((p) => p.id));
  // Slugs of pages this import does not own are taken; the import's own keep being assignable.
  const reserved = new Set([...RESERVED_PAGE_SLUGS, ...(await pageSlugsOf(ctx.db, actor.workspaceId)).filter((p) => !ownIds.has(p.id)).map((p) => p.slug)]);
  const slugs = assignPageSlugs(outlines, reserved);
  const counts = pageCounts(outlines);
  const missingEntries = new Set(input.entryFailures.map((f) => entryIdFor(actor.workspaceId, f.entry)));
  const failures: EntryFailure[] = [];
  const warnings: string[] = [];
  let done = 0;
  for (const batch of planPageBatches(input.catalog, input.model, pc, { pages: input.batchSize, blocks: input.batchSize })) {
    warnings.push(...batch.warnings);
    const refused = await writePages(ctx, actor, {
      pages: batch.pages,
      counts,
      done,
      total: outlines.length,
      slugs,
      relationFields: input.relationFields,
      missingEntries,
      changedAs: input.changedAs,
      warnings,
      onProgress: input.onProgress,
    });
    failures.push(...refused);
    done += batch.pages.length;
  }
  return { counts, failures, warnings };
}
