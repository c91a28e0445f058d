/**
 * CORS (docs/front-ends.md "CORS" (D80)): delivery answers any origin unless
 * CORS_DELIVERY_ORIGINS narrows it; management allows only CORS_MANAGEMENT_ORIGINS (default
 * none); a preflight is answered 204 before any key is checked, a refused one 403 without
 * Access-Control-* headers.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import type { Config } from '../src/config.js';
import { createWorld, M, P, type DeliveryWorld } from './delivery-fixtures.js';
import { call, createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';

const SITE = 'https://site.example';
const OTHER = 'https://evil.example';

function preflight(app: FastifyInstance, url: string, origin: string, method = 'GET', headers = 'x-api-key') {
  return app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

const corsHeaders = (headers: Record<string, unknown>) => Object.keys(headers).filter((h) => h.startsWith('access-control-'));

describe.each(dialects())('CORS on %s', (dialect) => {
  let env: TestEnv;
  let world: DeliveryWorld;
  let entryUrl: string;
  const extra: FastifyInstance[] = [];
  /** Another app on the same database, with other CORS settings. */
  const appWith = async (config: Partial<Config>) => {
    const app = await buildApp({ ...env.ctx, config: { ...env.config, ...config } }, { logger: false });
    extra.push(app);
    return app;
  };

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    world = await createWorld(env.ctx, env.app, [{ name: 'Post', slug: 'post', display_field: 'title', fields: [{ name: 'title', field_type: 'text' }] }]);
    await world.insertEntry({ type: 'post', slug: 'hello', status: 'published', data: { title: 'Hello' } });
    entryUrl = `${P}/entries/hello?type=post`;
  });
  afterAll(async () => {
    for (const app of extra) await app.close();
    await env?.close();
  });

  describe('delivery, default (any origin)', () => {
    it('answers a preflight 204 from any origin, before the key is checked', async () => {
      const res = await preflight(env.app, entryUrl, OTHER, 'GET', 'x-api-key, if-none-match');
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-allow-methods']).split(', ')).toEqual(['GET', 'HEAD', 'OPTIONS']);
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(', ');
      for (const h of ['x-api-key', 'idempotency-key', 'if-none-match', 'content-type']) expect(allowed).toContain(h);
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      expect(res.headers['x-request-id']).toMatch(/^req_/);
      expect(String(res.headers.vary ?? '')).not.toMatch(/origin/i);
    });

    it('answers preflights for media files too', async () => {
      const res = await preflight(env.app, '/media/files/some/file.png?w=100', OTHER, 'GET', 'if-none-match');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('puts the headers on actual answers, errors included, and exposes ETag, X-Request-Id, X-Cache, Retry-After', async () => {
      const ok = await call(env.app, 'GET', entryUrl, { key: world.keys.delivery, headers: { origin: OTHER } });
      expect(ok.status).toBe(200);
      expect(ok.headers['access-control-allow-origin']).toBe('*');
      const exposed = String(ok.headers['access-control-expose-headers']).toLowerCase().split(', ');
      for (const h of ['etag', 'x-request-id', 'x-cache', 'retry-after', 'x-ratelimit-remaining']) expect(exposed).toContain(h);
      expect(String(ok.headers.vary)).not.toMatch(/origin/i);
      const refused = await call(env.app, 'GET', entryUrl, { headers: { origin: OTHER } });
      expectError(refused, 401, 'UNAUTHORIZED');
      expect(refused.headers['access-control-allow-origin']).toBe('*');
    });

    it('leaves OPTIONS that is no preflight, and paths outside the APIs, as they were', async () => {
      const plain = await env.app.inject({ method: 'OPTIONS', url: entryUrl });
      expect(plain.statusCode).toBe(405);
      expect(corsHeaders(plain.headers)).toEqual([]);
      const outside = await preflight(env.app, '/healthz', OTHER);
      expect(outside.statusCode).toBe(405);
      expect(corsHeaders(outside.headers)).toEqual([]);
      expectError(await call(env.app, 'GET', '/no/such/path'), 404, 'NOT_FOUND');
      expectError(await call(env.app, 'GET', `${P}/no-such-route`, { key: world.keys.delivery }), 404, 'NOT_FOUND');
    });
  });

  describe('delivery, narrowed by CORS_DELIVERY_ORIGINS', () => {
    let narrowed: FastifyInstance;
    beforeAll(async () => {
      narrowed = await appWith({ corsDeliveryOrigins: [SITE, 'http://localhost:4321'] });
    });

    it('echoes a listed origin with Vary: Origin', async () => {
      const res = await preflight(narrowed, entryUrl, SITE);
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(SITE);
      expect(String(res.headers.vary)).toMatch(/origin/i);
      const get = await call(narrowed, 'GET', entryUrl, { key: world.keys.delivery, headers: { origin: SITE } });
      expect(get.status).toBe(200);
      expect(get.headers['access-control-allow-origin']).toBe(SITE);
      expect(String(get.headers.vary).split(', ')).toEqual(expect.arrayContaining(['Origin', 'X-API-Key', 'Accept-Encoding']));
    });

    it('refuses another origin: preflight 403 without allow headers, answers without them', async () => {
      const res = await preflight(narrowed, entryUrl, OTHER);
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body).message).toContain('CORS_DELIVERY_ORIGINS');
      expect(corsHeaders(res.headers)).toEqual([]);
      const get = await call(narrowed, 'GET', entryUrl, { key: world.keys.delivery, headers: { origin: OTHER } });
      expect(get.status).toBe(200);
      expect(corsHeaders(get.headers)).toEqual([]);
      expect(String(get.headers.vary)).toMatch(/origin/i);
    });
  });

  describe('management', () => {
    it('refuses every origin by default, before the key is checked', async () => {
      const res = await preflight(env.app, `${M}/content-types`, SITE, 'POST', 'x-api-key, content-type');
      expect(res.statusCode).toBe(403);
      expect(JSON.parse(res.body)).toMatchObject({ code: 'FORBIDDEN', success: false });
      expect(JSON.parse(res.body).message).toContain('CORS_MANAGEMENT_ORIGINS');
      expect(corsHeaders(res.headers)).toEqual([]);
      const get = await call(env.app, 'GET', `${M}/content-types`, { key: world.keys.management, headers: { origin: SITE } });
      expect(get.status).toBe(200);
      expect(corsHeaders(get.headers)).toEqual([]);
    });

    it('allows listed origins, with credentials, and the management methods and headers', async () => {
      const app = await appWith({ corsManagementOrigins: [SITE] });
      const res = await preflight(app, `${M}/content-types/post/entries/hello`, SITE, 'PATCH', 'x-api-key, content-type, if-match');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(SITE);
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(String(res.headers['access-control-allow-methods']).split(', ')).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
      const allowed = String(res.headers['access-control-allow-headers']).toLowerCase().split(', ');
      for (const h of ['x-api-key', 'content-type', 'idempotency-key', 'if-match', 'x-workspace-id', 'x-csrf-token']) expect(allowed).toContain(h);
      expect((await preflight(app, `${M}/content-types`, OTHER)).statusCode).toBe(403);
      const get = await call(app, 'GET', `${M}/content-types`, { key: world.keys.management, headers: { origin: SITE } });
      expect(get.headers['access-control-allow-origin']).toBe(SITE);
      expect(String(get.headers.vary)).toMatch(/origin/i);
    });

    it("allows any origin with ['*'], never with credentials", async () => {
      const app = await appWith({ corsManagementOrigins: ['*'] });
      const res = await preflight(app, `${M}/content-types`, OTHER, 'POST');
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      const get = await call(app, 'GET', `${M}/content-types`, { key: world.keys.management, headers: { origin: OTHER } });
      expect(get.status).toBe(200);
      expect(get.headers['access-control-allow-origin']).toBe('*');
      expect(String(get.headers['access-control-expose-headers'])).toContain('ETag');
    });
  });
});
