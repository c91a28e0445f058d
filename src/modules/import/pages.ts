/**
 * The pages step of `quire import contentful` (issue 3 item 4): after content types, assets and
 * entries are written, the export's page entries are planned (contentful/page-mapping.ts) against
 * what was imported and written through the page operations (contentful/page-writer.ts).
 */
import type { Context } from '../../context.js';
import type { Actor } from '../auth/permissions.js';
import { RESERVED_PAGE_SLUGS } from '../pages/operations.js';
import type { LocaleMapping } from './contentful/content-mapping.js';
import { entryIdFor } from './contentful/content-mapping.js';
import type { EntryFailure, ProgressListener } from './contentful/content-writer.js';
import { assignPageSlugs, planPages, type EntryCatalog, type PageModel } from './contentful/page-mapping.js';
import { writePages, type PageCounts } from './contentful/page-writer.js';
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
  changedAs?: ChangedAs;
  onProgress?: ProgressListener;
}

/** Plans and writes the export's pages; returns counts, failures and warnings. */
export async function importPages(
  ctx: Context,
  actor: Actor,
  input: ImportPagesInput,
): Promise<{ counts: PageCounts; failures: EntryFailure[]; warnings: string[] }> {
  const planned = planPages(input.catalog, input.model, {
    workspaceId: actor.workspaceId,
    locales: input.locales,
    schema: input.schema,
    entryId: input.entryId,
    assetId: input.assetId,
    assetUrl: input.assetUrl,
  });
  const ownIds = new Set(planned.pages.map((p) => p.id));
  // Slugs of pages this import does not own are taken; the import's own keep being assignable.
  const reserved = new Set([...RESERVED_PAGE_SLUGS, ...(await pageSlugsOf(ctx.db, actor.workspaceId)).filter((p) => !ownIds.has(p.id)).map((p) => p.slug)]);
  const { counts, failures } = await writePages(ctx, actor, {
    pages: planned.pages,
    slugs: assignPageSlugs(planned.pages, reserved),
    relationFields: input.relationFields,
    missingEntries: new Set(input.entryFailures.map((f) => entryIdFor(actor.workspaceId, f.entry))),
    changedAs: input.changedAs,
    onProgress: input.onProgress,
  });
  return { counts, failures, warnings: planned.warnings };
}
