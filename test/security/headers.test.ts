/**
 * Security headers (issue 23, finding 4; src/http/security-headers.ts): the Studio, the API
 * reference at /docs and media files each send a strict Content-Security-Policy (no inline
 * script, `frame-ancestors 'none'` unless FRAME_ANCESTORS says otherwise), X-Content-Type-Options,
 * Referrer-Policy, Cross-Origin-Opener-Policy and, while framing is denied, X-Frame-Options DENY.
 * The Studio may frame the preview origins (frame-src); media stay embeddable cross-origin.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from '../helpers.js';
import { pdf, png, upload } from '../media-fixtures.js';

const INDEX = '<!doctype html><html><head><script type="module" src="/studio/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';

/** The CSP as a map of directive to its sources. */
function csp(header: string | string[] | number | undefined): Map<string, string[]> {
  expect(typeof header).toBe('string');
  const map = new Map<string, string[]>();
  for (const part of String(header).split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name.toLowerCase(), values);
  }
  return map;
}

function expectCommonHeaders(headers: Record<string, unknown>, framing: 'deny' | 'allowed') {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  if (framing === 'deny') expect(headers['x-frame-options']).toBe('DENY');
  else expect(headers['x-frame-options']).toBeUndefined();
}

/** A page policy runs scripts from files of its own origin only. */
function expectNoInlineScript(policy: Map<string, string[]>) {
  const scripts = policy.get('script-src') ?? policy.get('default-src');
  expect(scripts).toBeDefined();
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts?.some((s) => /^(https?:|\*|data:|blob:)$/.test(s))).toBe(false);
  expect(policy.get('object-src') ?? policy.get('default-src')).toEqual(["'none'"]);
}

describe.each(dialects())('security headers on %s', (dialect) => {
  let env: TestEnv;
  let app: FastifyInstance;
  let studioDir: string;
  const media: Record<string, string> = {};

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    studioDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-studio-headers-'));
    fs.mkdirSync(path.join(studioDir, 'assets'));
    fs.writeFileSync(path.join(studioDir, 'index.html'), INDEX);
    fs.writeFileSync(path.join(studioDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    app = await buildApp(env.ctx, { logger: false, studioDir });
    await app.ready();
    const s = await seedWorkspace(env.ctx);
    for (const [name, filename, data] of [
      ['png', 'a.png', await png(8, 8)],
      ['svg', 'a.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>')],
      ['pdf', 'a.pdf', pdf()],
    ] as const) {
      const res = await upload(app, { key: s.keys.management, workspaceId: s.workspace.id, parts: [{ name: 'file', filename, data }] });
      expect(res.status).toBe(201);
      media[name] = new URL(res.body.data.url).pathname;
    }
  });
  afterAll(async () => {
    await app?.close();
    await env.close();
    await fsp.rm(studioDir, { recursive: true, force: true });
    await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  it('sends the Studio page, its client routes and its assets a strict CSP that frames only preview origins', async () => {
    for (const url of ['/studio/', '/studio/demo/entries', '/studio/assets/index-abc123.js', '/studio/assets/missing.js']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(500);
      expectCommonHeaders(res.headers, 'deny');
      const policy = csp(res.headers['content-security-policy']);
      expectNoInlineScript(policy);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('script-src-attr')).toEqual(["'none'"]);
      expect(policy.get('connect-src')).toEqual(["'self'"]);
      expect(policy.get('base-uri')).toEqual(["'self'"]);
      // The GraphQL explorer's editor workers are files of the build: no blob: worker.
      expect(policy.get('worker-src')).toEqual(["'self'"]);
      // Live preview: any http(s) origin while STUDIO_PREVIEW_ORIGINS is unset.
      expect(policy.get('frame-src')).toEqual(["'self'", 'https:', 'http:']);
    }
  });

  it('sends /docs and its static files a strict CSP without inline script', async () => {
    for (const url of ['/docs', '/docs/', '/docs/static/index.html', '/docs/static/swagger-initializer.js', '/docs/json']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeLessThan(400);
      expectCommonHeaders(res.headers, 'deny');
      const policy = csp(res.headers['content-security-policy']);
      expectNoInlineScript(policy);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy.get('frame-src')).toEqual(["'none'"]);
    }
    // Swagger UI's page itself has no inline script, so the policy above lets it run.
    const page = await app.inject({ method: 'GET', url: '/docs/static/index.html' });
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/i);
  });

  it('sends every media file, whatever its kind, a sandboxing CSP and keeps it embeddable cross-origin', async () => {
    for (const [name, url] of Object.entries(media)) {
      for (const u of [url, name === 'png' ? `${url}?w=4` : url]) {
        const res = await app.inject({ method: 'GET', url: u });
        expect(res.statusCode, u).toBe(200);
        expectCommonHeaders(res.headers, 'deny');
        const policy = csp(res.headers['content-security-policy']);
        expect(policy.get('default-src')).toEqual(["'none'"]);
        expect(policy.has('sandbox')).toBe(true);
        expect(policy.has('script-src')).toBe(false);
        expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
        expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
      }
    }
    const missing = await app.inject({ method: 'GET', url: '/media/files/nope/00000000-0000-4000-8000-000000000000.png' });
    expect(missing.statusCode).toBe(404);
    expect(csp(missing.headers['content-security-policy']).get('default-src')).toEqual(["'none'"]);
  });

  it('leaves the JSON APIs without page headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toBeUndefined();
  });

  it('lets FRAME_ANCESTORS and STUDIO_PREVIEW_ORIGINS name who frames the pages and what the Studio frames', async () => {
    const config = loadConfig(
      { DATA_DIR: env.config.dataDir, FRAME_ANCESTORS: 'self, https://intranet.example', STUDIO_PREVIEW_ORIGINS: 'https://site.example,http://localhost:3001' },
      {},
    );
    const framed = await buildApp(
      { ...env.ctx, config: { ...env.ctx.config, frameAncestors: config.frameAncestors, studioPreviewOrigins: config.studioPreviewOrigins } },
      { logger: false, studioDir },
    );
    try {
      for (const url of ['/studio/', '/docs/static/index.html', media.pdf]) {
        const res = await framed.inject({ method: 'GET', url });
        expectCommonHeaders(res.headers, 'allowed');
        expect(csp(res.headers['content-security-policy']).get('frame-ancestors')).toEqual(["'self'", 'https://intranet.example']);
      }
      const studio = await framed.inject({ method: 'GET', url: '/studio/' });
      expect(csp(studio.headers['content-security-policy']).get('frame-src')).toEqual(["'self'", 'https://site.example', 'http://localhost:3001']);
    } finally {
      await framed.close();
    }
  });
});

describe('security header configuration', () => {
  it('defaults FRAME_ANCESTORS to none and refuses values that are not self or origins', () => {
    expect(loadConfig({}).frameAncestors).toEqual(["'none'"]);
    expect(loadConfig({ FRAME_ANCESTORS: 'none' }).frameAncestors).toEqual(["'none'"]);
    expect(loadConfig({ FRAME_ANCESTORS: 'self' }).frameAncestors).toEqual(["'self'"]);
    expect(loadConfig({}).studioPreviewOrigins).toBeNull();
    for (const bad of ['*', 'self,*', "'unsafe-inline'", 'https://a.example/path', 'javascript:alert(1)', 'self; script-src *']) {
      expect(() => loadConfig({ FRAME_ANCESTORS: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ STUDIO_PREVIEW_ORIGINS: 'https://a.example/preview' })).toThrow(ConfigError);
  });
});
