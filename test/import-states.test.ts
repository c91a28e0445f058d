/**
 * Faithful publishing states (issue 12 item 1) on the real export in ../shared/data, with the
 * states its space did not have set on some of its entries: drafts stay drafts (entries and page
 * blocks: a draft component is in the page's working copy, not in its published version),
 * archived stays archived, unpublished changes are published and listed (or kept as drafts with
 * `--changed-as draft`), a later export that unpublishes an entry or a page unpublishes it, and
 * every write is a version with action `import`. A second run changes nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { derivedId } from '../src/lib/ids.js';
import { importContentful, type ImportResult } from '../src/modules/import/operations.js';
import type { ContentfulExport } from '../src/modules/import/contentful/export.js';
import { cfState } from '../src/modules/import/contentful/states.js';
import { cli } from './cli-helpers.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

const EXPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/contentful/marketing-fintech.json');
const present = fs.existsSync(EXPORT);
const skip = !present && !process.env.CI;
const P = '/api/v1/public';

const JESSE = '5YEkWZ4oATSKbR2i7ZUF06'; // topicPerson → draft
const MICHAEL = '2r0v7iZ7SS0khYkCAK82lw'; // topicPerson, unpublished by the later export
const PRODUCT = '2Jv15oYNaOUzyyJEp5P5z4'; // topicProduct → archived
const ABOUT_INFO = 'ohspi5gYQSqQdFADFTg6F'; // topicBusinessInfo → unpublished changes
const ACCESSIBILITY = '4OSewDgF5UsbHVwRNIIILi'; // page → draft
const ABOUT_PAGE = '7wGhPNCZNLknpSaJVWfnHf'; // page → unpublished changes
const PRICING = '2SKWtzmGOnQm80nRGIIclu'; // page → archived
const BLACK_CARD = '6LznwSwpmSWNCMwbgmtB2L'; // page, unpublished by the later export
const HOME_CTA = '6ruOAya7HFswgpaARPjXoR'; // componentCta on the home page → draft

type Sys = ContentfulExport['entries'][number]['sys'];
const asDraft = (s: Sys) => {
  delete s.publishedVersion;
  s.version = 4;
};
const asArchived = (s: Sys) => {
  delete s.publishedVersion;
  s.archivedVersion = s.version;
  s.version = (s.version ?? 1) + 1;
};
const asChanged = (s: Sys) => {
  s.version = (s.publishedVersion ?? 1) + 3;
};

/** The real export with every state set on some entries. */
function exportWithStates(): ContentfulExport {
  const exp = JSON.parse(fs.readFileSync(EXPORT, 'utf8')) as ContentfulExport;
  const sys = (id: string) => exp.entries.find((e) => e.sys.id === id)!.sys;
  asDraft(sys(JESSE));
  asArchived(sys(PRODUCT));
  asChanged(sys(ABOUT_INFO));
  asDraft(sys(ACCESSIBILITY));
  asChanged(sys(ABOUT_PAGE));
  asArchived(sys(PRICING));
  asDraft(sys(HOME_CTA));
  return exp;
}

describe.skipIf(skip).each(dialects())('Contentful publishing states on %s', (dialect) => {
  let env: TestEnv;
  let report: ImportResult;
  let wsId: string;
  let exp: ContentfulExport;
  const entryId = (cfId: string) => derivedId(wsId, `entry:${cfId}`);
  const pageId = (cfId: string) => derivedId(wsId, `page:${cfId}`);
  const status = async (table: 'entries' | 'pages', id: string) =>
    await env.ctx.db.kysely.selectFrom(table).select(['status', 'published_version', 'latest_version']).where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    if (!present) throw new Error(`the Contentful export ${EXPORT} is missing`);
    env = await createTestEnv(dialect);
    exp = exportWithStates();
    report = await importContentful(env.ctx, { workspace: 'states', export: exp });
    wsId = report.workspace.id;
  });
  afterAll(async () => env?.close());

  it('counts every state in the summary and lists each entry with unpublished changes', () => {
    expect(report.failures).toEqual([]);
    expect(report.entries).toMatchObject({ total: 37, created: 37, published: 35, archived: 1, unpublished: 0 });
    expect(report.entries.states).toEqual({ draft: 1, published: 34, changed: 1, archived: 1 });
    expect(report.pages).toMatchObject({ total: 7, created: 7, published: 5, archived: 1, draft_blocks: 1 });
    expect(report.pages.states).toEqual({ draft: 1, published: 4, changed: 1, archived: 1 });
    expect(report.changed).toEqual([
      { entry: ABOUT_INFO, type: 'topic-business-info', version: 18, published_version: 15, imported_as: 'published' },
      { entry: ABOUT_PAGE, type: 'page', version: 8, published_version: 5, imported_as: 'published' },
    ]);
  });

  it('keeps drafts drafts, archives what is archived and publishes the latest content of changed entries', async () => {
    expect(await status('entries', entryId(JESSE))).toMatchObject({ status: 'draft', published_version: null });
    expect(await status('entries', entryId(PRODUCT))).toMatchObject({ status: 'archived', published_version: null });
    expect(await status('entries', entryId(ABOUT_INFO))).toMatchObject({ status: 'published' });
    expect(await status('pages', pageId(ACCESSIBILITY))).toMatchObject({ status: 'draft', published_version: null });
    expect(await status('pages', pageId(PRICING))).toMatchObject({ status: 'archived' });
    expect(await status('pages', pageId(ABOUT_PAGE))).toMatchObject({ status: 'published' });
    // Production keys see none of the draft or archived items.
    const key = report.keys!.delivery;
    expect((await call(env.app, 'GET', `${P}/entries/jesse-ferguson-leadership?type=topic-person`, { key })).status).toBe(404);
    expect((await call(env.app, 'GET', `${P}/entries/michael-estrada-leadership?type=topic-person`, { key })).status).toBe(200);
    expect((await call(env.app, 'GET', `${P}/pages/accessibility`, { key })).status).toBe(404);
    expect((await call(env.app, 'GET', `${P}/pages/pricing`, { key })).status).toBe(404);
    expect((await call(env.app, 'GET', `${P}/pages/about-us`, { key })).status).toBe(200);
  });

  it('keeps a draft component out of the published page and in its working copy', async () => {
    const types = (blocks: { type: string }[]) => blocks.map((b) => b.type);
    const live = (await call(env.app, 'GET', `${P}/pages/home`, { key: report.keys!.delivery })).body.data;
    expect(types(live.blocks)).not.toContain('component-cta');
    expect(live.blocks).toHaveLength(5);
    const preview = (await call(env.app, 'GET', `${P}/pages/home`, { key: report.keys!.preview })).body.data;
    expect(types(preview.blocks)).toContain('component-cta');
    expect(preview.blocks).toHaveLength(6);
    expect(await status('pages', pageId('3t7Iub6Arm23Cn7wWkIJTd'))).toMatchObject({ status: 'published', published_version: 2, latest_version: 3 });
  });

  it('writes every version with action import', async () => {
    const k = env.ctx.db.kysely;
    const actions = [
      ...(await k
        .selectFrom('entry_versions as v')
        .innerJoin('entries as e', 'e.id', 'v.entry_id')
        .select('v.action')
        .where('e.workspace_id', '=', wsId)
        .execute()),
      ...(await k
        .selectFrom('page_versions as v')
        .innerJoin('pages as p', 'p.id', 'v.page_id')
        .select('v.action')
        .where('p.workspace_id', '=', wsId)
        .execute()),
    ];
    expect(actions.length).toBeGreaterThan(50);
    expect(new Set(actions.map((a) => a.action))).toEqual(new Set(['import']));
  });

  it('changes nothing on a second run', async () => {
    const versions = async () =>
      env.ctx.db.kysely
        .selectFrom('entry_versions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    const pageVersions = async () =>
      env.ctx.db.kysely
        .selectFrom('page_versions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
    const before = [await versions(), await pageVersions()];
    const again = await importContentful(env.ctx, { workspace: 'states', export: exp });
    expect(again.entries).toMatchObject({ created: 0, updated: 0, unchanged: 37, published: 0, unpublished: 0, archived: 0 });
    expect(again.pages).toMatchObject({ created: 0, updated: 0, unchanged: 7, published: 0, unpublished: 0, archived: 0, draft_blocks: 1 });
    expect([await versions(), await pageVersions()]).toEqual(before);
  });

  it('unpublishes what a later export has unpublished, and publishes a component that became published', async () => {
    const later = exportWithStates();
    const sys = (id: string) => later.entries.find((e) => e.sys.id === id)!.sys;
    asDraft(sys(MICHAEL));
    asDraft(sys(BLACK_CARD));
    sys(HOME_CTA).publishedVersion = 4;
    sys(HOME_CTA).version = 5;
    expect(cfState(sys(HOME_CTA))).toBe('published');
    const r = await importContentful(env.ctx, { workspace: 'states', export: later });
    expect(r.entries).toMatchObject({ unpublished: 1, published: 0 });
    expect(r.pages).toMatchObject({ unpublished: 1, published: 1, draft_blocks: 0 });
    expect(await status('entries', entryId(MICHAEL))).toMatchObject({ status: 'draft', published_version: null });
    expect(await status('pages', pageId(BLACK_CARD))).toMatchObject({ status: 'draft' });
    const live = (await call(env.app, 'GET', `${P}/pages/home`, { key: r.keys?.delivery ?? report.keys!.delivery })).body.data;
    expect(live.blocks).toHaveLength(6);
  });

  it('keeps entries and pages with unpublished changes as drafts with --changed-as draft', async () => {
    const file = path.join(fs.mkdtempSync(path.join(fs.realpathSync('/tmp'), 'quire-states-')), 'export.json');
    fs.writeFileSync(file, JSON.stringify(exportWithStates()));
    const run = await cli(['import', 'contentful', file, '--workspace', 'drafts', '--changed-as', 'draft', '--json'], { context: env.ctx });
    expect(run.code).toBe(0);
    const r = run.json() as ImportResult;
    expect(r.changed.map((c) => [c.entry, c.imported_as])).toEqual([
      [ABOUT_INFO, 'draft'],
      [ABOUT_PAGE, 'draft'],
    ]);
    const ws = r.workspace.id;
    expect(await status('entries', derivedId(ws, `entry:${ABOUT_INFO}`))).toMatchObject({ status: 'draft' });
    expect(await status('pages', derivedId(ws, `page:${ABOUT_PAGE}`))).toMatchObject({ status: 'draft' });
    const text = await cli(['import', 'contentful', file, '--workspace', 'drafts', '--changed-as', 'draft'], { context: env.ctx });
    expect(text.stdout).toContain('Unpublished changes in Contentful (2):');
    expect(text.stdout).toContain('in the export: 1 drafts, 34 published, 1 with unpublished changes, 1 archived');
    const bad = await cli(['import', 'contentful', file, '--workspace', 'drafts', '--changed-as', 'live'], { context: env.ctx });
    expect(bad.code).toBe(2);
  });
});
