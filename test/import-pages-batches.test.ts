/**
 * The Contentful importer's pages step a batch at a time (issue 12 item 4), on a synthetic export
 * of landing pages (test/pages-export.ts):
 *
 * - planPageBatches: batches bounded by pages and by blocks that together equal one batch;
 * - an import with two pages per batch (slugs colliding across batches, a slug held by a page
 *   the import does not own, components shared by pages of different batches, blocks linking
 *   entries, refused pages, warnings) stores the same pages, versions and report as one batch,
 *   reports progress page by page, and a second run changes nothing;
 * - memory: 500 pages of 10 blocks, 8,000 characters each, planned at once do not fit a heap of
 *   64 MB (a child planning them whole aborts, as the importer did before it planned in batches),
 *   and the CLI imports them with that heap.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { derivedId } from '../src/lib/ids.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { entryIdFor } from '../src/modules/import/contentful/content-mapping.js';
import { entryCatalog, memorySource } from '../src/modules/import/contentful/export-source.js';
import { applyPageModel, planPageBatches, planPageModel, type PagePlanContext } from '../src/modules/import/contentful/page-mapping.js';
import { planSchema } from '../src/modules/import/contentful/schema-mapping.js';
import { importContentful, type ImportResult, type ProgressEvent } from '../src/modules/import/operations.js';
import { createPage } from '../src/modules/pages/operations.js';
import { cappedNode, externalEnv } from './cli-helpers.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { articleCfId, componentCfId, pageCfId, pageLinks, pagesExport, type PagesExportShape } from './pages-export.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const SMALL: PagesExportShape = { pages: 40, blocks: 3, components: 30, text: 60, quirks: true };

describe('planPageBatches', () => {
  const exp = pagesExport(SMALL);
  const catalog = entryCatalog(memorySource(exp));
  const model = planPageModel(catalog, 'page')!;
  const pc: PagePlanContext = {
    workspaceId: '00000000-0000-4000-8000-000000000000',
    locales: { exportDefault: 'en-US', workspaceDefault: 'en-US', others: ['de-DE'] },
    schema: applyPageModel(planSchema({ contentTypes: exp.contentTypes, entries: [] }), model),
    entryId: (cfId) => (model.notEntries.has(cfId) ? undefined : entryIdFor('00000000-0000-4000-8000-000000000000', cfId)),
    assetId: () => undefined,
    assetUrl: () => undefined,
  };
  const batches = (pages: number, blocks: number) => [...planPageBatches(catalog, model, pc, { pages, blocks })];
  const [whole] = batches(Infinity, Infinity);

  it('closes a batch at its page limit or block limit; the batches together are one batch', () => {
    expect(batches(Infinity, Infinity)).toHaveLength(1);
    expect(whole.pages).toHaveLength(SMALL.pages);
    expect(whole.warnings.length).toBeGreaterThan(0);
    const byPages = batches(7, Infinity);
    expect(byPages.map((b) => b.pages.length)).toEqual([7, 7, 7, 7, 7, 5]);
    const byBlocks = batches(Infinity, 5);
    expect(byBlocks.length).toBeGreaterThan(SMALL.pages / 3);
    byBlocks.forEach((b, i) => {
      const blocks = b.pages.map((p) => p.blocks.length);
      const total = blocks.reduce((x, y) => x + y, 0);
      // Below the limit before its last page; at it or past it with that page, unless it is the last batch.
      expect(total - blocks[blocks.length - 1]).toBeLessThan(5);
      if (i < byBlocks.length - 1) expect(total).toBeGreaterThanOrEqual(5);
    });
    for (const split of [byPages, byBlocks, batches(1, 1)]) {
      expect(split.flatMap((b) => b.pages)).toEqual(whole.pages);
      expect(split.flatMap((b) => b.warnings)).toEqual(whole.warnings);
    }
  });
});

/** Every stored fact of the workspace's pages, with derived ids named and per-workspace ids left out. */
async function storedPages(env: TestEnv, workspaceId: string, shape: PagesExportShape) {
  const names = new Map<string, string>();
  for (let i = 0; i < shape.pages; i++) {
    names.set(derivedId(workspaceId, `page:${pageCfId(i)}`), pageCfId(i));
    pageLinks(i, shape).forEach((target, index) => {
      names.set(derivedId(workspaceId, `block:${pageCfId(i)}:sections:${index}:${target}`), `block:${i}:${index}`);
    });
  }
  for (let k = 0; k < 6; k++) names.set(entryIdFor(workspaceId, articleCfId(k)), articleCfId(k));
  // Times, users, block type ids and serial row ids differ between workspaces; derived ids are named.
  // Lists in a version snapshot whose order follows row ids, which are the workspace's own.
  const UNORDERED = new Set(['block_translations', 'seo_translations']);
  const DROP = new Set(['created_at', 'updated_at', 'published_at', 'created_by', 'updated_by', 'published_by', 'workspace_id', 'block_type_id']);
  const clean = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (/^[[{]/.test(value)) {
        try {
          return clean(JSON.parse(value));
        } catch {
          return value;
        }
      }
      return value.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => names.get(id) ?? 'unnamed');
    }
    if (Array.isArray(value)) return value.map(clean);
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value)
          .filter(([k, v]) => !DROP.has(k) && !(k === 'id' && typeof v === 'number'))
          .map(([k, v]) => [k, UNORDERED.has(k) ? sorted(clean(v)) : clean(v)]),
      );
    }
    return value;
  };
  const sorted = (list: unknown) => (list as object[]).map((r) => JSON.stringify(r)).sort();
  const k = env.ctx.db.kysely;
  const pages = await k.selectFrom('pages').selectAll().where('workspace_id', '=', workspaceId).orderBy('position').execute();
  const ids = pages.map((p) => p.id);
  const rows = async (
    table:
      | 'blocks'
      | 'block_translations'
      | 'page_seo_translations'
      | 'published_blocks'
      | 'published_block_translations'
      | 'published_page_seo_translations'
      | 'page_versions',
  ) => (ids.length ? clean(await k.selectFrom(table).selectAll().where('page_id', 'in', ids).execute()) : []);
  return {
    pages: clean(pages),
    blocks: sorted(await rows('blocks')),
    blockTranslations: sorted(await rows('block_translations')),
    seoTranslations: sorted(await rows('page_seo_translations')),
    publishedBlocks: sorted(await rows('published_blocks')),
    publishedBlockTranslations: sorted(await rows('published_block_translations')),
    publishedSeoTranslations: sorted(await rows('published_page_seo_translations')),
    versions: sorted(await rows('page_versions')),
  };
}

describe.each(dialects())('pages imported a batch at a time on %s', (dialect) => {
  let env: TestEnv;
  let dir: string;
  const progress: ProgressEvent[] = [];
  const reports: Record<string, ImportResult> = {};
  const workspaceIds: Record<string, string> = {};

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pages-batches-'));
    const file = path.join(dir, 'pages.json');
    fs.writeFileSync(file, JSON.stringify(pagesExport(SMALL)));
    for (const slug of ['one', 'batched']) {
      // A page the import does not own holds the slug page 2 asks for.
      const seeded = await seedWorkspace(env.ctx, { slug, default_locale: 'en-US', locales: ['en-US', 'de-DE'] });
      await createPage(env.ctx, systemActor(seeded.workspace.id, seeded.user.id), { slug: 'page-2' });
      workspaceIds[slug] = seeded.workspace.id;
    }
    reports.one = await importContentful(env.ctx, { workspace: 'one', export: pagesExport(SMALL) });
    reports.batched = await importContentful(env.ctx, { workspace: 'batched', file, batchSize: 2, onProgress: (e) => e.phase === 'pages' && progress.push(e) });
  });
  afterAll(async () => {
    await env?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports the same counts, failures and warnings in one batch as two pages at a time', () => {
    const { one, batched } = reports;
    expect(one.pages).toMatchObject({ total: SMALL.pages, blocks: expect.any(Number) });
    expect(one.pages.failed).toBeGreaterThan(0);
    expect(batched.pages).toEqual(one.pages);
    expect(batched.failures).toEqual(one.failures);
    expect(batched.warnings).toEqual(one.warnings);
    expect(batched.changed).toEqual(one.changed);
    expect(batched.entries).toEqual(one.entries);
    // What the quirks are for: refused pages and an entry, and the planning warnings of later batches.
    expect(one.failures.map((f) => f.type)).toContain('page');
    expect(one.failures).toContainEqual(expect.objectContaining({ entry: articleCfId(1), type: 'article' }));
    expect(one.warnings).toContain(`page '${pageCfId(12)}' links SEO entry 'missing-seo', which is not in the export; its SEO stays empty`);
    expect(one.warnings).toContain(`page '${pageCfId(31)}' (sections.1) links entry 'missing-component' that is not in the export; the block is left out`);
    expect(one.warnings.some((w) => w.includes(`links entry '${componentCfId(22)}', which is archived`))).toBe(true);
  });

  it('stores the same pages, blocks, translations, published copies and versions', async () => {
    const one = await storedPages(env, workspaceIds.one, SMALL);
    expect(await storedPages(env, workspaceIds.batched, SMALL)).toEqual(one);
    const slugs = Object.fromEntries((one.pages as { id: string; slug: string }[]).map((p) => [p.id, p.slug]));
    // Collisions resolved across batches: later pages get -2, -3 …; a slug the import does not own stays taken.
    expect(slugs[pageCfId(3)]).toBe('page-0-2');
    expect(slugs[pageCfId(10)]).toBe('page-7-2');
    expect(slugs[pageCfId(2)]).toBe('page-2-2');
    expect([5, 16, 27, 38].map((i) => slugs[pageCfId(i)])).toEqual(['home', 'home-2', 'home-3', 'home-4']);
    // Page 0 (batch 1) and page 10 (batch 6) share components 0 to 2; teasers link their articles.
    const blocks = one.blocks.map((b) => JSON.parse(b) as { page_id: string; data: Record<string, unknown> });
    const of = (page: string) => blocks.filter((b) => b.page_id === page).map((b) => b.data.heading);
    expect(of(pageCfId(10))).toEqual(of(pageCfId(0)));
    expect(blocks.filter((b) => b.data.article === articleCfId(3)).length).toBeGreaterThan(1);
  });

  it('reports progress page by page across batches', () => {
    expect(progress.map((e) => e.done)).toEqual(Array.from({ length: SMALL.pages }, (_, i) => i + 1));
    expect(new Set(progress.map((e) => e.total))).toEqual(new Set([SMALL.pages]));
  });

  it('changes nothing when imported again a batch at a time', async () => {
    const before = await storedPages(env, workspaceIds.one, SMALL);
    const times = await env.ctx.db.kysely.selectFrom('pages').select(['id', 'updated_at']).where('workspace_id', '=', workspaceIds.one).orderBy('id').execute();
    const again = await importContentful(env.ctx, { workspace: 'one', export: pagesExport(SMALL), batchSize: 3 });
    expect(again.pages).toMatchObject({ total: SMALL.pages, created: 0, updated: 0, published: 0, unpublished: 0, archived: 0 });
    expect(again.warnings).toEqual(reports.one.warnings);
    expect(await storedPages(env, workspaceIds.one, SMALL)).toEqual(before);
    expect(
      await env.ctx.db.kysely.selectFrom('pages').select(['id', 'updated_at']).where('workspace_id', '=', workspaceIds.one).orderBy('id').execute(),
    ).toEqual(times);
  });
});

// Memory: the plan of every page at once is far larger than the file (pages share components,
// and each link is a block of its own) and than the heap the batched import needs.
const HEAP_MB = 64;
const LARGE: PagesExportShape = { pages: 500, blocks: 10, components: 200, text: 8_000 };

/** Runs node with a heap of HEAP_MB and `args`; resolves with the exit code and output. */
const capped = (args: string[], env: Record<string, string> = {}) => cappedNode(HEAP_MB, args, env);

describe('pages in bounded memory', () => {
  let dir: string;
  let large: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pages-memory-'));
    large = path.join(dir, 'pages.json');
    fs.writeFileSync(large, JSON.stringify(pagesExport(LARGE)));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it(`planned all at once, ${LARGE.pages} pages of ${LARGE.blocks} blocks do not fit a heap of ${HEAP_MB} MB`, async () => {
    // The file is small: the plan holds a block per link, each with its own copy of the text.
    expect(fs.statSync(large).size).toBeLessThan(4_000_000);
    const whole = await capped(['--import', 'tsx', path.join(ROOT, 'test', 'plan-pages-child.mjs'), large]);
    expect(whole.stderr).toMatch(/heap out of memory/);
    expect(whole.code).not.toBe(0);
  }, 120_000);

  describe.each(dialects())('the CLI on %s', (dialect) => {
    let external: Awaited<ReturnType<typeof externalEnv>>;
    beforeAll(async () => {
      external = await externalEnv(dialect);
    }, 120_000);
    afterAll(async () => external?.cleanup());

    it(`imports them with a ${HEAP_MB} MB heap`, async () => {
      const r = await capped(
        ['--import', 'tsx', path.join(ROOT, 'test', 'import-child.mjs'), 'import', 'contentful', large, '--workspace', 'pages', '--json'],
        external.env,
      );
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.failures).toEqual([]);
      const blocks = LARGE.pages * LARGE.blocks;
      expect(report.pages).toMatchObject({ total: LARGE.pages, created: LARGE.pages, failed: 0, blocks, states: { draft: LARGE.pages } });
      const db = await createDb(loadConfig(external.env));
      try {
        const [row] = await db.kysely
          .selectFrom('blocks')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .execute();
        expect(Number(row.n)).toBe(blocks);
      } finally {
        await db.close();
      }
    }, 600_000);
  });
});
