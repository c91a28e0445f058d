/**
 * `quire import contentful FILE --workspace SLUG` (docs/cli.md "The `quire` command line" (D61);
 * issue 2 item 10): imports a
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
import { auditEntry, recordAudit, workspaceTarget } from '../audit/record.js';
import { AppError, invalid } from '../../errors.js';
import { bootstrap } from '../auth/operations.js';
import { systemActor, type Actor } from '../auth/permissions.js';
import { findWorkspaceOwner } from '../auth/repository.js';
import { findContentTypeBySlug } from '../content-types/repository.js';
import { RESERVED_SLUGS } from '../entries/content.js';
import { addWorkspaceLocales } from '../workspaces/operations.js';
import { findWorkspaceBySlug, type Workspace } from '../workspaces/repository.js';
import { openAssetFolder, storeAssetFiles } from '../media/asset-files.js';
import {
  assignSlugs,
  entryIdFor,
  otherLocaleTextsWarning,
  planAsset,
  planEntry,
  type LinkResolver,
  type LocaleMapping,
  type PlannedAsset,
} from './contentful/content-mapping.js';
import {
  writeAssets,
  writeEntries,
  type AssetCounts,
  type EntryCounts,
  type EntryFailure,
  type EntrySummary,
  type ProgressListener,
} from './contentful/content-writer.js';
import type { CfLocale, ContentfulExport } from './contentful/export.js';
import { entryCatalog, memorySource, openExportFile, type ExportSource } from './contentful/export-source.js';
import { planSchema, typesWithDates, type FieldRename, type SchemaPlan } from './contentful/schema-mapping.js';
import { applySchema } from './contentful/schema-writer.js';
import { applyPageModel, DEFAULT_PAGE_TYPE, explainDroppedLinks, planPageModel } from './contentful/page-mapping.js';
import { cfState, changedItem, type ChangedAs, type ChangedItem } from './contentful/states.js';
import { pageCounts, type PageCounts } from './contentful/page-writer.js';
import { importPages } from './pages.js';
import { UniqueValueCounts } from './contentful/entry-planning.js';
import { entrySlugsByType, withImportWriteSettings } from './repository.js';

export type { ProgressEvent, ProgressListener } from './contentful/content-writer.js';

export const DEFAULT_BATCH_SIZE = 500;

export interface ImportContentfulInput {
  /** Target workspace slug. */
  workspace: string;
  /** The export file to read, unless `export` is given. */
  file?: string;
  export?: ContentfulExport;
  /** Records per transaction (default 500). */
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
function exportLocales(locales: readonly CfLocale[]): { exportDefault: string; others: string[] } {
  const exportDefault = (locales.find((l) => l.default === true) ?? locales[0]).code;
  return { exportDefault, others: [...new Set(locales.map((l) => l.code).filter((c) => c !== exportDefault))] };
}

interface Target {
  ws: Workspace;
  actor: Actor;
  created: boolean;
  added: string[];
  keys?: ImportResult['keys'];
}

/** The import's actor: the owner's rights, named `import` in the audit log (D122). */
function importer(workspaceId: string, ownerId: number): Actor {
  return { ...systemActor(workspaceId, ownerId), label: 'import' };
}

/** Finds or creates the workspace and brings its locales up to the export's (in the caller's transaction). */
async function prepareWorkspace(ctx: Context, slug: string, exportDefault: string, others: string[]): Promise<Target> {
  const existing = await findWorkspaceBySlug(ctx.db, slug);
  if (!existing) {
    const boot = await bootstrap(ctx, { slug, name: slug, default_locale: exportDefault, locales: [exportDefault, ...others] });
    const ws = (await findWorkspaceBySlug(ctx.db, slug))!;
    return { ws, actor: importer(ws.id, boot.user.id), created: true, added: ws.locales, keys: boot.keys };
  }
  const ws = await addWorkspaceLocales(ctx, existing, others);
  const owner = await findWorkspaceOwner(ctx.db, ws.id);
  if (!owner) throw new AppError('NOT_FOUND', `workspace '${slug}' has no owner to import as; add one with quire users create --role owner`);
  return { ws, actor: importer(ws.id, owner.id), created: false, added: ws.locales.filter((l) => !existing.locales.includes(l)) };
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
 *
 * A file is streamed (export-source.ts): memory holds the content model, ids and one batch of
 * entries or pages at a time, not the file.
 */
export async function importContentful(ctx: Context, input: ImportContentfulInput): Promise<ImportResult> {
  const source = input.export
    ? memorySource(input.export)
    : await openExportFile(input.file ?? '', (done, total) => input.onProgress?.({ phase: 'read', done, total }));
  try {
    return await withImportWriteSettings(ctx.db, () => importSource(ctx, source, input));
  } finally {
    source.close();
  }
}

async function importSource(ctx: Context, source: ExportSource, input: ImportContentfulInput): Promise<ImportResult> {
  const batchSize = input.batchSize ?? DEFAULT_BATCH_SIZE;
  const { exportDefault, others } = exportLocales(source.locales);
  const catalog = entryCatalog(source);
  const pageModel = planPageModel(catalog, input.pagesType ?? DEFAULT_PAGE_TYPE);
  if (!pageModel && input.pagesType !== undefined) throw invalid('pagesType', `the export has no content type '${input.pagesType}' to import as pages`);
  // Only entries of types with Date fields decide anything in the schema: only they are read.
  const dated = typesWithDates(source.contentTypes);
  const datedEntries = {
    *[Symbol.iterator]() {
      for (const [, e] of source.entries((i) => dated.has(source.entryTypeId(i)))) yield e;
    },
  };
  const planned = planSchema({ contentTypes: source.contentTypes, entries: datedEntries });
  const schema = pageModel ? applyPageModel(planned, pageModel) : planned;
  // A bad --assets-dir answers 400 before anything is written; the folder is indexed once.
  const assetFolder = input.assetsDir !== undefined ? await openAssetFolder(input.assetsDir) : undefined;

  const schemaWarnings: string[] = [];
  const { target, schemaCounts } = await withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const target = await prepareWorkspace(tx, input.workspace, exportDefault, others);
    return { target, schemaCounts: await applySchema(tx, target.actor, schema.contentTypes, schemaWarnings) };
  });
  const { ws, actor } = target;

  const locales: LocaleMapping = { exportDefault, workspaceDefault: ws.default_locale, others };
  // Planning warnings in export order: assets first, then entries (as they are planned).
  const contentWarnings: string[] = [];
  const assetWarnings: string[] = [];

  // Assets, a batch at a time: planned, uploaded from assetsDir when found there, else written
  // as remote records. Only their ids (and positions, for page SEO images) are kept.
  const assetIds = new Map<string, string>();
  const assetIndex = new Map<string, number>();
  const assets = { total: 0, created: 0, updated: 0, unchanged: 0, files: 0 };
  let assetsDone = 0;
  let batch: PlannedAsset[] = [];
  let otherLocaleTexts = 0;
  const writeAssetBatch = async () => {
    const fileSources = batch.map((a) => ({
      id: a.id,
      filename: a.filename,
      url: a.url,
      sourceId: a.cfId,
      alt_text: a.alt_text,
      title: a.title,
      description: a.description,
    }));
    const files = await storeAssetFiles(ctx, { workspaceId: ws.id, userId: actor.userId }, fileSources, assetFolder);
    assetWarnings.push(...files.warnings);
    // Assets backed by stored files (uploaded now or by an earlier run) are not turned back into
    // remote records.
    const remote = await writeAssets(
      ctx,
      actor,
      batch.filter((a) => !files.stored.has(a.id)),
      batchSize,
    );
    assets.total += batch.length;
    assets.created += remote.created + files.created;
    assets.updated += remote.updated + files.updated;
    assets.unchanged += remote.unchanged + files.unchanged;
    assets.files += files.stored.size;
    assetsDone += batch.length;
    input.onProgress?.({ phase: 'assets', done: assetsDone, total: source.assetCount });
    batch = [];
  };
  for (const [i, a] of source.assets()) {
    const plannedAsset = planAsset(a, ws.id, locales.exportDefault, contentWarnings);
    if (!plannedAsset) {
      assetsDone += 1;
      continue;
    }
    otherLocaleTexts += plannedAsset.otherLocaleTexts;
    assetIds.set(plannedAsset.cfId, plannedAsset.id);
    assetIndex.set(plannedAsset.cfId, i);
    batch.push(plannedAsset);
    if (batch.length >= batchSize) await writeAssetBatch();
  }
  if (batch.length) await writeAssetBatch();
  const localeTexts = otherLocaleTextsWarning(otherLocaleTexts, locales.exportDefault);
  if (localeTexts) assetWarnings.push(localeTexts);

  // The entries that are imported as entries (not pages or page components) and their ids: the
  // one map that grows with the export (ids only).
  const types = new Map(schema.contentTypes.map((ct) => [ct.cfId, ct]));
  const isEntry = (i: number) => !pageModel?.notEntries.has(source.entryId(i));
  const entryIds = new Map<string, string>();
  for (let i = 0; i < source.entryCount; i++) {
    if (isEntry(i) && types.has(source.entryTypeId(i))) entryIds.set(source.entryId(i), entryIdFor(ws.id, source.entryId(i)));
  }
  const links: LinkResolver = { entry: (id) => entryIds.get(id), asset: (id) => assetIds.get(id) };

  // Planning pass in export order: slugs, links (for the write order), states, changed items.
  const changedAs = input.changedAs ?? 'published';
  const summaries: (EntrySummary & { baseSlug: string })[] = [];
  const positions = new Map<string, number>();
  const changed: ChangedItem[] = [];
  const uniqueValues = new UniqueValueCounts();
  let plannedCount = 0;
  for (const [i, e] of source.entries()) {
    if (cfState(e.sys) === 'changed') {
      const ct = e.sys.contentType.sys.id;
      const type = pageModel?.pageIds.has(e.sys.id) ? 'page' : pageModel?.notEntries.has(e.sys.id) ? 'block' : (schema.slugs.get(ct) ?? ct);
      changed.push(changedItem(e.sys, type, changedAs));
    }
    if (++plannedCount % 1000 === 0) input.onProgress?.({ phase: 'plan', done: plannedCount, total: source.entryCount });
    if (!isEntry(i)) continue;
    const ct = types.get(e.sys.contentType.sys.id);
    if (!ct) {
      contentWarnings.push(`entry '${e.sys.id}' has content type '${e.sys.contentType.sys.id}', which is not in the export; skipped`);
      continue;
    }
    const p = planEntry(e, ct, ws.id, locales, links, contentWarnings);
    positions.set(p.id, i);
    uniqueValues.add(p, ct);
    summaries.push({ id: p.id, cfId: p.cfId, typeSlug: p.typeSlug, state: p.state, references: p.references, baseSlug: p.baseSlug });
  }
  input.onProgress?.({ phase: 'plan', done: source.entryCount, total: source.entryCount });

  const warnings = [...schema.warnings, ...schemaWarnings, ...(pageModel?.warnings ?? []), ...explainDroppedLinks(contentWarnings, pageModel)];
  for (const code of others) {
    if (code === ws.default_locale)
      warnings.push(
        `export locale '${code}' is the workspace's default locale, which stands for the export's default '${exportDefault}'; its values are skipped`,
      );
  }
  warnings.push(...assetWarnings);

  const facts = await typeFacts(ctx, actor, schema, new Set(summaries.map((e) => e.id)));
  const slugs = assignSlugs(summaries, (type) => facts.reserved.get(type) ?? RESERVED_SLUGS);
  const written = await writeEntries(ctx, actor, {
    entries: summaries,
    // Read again from the export, planned again exactly as above (warnings were taken then).
    load: (s) => planEntry(source.entry(positions.get(s.id)!), types.get(source.entryTypeId(positions.get(s.id)!))!, ws.id, locales, links, []),
    slugs,
    typeIds: facts.typeIds,
    relationFields: facts.relationFields,
    batchSize,
    changedAs,
    uniqueValues,
    onProgress: input.onProgress,
  });
  const { counts: entries, failures } = written;
  warnings.push(...written.warnings);
  let pages: PageCounts = pageCounts([]);
  if (pageModel) {
    const imported = await importPages(ctx, actor, {
      catalog,
      model: pageModel,
      schema,
      locales,
      entryId: (id) => entryIds.get(id),
      assetId: (id) => assetIds.get(id),
      assetUrl: (id) => {
        const i = assetIndex.get(id);
        return i === undefined ? undefined : planAsset(source.asset(i), ws.id, locales.exportDefault, [])?.url;
      },
      entryFailures: failures,
      relationFields: facts.relationFields,
      batchSize,
      changedAs,
      onProgress: input.onProgress,
    });
    pages = imported.counts;
    failures.push(...imported.failures);
    warnings.push(...explainDroppedLinks(imported.warnings, pageModel));
  }

  // The import commits batch by batch; its one audit row (D122) follows the last batch.
  await recordAudit(ctx.db, auditEntry(ws.id, ctx.clock(), actor, 'workspace.imported', workspaceTarget(ws)));
  return {
    workspace: { id: ws.id, slug: ws.slug, created: target.created },
    locales: { default: ws.default_locale, locales: ws.locales, added: target.added },
    content_types: { total: schema.contentTypes.length, ...schemaCounts },
    assets: {
      total: assets.total,
      created: assets.created,
      updated: assets.updated,
      unchanged: assets.unchanged,
      ...(input.assetsDir !== undefined ? { files: assets.files } : {}),
    },
    entries,
    pages,
    failures,
    renamed_fields: schema.renames,
    changed,
    warnings,
    ...(target.keys ? { keys: target.keys } : {}),
  };
}
