/**
 * Hostile image transforms (issue 8): without any key, a client asks for every size, fit, format
 * and quality it can think of. Sizes round up to MEDIA_TRANSFORM_SIZES, an image is never
 * enlarged, an asset keeps at most MEDIA_MAX_VARIANTS_PER_ASSET stored results and all of them
 * together at most MEDIA_DERIVED_CACHE_BYTES, the least recently served going first. Before,
 * ten such requests stored 430 MB.
 */
import fsp from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from '../helpers.js';
import { filesUnder, png, upload } from '../media-fixtures.js';

const PER_ASSET = 6;
const BUDGET = 60_000;

describe.each(dialects())('hostile transforms on %s', (dialect) => {
  let env: TestEnv;
  const assets: { path: string; id: string }[] = [];
  let key: string;
  let workspaceId: string;
  const get = (url: string) => env.app.inject({ method: 'GET', url });
  const derivedBytes = async () => {
    let total = 0;
    for (const f of await filesUnder(`${env.config.dataDir}/media/_derived`)) total += (await fsp.stat(`${env.config.dataDir}/media/_derived/${f}`)).size;
    return total;
  };
  const derivedFiles = async (id?: string) => (await filesUnder(`${env.config.dataDir}/media/_derived`)).filter((f) => !id || f.includes(`/${id}/`));
  const rows = async () =>
    Number(
      (
        await env.ctx.db.kysely
          .selectFrom('media_variants')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { mediaMaxVariantsPerAsset: PER_ASSET, mediaDerivedCacheBytes: BUDGET } });
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    workspaceId = s.workspace.id;
    for (const color of ['#336699', '#993366', '#669933']) {
      const res = await upload(env.app, {
        key: s.keys.management,
        workspaceId: s.workspace.id,
        parts: [{ name: 'file', filename: 'photo.png', data: await png(640, 480, color) }],
      });
      expect(res.status).toBe(201);
      assets.push({ path: new URL(res.body.data.url).pathname, id: res.body.data.id });
    }
  });
  afterAll(async () => {
    await env.close();
    await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  it('never enlarges: every request above the original is served at the original size, as one variant', async () => {
    const before = await rows();
    for (const w of [641, 1000, 2000, 4000]) {
      const res = await get(`${assets[0].path}?w=${w}`);
      expect(res.statusCode).toBe(200);
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({ width: 640, height: 480 });
    }
    const box = await sharp((await get(`${assets[0].path}?w=4000&h=4000&fit=cover`)).rawPayload).metadata();
    expect([box.width, box.height]).toEqual([480, 480]);
    expect((await rows()) - before).toBe(2);
  });

  it('rounds sizes and quality so that near-identical requests share a variant', async () => {
    const first = await get(`${assets[1].path}?w=101&q=71`);
    expect(first.headers['x-cache']).toBe('MISS');
    expect((await sharp(first.rawPayload).metadata()).width).toBe(128);
    for (const qs of ['w=110&q=75', 'w=128&q=72', 'q=73&w=127']) expect((await get(`${assets[1].path}?${qs}`)).headers['x-cache']).toBe('HIT');
  });

  it(`keeps at most ${PER_ASSET} stored results per asset and ${BUDGET} bytes in all, evicting the least recently served`, async () => {
    // A scan over sizes, fits, formats and qualities: far more variants than either limit allows.
    const asks: string[] = [];
    for (const w of [16, 32, 64, 100, 200, 300, 400, 640]) for (const fm of ['png', 'webp', 'jpg']) asks.push(`w=${w}&fm=${fm}`);
    for (const q of [5, 20, 35, 50, 65, 80, 95]) asks.push(`w=640&h=480&fm=jpg&q=${q}&fit=fill`);
    for (const asset of assets) {
      for (const qs of asks) {
        const res = await get(`${asset.path}?${qs}`);
        expect(res.statusCode).toBe(200);
        expect((await derivedFiles(asset.id)).length).toBeLessThanOrEqual(PER_ASSET);
        expect(await derivedBytes()).toBeLessThanOrEqual(BUDGET);
      }
    }
    // Rows and files agree.
    expect(await rows()).toBe((await derivedFiles()).length);
    // The most recently served variant survived; an early one was evicted and is rendered again.
    const last = assets[2];
    expect((await get(`${last.path}?w=640&h=480&fm=jpg&q=95&fit=fill`)).headers['x-cache']).toBe('HIT');
    expect((await get(`${assets[0].path}?w=16&fm=png`)).headers['x-cache']).toBe('MISS');
  });

  it("forgets an asset's results, files and rows, when the asset is deleted", async () => {
    const { id, path } = assets[2];
    expect((await get(`${path}?w=32`)).statusCode).toBe(200);
    expect((await derivedFiles(id)).length).toBeGreaterThan(0);
    const del = await call(env.app, 'DELETE', `/api/v1/manage/media/${id}`, { key, headers: { 'x-workspace-id': workspaceId } });
    expect(del.status).toBe(200);
    expect(await derivedFiles(id)).toEqual([]);
    expect(await env.ctx.db.kysely.selectFrom('media_variants').select('variant').where('media_id', '=', id).execute()).toEqual([]);
  });
});
