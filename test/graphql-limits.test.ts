/**
 * Limits of GraphQL delivery queries over HTTP (docs/graphql.md "Limits" (D103)): depth and cost
 * computed before execution, 400 QUERY_TOO_COMPLEX with extensions.limit and depth or cost, on
 * GET and POST; introspection exempt; the limits come from GRAPHQL_MAX_DEPTH and GRAPHQL_MAX_COST.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, P, type DeliveryWorld } from './delivery-fixtures.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

const URL = `${P}/graphql`;

describe.each(dialects())('GraphQL limits on %s', (dialect) => {
  let env: TestEnv;
  let world: DeliveryWorld;

  beforeAll(async () => {
    env = await createTestEnv(dialect, { config: { graphqlMaxDepth: 6, graphqlMaxCost: 500 } });
    world = await createWorld(env.ctx, env.app, [
      { name: 'Author', slug: 'author', display_field: 'name', fields: [{ name: 'name', field_type: 'text' }] },
      {
        name: 'Post',
        slug: 'post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'author', field_type: 'relation', options: '["author"]' },
          { name: 'related', field_type: 'relation_list', options: '["post"]' },
        ],
      },
    ]);
    const author = await world.insertEntry({ type: 'author', slug: 'ada', data: { name: 'Ada' } });
    await world.insertEntry({ type: 'post', slug: 'one', data: { title: 'One', author } });
  });
  afterAll(async () => {
    await env?.close();
  });

  const post = (query: string, variables?: Record<string, unknown>) =>
    call(env.app, 'POST', URL, { key: world.keys.delivery, body: { query, variables }, headers: { accept: 'application/graphql-response+json' } });
  const get = (query: string) => call(env.app, 'GET', `${URL}?query=${encodeURIComponent(query)}`, { key: world.keys.delivery });

  const expectTooComplex = (res: Awaited<ReturnType<typeof post>>, extensions: Record<string, number>) => {
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', ...extensions });
    expect(res.headers['cache-control']).toBe('no-store');
  };

  it('runs a query within both limits', async () => {
    const res = await post('{ postCollection(first: 5) { nodes { title author { name } } } }');
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.postCollection.nodes).toEqual([{ title: 'One', author: { name: 'Ada' } }]);
  });

  it('refuses a query deeper than GRAPHQL_MAX_DEPTH before it runs, on POST and GET', async () => {
    const deep = '{ post(slug: "one") { related { related { related { related { related { title } } } } } } }';
    expectTooComplex(await post(deep), { limit: 6, depth: 7 });
    expectTooComplex(await get(deep), { limit: 6, depth: 7 });
  });

  it('refuses a query costlier than GRAPHQL_MAX_COST, counting first/last from variables', async () => {
    const q = 'query ($n: Int) { postCollection(first: $n) { nodes { related { author { name } } } } }';
    // 1 + n × (node 1 + related 10 × (1 + author 1))
    const ok = await post(q, { n: 10 });
    expect(ok.status).toBe(200);
    expect(ok.body.errors).toBeUndefined();
    expectTooComplex(await post(q, { n: 30 }), { limit: 500, cost: 1 + 30 * 21 });
  });

  it('follows fragments', async () => {
    const q = `
      query { postCollection(first: 50) { nodes { ...P } } }
      fragment P on Post { related { ...A } }
      fragment A on Post { author { name } }`;
    expectTooComplex(await post(q), { limit: 500, cost: 1 + 50 * 21 });
  });

  it('exempts introspection: the full introspection query runs', async () => {
    const res = await post(getIntrospectionQuery());
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.__schema.queryType.name).toBe('Query');
  });

  it('still reports a query that does not validate as a validation error, not as too complex', async () => {
    const res = await post('{ post(slug: "one") { nope } }');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
