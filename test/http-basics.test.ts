import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

describe.each(dialects())('HTTP basics on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
  });
  afterAll(async () => env?.close());

  it('answers /healthz and /readyz with a request id', async () => {
    const h = await call(env.app, 'GET', '/healthz');
    expect(h.status).toBe(200);
    expect(h.headers['x-request-id']).toMatch(/^req_/);
    const r = await call(env.app, 'GET', '/readyz');
    expect(r.status).toBe(200);
    expect(r.body.database).toBe(dialect);
  });

  it('answers unknown routes with 404 NOT_FOUND in the envelope', async () => {
    const res = await call(env.app, 'GET', '/nope');
    expectError(res, 404, 'NOT_FOUND');
    expect(res.body.errors).toBeNull();
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await call(env.app, 'DELETE', '/healthz');
    expectError(res, 405, 'METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toContain('GET');
  });

  it('serves the OpenAPI 3.1 document', async () => {
    const res = await call(env.app, 'GET', '/api/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('bootstraps a workspace with three working key classes', async () => {
    const seeded = await seedWorkspace(env.ctx);
    expect(seeded.keys.management).toMatch(/^svc_mgmt_[A-Za-z0-9]{40}$/);
    expect(seeded.keys.delivery).toMatch(/^svc_live_/);
    expect(seeded.keys.preview).toMatch(/^svc_live_/);
    const stored = await env.ctx.db.kysely.selectFrom('api_keys').select(['key_hash', 'key_hint']).where('workspace_id', '=', seeded.workspace.id).execute();
    expect(stored).toHaveLength(3);
    for (const row of stored) {
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(Object.values(seeded.keys).some((k) => row.key_hash.includes(k) || row.key_hint === k)).toBe(false);
    }
  });
});
