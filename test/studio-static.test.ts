/**
 * The Studio's static serving (src/http/routes/studio.ts, D90): index.html with no-cache on
 * /studio/ and on every client route, hashed assets cached forever, /studio redirected to
 * /studio/, unknown assets 404 in the envelope, and a clear 503 when the Studio is not built.
 * Served from a temporary build directory, so the suite does not depend on `npm run build`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import { createDb } from '../src/db/create-db.js';
import type { Db } from '../src/db/types.js';
import { defaultStudioDir } from '../src/http/routes/studio.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/studio/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
const SCRIPT = 'console.log("studio")';

async function appWith(studioDir: string): Promise<{ app: FastifyInstance; db: Db }> {
  const config = loadConfig({ DATA_DIR: path.join(os.tmpdir(), 'quire-studio-static'), LOG_LEVEL: 'silent' }, { demo: false });
  const db = await createDb(config, { sqliteFile: ':memory:' });
  const ctx = await createContext(config, db, { log: pino({ level: 'silent' }) });
  const app = await buildApp(ctx, { logger: false, studioDir });
  await app.ready();
  return { app, db };
}

describe('Studio static serving', () => {
  let dir: string;
  let built: { app: FastifyInstance; db: Db };
  let missing: { app: FastifyInstance; db: Db };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-studio-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), SCRIPT);
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(SCRIPT));
    built = await appWith(dir);
    missing = await appWith(path.join(dir, 'not-built'));
  });
  afterAll(async () => {
    for (const x of [built, missing]) {
      await x?.app.close();
      await x?.db.close();
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves index.html at /studio/ with no-cache', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/studio/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
  });

  it('redirects /studio to /studio/, keeping the query', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/studio' });
    expect(res.statusCode).toBe(301);
    expect(res.headers.location).toBe('/studio/');
    const withQuery = await built.app.inject({ method: 'GET', url: '/studio?x=1' });
    expect(withQuery.headers.location).toBe('/studio/?x=1');
  });

  it('answers index.html for client routes (deep links, setup links)', async () => {
    for (const url of ['/studio/sign-in', '/studio/setup?token=abc', '/studio/demo/model/post', '/studio/demo/content/post/new', '/studio/demo/settings/']) {
      const res = await built.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.body, url).toBe(INDEX);
    }
  });

  it('serves hashed assets with immutable caching', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/studio/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body).toBe(SCRIPT);
    const head = await built.app.inject({ method: 'HEAD', url: '/studio/assets/index-abc123.js' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('sends the precompressed sibling to a browser accepting gzip, the plain file otherwise', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/studio/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(gunzipSync(res.rawPayload).toString()).toBe(SCRIPT);
    const plain = await built.app.inject({ method: 'GET', url: '/studio/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('answers 404 in the envelope for an unknown asset, never index.html', async () => {
    for (const url of ['/studio/assets/nope.js', '/studio/assets/%2e%2e/%2e%2e/package.json', '/studio/assets/']) {
      const res = await built.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['cache-control'], url).toBeUndefined();
      expect(res.json(), url).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
  });

  it('answers 503 telling to run npm run build when the Studio is not built', async () => {
    for (const url of ['/studio/', '/studio/demo', '/studio/assets/index-abc123.js']) {
      const res = await missing.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      const body = res.json();
      expect(body).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE', data: null });
      expect(body.message).toContain('npm run build');
      expect(body.traceId).toBeTruthy();
    }
  });

  it('leaves the APIs alone and is not in the OpenAPI document', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(Object.keys(res.json().paths).some((p) => p.startsWith('/studio'))).toBe(false);
    const api = await built.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
  });

  it('finds dist/studio of the repository by default', () => {
    expect(defaultStudioDir()).toBe(path.resolve(__dirname, '..', 'dist', 'studio'));
  });
});
