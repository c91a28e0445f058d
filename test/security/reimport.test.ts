/**
 * A second Contentful import of an unchanged export changes nothing (issue 23 item 7): no
 * version, no publication, no timestamp, no event, for every state the importer maps: drafts,
 * published entries, entries with unpublished changes (imported as published, the default, or as
 * drafts with `--changed-as draft`) and archived entries, for entries, pages and page blocks. The
 * export is the real one in the repository's sibling data folder with those states set on some
 * of its entries; the clock moves an hour between the runs, so any rewrite shows in a timestamp.
 * Edits made in Quire since are not the export's business: an item whose content and state in
 * the export are what the last import of it wrote (its newest `import` version) is left alone
 * whatever editors did to it (a draft, an archived item, an item edited and published again, a
 * published page holding draft components back, a published item with pending changes); a
 * re-import used to write the export's content back over their work and publish it again (new
 * published_at and published_version). An export that changed such an item since still wins.
 * On SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.js';
import { importContentful } from '../../src/modules/import/operations.js';
import type { ContentfulExport } from '../../src/modules/import/contentful/export.js';
import { entryIdFor } from '../../src/modules/import/contentful/content-mapping.js';
import { pageIdFor } from '../../src/modules/import/contentful/page-mapping.js';
import { cfState, type ChangedAs } from '../../src/modules/import/contentful/states.js';
import { call, createTestEnv, dialects, type TestEnv } from '../helpers.js';

const EXPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/data/contentful/marketing-fintech.json');
const present = fs.existsSync(EXPORT);
const skip = !present && !process.env.CI;
const HOUR = 3600_000;

type Sys = ContentfulExport['entries'][number]['sys'];

// Entries and pages of the export given each state (Contentful ids).
const PERSON_DRAFT = '5YEkWZ4oATSKbR2i7ZUF06';
const PERSON_CHANGED = '2r0v7iZ7SS0khYkCAK82lw';
const PRODUCT_ARCHIVED = '2Jv15oYNaOUzyyJEp5P5z4';
const INFO_CHANGED = 'ohspi5gYQSqQdFADFTg6F';
const PAGE_DRAFT = '4OSewDgF5UsbHVwRNIIILi';
const PAGE_CHANGED = '7wGhPNCZNLknpSaJVWfnHf';
const PAGE_ARCHIVED = '2SKWtzmGOnQm80nRGIIclu';
const PAGE_CHANGED_WITH_DRAFT_BLOCK = '6LznwSwpmSWNCMwbgmtB2L';
const BLOCK_DRAFT_ON_CHANGED_PAGE = '69SMgPDXjReLwBHYhLM51o';
const BLOCK_DRAFT_ON_HOME = '6ruOAya7HFswgpaARPjXoR';
const BLOCK_CHANGED_ON_HOME = '350Vic01qnkh7C0IxFeVCD';
const PAGE_DRAFT_WITH_BLOCKS = 'jYxVlZPpqdeZs93jmpAlF';

/**
 * The real export with every state on some entries, pages and page components: drafts, archived
 * items (one archived after being published and edited again, which Contentful allows an export
 * to say), items with unpublished changes, a published page holding a draft component and a
 * component with unpublished changes (held out of its published version, or not, by
 * `--changed-as`), and a page with unpublished changes holding a draft component.
 */
function exportWithEveryState(): ContentfulExport {
  const exp = JSON.parse(fs.readFileSync(EXPORT, 'utf8')) as ContentfulExport;
  const sys = (id: string): Sys => exp.entries.find((e) => e.sys.id === id)!.sys;
  const asDraft = (s: Sys) => {
    delete s.publishedVersion;
    s.version = 4;
  };
  const asArchived = (s: Sys) => {
    s.archivedVersion = s.version;
    s.version = (s.version ?? 1) + 1;
  };
  const asChanged = (s: Sys) => {
    s.version = (s.publishedVersion ?? 1) + 3;
  };
  asDraft(sys(PERSON_DRAFT));
  asChanged(sys(PERSON_CHANGED));
  asArchived(sys(PRODUCT_ARCHIVED));
  asChanged(sys(INFO_CHANGED));
  asArchived(sys(INFO_CHANGED));
  asDraft(sys(PAGE_DRAFT));
  asChanged(sys(PAGE_CHANGED));
  asArchived(sys(PAGE_ARCHIVED));
  asChanged(sys(PAGE_CHANGED_WITH_DRAFT_BLOCK));
  asDraft(sys(BLOCK_DRAFT_ON_CHANGED_PAGE));
  asDraft(sys(BLOCK_DRAFT_ON_HOME));
  asChanged(sys(BLOCK_CHANGED_ON_HOME));
  return exp;
}

/** Every content table's rows, in a stable order, as plain values. */
async function storedState(env: TestEnv): Promise<Record<string, unknown[]>> {
  const k = env.ctx.db.kysely;
  const tables: [keyof Database, string[]][] = [
    ['workspaces', ['id']],
    ['content_types', ['id']],
    ['fields', ['id']],
    ['entries', ['id']],
    ['entry_translations', ['entry_id', 'locale']],
    ['published_entry_translations', ['entry_id', 'locale']],
    ['entry_versions', ['entry_id', 'version']],
    ['pages', ['id']],
    ['page_seo_translations', ['page_id', 'locale']],
    ['published_page_seo_translations', ['page_id', 'locale']],
    ['blocks', ['page_id', 'id']],
    ['block_translations', ['block_id', 'locale']],
    ['published_blocks', ['page_id', 'id']],
    ['published_block_translations', ['block_id', 'locale']],
    ['page_versions', ['page_id', 'version']],
    ['media', ['id']],
  ];
  const out: Record<string, unknown[]> = {};
  for (const [table, order] of tables) {
    let q = k.selectFrom(table).selectAll();
    for (const col of order) q = q.orderBy(col as never);
    out[table] = await q.execute();
  }
  out.events = [
    (
      await k
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  ];
  return JSON.parse(JSON.stringify(out, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v))) as Record<string, unknown[]>;
}

describe.skipIf(skip).each(dialects())('Contentful re-import of an unchanged export on %s', (dialect) => {
  let env: TestEnv;
  let now = Date.parse('2026-11-28T10:00:00.000Z');

  beforeAll(async () => {
    if (!present) throw new Error(`the Contentful export ${EXPORT} is missing`);
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
  });
  afterAll(async () => env?.close());

  it('the export used has every state the importer maps', () => {
    const states = new Set(exportWithEveryState().entries.map((e) => cfState(e.sys)));
    expect(states).toEqual(new Set(['draft', 'published', 'changed', 'archived']));
  });

  for (const changedAs of ['published', 'draft'] as ChangedAs[]) {
    it(`changes nothing stored on a second run (changed entries as ${changedAs})`, async () => {
      const workspace = `reimport-${changedAs}`;
      const first = await importContentful(env.ctx, { workspace, export: exportWithEveryState(), changedAs });
      expect(first.failures).toEqual([]);
      expect(first.entries.archived).toBeGreaterThan(0);
      expect(first.pages.archived).toBeGreaterThan(0);
      expect(first.changed.length).toBeGreaterThan(0);
      // Published pages holding blocks back from their published version (pending changes).
      expect(first.pages.draft_blocks).toBe(2);
      const before = await storedState(env);
      now += HOUR;
      const again = await importContentful(env.ctx, { workspace, export: exportWithEveryState(), changedAs });
      expect(again.failures).toEqual([]);
      expect(again.entries).toMatchObject({ created: 0, updated: 0, published: 0, unpublished: 0, archived: 0 });
      expect(again.pages).toMatchObject({ created: 0, updated: 0, published: 0, unpublished: 0, archived: 0 });
      const after = await storedState(env);
      for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    });

    it(`keeps edits made in Quire to published items and publishes nothing (changed entries as ${changedAs})`, async () => {
      const workspace = `edited-${changedAs}`;
      const first = await importContentful(env.ctx, { workspace, export: exportWithEveryState(), changedAs });
      const key = first.keys!.management;
      const req = (method: 'GET' | 'PUT', url: string, body?: unknown) => call(env.app, method, `/api/v1/manage${url}`, { key, body });
      // An editor changes a published entry and a published page without publishing them.
      const k = env.ctx.db.kysely;
      const entry = await k
        .selectFrom('entries as e')
        .innerJoin('content_types as ct', 'ct.id', 'e.content_type_id')
        .select(['e.slug', 'ct.slug as type', 'ct.display_field'])
        .where('e.workspace_id', '=', first.workspace.id)
        .where('e.status', '=', 'published')
        .where('ct.slug', '=', 'topic-person')
        .orderBy('e.slug')
        .executeTakeFirstOrThrow();
      const url = `/content-types/${entry.type}/entries/${entry.slug}`;
      const data = JSON.parse((await req('GET', url)).body.data.data) as Record<string, unknown>;
      // The display field: a text field every person has.
      const text = entry.display_field!;
      expect(typeof data[text]).toBe('string');
      now += HOUR;
      const saved = await req('PUT', url, { data: { ...data, [text]: 'Edited in Quire' } });
      expect(saved.body.data, JSON.stringify(saved.body)).toMatchObject({ status: 'published', has_pending_changes: true });
      const page = (await req('GET', '/pages/classic-card')).body.data;
      expect(page.page.status).toBe('published');
      const blocks = page.blocks.map((b: { id: string; type: string; data: string }) => ({ id: b.id, type: b.type, data: JSON.parse(b.data) }));
      const pageSaved = await req('PUT', '/pages/classic-card', { seo: { ...page.page.seo, title: 'Edited in Quire' }, blocks });
      expect(pageSaved.body.data).toMatchObject({ status: 'published', has_pending_changes: true });

      const before = await storedState(env);
      now += HOUR;
      const again = await importContentful(env.ctx, { workspace, export: exportWithEveryState(), changedAs });
      expect(again.failures).toEqual([]);
      expect(again.entries).toMatchObject({ created: 0, updated: 0, published: 0, unpublished: 0, archived: 0 });
      expect(again.pages).toMatchObject({ created: 0, updated: 0, published: 0, unpublished: 0, archived: 0 });
      const after = await storedState(env);
      for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
      expect(JSON.parse((await req('GET', url)).body.data.data)[text]).toBe('Edited in Quire');
      expect((await req('GET', '/pages/classic-card')).body.data.page).toMatchObject({ has_pending_changes: true, seo: { title: 'Edited in Quire' } });
    });
  }
});

/**
 * Items of every state an editor changed in Quire after the first import (issue 23): a draft
 * entry (edited twice within the versions' coalescing window), an archived entry, an entry with
 * unpublished changes in the export (imported as published) edited and published again in Quire,
 * a published page holding a draft component back (its working copy edited: pending changes), a
 * draft page and an archived page. Then the export is imported again, unchanged or changed for
 * those items.
 */
describe.skipIf(skip).each(dialects())('Contentful re-import over edits made in Quire on %s', (dialect) => {
  let env: TestEnv;
  let now = Date.parse('2026-11-28T10:00:00.000Z');
  const EDITED_ENTRIES = [PERSON_DRAFT, PRODUCT_ARCHIVED, PERSON_CHANGED];
  const EDITED_PAGES = [PAGE_CHANGED_WITH_DRAFT_BLOCK, PAGE_DRAFT_WITH_BLOCKS, PAGE_ARCHIVED];

  /** The export with every state, and a draft page that has blocks ('corporate-card'). */
  function exportForEdits(): ContentfulExport {
    const exp = exportWithEveryState();
    const sys = exp.entries.find((e) => e.sys.id === PAGE_DRAFT_WITH_BLOCKS)!.sys;
    delete sys.publishedVersion;
    sys.version = 4;
    return exp;
  }

  beforeAll(async () => {
    if (!present) throw new Error(`the Contentful export ${EXPORT} is missing`);
    env = await createTestEnv(dialect, { clock: () => new Date(now) });
  });
  afterAll(async () => env?.close());

  /** Imports the export into `workspace`, then edits the items above through the API. */
  async function importThenEdit(workspace: string) {
    const first = await importContentful(env.ctx, { workspace, export: exportForEdits() });
    expect(first.failures).toEqual([]);
    const wsId = first.workspace.id;
    const key = first.keys!.management;
    const req = async (method: 'GET' | 'PUT' | 'PATCH', url: string, body?: unknown) => {
      const res = await call(env.app, method, `/api/v1/manage${url}`, { key, body });
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body.data;
    };
    const k = env.ctx.db.kysely;
    const entryUrls = new Map<string, string>();
    const texts = new Map<string, string>();
    for (const cfId of EDITED_ENTRIES) {
      const row = await k
        .selectFrom('entries as e')
        .innerJoin('content_types as ct', 'ct.id', 'e.content_type_id')
        .select(['e.slug', 'ct.slug as type', 'ct.display_field'])
        .where('e.id', '=', entryIdFor(wsId, cfId))
        .executeTakeFirstOrThrow();
      entryUrls.set(cfId, `/content-types/${row.type}/entries/${row.slug}`);
      texts.set(cfId, row.display_field!);
    }
    const importVersions = async (id: string) =>
      k.selectFrom('entry_versions').selectAll().where('entry_id', '=', id).where('action', '=', 'import').orderBy('version').execute();
    const draftId = entryIdFor(wsId, PERSON_DRAFT);
    const draftImportVersions = await importVersions(draftId);

    // Within the coalescing window of the import's versions (10 s, then 20 s after it).
    for (const [i, cfId] of EDITED_ENTRIES.entries()) {
      now += 10_000;
      const url = entryUrls.get(cfId)!;
      const data = JSON.parse((await req('GET', url)).data) as Record<string, unknown>;
      await req('PUT', url, { data: { ...data, [texts.get(cfId)!]: `Edited in Quire ${i}` } });
    }
    now += 10_000;
    const draftUrl = entryUrls.get(PERSON_DRAFT)!;
    const draftData = JSON.parse((await req('GET', draftUrl)).data) as Record<string, unknown>;
    await req('PUT', draftUrl, { data: { ...draftData, [texts.get(PERSON_DRAFT)!]: 'Edited in Quire again' } });
    await req('PATCH', `${entryUrls.get(PERSON_CHANGED)}/publish`);
    // The editor's second update coalesced with the first, never with the import's version.
    const draftVersions = await k.selectFrom('entry_versions').select(['version', 'action']).where('entry_id', '=', draftId).orderBy('version').execute();
    expect(draftVersions.at(-1)!.action).toBe('update');
    expect(draftVersions.filter((v) => v.action === 'update')).toHaveLength(1);
    expect(await importVersions(draftId)).toEqual(draftImportVersions);

    const pageSlugs = new Map<string, string>();
    for (const cfId of EDITED_PAGES) {
      const row = await k.selectFrom('pages').select('slug').where('id', '=', pageIdFor(wsId, cfId)).executeTakeFirstOrThrow();
      pageSlugs.set(cfId, row.slug);
      const page = await req('GET', `/pages/${row.slug}`);
      const blocks = page.blocks.map((b: { id: string; type: string; data: string }) => ({ id: b.id, type: b.type, data: JSON.parse(b.data) }));
      await req('PUT', `/pages/${row.slug}`, { seo: { ...page.page.seo, title: 'Edited in Quire' }, blocks });
    }
    const held = await req('GET', `/pages/${pageSlugs.get(PAGE_CHANGED_WITH_DRAFT_BLOCK)}`);
    expect(held.page).toMatchObject({ status: 'published', has_pending_changes: true });
    return { wsId, req, entryUrls, texts, pageSlugs };
  }

  it('changes nothing stored when the export did not change the items edited in Quire', async () => {
    const { req, entryUrls, texts, pageSlugs } = await importThenEdit('kept-edits');
    const before = await storedState(env);
    now += HOUR;
    const again = await importContentful(env.ctx, { workspace: 'kept-edits', export: exportForEdits() });
    expect(again.failures).toEqual([]);
    expect(again.entries).toMatchObject({ created: 0, updated: 0, published: 0, unpublished: 0, archived: 0 });
    expect(again.pages).toMatchObject({ created: 0, updated: 0, published: 0, unpublished: 0, archived: 0 });
    const after = await storedState(env);
    for (const table of Object.keys(before)) expect(after[table], table).toEqual(before[table]);
    for (const cfId of [...EDITED_ENTRIES, ...EDITED_PAGES])
      expect(again.warnings.filter((w) => w.includes(`'${cfId}'`) && w.includes("Quire's edits are kept"))).toHaveLength(1);
    expect(JSON.parse((await req('GET', entryUrls.get(PERSON_DRAFT)!)).data)[texts.get(PERSON_DRAFT)!]).toBe('Edited in Quire again');
    expect((await req('GET', `/pages/${pageSlugs.get(PAGE_DRAFT_WITH_BLOCKS)}`)).page.seo.title).toBe('Edited in Quire');
  });

  it('applies what the export changed for those items since the last import, after a re-import kept the edits', async () => {
    const { req, entryUrls, texts, pageSlugs } = await importThenEdit('changed-export');
    now += HOUR;
    const kept = await importContentful(env.ctx, { workspace: 'changed-export', export: exportForEdits() });
    expect(kept.warnings.filter((w) => w.includes("Quire's edits are kept"))).toHaveLength(EDITED_ENTRIES.length + EDITED_PAGES.length);
    expect(kept.entries.updated + kept.pages.updated).toBe(0);
    const exp = exportForEdits();
    const fieldsOf = (id: string) => exp.entries.find((e) => e.sys.id === id)!.fields as Record<string, Record<string, unknown>>;
    for (const cfId of EDITED_ENTRIES) fieldsOf(cfId).name['en-US'] = `Changed in Contentful ${cfId}`;
    // The first component of each page's extra section (a block of its working copy; on
    // 'black-card' the draft component held out of its published version).
    for (const cfId of EDITED_PAGES) {
      const links = fieldsOf(cfId).extraSection['en-US'] as { sys: { id: string } }[];
      fieldsOf(links[0].sys.id).headline['en-US'] = `Changed in Contentful ${cfId}`;
    }
    now += HOUR;
    const again = await importContentful(env.ctx, { workspace: 'changed-export', export: exp });
    expect(again.failures).toEqual([]);
    expect(again.warnings.filter((w) => w.includes("Quire's edits are kept"))).toEqual([]);
    const expected: Record<string, string> = { [PERSON_DRAFT]: 'draft', [PRODUCT_ARCHIVED]: 'archived', [PERSON_CHANGED]: 'published' };
    for (const cfId of EDITED_ENTRIES) {
      const entry = await req('GET', entryUrls.get(cfId)!);
      const data = JSON.parse(entry.data) as Record<string, unknown>;
      expect(data.name, cfId).toBe(`Changed in Contentful ${cfId}`);
      expect(data[texts.get(cfId)!], cfId).not.toMatch(/Edited in Quire/);
      expect(entry, cfId).toMatchObject({ status: expected[cfId], has_pending_changes: false });
    }
    const pageStatus: Record<string, string> = { [PAGE_CHANGED_WITH_DRAFT_BLOCK]: 'published', [PAGE_DRAFT_WITH_BLOCKS]: 'draft', [PAGE_ARCHIVED]: 'archived' };
    for (const cfId of EDITED_PAGES) {
      const page = await req('GET', `/pages/${pageSlugs.get(cfId)}`);
      expect(page.page.seo.title, cfId).not.toBe('Edited in Quire');
      expect(page.page.status, cfId).toBe(pageStatus[cfId]);
      expect(JSON.stringify(page.blocks), cfId).toContain(`Changed in Contentful ${cfId}`);
    }
  });
});
