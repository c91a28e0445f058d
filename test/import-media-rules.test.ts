/**
 * The Contentful importer and media (issue 12 item 2): `linkMimetypeGroup` becomes the
 * `media_kinds` rule (image → image, video → video, pdfdocument → pdf; the other groups become
 * `other` with a warning; an unknown group drops the rule with a warning), enforced on the
 * imported entries like on API writes; an asset's `title` and `description` of the default
 * locale become the media record's (other locales' values counted in one warning), also for
 * files uploaded from `--assets-dir`, and a second run changes nothing. On the real export in
 * ../shared/data and on a small synthetic one.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldValidation } from '../src/modules/content-types/model.js';
import { findContentTypeBySlug } from '../src/modules/content-types/repository.js';
import { assetIdFor } from '../src/modules/import/contentful/content-mapping.js';
import type { CfAsset, ContentfulExport } from '../src/modules/import/contentful/export.js';
import { importContentful, type ImportResult } from '../src/modules/import/operations.js';
import { findMediaById } from '../src/modules/media/repository.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';
import { png } from './media-fixtures.js';

const EXPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/contentful/marketing-fintech.json');
const present = fs.existsSync(EXPORT);
const skip = !present && !process.env.CI;
const P = '/api/v1/public';
const M = '/api/v1/manage';

const link = (id: string, linkType: 'Asset' | 'Entry' = 'Asset') => ({ sys: { type: 'Link', linkType, id } });
const published = { publishedVersion: 1, version: 2 };

function asset(id: string, contentType: string, fields: { title?: Record<string, string>; description?: Record<string, string> }): CfAsset {
  const ext = contentType.split('/')[1];
  return {
    sys: { id, ...published },
    fields: { ...fields, file: { 'en-US': { url: `//assets.example.com/${id}.${ext}`, fileName: `${id}.${ext}`, contentType, details: { size: 10 } } } },
  };
}

/** A model with every shape of linkMimetypeGroup, assets of four kinds with texts in two locales, entries using them. */
function mediaShapes(): ContentfulExport {
  return {
    locales: [
      { code: 'en-US', default: true },
      { code: 'de-DE', default: false },
    ],
    contentTypes: [
      {
        sys: { id: 'post' },
        name: 'Post',
        displayField: 'title',
        fields: [
          { id: 'title', name: 'Title', type: 'Symbol' },
          { id: 'cover', name: 'Cover', type: 'Link', linkType: 'Asset', validations: [{ linkMimetypeGroup: ['image'] }] },
          { id: 'clip', name: 'Clip', type: 'Link', linkType: 'Asset', validations: [{ linkMimetypeGroup: ['video', 'image'], message: 'Pictures or films' }] },
          {
            id: 'files',
            name: 'Files',
            type: 'Array',
            items: { type: 'Link', linkType: 'Asset', validations: [{ linkMimetypeGroup: ['pdfdocument', 'audio', 'spreadsheet'] }] },
          },
          { id: 'download', name: 'Download', type: 'Link', linkType: 'Asset', validations: [{ linkMimetypeGroup: 'attachment' }] },
          { id: 'odd', name: 'Odd', type: 'Link', linkType: 'Asset', validations: [{ linkMimetypeGroup: ['image', 'hologram'] }] },
        ],
      },
    ],
    entries: [
      {
        sys: { id: 'good', contentType: { sys: { id: 'post' } }, ...published },
        fields: {
          title: { 'en-US': 'Good' },
          cover: { 'en-US': link('photo') },
          clip: { 'en-US': link('film') },
          files: { 'en-US': [link('report'), link('song')] },
          download: { 'en-US': link('song') },
          odd: { 'en-US': link('report') },
        },
      },
      // Contentful enforces validations on publish only: a draft may break them; Quire refuses it.
      {
        sys: { id: 'bad', contentType: { sys: { id: 'post' } }, version: 1 },
        fields: { title: { 'en-US': 'Bad' }, cover: { 'en-US': link('report') }, files: { 'en-US': [link('photo')] } },
      },
    ],
    assets: [
      asset('photo', 'image/png', { title: { 'en-US': 'Photo', 'de-DE': 'Foto' }, description: { 'en-US': 'A photo of the team', 'de-DE': 'Ein Foto' } }),
      asset('film', 'video/mp4', { title: { 'en-US': 'Film' }, description: { 'en-US': '' } }),
      asset('report', 'application/pdf', { title: { 'de-DE': 'Bericht' } }),
      asset('song', 'audio/mpeg', { title: { 'en-US': 'x'.repeat(1200) } }),
    ],
  };
}

describe.each(dialects())('Contentful media rules and asset texts on %s', (dialect) => {
  let env: TestEnv;
  let shaped: ImportResult;
  const assetsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-assets-'));

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    fs.writeFileSync(path.join(assetsDir, 'photo.png'), await png(12, 8));
    shaped = await importContentful(env.ctx, { workspace: 'shapes', export: mediaShapes(), assetsDir });
  });
  afterAll(async () => {
    await env?.close();
    fs.rmSync(assetsDir, { recursive: true, force: true });
  });

  it('maps linkMimetypeGroup to media_kinds, widening groups without a kind to other and dropping unknown groups, with warnings', async () => {
    const ct = await findContentTypeBySlug(env.ctx.db, shaped.workspace.id, 'post');
    const rules = Object.fromEntries(ct!.fields.map((f) => [f.name, fieldValidation(f)]));
    expect(rules).toEqual({
      title: {},
      cover: { media_kinds: ['image'] },
      clip: { media_kinds: ['image', 'video'] },
      files: { media_kinds: ['pdf', 'other'] },
      download: { media_kinds: ['other'] },
      odd: {},
    });
    const about = shaped.warnings.filter((w) => w.includes('linkMimetypeGroup'));
    expect(about).toEqual([
      `content type 'post': field 'files': validation 'linkMimetypeGroup' ["pdfdocument","audio","spreadsheet"]: 'audio', 'spreadsheet' have no Quire kind of their own and become media kind 'other' (any file that is not an image, video or PDF)`,
      `content type 'post': field 'download': validation 'linkMimetypeGroup' "attachment": 'attachment' has no Quire kind of its own and becomes media kind 'other' (any file that is not an image, video or PDF)`,
      `content type 'post': field 'odd': validation 'linkMimetypeGroup' ["image","hologram"] names a mimetype group Quire does not know and is not imported`,
    ]);
  });

  it('enforces the rule on imported entries: the draft with a PDF cover and a photo in files is refused, the rest imported', () => {
    expect(shaped.entries).toMatchObject({ total: 2, created: 1, failed: 1 });
    expect(shaped.failures).toHaveLength(1);
    const failure = shaped.failures[0];
    expect(failure).toMatchObject({ entry: 'bad', type: 'post' });
    const report = assetIdFor(shaped.workspace.id, 'report');
    const photo = assetIdFor(shaped.workspace.id, 'photo');
    expect(failure.message).toContain(`body.data.cover: must be an image; media '${report}' is a PDF (application/pdf)`);
    expect(failure.message).toContain(
      `body.data.files.0: must be a PDF or a file that is not an image, video or PDF; media '${photo}' is an image (image/png)`,
    );
  });

  it("keeps the default locale's title and description, counts the others in one warning, cuts an over-long title", async () => {
    const ws = shaped.workspace.id;
    const record = async (cfId: string) => (await findMediaById(env.ctx.db, ws, assetIdFor(ws, cfId)))!;
    // Uploaded from the assets folder: a stored file, with the texts all the same.
    expect(await record('photo')).toMatchObject({ storage_key: expect.any(String), title: 'Photo', description: 'A photo of the team', alt_text: 'Photo' });
    expect(await record('film')).toMatchObject({ storage_key: null, title: 'Film', description: null });
    // No default-locale title: the first locale's, like the file.
    expect(await record('report')).toMatchObject({ title: 'Bericht', description: null });
    expect((await record('song')).title).toBe('x'.repeat(1000));
    expect(shaped.warnings).toContain("asset 'song': its title is longer than 1000 characters and is cut there");
    expect(shaped.warnings).toContain(
      "asset titles and descriptions in other locales than 'en-US' are not imported (2 values): a Quire media asset has one title and one description, those of the default locale",
    );
  });

  it('changes nothing on a second run', async () => {
    const again = await importContentful(env.ctx, { workspace: 'shapes', export: mediaShapes(), assetsDir });
    expect(again.assets).toMatchObject({ total: 4, created: 0, updated: 0, unchanged: 4 });
    expect(again.entries).toMatchObject({ created: 0, updated: 0, unchanged: 1, failed: 1 });
  });

  describe.skipIf(skip)('the real export', () => {
    let real: ImportResult;
    beforeAll(async () => {
      if (!present) throw new Error(`the Contentful export ${EXPORT} is missing`);
      real = await importContentful(env.ctx, { workspace: 'fintech', file: EXPORT });
    });

    it('turns its five linkMimetypeGroup ["image"] rules into media_kinds, and its entries pass them', async () => {
      const ws = real.workspace.id;
      const kinds: Record<string, unknown> = {};
      for (const [type, field] of [
        ['topic-person', 'avatar'],
        ['topic-product', 'featuredImage'],
        ['seo', 'image'],
        ['component-hero-banner', 'image'],
        ['component-duplex', 'image'],
      ]) {
        const ct = await findContentTypeBySlug(env.ctx.db, ws, type);
        kinds[`${type}.${field}`] = fieldValidation(ct!.fields.find((f) => f.name === field)!).media_kinds;
      }
      expect(Object.values(kinds)).toEqual(Array(5).fill(['image']));
      expect(real.warnings.filter((w) => w.includes('linkMimetypeGroup'))).toEqual([]);
      expect(real.failures).toEqual([]);
    });

    it('imports asset titles and descriptions, delivered inline with the media, and counts the one de-DE title', async () => {
      expect(real.warnings).toContain(
        "asset titles and descriptions in other locales than 'en-US' are not imported (1 value): a Quire media asset has one title and one description, those of the default locale",
      );
      const res = await call(env.app, 'GET', `${P}/entries/jesse-ferguson-leadership?type=topic-person`, { key: real.keys!.delivery });
      expect(res.status).toBe(200);
      const avatar = JSON.parse(res.body.data.entry.data).avatar;
      expect(avatar).toMatchObject({ title: 'Jesse Ferguson', description: 'Leadership photo', alt_text: 'Jesse Ferguson', mime_type: 'image/jpeg' });
      // An empty description is no description.
      const piggy = await call(env.app, 'GET', `${M}/media?search=piggy`, { key: real.keys!.management });
      expect(piggy.body.data.map((m: { title: string; description: string | null }) => [m.title, m.description])).toEqual([['Piggy bank', null]]);
    });
  });
});
