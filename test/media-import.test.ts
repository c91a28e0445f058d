/**
 * `quire import contentful FILE --assets-dir DIR` (issue 4 item 6) on the real export in
 * ../shared/data/contentful: asset files present in DIR (by file name, in the
 * `contentful-export --download-assets` layout or flat) are uploaded through the media upload
 * operation, so they become stored files with dimensions read from the bytes; a missing file
 * keeps its remote URL. Re-runs change nothing; a run without the option keeps stored files.
 * The CLI runs with another PUBLIC_URL than the server: the server still answers with its own
 * URLs, which are computed on read (D51). On each dialect with each storage backend.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeContext, createContext, type Context } from '../src/context.js';
import { derivedId } from '../src/lib/ids.js';
import { findMediaById } from '../src/modules/media/repository.js';
import { cli } from './cli-helpers.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';
import { startS3, storedKeys, type S3Server } from './media-fixtures.js';

const EXPORT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/contentful/marketing-fintech.json');
const present = fs.existsSync(EXPORT);
const skip = !present && !process.env.CI;
const cases = dialects().flatMap((d) => (['local', 's3'] as const).map((s) => [d, s] as const));

interface CfAssetFile {
  id: string;
  url: string;
  fileName: string;
  contentType: string;
  width: number;
  height: number;
}

function exportAssets(): CfAssetFile[] {
  const exp = JSON.parse(fs.readFileSync(EXPORT, 'utf8')) as {
    assets: {
      sys: { id: string };
      fields: { file: Record<string, { url: string; fileName: string; contentType: string; details: { image: { width: number; height: number } } }> };
    }[];
  };
  return exp.assets.map((a) => {
    const f = Object.values(a.fields.file)[0];
    return {
      id: a.sys.id,
      url: `https:${f.url}`,
      fileName: f.fileName,
      contentType: f.contentType,
      width: f.details.image.width,
      height: f.details.image.height,
    };
  });
}

/** The bytes of a made-up file for an asset: a real image of its type (half its stated size). */
async function fileFor(a: CfAssetFile): Promise<Buffer> {
  const w = Math.max(1, Math.round(a.width / 2));
  const h = Math.max(1, Math.round(a.height / 2));
  if (a.contentType === 'image/svg+xml') {
    return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><script>alert(1)</script><circle cx="10" cy="10" r="5"/></svg>`);
  }
  const img = sharp({ create: { width: w, height: h, channels: 3, background: '#2a9d8f' } });
  return a.contentType === 'image/png' ? img.png().toBuffer() : img.jpeg().toBuffer();
}

describe.skipIf(skip).each(cases)('Contentful import with --assets-dir on %s with %s storage', (dialect, driver) => {
  let env: TestEnv;
  /** The CLI's context: the same database and storage, another PUBLIC_URL. */
  let cliCtx: Context;
  let s3: S3Server | null = null;
  let dir: string;
  let assets: CfAssetFile[];
  let missing: CfAssetFile;
  let report: any;
  let wsId: string;
  const mediaId = (cfId: string) => derivedId(wsId, `asset:${cfId}`);
  const run = (extra: string[]) => cli(['import', 'contentful', EXPORT, '--workspace', 'fintech', '--json', ...extra], { context: cliCtx });

  beforeAll(async () => {
    if (!present) throw new Error(`the Contentful export ${EXPORT} is missing`);
    if (driver === 's3') s3 = await startS3();
    env = await createTestEnv(dialect, { config: s3?.config ?? {} });
    cliCtx = await createContext({ ...env.config, publicUrl: 'http://cli.invalid' }, env.ctx.db, { log: pino({ level: 'silent' }) });
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'quire-assets-'));
    assets = exportAssets();
    missing = assets.find((a) => a.fileName === 'black.png') as CfAssetFile;
    for (const [i, a] of assets.entries()) {
      if (a === missing) continue;
      // Half in the download-assets layout (host/path of the URL), half flat in the folder.
      const u = new URL(a.url);
      const target = i % 2 === 0 ? path.join(dir, u.host, ...u.pathname.split('/').filter(Boolean)) : path.join(dir, a.fileName);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.writeFile(target, await fileFor(a));
    }
    const res = await run(['--assets-dir', dir]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    report = res.json();
    wsId = report.workspace.id;
  });
  afterAll(async () => {
    if (cliCtx) await closeContext(cliCtx);
    await env?.close();
    await s3?.close();
    if (dir) await fsp.rm(dir, { recursive: true, force: true });
    if (env) await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  it('uploads the files it finds and reports them; a missing file stays remote with a warning', () => {
    expect(report.assets).toEqual({ total: assets.length, created: assets.length, updated: 0, unchanged: 0, files: assets.length - 1 });
    expect(report.warnings.some((w: string) => w.includes(missing.id) && w.includes('black.png'))).toBe(true);
  });

  it('stores real files: type and dimensions from the bytes, generated name, served at the server’s url', async () => {
    const jpg = assets.find((a) => a.fileName === 'joel-filipe-asL4k-U3I_s-unsplash.jpg') as CfAssetFile;
    const m = await findMediaById(env.ctx.db, wsId, mediaId(jpg.id));
    expect(m).toMatchObject({
      mime_type: 'image/jpeg',
      width: 245,
      height: 400,
      original_name: jpg.fileName,
      filename: `${mediaId(jpg.id)}.jpg`,
      storage_key: `${wsId}/${mediaId(jpg.id)}.jpg`,
    });
    // Imported by a CLI with PUBLIC_URL http://cli.invalid, answered by the server with its own.
    const key = (await cli(['keys', 'create', '--workspace', 'fintech', '--class', 'management', '--json'], { context: env.ctx })).json().key;
    const asset = (await call(env.app, 'GET', `/api/v1/manage/media/${m!.id}`, { key })).body.data;
    expect(asset.url).toBe(`http://quire.test/media/files/${wsId}/${mediaId(jpg.id)}.jpg`);
    const served = await env.app.inject({ method: 'GET', url: new URL(asset.url).pathname });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.length).toBe(m?.size);
    expect(await storedKeys(env.config, s3)).toContain(m?.storage_key);

    const svg = assets.find((a) => a.fileName === 'chart.svg') as CfAssetFile;
    const s = await findMediaById(env.ctx.db, wsId, mediaId(svg.id));
    expect(s).toMatchObject({ mime_type: 'image/svg+xml', width: 189, height: 184 });
    const svgBody = (await env.app.inject({ method: 'GET', url: `/media/files/${s!.storage_key}` })).body;
    expect(svgBody).toContain('<circle');
    expect(svgBody).not.toContain('script');

    const remote = await findMediaById(env.ctx.db, wsId, mediaId(missing.id));
    expect(remote).toMatchObject({ storage_key: null, remote_url: missing.url, width: missing.width, height: missing.height });
    expect((await call(env.app, 'GET', `/api/v1/manage/media/${remote!.id}`, { key })).body.data.url).toBe(missing.url);
  });

  it('changes nothing on a second run, and a run without --assets-dir keeps the stored files', async () => {
    const media = () =>
      env.ctx.db.kysely.selectFrom('media').select(['id', 'remote_url', 'storage_key', 'updated_at']).where('workspace_id', '=', wsId).orderBy('id').execute();
    const before = await media();
    const again = await run(['--assets-dir', dir]);
    expect(again.code).toBe(0);
    expect(again.json().assets).toEqual({ total: assets.length, created: 0, updated: 0, unchanged: assets.length, files: assets.length - 1 });
    expect(await media()).toEqual(before);
    const plain = await run([]);
    expect(plain.code).toBe(0);
    expect(plain.json().assets).toEqual({ total: assets.length, created: 0, updated: 0, unchanged: assets.length });
    expect(await media()).toEqual(before);
  });

  it('turns a remote asset into a stored file once its file appears', async () => {
    await fsp.writeFile(path.join(dir, missing.fileName), await fileFor(missing));
    const res = await run(['--assets-dir', dir]);
    expect(res.json().assets).toEqual({ total: assets.length, created: 0, updated: 1, unchanged: assets.length - 1, files: assets.length });
    const m = await findMediaById(env.ctx.db, wsId, mediaId(missing.id));
    expect(m).toMatchObject({ mime_type: 'image/png', width: 200, height: 105, storage_key: `${wsId}/${mediaId(missing.id)}.png` });
  });

  it('refuses an assets folder that does not exist before writing anything', async () => {
    const res = await run(['--assets-dir', path.join(dir, 'nope')]);
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/not a readable folder/);
    // Into a workspace that does not exist yet: the refusal comes before the workspace is made.
    const fresh = await cli(['import', 'contentful', EXPORT, '--workspace', 'fintech-refused', '--json', '--assets-dir', path.join(dir, 'nope')], {
      context: cliCtx,
    });
    expect(fresh.code).not.toBe(0);
    expect(fresh.stderr).toMatch(/not a readable folder/);
    const ws = await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', 'fintech-refused').execute();
    expect(ws).toEqual([]);
  });
});
