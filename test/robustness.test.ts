/**
 * "No client can cause a 500" (docs/api.md "Errors"): every route of the OpenAPI document is
 * called with hostile path parameters, query strings and bodies, with each key class and none.
 * Every answer must be below 500 and, when not a success, the error envelope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { GRAPHQL_ERROR_CODES } from '../src/modules/graphql/errors.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const PARAM_VALUES = [
  'x',
  '%00',
  '..%2F..%2Fetc%2Fpasswd',
  'a'.repeat(600),
  '00000000-0000-7000-8000-000000000000',
  "'%20OR%201=1--",
  '%F0%9F%92%A9',
  'reorder',
];
const QUERIES = [
  '?limit=-1&page=abc',
  '?limit=1000000000000000000000&page=99999999999999',
  '?cursor=not-a-cursor&type=x',
  '?type=post&sort=;drop%20table%20entries&filter[title][eq]=x',
  '?type=post&filter[a][b][c]=1&filter[]=2&filter=3',
  '?type=post&fields=a.b.c.d,,,&locale=%00',
  '?type=post&locale=xx-YY-ZZZZZZZZZ&is_block=maybe&status=weird',
  '?token=eyJhbGciOiJub25lIn0.e30.&folder=../../x',
];
const BODIES: (string | undefined)[] = [
  undefined,
  '',
  'null',
  '[]',
  '"text"',
  '{"data": "{not json"}',
  '{"data": {"title": {"$gt": ""}}, "translations": {"__proto__": {"data": {}}}}',
  '{"order": [1, null, {}], "ids": "x", "action": ["publish"], "publish_at": "yesterday"}',
  JSON.stringify({ name: 'x'.repeat(5000), fields: [{ name: 'a', field_type: 'relation', options: '[' }] }),
  JSON.stringify({ slug: 'p', seo: { keywords: 'x' }, blocks: [{ type: 'nope', data: 1, children: 'x' }] }),
  JSON.stringify({ blocks: Array.from({ length: 3 }, () => ({ type: 'x', data: {}, children: [{ type: 'x', data: {}, children: [] }] })) }),
  '{"a":'.repeat(200) + '1' + '}'.repeat(200),
  '{"n": 1e400, "s": "\\ud800"}',
  '{"name": "a\\u0000b", "slug": "x", "data": {"title": "x\\u0000"}, "seo": {"title\\u0000": 1}}',
];

describe.each(dialects())('hostile requests on %s', (dialect) => {
  let env: TestEnv;
  let keys: { management: string; delivery: string; preview: string };
  let routes: { method: string; path: string }[];
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    keys = (await seedWorkspace(env.ctx)).keys;
    await call(env.app, 'POST', '/api/v1/manage/content-types', {
      key: keys.management,
      body: { name: 'Post', fields: [{ name: 'title', field_type: 'text', filterable: true, sortable: true }] },
    });
    const doc = (await call(env.app, 'GET', '/api/v1/openapi.json')).body;
    routes = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const method of Object.keys(ops)) routes.push({ method: method.toUpperCase(), path });
    }
  });
  afterAll(async () => env?.close());

  it('documents the management and delivery routes in OpenAPI', () => {
    expect(routes.some((r) => r.path.startsWith('/api/v1/manage/'))).toBe(true);
    expect(routes.some((r) => r.path.startsWith('/api/v1/public/'))).toBe(true);
    expect(routes.length).toBeGreaterThan(40);
  });

  it('never answers 5xx, and always in the envelope', async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const route of routes) {
      const key = route.path.startsWith('/api/v1/manage') ? keys.management : keys.delivery;
      for (const [i, value] of PARAM_VALUES.entries()) {
        const path = route.path.replace(/\{[^}]+\}/g, i === 0 ? 'post' : value);
        const query = QUERIES[i % QUERIES.length];
        const bodies = ['GET', 'DELETE'].includes(route.method) ? [undefined, BODIES[i % BODIES.length]] : BODIES;
        for (const raw of bodies) {
          for (const k of [key, i % 3 === 0 ? undefined : keys.preview]) {
            const res = await call(env.app, route.method as 'GET', path + query, {
              key: k,
              raw,
              headers: raw === undefined ? {} : { 'content-type': 'application/json' },
            });
            sent += 1;
            const ok = res.status < 500 && (res.status < 400 || isEnvelope(res.body) || (isGraphqlPath(path) && isGraphqlError(res.body)));
            if (!ok)
              failures.push(`${route.method} ${path + query} body=${String(raw).slice(0, 60)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          }
        }
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 180_000);
});

/** The REST error envelope (docs/api.md "Errors"). */
function isEnvelope(body: { success?: unknown; code?: unknown; traceId?: unknown } | undefined): boolean {
  return body?.success === false && typeof body.code === 'string' && /^req_/.test(String(body.traceId));
}

/**
 * The GraphQL endpoint answers GraphQL over HTTP, not the envelope (docs/graphql.md "Errors"),
 * except for methods other than GET and POST, refused in the envelope like on any route.
 */
function isGraphqlPath(path: string): boolean {
  return path === '/api/v1/public/graphql';
}

/** `{errors: [{message, extensions: {code}}]}` with a documented code. */
function isGraphqlError(body: { errors?: { message?: unknown; extensions?: { code?: unknown } }[] } | undefined): boolean {
  const codes: readonly string[] = [...Object.keys(ERROR_CODES), ...GRAPHQL_ERROR_CODES];
  return (
    Array.isArray(body?.errors) &&
    body.errors.length > 0 &&
    body.errors.every((e) => typeof e.message === 'string' && codes.includes(String(e.extensions?.code)))
  );
}
