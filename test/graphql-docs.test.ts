/**
 * Every example query of docs/graphql.md runs against the demo workspace (docs/graphql.md; issue
 * 25 item 7), both databases: each ```graphql block is sent as it is written (variables take their
 * defaults) with the demo's delivery key and must answer 200 with data and no error. On SQLite the
 * demo is the one `npm start` creates (startServices with the demo on); PostgreSQL, which starts
 * empty, gets the same content through the GraphQL fixtures. The examples together use every root
 * field of the demo's schema and every filter operator.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Kind, parse, visit, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices } from '../src/services.js';
import { gql, seedDemoContent } from './graphql-fixtures.js';
import { createTestEnv, dialects, type TestEnv } from './helpers.js';

const DOC = path.resolve(import.meta.dirname, '../docs/graphql.md');

/** The ```graphql blocks of docs/graphql.md with the line each starts on. */
function examples(): { line: number; query: string }[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const out: { line: number; query: string }[] = [];
  for (const m of text.matchAll(/^```graphql\n([\s\S]*?)^```$/gm)) out.push({ line: text.slice(0, m.index).split('\n').length, query: m[1] });
  return out;
}

/** Root fields and argument names (`where` operators included) a document uses. */
function usage(doc: DocumentNode): { roots: Set<string>; args: Set<string> } {
  const roots = new Set<string>();
  const args = new Set<string>();
  for (const def of doc.definitions) {
    if (def.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const sel of def.selectionSet.selections) if (sel.kind === Kind.FIELD) roots.add(sel.name.value);
  }
  visit(doc, { ObjectField: (node) => void args.add(node.name.value), Argument: (node) => void args.add(node.name.value) });
  return { roots, args };
}

describe.each(dialects())('docs/graphql.md examples on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  beforeAll(async () => {
    if (dialect === 'sqlite') {
      env = await createTestEnv(dialect, { config: { demo: true } });
      let printed = '';
      const services = await startServices(env.ctx, { print: (t) => (printed += t) });
      await services.stop();
      key = /^ {2}delivery +(svc_\w+)$/m.exec(printed)?.[1] ?? '';
    } else {
      env = await createTestEnv(dialect);
      key = (await seedDemoContent(env.ctx)).keys.delivery;
    }
    expect(key).toMatch(/^svc_live_/);
  });
  afterAll(async () => env?.close());

  const all = examples();

  it('has examples', () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
  });

  it.each(all.map((e) => [e.line, e.query] as const))('the example at line %i answers data without errors', async (_line, query) => {
    const res = await gql(env.app, key, query);
    expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
    expect(res.status).toBe(200);
    expect(res.body.data).toBeTruthy();
  });

  it('pages through the pagination examples with their cursors, which refuse another order', async () => {
    const forward = all.find((e) => e.query.startsWith('query Posts('))!.query;
    const first = (await gql(env.app, key, forward)).body.data.postCollection;
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = (await gql(env.app, key, forward, { after: first.pageInfo.endCursor })).body.data.postCollection;
    expect(second.edges.map((e: { node: { published_on: string } }) => e.node.published_on)).toEqual(['2026-02-09', '2026-02-23']);
    expect(first.edges.at(-1).cursor).toBe(first.pageInfo.endCursor);
    const backward = all.find((e) => e.query.startsWith('query Back('))!.query;
    const end = (await gql(env.app, key, backward)).body.data.postCollection;
    expect(end.nodes.map((n: { published_on: string }) => n.published_on)).toEqual(['2026-02-23', '2026-03-09']);
    const before = (await gql(env.app, key, backward, { before: end.pageInfo.startCursor })).body.data.postCollection;
    expect(before.nodes.map((n: { published_on: string }) => n.published_on)).toEqual(['2026-01-26', '2026-02-09']);
    const otherOrder = await gql(env.app, key, 'query ($after: String) { postCollection(after: $after, order: [title_ASC]) { totalCount } }', {
      after: first.pageInfo.endCursor,
    });
    expect(otherOrder.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('uses every root field of the demo and every filter operator', async () => {
    const roots = new Set<string>();
    const args = new Set<string>();
    for (const e of all) {
      const used = usage(parse(e.query));
      used.roots.forEach((r) => roots.add(r));
      used.args.forEach((a) => args.add(a));
    }
    const schema = await gql(env.app, key, '{ __schema { queryType { fields { name } } } }');
    const fields = schema.body.data.__schema.queryType.fields.map((f: { name: string }) => f.name);
    expect(fields.filter((f: string) => !roots.has(f))).toEqual([]);
    const wanted = [
      'eq',
      'ne',
      'lt',
      'lte',
      'gt',
      'gte',
      'in',
      'contains',
      'exists',
      'AND',
      'OR',
      'sys',
      'order',
      'first',
      'after',
      'last',
      'before',
      'locale',
      'transform',
    ];
    expect(wanted.filter((a) => !args.has(a))).toEqual([]);
  });
});
