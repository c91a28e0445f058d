// Plans every page of a Contentful export file at once, as the pages step did before it planned a
// batch at a time, in a process of its own (run with `node --import tsx` and a capped heap:
// test/import-pages-batches.test.ts shows its export does not fit that heap planned whole).
// Prints the pages and blocks planned.
const { entryCatalog, openExportFile } = await import('../src/modules/import/contentful/export-source.ts');
const { entryIdFor } = await import('../src/modules/import/contentful/content-mapping.ts');
const { applyPageModel, planPageBatches, planPageModel } = await import('../src/modules/import/contentful/page-mapping.ts');
const { planSchema } = await import('../src/modules/import/contentful/schema-mapping.ts');

const source = await openExportFile(process.argv[2]);
const catalog = entryCatalog(source);
const model = planPageModel(catalog, 'page');
const schema = applyPageModel(planSchema({ contentTypes: source.contentTypes, entries: [] }), model);
const workspaceId = '00000000-0000-4000-8000-000000000000';
const others = source.locales.filter((l) => !l.default).map((l) => l.code);
const exportDefault = source.locales.find((l) => l.default).code;
const context = {
  workspaceId,
  locales: { exportDefault, workspaceDefault: exportDefault, others },
  schema,
  entryId: (cfId) => (model.notEntries.has(cfId) ? undefined : entryIdFor(workspaceId, cfId)),
  assetId: () => undefined,
  assetUrl: () => undefined,
};
const [all] = planPageBatches(catalog, model, context, { pages: Infinity, blocks: Infinity });
console.log(JSON.stringify({ pages: all.pages.length, blocks: all.pages.reduce((n, p) => n + p.blocks.length, 0) }));
