/**
 * Serving media files at their url and image transforms (issue 4 items 4 and 5): cache headers,
 * ETag/304, ranges, content types, traversal attempts, and `w/h/fit/fm/q` with focal-point
 * cropping, bounds, and the derived-image cache in storage. On each dialect with each backend.
 */
import fsp from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type Res, type TestEnv } from './helpers.js';
import { dominant, halves, mp4, pdf, png, startS3, storedKeys, upload, type S3Server } from './media-fixtures.js';

const M = '/api/v1/manage';
const cases = dialects().flatMap((d) => (['local', 's3'] as const).map((s) => [d, s] as const));

describe.each(cases)('media files and transforms on %s with %s storage', (dialect, driver) => {
  let env: TestEnv;
  let s3: S3Server | null = null;
  let key: string;
  let wsId: string;
  /** url paths by name */
  const files: Record<string, { path: string; id: string; bytes: Buffer }> = {};

  const get = (url: string, headers: Record<string, string> = {}) => env.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    env = await createTestEnv(dialect, { config: s3?.config ?? {} });
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    wsId = s.workspace.id;
    const put = async (name: string, bytes: Buffer, filename: string, extra: { name: string; value: string }[] = []) => {
      const res = await upload(env.app, { key, workspaceId: wsId, parts: [{ name: 'file', filename, data: bytes }, ...extra] });
      if (res.status !== 201) throw new Error(JSON.stringify(res.body));
      files[name] = { path: new URL(res.body.data.url).pathname, id: res.body.data.id, bytes };
    };
    await put('photo', await png(800, 600), 'photo.png', [{ name: 'folder', value: 'pics' }]);
    await put('split', await halves(400, 200), 'split.png', [
      { name: 'focal_x', value: '0.9' },
      { name: 'focal_y', value: '0.5' },
    ]);
    await put('video', mp4({ width: 640, height: 360, mdatBytes: 50_000 }), 'clip.mp4');
    await put('doc', pdf(), 'doc.pdf');
  });
  afterAll(async () => {
    await env?.close();
    await s3?.close();
    if (env) await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  it('serves the original at its url with long-lived cache headers and the stored type', async () => {
    const res = await get(files.photo.path);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-length']).toBe(String(files.photo.bytes.length));
    expect(res.headers['content-disposition']).toContain('photo.png');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(res.rawPayload.equals(files.photo.bytes)).toBe(true);
    const doc = await get(files.doc.path);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.rawPayload.equals(files.doc.bytes)).toBe(true);
    // No API key needed, and HEAD works too.
    const head = await env.app.inject({ method: 'HEAD', url: files.photo.path });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(files.photo.bytes.length));
  });

  it('answers 304 for a matching If-None-Match', async () => {
    const first = await get(files.photo.path);
    const again = await get(files.photo.path, { 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['cache-control']).toContain('immutable');
    expect((await get(files.photo.path, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('serves byte ranges of originals (video seeking) and ignores unsatisfiable ones', async () => {
    const res = await get(files.video.path, { range: 'bytes=100-199' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-199/${files.video.bytes.length}`);
    expect(res.headers['content-type']).toBe('video/mp4');
    expect(res.rawPayload.equals(files.video.bytes.subarray(100, 200))).toBe(true);
    const tail = await get(files.video.path, { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(files.video.bytes.subarray(files.video.bytes.length - 10))).toBe(true);
    const beyond = await get(files.video.path, { range: `bytes=${files.video.bytes.length + 5}-` });
    expect(beyond.statusCode).toBe(200);
    expect(beyond.rawPayload.length).toBe(files.video.bytes.length);
  });

  it('answers 404 for unknown files, wrong folders and traversal attempts', async () => {
    const id = files.photo.id;
    for (const url of [
      `/media/files/${wsId}/${id}.png`, // right file, wrong folder
      `/media/files/${wsId}/pics/${id}.jpg`,
      `/media/files/${wsId}/pics/0190a0a0-0000-7000-8000-000000000000.png`,
      `/media/files/${wsId}/pics/..%2F..%2F..%2Fetc%2Fpasswd`,
      `/media/files/..%2f..%2fquire.db`,
      `/media/files/%2e%2e/%2e%2e/etc/passwd`,
      `/media/files/_derived/${wsId}/${id}/w10-cover.png`,
      `/media/files/`,
    ]) {
      const res = await get(url);
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(JSON.parse(res.body)).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
  });

  it('resizes by width, height or both with each fit, and converts formats', async () => {
    const w = await get(`${files.photo.path}?w=200`);
    expect(w.statusCode).toBe(200);
    expect(w.headers['content-type']).toBe('image/png');
    expect(await sharp(w.rawPayload).metadata()).toMatchObject({ width: 200, height: 150, format: 'png' });
    // 60 is not one of MEDIA_TRANSFORM_SIZES: it rounds up to 64.
    const h = await sharp((await get(`${files.photo.path}?h=60&fm=jpg&q=70`)).rawPayload).metadata();
    expect(h).toMatchObject({ width: 85, height: 64, format: 'jpeg' });
    const expectations: [string, number, number][] = [
      ['cover', 300, 300],
      ['contain', 300, 300],
      ['fill', 300, 300],
      ['inside', 300, 225],
      ['outside', 400, 300],
    ];
    for (const [fit, ew, eh] of expectations) {
      const meta = await sharp((await get(`${files.photo.path}?w=300&h=300&fit=${fit}`)).rawPayload).metadata();
      expect([fit, meta.width, meta.height]).toEqual([fit, ew, eh]);
    }
    const webp = await get(`${files.photo.path}?w=100&fm=webp&q=50`);
    expect(webp.headers['content-type']).toBe('image/webp');
    expect((await sharp(webp.rawPayload).metadata()).format).toBe('webp');
    const avif = await get(`${files.photo.path}?w=64&fm=avif`);
    expect(avif.headers['content-type']).toBe('image/avif');
    expect((await sharp(avif.rawPayload).metadata()).format).toBe('heif');
  });

  it('crops around the focal point with fit=cover, and follows a new focal point', async () => {
    // 400×200, left half red, right half blue, focal point at x=0.9: a square crop is blue.
    const right = await get(`${files.split.path}?w=100&h=100&fit=cover`);
    expect(await dominant(right.rawPayload)).toBe('blue');
    await call(env.app, 'PUT', `${M}/media/${files.split.id}`, { key, body: { focal_x: 0.1, focal_y: 0.5 } });
    const left = await get(`${files.split.path}?w=100&h=100&fit=cover`);
    expect(await dominant(left.rawPayload)).toBe('red');
    expect(left.headers.etag).not.toBe(right.headers.etag);
    // Without a focal point the crop is centred (half red, half blue).
    await call(env.app, 'PUT', `${M}/media/${files.split.id}`, { key, body: { focal_x: null, focal_y: null } });
    expect(await dominant((await get(`${files.split.path}?w=100&h=100`)).rawPayload)).toBe('mixed');
    // contain keeps everything.
    expect(await dominant((await get(`${files.split.path}?w=100&h=100&fit=contain&fm=png`)).rawPayload)).toBe('mixed');
  });

  it('caches derived images in storage: the second request is a hit, ETag and 304 work', async () => {
    const url = `${files.photo.path}?fm=webp&w=123&q=61`;
    const first = await get(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const derived = (await storedKeys(env.config, s3)).filter((k) => k.startsWith(`_derived/${wsId}/${files.photo.id}/`));
    // w=123 rounds up to 128 and q=61 to 65: the variant is named after what was rendered.
    expect(derived).toContain(`_derived/${wsId}/${files.photo.id}/w128-cover-q65.webp`);
    // Same parameters in another order: same variant, from the cache.
    const second = await get(`${files.photo.path}?q=61&w=123&fm=webp`);
    expect(second.headers['x-cache']).toBe('HIT');
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers['content-length']).toBe(String(first.rawPayload.length));
    expect((await get(url, { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);
    // Concurrent first requests of a new variant render once and agree.
    const burst = await Promise.all([1, 2, 3, 4].map(() => get(`${files.photo.path}?w=77`)));
    expect(new Set(burst.map((r) => r.rawPayload.toString('base64'))).size).toBe(1);
  });

  it('validates and bounds the parameters (400) and transforms images only', async () => {
    const bad: [string, string][] = [
      ['w=4001', 'query.w'],
      ['w=0', 'query.w'],
      ['w=abc', 'query.w'],
      ['h=-5', 'query.h'],
      ['w=10&fit=crop', 'query.fit'],
      ['fm=gif', 'query.fm'],
      ['q=101', 'query.q'],
      ['fit=cover', 'query.fit'],
      ['width=100', 'query.width'],
    ];
    for (const [q, path] of bad) {
      const res = await get(`${files.photo.path}?${q}`);
      const body = expectError({ status: res.statusCode, body: JSON.parse(res.body), headers: res.headers as Res['headers'] }, 400, 'VALIDATION_FAILED');
      expect([q, body.errors[0].path]).toEqual([q, path]);
    }
    // Never enlarged: 4000×1 with fill on an 800×600 photo is clamped to 800 wide.
    expect(await sharp((await get(`${files.photo.path}?w=4000&h=1&fit=fill`)).rawPayload).metadata()).toMatchObject({ width: 800, height: 1 });
    for (const name of ['video', 'doc'] as const) {
      const res = await get(`${files[name].path}?w=100`);
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body).errors[0]).toEqual({ path: 'query.w', message: 'only images can be transformed' });
    }
  });

  it('removes derived images with the asset', async () => {
    await get(`${files.photo.path}?w=50`);
    const prefix = `_derived/${wsId}/${files.photo.id}/`;
    expect((await storedKeys(env.config, s3)).some((k) => k.startsWith(prefix))).toBe(true);
    const res = await call(env.app, 'DELETE', `${M}/media/${files.photo.id}`, { key, headers: { 'x-workspace-id': wsId } });
    expect(res.status).toBe(200);
    expect((await storedKeys(env.config, s3)).filter((k) => k.includes(files.photo.id))).toEqual([]);
    expect((await get(`${files.photo.path}?w=50`)).statusCode).toBe(404);
  });
});
