/**
 * Hostile input (issue 8): patterns built to backtrack, JSON nested or repeated past any real
 * document, and probes for another workspace's ids. Each answers a 4xx envelope quickly, writes
 * nothing, and leaves the instance serving (`/healthz` answers while a hostile request runs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_ARRAY, MAX_JSON_DEPTH, MAX_JSON_VALUE_DEPTH } from '../../src/lib/json-limits.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from '../helpers.js';

const M = '/api/v1/manage';
const nestedArray = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
};
const nestedText = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe.each(dialects())('hostile input on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  const entryCount = async () =>
    Number(
      (
        await env.ctx.db.kysely
          .selectFrom('entries')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    key = (await seedWorkspace(env.ctx)).keys.management;
    const type = {
      name: 'Code',
      fields: [
        { name: 'code', field_type: 'text', validation: { pattern: '^(a+)+$' } },
        { name: 'words', field_type: 'textarea', validation: { pattern: '^(\\w+\\s?)*$' } },
        { name: 'meta', field_type: 'json' },
      ],
    };
    expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: type })).status).toBe(201);
  });
  afterAll(() => env.close());

  describe('validation.pattern runs in linear time', () => {
    it('refuses a backtracking value in milliseconds, with /healthz answering meanwhile', async () => {
      const before = await entryCount();
      const started = performance.now();
      const hostile = call(env.app, 'POST', `${M}/content-types/code/entries`, {
        key,
        body: { data: { code: `${'a'.repeat(5000)}!`, words: `${'word '.repeat(20_000)}!` } },
      });
      const health = call(env.app, 'GET', '/healthz');
      const res = await hostile;
      const b = expectError(res, 400, 'VALIDATION_FAILED');
      expect(b.errors.map((e: { path: string }) => e.path).sort()).toEqual(['body.data.code', 'body.data.words']);
      expect((await health).status).toBe(200);
      // A backtracking engine takes seconds at 30 characters and forever at 5,000.
      expect(performance.now() - started).toBeLessThan(3000);
      expect(await entryCount()).toBe(before);
      const ok = await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, body: { data: { code: 'aaaa', words: 'two words' } } });
      expect(ok.status).toBe(201);
    });

    it('refuses patterns outside RE2 syntax (lookaround, backreferences) at field creation', async () => {
      for (const pattern of ['^(?=a)a$', '(a)\\1', '(?<!x)y']) {
        const res = await call(env.app, 'POST', `${M}/content-types/code/fields`, {
          key,
          body: { name: 'extra', field_type: 'text', validation: { pattern } },
        });
        const b = expectError(res, 400, 'VALIDATION_FAILED');
        expect(b.errors[0]).toMatchObject({ path: 'body.validation.pattern' });
        expect(b.errors[0].message).toMatch(/RE2 syntax/);
      }
    });
  });

  describe('JSON depth and size are bounded before parsing', () => {
    it(`refuses a body nested deeper than ${MAX_JSON_DEPTH} levels with 400 naming the limit (json field 1,000 and 5,000 deep, with an Idempotency-Key)`, async () => {
      const before = await entryCount();
      for (const depth of [MAX_JSON_DEPTH + 1, 1000, 5000, 200_000]) {
        const raw = `{"data":{"meta":${nestedText(depth)}}}`;
        const headers = { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() };
        const b = expectError(await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, raw, headers }), 400, 'VALIDATION_FAILED');
        expect(b.errors).toEqual([{ path: 'body', message: `nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels (the limit of a JSON body)` }]);
      }
      expect(await entryCount()).toBe(before);
    });

    it(`refuses an array of more than ${MAX_JSON_ARRAY} elements with 400 naming the limit`, async () => {
      const raw = JSON.stringify({ data: { meta: Array.from({ length: MAX_JSON_ARRAY + 1 }, () => 0) } });
      const b = expectError(
        await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, raw, headers: { 'content-type': 'application/json' } }),
        400,
        'VALIDATION_FAILED',
      );
      expect(b.errors[0].message).toMatch(/more than 10000 elements/);
      const fits = JSON.stringify({ data: { meta: Array.from({ length: MAX_JSON_ARRAY }, () => 0) } });
      expect((await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, raw: fits, headers: { 'content-type': 'application/json' } })).status).toBe(
        201,
      );
    });

    it(`bounds a json field value at ${MAX_JSON_VALUE_DEPTH} levels, stored and read back whole below it`, async () => {
      const deep = expectError(
        await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, body: { data: { meta: nestedArray(MAX_JSON_VALUE_DEPTH + 1) } } }),
        400,
        'VALIDATION_FAILED',
      );
      expect(deep.errors).toEqual([{ path: 'body.data.meta', message: `must nest objects and arrays at most ${MAX_JSON_VALUE_DEPTH} levels deep` }]);
      const value = nestedArray(MAX_JSON_VALUE_DEPTH);
      const created = await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, body: { data: { meta: value } } });
      expect(created.status).toBe(201);
      const read = await call(env.app, 'GET', `${M}/content-types/code/entries/${created.body.data.id}`, { key });
      expect(JSON.parse(read.body.data.data).meta).toEqual(value);
    });

    it('still refuses malformed JSON and prototype keys as before', async () => {
      expectError(
        await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, raw: '{"data":', headers: { 'content-type': 'application/json' } }),
        400,
        'VALIDATION_FAILED',
      );
      expectError(
        await call(env.app, 'POST', `${M}/content-types/code/entries`, { key, raw: '{"__proto__":{"x":1}}', headers: { 'content-type': 'application/json' } }),
        400,
        'VALIDATION_FAILED',
      );
    });
  });
});
