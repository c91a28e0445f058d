/**
 * A second Contentful import of an unchanged export changes nothing (issue 23 item 7): no
 * version, no publication, no timestamp, no event, for every state the importer maps: drafts,
 * published entries, entries with unpublished changes (imported as published, the default, or as
 * drafts with `--changed-as draft`) and archived entries, for entries, pages and page blocks. The
 * export is the real one in the repository's sibling data folder with those states set on some
 * of its entries; the clock moves an hour between the runs, so any rewrite shows in a timestamp.
 * Edits made in Quire since (a published entry or page with pending changes) are not the
 * export's business: an unchanged export whose content production already reads keeps them and
 * publishes nothing (a re-import used to write the export's content back and publish it again:
 * new published_at and published_version). On SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.js';
import { importContentful } from '../../src/modules/import/operations.js';
import type { ContentfulExport } from '../../src/modules/import/contentful/export.js';
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
