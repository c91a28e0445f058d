/**
 * `quire import contentful FILE --workspace SLUG` (DECISIONS.md D61; issue 2 item 10): imports a
 * Contentful space export into a workspace. Steps, each a function of its own so that further
 * mappings (the `page` type to Quire pages, a later issue) slot in between planning and writing:
 *
 * 1. read and check the export (contentful/export.ts);
 * 2. plan the schema (contentful/schema-mapping.ts), then in one transaction: find or create the
 *    workspace (a missing one is bootstrapped with the export's locales, its default being the
 *    export's; an existing one gains the export's locales, its default locale standing for the
 *    export's default) and create or complete the content types (contentful/schema-writer.ts);
 * 3. plan assets and entries with ids derived from the workspace and the Contentful ids
 *    (contentful/content-mapping.ts), give entries slugs unique per type;
 * 4. write media records, then entries, in batches of `batchSize` per transaction
 *    (contentful/content-writer.ts), publishing what the export has published;
 * 5. (issue 3 item 4) map the page type (`page`, or `pagesType`) to Quire pages: the page model is
 *    decided with the schema (the page type is no content type, the types its entries link as
 *    components become block types, and those entries are not entries), then, after the entries,
 *    pages with their blocks are planned and written (pages.ts, contentful/page-*.ts).
 *
 * Every write compares with what is stored first: running the import twice changes nothing the
 * second time. The import acts as the workspace owner (systemActor).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid } from '../../errors.js';
import { bootstrap } from '../auth/operations.js';
import { systemActor, type Actor } from '../auth/permissions.js';
import { findWorkspaceOwner } from '../auth/repository.js';
import { findContentTypeBySlug } from '../content-types/repository.js';
import { RESERVED_SLUGS } from '../entries/content.js';
import { addWorkspaceLocales } from '../workspaces/operations.js';
import { findWorkspaceBySlug, type Workspace } from '../workspaces/repository.js';
import { storeAssetFiles } from '../media/asset-files.js';
import { assignSlugs, planContent, type LocaleMapping } from './contentful/content-mapping.js';
import { writeAssets, writeEntries, type AssetCounts, type EntryCounts, type EntryFailure, type ProgressListener } from './contentful/content-writer.js';
import { readExportFile, type ContentfulExport } from './contentful/export.js';
import { planSchema, type FieldRename, type SchemaPlan } from './contentful/schema-mapping.js';
import { applySchema } from './contentful/schema-writer.js';
import { applyPageModel, DEFAULT_PAGE_TYPE, entriesOnly, explainDroppedLinks, planPageModel, type PageModel } from './contentful/page-mapping.js';
import { cfState, changedItem, type ChangedAs, type ChangedItem } from './contentful/states.js';
import { pageCounts, type PageCounts } from './contentful/page-writer.js';
import { importPages } from './pages.js';
import { entrySlugsByType } from './repository.js';

export type { ProgressEvent, ProgressListener } from './contentful/content-writer.js';

export const DEFAULT_BATCH_SIZE = 100;

export interface ImportContentfulInput {
  /** Target workspace slug. */
  workspace: string;
  /** The export file to read, unless `export` is given. */
  file?: string;
  export?: ContentfulExport;
  /** Records per transaction (default 100). */
  batchSize?: number;
  /**
   * `--pages-type ID`: the Contentful content type imported as pages (issue 3 item 4). Default
   * `page`, when the export has one; a named type the export lacks answers 400.
   */
  pagesType?: string;
  onProgress?: ProgressListener;
  /**
   * `--assets-dir`: a folder holding the asset files; those found there (by file name) are
   * uploaded like POST /media/upload and become stored files (issue 4 item 6). Without it assets
   * are records pointing at their remote URLs.
   */
  assetsDir?: string;
  /**
   * `--changed-as`: what an entry or page with unpublished changes in Contentful becomes: published
   * with its latest content (default, as Contentful's own import does) or a draft (issue 12 item 1).
   */
  changedAs?: ChangedAs;
}

export interface ImportResult {
  workspace: { id: string; slug: string; created: boolean };
  locales: { default: string; locales: string[]; added: string[] };
  content_types: { total: number; created: number; updated: number; unchanged: number; fields_created: number };
  /** With `assetsDir`, `files` counts the assets backed by stored files. */
  assets: AssetCounts & { files?: number };
  entries: EntryCounts;
  /** Pages made from the page type's entries (all zero when the export has no page type). */
  pages: PageCounts;
  failures: EntryFailure[];
  /** Every Contentful field id that is no valid Quire field name, with the name it got. */
  renamed_fields: FieldRename[];
  /** Every entry, page and component entry with unpublished changes in the export, and what it became. */
  changed: ChangedItem[];
  warnings: string[];
  /** Only when the import created the workspace: its three keys, shown this once. */
  keys?: { management: string; delivery: string; preview: string };
}

/** The export's default locale and the others, in export order. */
function exportLocales(exp: ContentfulExport): { exportDefault: string; others: string[] } {
  const exportDefault = (exp.locales.find((l) => l.default === true) ?? exp.locales[0]).code;
  return { exportDefault, others: [...new Set(exp.locales.map((l) => l.code).filter((c) => c !== exportDefault))] };
}

/** Every entry of the export with unpublished changes, typed as the import treats it. */
function changedItems(exp: ContentfulExport, schema: SchemaPlan, pageModel: PageModel | null, changedAs: ChangedAs): ChangedItem[] {
  return exp.entries
    .filter((e) => cfState(e.sys) === 'changed')
    .map((e) => {
      const ct = e.sys.contentType.sys.id;
      const type = pageModel?.pageIds.has(e.sys.id) ? 'page' : pageModel?.notEntries.has(e.sys.id) ? 'block' : (schema.slugs.get(ct) ?? ct);
      return changedItem(e.sys, type, changedAs);
    });
}

interface Target {
  ws: Workspace;
  actor: Actor;
  created: boolean;
  added: string[];
  keys?: ImportResult['keys'];
}

/** Finds or creates the workspace and brings its locales up to the export's (in the caller's transaction). */
async function prepareWorkspace(ctx: Context, slug: string, exportDefault: string, others: string[]): Promise<Target> {
  const existing = await findWorkspaceBySlug(ctx.db, slug);
  if (!existing) {
    const boot = await bootstrap(ctx, { slug, name: slug, default_locale: exportDefault, locales: [exportDefault, ...others] });
    const ws = (await findWorkspaceBySlug(ctx.db, slug))!;
    return { ws, actor: systemActor(ws.id, boot.user.id), created: true, added: ws.locales, keys: boot.keys };
  }
  const ws = await addWorkspaceLocales(ctx, existing, others);
  const owner = await findWorkspaceOwner(ctx.db, ws.id);
  if (!owner) throw new AppError('NOT_FOUND', `workspace '${slug}' has no owner to import as; add one with quire users create --role owner`);
  return { ws, actor: systemActor(ws.id, owner.id), created: false, added: ws.locales.filter((l) => !existing.locales.includes(l)) };
}

/** Content type ids, relation field names and the slugs other entries already hold, per type. */
async function typeFacts(ctx: Context, actor: Actor, schema: SchemaPlan, plannedIds: ReadonlySet<string>) {
  const typeIds = new Map<string, string>();
  const relationFields = new Map<string, Set<string>>();
  for (const ct of schema.contentTypes) {
    const stored = await findContentTypeBySlug(ctx.db, actor.workspaceId, ct.slug);
    if (!stored) throw new Error(`content type '${ct.slug}' vanished during the import`);
    typeIds.set(ct.slug, stored.id);
    relationFields.set(ct.slug, new Set(stored.fields.filter((f) => f.field_type === 'relation' || f.field_type === 'relation_list').map((f) => f.name)));
  }
  const slugRows = await entrySlugsByType(ctx.db, [...typeIds.values()]);
  const reserved = new Map<string, Set<string>>();
  for (const [slug, id] of typeIds) {
    // Slugs of entries this import does not own are taken; the import's own keep being assignable.
    reserved.set(slug, new Set([...RESERVED_SLUGS, ...(slugRows.get(id) ?? []).filter((r) => !plannedIds.has(r.id)).map((r) => r.slug)]));
  }
  return { typeIds, relationFields, reserved };
}

/**
 * Imports a Contentful export into workspace `input.workspace`. Throws 400 VALIDATION_FAILED for
 * an unreadable or malformed export or a schema conflict with existing content types. Entries the
 * entries module refuses are listed in `failures`; the rest is imported.
 */
export async function importContentful(ctx: Context, input: ImportContentfulInput): Promise<ImportResult> {
  const exp = input.export ?? (await readExportFile(input.file ?? ''));
  const batchSize = input.batchSize ?? DEFAULT_BATCH_SIZE;
  const { exportDefault, others } = exportLocales(exp);
  const pageModel = planPageModel(exp, input.pagesType ?? DEFAULT_PAGE_TYPE);
  if (!pageModel && input.pagesType !== undefined) throw invalid('pagesType', `the export has no content type '${input.pagesType}' to import as pages`);
  const schema = pageModel ? applyPageModel(planSchema(exp), pageModel) : planSchema(exp);

  const schemaWarnings: string[] = [];
  const { target, schemaCounts } = await withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const target = await prepareWorkspace(tx, input.workspace, exportDefault, others);
    return { target, schemaCounts: await applySchema(tx, target.actor, schema.contentTypes, schemaWarnings) };
  });
  const { ws, actor } = target;

  const locales: LocaleMapping = { exportDefault, workspaceDefault: ws.default_locale, others };
  const content = planContent(entriesOnly(exp, pageModel), schema, ws.id, locales);
  const warnings = [...schema.warnings, ...schemaWarnings, ...(pageModel?.warnings ?? []), ...explainDroppedLinks(content.warnings, pageModel)];
  for (const code of others) {
    if (code === ws.default_locale)
      warnings.push(
        `export locale '${code}' is the workspace's default locale, which stands for the export's default '${exportDefault}'; its values are skipped`,
      );
  }

  // Assets backed by stored files (uploaded from assetsDir now or by an earlier run) are not
  // turned back into remote records; the rest are written as before.
  const fileSources = content.assets.map((a) => ({ id: a.id, filename: a.filename, url: a.url, sourceId: a.cfId, alt_text: a.alt_text }));
  const files = await storeAssetFiles(ctx, { workspaceId: ws.id, userId: actor.userId }, fileSources, input.assetsDir);
  warnings.push(...files.warnings);
  const remote = await writeAssets(
    ctx,
    actor,
    content.assets.filter((a) => !files.stored.has(a.id)),
    batchSize,
    input.onProgress,
  );
  const assets = {
    total: content.assets.length,
    created: remote.created + files.created,
    updated: remote.updated + files.updated,
    unchanged: remote.unchanged + files.unchanged,
    ...(input.assetsDir !== undefined ? { files: files.stored.size } : {}),
  };
  const facts = await typeFacts(ctx, actor, schema, new Set(content.entries.map((e) => e.id)));
  const slugs = assignSlugs(content.entries, (type) => facts.reserved.get(type) ?? RESERVED_SLUGS);
  const changedAs = input.changedAs ?? 'published';
  const written = await writeEntries(ctx, actor, {
    entries: content.entries,
    slugs,
    typeIds: facts.typeIds,
    relationFields: facts.relationFields,
    batchSize,
    changedAs,
    onProgress: input.onProgress,
  });
  const { counts: entries, failures } = written;
  warnings.push(...written.warnings);
  let pages: PageCounts = pageCounts([]);
  if (pageModel) {
    const imported = await importPages(ctx, actor, {
      exp,
      model: pageModel,
      schema,
      locales,
      content,
      entryFailures: failures,
      relationFields: facts.relationFields,
      changedAs,
      onProgress: input.onProgress,
    });
    pages = imported.counts;
    failures.push(...imported.failures);
    warnings.push(...explainDroppedLinks(imported.warnings, pageModel));
  }

  return {
    workspace: { id: ws.id, slug: ws.slug, created: target.created },
    locales: { default: ws.default_locale, locales: ws.locales, added: target.added },
    content_types: { total: schema.contentTypes.length, ...schemaCounts },
    assets,
    entries,
    pages,
    failures,
    renamed_fields: schema.renames,
    changed: changedItems(exp, schema, pageModel, changedAs),
    warnings,
    ...(target.keys ? { keys: target.keys } : {}),
  };
}
