/**
 * `quire import contentful` and pages (issue 3 item 4): the export's `page` type becomes Quire
 * pages whose root blocks are the array-of-entry-link fields' targets, in field order; their
 * component types become block types. Every published page reads back through /pages/{slug} in
 * en-US and de-DE with its blocks in order; a second run changes nothing. `--pages-type`, SEO
 * entries and conflicts are checked on a small synthetic export.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedId } from '../src/lib/ids.js';
import { importContentful } from '../src/modules/import/operations.js';
import type { ContentfulExport } from '../src/modules/import/contentful/export.js';
import { findContentTypeBySlug } from '../src/modules/content-types/repository.js';
import { cli } from './cli-helpers.js';
import { pageCounts } from './import-counts.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const EXPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/contentful/marketing-fintech.json');
const present = fs.existsSync(EXPORT);
// Outside CI a checkout without the shared data may skip; in CI the suite runs and fails.
const skip = !present && !process.env.CI;
const P = '/api/v1/public';

const link = (id: string, linkType = 'Entry') => ({ sys: { type: 'Link', linkType, id } });
const slugify = (id: string) => id.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

/** Everything the page import writes, to prove that a second run changes nothing. */
async function pageSnapshot(env: TestEnv, workspaceId: string) {
  const k = env.ctx.db.kysely;
  const pages = await k
    .selectFrom('pages')
    .select(['id', 'slug', 'status', 'position', 'version', 'updated_at', 'published_at'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('id')
    .execute();
  const ids = pages.map((p) => p.id);
  const blocks = ids.length
    ? await k.selectFrom('blocks').select(['id', 'page_id', 'parent_id', 'position', 'updated_at']).where('page_id', 'in', ids).orderBy('id').execute()
    : [];
  const blockIds = blocks.map((b) => b.id);
  const translations = blockIds.length
    ? await k.selectFrom('block_translations').select(['id', 'locale', 'updated_at']).where('block_id', 'in', blockIds).orderBy('id').execute()
    : [];
  const seo = ids.length
    ? await k.selectFrom('page_seo_translations').select(['id', 'locale', 'updated_at']).where('page_id', 'in', ids).orderBy('id').execute()
    : [];
  return { pages, blocks, translations, seo };
}

describe.skipIf(skip).each(dialects())('Contentful pages import of marketing-fintech.json on %s', (dialect) => {
  let env: TestEnv;
  let report: any;
  let wsId: string;
  let exp: any;
  beforeAll(async () => {
    if (!present) throw new Error(`the Contentful export ${EXPORT} is missing (CI needs ../shared/data beside the repository)`);
    exp = JSON.parse(fs.readFileSync(EXPORT, 'utf8'));
    env = await createTestEnv(dialect);
    const run = await cli(['import', 'contentful', EXPORT, '--workspace', 'fintech', '--json'], { context: env.ctx });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    report = run.json();
    wsId = report.workspace.id;
  });
  afterAll(async () => env?.close());

  const byId = () => new Map<string, any>(exp.entries.map((e: any) => [e.sys.id, e]));
  const typeOf = (e: any) => e.sys.contentType.sys.id;

  it('maps the page type to pages and its components to block types, not entries', async () => {
    expect(report.pages).toEqual(pageCounts(7, { created: 7, published: 7, blocks: 18 }, { published: 7 }));
    expect(await findContentTypeBySlug(env.ctx.db, wsId, 'page')).toBeNull();
    for (const slug of ['component-hero-banner', 'component-duplex', 'component-info-block', 'component-quote', 'component-cta']) {
      expect((await findContentTypeBySlug(env.ctx.db, wsId, slug))?.is_block).toBe(true);
    }
    // Components no page links stay entry types; topics linked by a single-link field stay entries.
    for (const slug of ['component-text-block', 'component-product-table', 'topic-product', 'topic-business-info']) {
      expect((await findContentTypeBySlug(env.ctx.db, wsId, slug))?.is_block).toBe(false);
    }
    const blockEntries = await env.ctx.db.kysely
      .selectFrom('entries as e')
      .innerJoin('content_types as ct', 'ct.id', 'e.content_type_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('e.workspace_id', '=', wsId)
      .where('ct.is_block', '=', 1)
      .executeTakeFirstOrThrow();
    expect(Number(blockEntries.n)).toBe(0);
    expect(report.warnings).toContain("page field 'pageContent' (Link) has no place on a Quire page and is not imported");
    expect(report.warnings.filter((w: string) => /no page uses it/.test(w))).toHaveLength(3);
    expect(report.warnings.some((w: string) => /links entry '2SKWtzmGOnQm80nRGIIclu', which is imported as a page, not an entry/.test(w))).toBe(true);
    const usage = await call(env.app, 'GET', '/api/v1/manage/content-types/component-info-block/block-usage', { key: report.keys.management });
    expect(usage.body.data).toMatchObject({ count: 9, is_block: true });
    expect(usage.body.data.pages.map((p: any) => p.slug)).toEqual(['black-card', 'classic-card', 'corporate-card', 'home', 'pricing']);
  });

  it('every published page reads back through /pages/{slug} in en-US and de-DE, blocks in order', async () => {
    const entries = byId();
    const pageType = exp.contentTypes.find((ct: any) => ct.sys.id === 'page');
    const blockFields = pageType.fields.filter((f: any) => f.type === 'Array' && f.items?.linkType === 'Entry').map((f: any) => f.id);
    expect(blockFields).toEqual(['topSection', 'extraSection']);
    const published = exp.entries.filter((e: any) => typeOf(e) === 'page' && e.sys.publishedVersion);
    expect(published).toHaveLength(7);
    let checked = 0;
    for (const page of published) {
      const slug = page.fields.slug['en-US'];
      const links = blockFields.flatMap((f: string) => page.fields[f]?.['en-US'] ?? []);
      for (const locale of ['en-US', 'de-DE']) {
        const res = await call(env.app, 'GET', `${P}/pages/${slug}?locale=${locale}`, { key: report.keys.delivery });
        expect(res.status).toBe(200);
        const d = res.body.data;
        expect(d.page).toMatchObject({ id: derivedId(wsId, `page:${page.sys.id}`), slug, status: 'published' });
        expect(d.blocks.map((b: any) => b.type)).toEqual(links.map((l: any) => slugify(typeOf(entries.get(l.sys.id)))));
        expect(d.blocks.map((b: any) => b.position)).toEqual(links.map((_: unknown, i: number) => i));
        d.blocks.forEach((b: any, i: number) => {
          const source = entries.get(links[i].sys.id);
          const data = JSON.parse(b.data);
          expect(b.children).toEqual([]);
          for (const field of ['headline', 'internalName', 'ctaText']) {
            const values = source.fields[field];
            if (!values) continue;
            // Localized values fall back to en-US field by field; non-localized ones never change.
            expect(data[field]).toBe(values[locale] ?? values['en-US']);
            checked++;
          }
        });
        for (const t of d.block_translations) expect(t.locale).toBe('de-DE');
        if (locale === 'en-US') expect(d.block_translations).toEqual([]);
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('keeps German as block translations and resolves links inside blocks (assets, entries)', async () => {
    const res = await call(env.app, 'GET', `${P}/pages/home?locale=de-DE`, { key: report.keys.delivery });
    const hero = res.body.data.blocks[0];
    expect(hero.type).toBe('component-hero-banner');
    const data = JSON.parse(hero.data);
    expect(data.ctaText).toBe('Konto eröffnen');
    expect(data.image).toMatchObject({ mime_type: expect.stringMatching(/^image\//), url: expect.stringMatching(/^https:\/\//) });
    const trs = res.body.data.block_translations.filter((t: any) => t.block_id === hero.id);
    expect(trs).toHaveLength(1);
    expect(JSON.parse(trs[0].data).ctaText).toBe('Konto eröffnen');
    const all = await call(env.app, 'GET', `${P}/pages/home`, { key: report.keys.delivery });
    expect(JSON.parse(all.body.data.blocks[0].data)).not.toHaveProperty('ctaText');
    // The same component linked by several pages becomes one block on each, with its own id.
    const shared = derivedId(wsId, 'block:3t7Iub6Arm23Cn7wWkIJTd:topSection:3:7bAX9PLozjr4DWQTgxpvuv');
    expect(all.body.data.blocks[3].id).toBe(shared);
    const classic = await call(env.app, 'GET', `${P}/pages/classic-card`, { key: report.keys.delivery });
    expect(classic.body.data.blocks[0].id).not.toBe(shared);
    expect(classic.body.data.blocks[0].data).toBe(all.body.data.blocks[3].data);
  });

  it('keeps the export order as the navigation order', async () => {
    const res = await call(env.app, 'GET', `${P}/pages?limit=100`, { key: report.keys.delivery });
    const order = exp.entries.filter((e: any) => typeOf(e) === 'page').map((e: any) => e.fields.slug['en-US']);
    expect(res.body.data.map((p: any) => p.slug)).toEqual(order);
  });

  it('changes nothing on a second run', async () => {
    const before = await pageSnapshot(env, wsId);
    expect(before.pages).toHaveLength(7);
    expect(before.blocks).toHaveLength(18);
    const run = await cli(['import', 'contentful', EXPORT, '--workspace', 'fintech', '--json'], { context: env.ctx });
    expect(run.code).toBe(0);
    expect(run.json().pages).toEqual(pageCounts(7, { unchanged: 7, blocks: 18 }, { published: 7 }));
    expect(await pageSnapshot(env, wsId)).toEqual(before);
  });

  it('refuses to turn an existing entry type into a block type', async () => {
    const seeded = await seedWorkspace(env.ctx, { slug: 'clash', default_locale: 'en-US', locales: ['en-US', 'de-DE'] });
    await call(env.app, 'POST', '/api/v1/manage/content-types', {
      key: seeded.keys.management,
      body: { name: 'Hero', slug: 'component-hero-banner', fields: [] },
    });
    const run = await cli(['import', 'contentful', EXPORT, '--workspace', 'clash', '--json'], { context: env.ctx });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/component-hero-banner' exists as an entry type; the export's pages need it as a block type/);
  });
});

/** Writes an export to a temporary file (for the CLI) and returns its path. */
function writeExport(exp: ContentfulExport): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pages-import-'));
  const file = path.join(dir, 'export.json');
  fs.writeFileSync(file, JSON.stringify(exp));
  return file;
}

/** A small export: a `landing` type with an SEO link and two section fields. */
function syntheticExport(): ContentfulExport {
  const t = (id: string, fields: any[], displayField?: string) => ({ sys: { id }, name: id, displayField: displayField ?? null, fields });
  const e = (id: string, type: string, fields: Record<string, Record<string, unknown>>, published = true) => ({
    sys: { id, contentType: { sys: { id: type } }, ...(published ? { publishedVersion: 3 } : {}) },
    fields,
  });
  return {
    locales: [{ code: 'en-US', default: true }, { code: 'de-DE' }],
    contentTypes: [
      t(
        'landing',
        [
          { id: 'title', type: 'Symbol' },
          { id: 'slug', type: 'Symbol' },
          { id: 'meta', type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['seo'] }] },
          { id: 'hero', type: 'Array', items: { type: 'Link', linkType: 'Entry' } },
          { id: 'body', type: 'Array', items: { type: 'Link', linkType: 'Entry' } },
        ],
        'title',
      ),
      t('seo', [
        { id: 'title', type: 'Symbol', localized: true },
        { id: 'description', type: 'Text', localized: true },
        { id: 'keywords', type: 'Array', items: { type: 'Symbol' } },
        { id: 'image', type: 'Link', linkType: 'Asset' },
        { id: 'noIndex', type: 'Boolean' },
      ]),
      t('banner', [
        { id: 'headline', type: 'Symbol', localized: true, required: true },
        { id: 'article', type: 'Link', linkType: 'Entry' },
      ]),
      t('textBlock', [{ id: 'text', type: 'Text', localized: true }]),
      t(
        'article',
        [
          { id: 'title', type: 'Symbol', localized: true },
          { id: 'landing', type: 'Link', linkType: 'Entry' },
        ],
        'title',
      ),
    ],
    entries: [
      e('L1', 'landing', {
        title: { 'en-US': 'Start' },
        slug: { 'en-US': 'start' },
        meta: { 'en-US': link('S1') },
        hero: { 'en-US': [link('B1')] },
        body: { 'en-US': [link('T1'), link('B2')] },
      }),
      e('L2', 'landing', { title: { 'en-US': 'Second Page' }, hero: { 'en-US': [link('B1')] } }, false),
      e('S1', 'seo', {
        title: { 'en-US': 'Start page', 'de-DE': 'Startseite' },
        description: { 'en-US': 'Welcome' },
        keywords: { 'en-US': ['a', 'b', 'a'] },
        image: { 'en-US': link('A1', 'Asset') },
        noIndex: { 'en-US': true },
      }),
      e('B1', 'banner', { headline: { 'en-US': 'Hello', 'de-DE': 'Hallo' }, article: { 'en-US': link('R1') } }),
      e('B2', 'banner', { headline: { 'en-US': 'Again' } }),
      e('T1', 'textBlock', { text: { 'en-US': 'Body text', 'de-DE': 'Fließtext' } }),
      e('T9', 'textBlock', { text: { 'en-US': 'Unused' } }),
      e('R1', 'article', { title: { 'en-US': 'An article' }, landing: { 'en-US': link('L1') } }),
    ],
    assets: [
      {
        sys: { id: 'A1', publishedVersion: 2 },
        fields: {
          title: { 'en-US': 'Share image' },
          file: {
            'en-US': {
              url: '//images.example.com/share.png',
              fileName: 'share.png',
              contentType: 'image/png',
              details: { size: 10, image: { width: 1200, height: 630 } },
            },
          },
        },
      },
    ],
  } as unknown as ContentfulExport;
}

describe.each(dialects())('Contentful pages import: --pages-type, SEO entries, drafts on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
  });
  afterAll(async () => env?.close());

  it('imports the named type as pages with SEO, SEO translations, blocks and links; a second run changes nothing', async () => {
    const r = await importContentful(env.ctx, { workspace: 'synthetic', export: syntheticExport(), pagesType: 'landing' });
    expect(r.failures).toEqual([]);
    expect(r.pages).toEqual(pageCounts(2, { created: 2, published: 1, blocks: 4 }, { draft: 1, published: 1 }));
    expect(r.entries).toMatchObject({ total: 2, created: 2 });
    expect(r.warnings).toContain("entry 'T9' is of block type 'textBlock' but no page uses it; it is skipped (block types hold no entries)");
    expect(r.warnings.some((w) => w.startsWith("entry 'R1' (article.landing, en-US) links entry 'L1', which is imported as a page, not an entry"))).toBe(true);
    const key = r.keys!.delivery;
    const d = (await call(env.app, 'GET', `${P}/pages/start?locale=de-DE`, { key })).body.data;
    expect(d.page.seo).toEqual({
      title: 'Startseite',
      description: 'Welcome',
      keywords: ['a', 'b'],
      og_image: 'https://images.example.com/share.png',
      canonical: null,
    });
    expect(d.seo_translations).toEqual([{ id: expect.any(Number), locale: 'de-DE', page_id: d.page.id, seo: { title: 'Startseite' } }]);
    expect(d.blocks.map((b: any) => [b.type, JSON.parse(b.data).headline ?? JSON.parse(b.data).text])).toEqual([
      ['banner', 'Hallo'],
      ['text-block', 'Fließtext'],
      ['banner', 'Again'],
    ]);
    expect(JSON.parse(d.blocks[0].data).article).toMatchObject({ slug: 'an-article', type: 'article', title: 'An article' });
    // A draft page stays a draft: only preview keys see it; its slug comes from the display field.
    expectError(await call(env.app, 'GET', `${P}/pages/second-page`, { key }), 404, 'NOT_FOUND');
    expect((await call(env.app, 'GET', `${P}/pages/second-page`, { key: r.keys!.preview })).status).toBe(200);

    const before = await pageSnapshot(env, r.workspace.id);
    const again = await importContentful(env.ctx, { workspace: 'synthetic', export: syntheticExport(), pagesType: 'landing' });
    expect(again.pages).toEqual(pageCounts(2, { unchanged: 2, blocks: 4 }, { draft: 1, published: 1 }));
    expect(await pageSnapshot(env, r.workspace.id)).toEqual(before);

    // A changed export updates the page in place, keeping block ids where the links stay.
    const changed = syntheticExport();
    (changed.entries[3].fields.headline as Record<string, unknown>)['en-US'] = 'Hello again';
    (changed.entries[0].fields.body as Record<string, unknown>)['en-US'] = [link('T1')];
    const third = await importContentful(env.ctx, { workspace: 'synthetic', export: changed, pagesType: 'landing' });
    expect(third.pages).toMatchObject({ updated: 2, unchanged: 0, failed: 0 });
    const after = (await call(env.app, 'GET', `${P}/pages/start`, { key })).body.data;
    expect(after.blocks.map((b: any) => b.id)).toEqual(d.blocks.slice(0, 2).map((b: any) => b.id));
    expect(JSON.parse(after.blocks[0].data).headline).toBe('Hello again');
    expect(after.page.status).toBe('published');
  });

  it('reports a page the API refuses and leaves out links to entries that failed', async () => {
    const exp = syntheticExport();
    // The article type gains a required field its entry lacks: publishing the entry fails.
    (exp.contentTypes[4].fields as any[]).push({ id: 'lead', type: 'Symbol', required: true });
    // A published page whose banner lacks its required headline cannot be published either.
    (exp.entries[4].fields as any).headline = { 'de-DE': 'Nur Deutsch' };
    const r = await importContentful(env.ctx, { workspace: 'refusals', export: exp, pagesType: 'landing' });
    expect(r.failures.map((f) => [f.entry, f.type])).toEqual([
      ['R1', 'article'],
      ['L1', 'page'],
    ]);
    expect(r.failures[1].message).toMatch(/blocks\.2\.data\.headline: is required/);
    expect(r.pages).toMatchObject({ total: 2, created: 2, published: 0, failed: 1 });
    // The page exists as a draft; the banner's link to the failed article was left out.
    const d = (await call(env.app, 'GET', `${P}/pages/start`, { key: r.keys!.preview })).body.data;
    expect(d.page.status).toBe('draft');
    expect(JSON.parse(d.blocks[0].data)).toEqual({ headline: 'Hello' });
    const run = await cli(['import', 'contentful', '--workspace', 'refusals', '--pages-type', 'landing', '--json', writeExport(exp)], { context: env.ctx });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('quire: 1 entry and 1 page could not be fully imported (see failures)\n');
  });

  it('answers 400 for a --pages-type the export does not have; without the default type nothing becomes a page', async () => {
    const run = await cli(['import', 'contentful', EXPORT, '--workspace', 'nope', '--pages-type', 'landing', '--json'], { context: env.ctx });
    if (present) {
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/pagesType.*landing/);
    }
    const plain = await importContentful(env.ctx, { workspace: 'plain', export: syntheticExport() });
    expect(plain.pages).toEqual(pageCounts(0, {}, {}));
    expect(plain.entries.total).toBe(8);
    expect((await findContentTypeBySlug(env.ctx.db, plain.workspace.id, 'landing'))?.is_block).toBe(false);
  });
});
