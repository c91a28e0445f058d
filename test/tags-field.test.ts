/**
 * The `tags` field type (D30; docs/api.md "Fields"): a free list of strings — at most 100 distinct,
 * one-line items of 1–256 characters, kept in order — with item-count rules, no options, not
 * filterable or sortable, delivered as an array. Both dialects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';

describe.each(dialects())('tags fields on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let delivery: string;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    delivery = s.keys.delivery;
    const created = await call(env.app, 'POST', `${M}/content-types`, {
      key,
      body: {
        name: 'Note',
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'keywords', field_type: 'tags', validation: { min: 1, max: 3 } },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(async () => env?.close());

  const write = (keywords: unknown) => call(env.app, 'POST', `${M}/content-types/note/entries`, { key, body: { data: { title: 'x', keywords } } });

  it('stores any strings in the given order and delivers them as an array', async () => {
    const res = await write(['zeta', 'Alpha beta', 'ü'.repeat(256)]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(JSON.parse(res.body.data.data).keywords).toEqual(['zeta', 'Alpha beta', 'ü'.repeat(256)]);
    await call(env.app, 'PATCH', `${M}/content-types/note/entries/${res.body.data.slug}/publish`, { key });
    const got = await call(env.app, 'GET', `${P}/entries/${res.body.data.slug}?type=note`, { key: delivery });
    expect(JSON.parse(got.body.data.entry.data).keywords).toEqual(['zeta', 'Alpha beta', 'ü'.repeat(256)]);
    expectError(await call(env.app, 'GET', `${P}/entries?type=note&filter[keywords]=zeta`, { key: delivery }), 400, 'VALIDATION_FAILED');
  });

  it('refuses what is not a list of distinct one-line strings of 1–256 characters, and the item-count rules', async () => {
    const paths = async (value: unknown) =>
      (expectError(await write(value), 400, 'VALIDATION_FAILED').errors as { path: string; message: string }[]).map((e) => `${e.path}: ${e.message}`);
    expect(await paths('news')).toEqual(['body.data.keywords: must be an array of at most 100 strings']);
    expect(await paths(['a', 7, '', 'x'.repeat(257), 'b\nc', 'a'])).toEqual([
      'body.data.keywords.1: must be a string',
      'body.data.keywords.2: must be 1 to 256 characters long',
      'body.data.keywords.3: must be 1 to 256 characters long',
      'body.data.keywords.4: must be a single line (no line breaks)',
      "body.data.keywords.5: 'a' is listed twice",
    ]);
    expect(await paths(['a', 'b', 'c', 'd'])).toEqual(['body.data.keywords: must have at most 3 items']);
    expect(await paths([])).toEqual(['body.data.keywords: must have at least 1 item']);
  });

  it('caps a list at 100 items whatever the rules say', async () => {
    await call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'Bag', fields: [{ name: 'items', field_type: 'tags' }] } });
    const items = Array.from({ length: 101 }, (_, i) => `t${i}`);
    const res = expectError(await call(env.app, 'POST', `${M}/content-types/bag/entries`, { key, body: { data: { items } } }), 400, 'VALIDATION_FAILED');
    expect(res.errors).toEqual([{ path: 'body.data.items', message: 'must have at most 100 items' }]);
    expect((await call(env.app, 'POST', `${M}/content-types/bag/entries`, { key, body: { data: { items: items.slice(1) } } })).status).toBe(201);
  });

  it('takes no options and cannot be filterable or sortable', async () => {
    const field = (extra: Record<string, unknown>) =>
      call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'Bad', fields: [{ name: 'k', field_type: 'tags', ...extra }] } });
    expect(expectError(await field({ options: ['a'] }), 400, 'VALIDATION_FAILED').errors[0].message).toMatch(/take options/);
    expect(expectError(await field({ filterable: true }), 400, 'VALIDATION_FAILED').errors[0].message).toBe('tags fields cannot be filterable or sortable');
  });
});
