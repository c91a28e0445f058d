/**
 * GraphQL loads in batches and follows the model (docs/graphql.md "Relations", "Types"; D101,
 * D102): the SQL statements a query runs grow with its depth, never with the number of items it
 * returns (counted through a Kysely plugin on an app of its own over the same database), relations
 * resolve to any depth with visibility applied at each level, and a model change made through one
 * app is in the schema of another app sharing the database on its next request.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { createContext } from '../src/context.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createContentType } from '../src/modules/content-types/operations.js';
import { createEntry } from '../src/modules/entries/operations.js';
import { publishEntry } from '../src/modules/entries/publishing.js';
import { call, createTestEnv, dialects, insertMediaRow, seedWorkspace, type TestEnv } from './helpers.js';
import { gql } from './graphql-fixtures.js';

const ITEMS = 50;

describe.each(dialects())('GraphQL batching and model changes on %s', (dialect) => {
  let env: TestEnv;
  let counting: FastifyInstance;
  let other: FastifyInstance;
  const sent: string[] = [];
  let keys: { management: string; delivery: string; preview: string };
  let hiddenTeam: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const boot = await seedWorkspace(env.ctx);
    keys = boot.keys;
    const actor = systemActor(boot.workspace.id, boot.user.id);
    await createContentType(env.ctx, actor, { name: 'Team', slug: 'team', fields: [{ name: 'name', label: 'Name', field_type: 'text' }] });
    await createContentType(env.ctx, actor, {
      name: 'Person',
      slug: 'person',
      fields: [
        { name: 'name', label: 'Name', field_type: 'text' },
        { name: 'team', label: 'Team', field_type: 'relation', options: ['team'] },
      ],
    });
    await createContentType(env.ctx, actor, {
      name: 'Article',
      slug: 'article',
      fields: [
        { name: 'title', label: 'Title', field_type: 'text', sortable: true },
        { name: 'author', label: 'Author', field_type: 'relation', options: ['person'] },
        { name: 'related', label: 'Related', field_type: 'relation_list' },
        { name: 'cover', label: 'Cover', field_type: 'media' },
      ],
    });
    const publish = async (type: string, input: Parameters<typeof createEntry>[3]) => {
      const e = await createEntry(env.ctx, actor, type, input);
      await publishEntry(env.ctx, actor, type, { id: e.id });
      return e.id;
    };
    const teams: string[] = [];
    for (let i = 0; i < 5; i++) teams.push(await publish('team', { slug: `team-${i}`, data: { name: `Team ${i}` } }));
    // A draft team: production keys see the person, not the team.
    hiddenTeam = (await createEntry(env.ctx, actor, 'team', { slug: 'hidden', data: { name: 'Hidden' } })).id;
    const people: string[] = [];
    for (let i = 0; i < ITEMS; i++)
      people.push(await publish('person', { slug: `p-${i}`, data: { name: `Person ${i}`, team: i === 0 ? hiddenTeam : teams[i % 5] } }));
    let previous: string | null = null;
    for (let i = 0; i < ITEMS; i++) {
      const cover = await insertMediaRow(env.ctx, boot.workspace.id, boot.user.id);
      previous = await publish('article', {
        slug: `a-${String(i).padStart(2, '0')}`,
        data: { title: `Article ${i}`, author: people[i], cover, related: previous ? [previous, people[0]] : [] },
      });
    }
    const kysely = env.ctx.db.kysely.withPlugin({
      transformQuery: (args) => {
        sent.push(env.ctx.db.kysely.getExecutor().compileQuery(args.node, args.queryId).sql);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    counting = await buildApp(await createContext(env.config, { ...env.ctx.db, kysely }));
    await counting.ready();
    other = await buildApp(await createContext(env.config, env.ctx.db));
    await other.ready();
  });
  afterAll(async () => {
    await counting?.close();
    await other?.close();
    await env?.close();
  });

  /** The statements `query` runs (after one warm-up request: schema and key caches). */
  async function statements(query: string): Promise<number> {
    const warm = await gql(counting, keys.delivery, query);
    expect(warm.body.errors).toBeUndefined();
    sent.length = 0;
    const res = await gql(counting, keys.delivery, query);
    expect(res.body.errors).toBeUndefined();
    // The key's freshness check reads the workspace's revision now and then, whatever the query.
    return sent.filter((text) => !/^select "revision", "draft_revision" from "workspaces"/.test(text)).length;
  }

  const list = (n: number, selection: string) => `{ articleCollection(first: ${n}, order: [sys_slug_ASC]) { nodes { title ${selection} } } }`;

  it('runs as many statements for 50 items as for 5, at every depth; each level adds statements', async () => {
    const depths = [
      '',
      'author { name }',
      'author { name team { name } }',
      'author { name team { name } } cover { url }',
      'author { team { name } } related { ... on Article { title author { team { name } } } ... on Person { name } }',
    ];
    const counts: number[] = [];
    for (const selection of depths) {
      const few = await statements(list(5, selection));
      const many = await statements(list(ITEMS, selection));
      expect({ selection, many }).toEqual({ selection, many: few });
      counts.push(few);
    }
    // The list; its authors; their teams: one statement per level. Assets of a level load in one
    // more; related entries share a level's statement with the other relations of that level.
    expect(counts.slice(0, 3)).toEqual([1, 2, 3]);
    expect(counts[3]).toBe(4);
    expect(counts[4]).toBeLessThanOrEqual(4);
  });

  it('resolves relations to any depth, hiding what the key may not see at every level', async () => {
    const q =
      '{ article(slug: "a-01") { author { name team { name } } related { __typename ... on Article { sys { slug } author { team { name } } } ... on Person { name team { name } } } } }';
    const prod = (await gql(env.app, keys.delivery, q)).body.data.article;
    expect(prod.author).toEqual({ name: 'Person 1', team: { name: 'Team 1' } });
    expect(prod.related).toEqual([
      { __typename: 'Article', sys: { slug: 'a-00' }, author: { team: null } },
      { __typename: 'Person', name: 'Person 0', team: null },
    ]);
    const preview = (await gql(env.app, keys.preview, q)).body.data.article;
    expect(preview.related[1].team).toEqual({ name: 'Hidden' });
  });

  it('shows a field added through one app in the schema of another app on its next request', async () => {
    const q = '{ articleCollection(first: 1, order: [sys_slug_ASC]) { nodes { subtitle } } }';
    const before = await gql(other, keys.delivery, q);
    expect(before.status).toBe(400);
    expect(before.body.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    const added = await call(env.app, 'POST', '/api/v1/manage/content-types/article/fields', {
      key: keys.management,
      body: { name: 'subtitle', label: 'Subtitle', field_type: 'text' },
    });
    expect(added.status).toBe(201);
    const after = await gql(other, keys.delivery, q);
    expect(after.status).toBe(200);
    expect(after.body.data.articleCollection.nodes).toEqual([{ subtitle: null }]);
    const sdl = await other.inject({ method: 'GET', url: '/api/v1/public/graphql/schema.graphql', headers: { 'x-api-key': keys.delivery } });
    expect(sdl.body).toContain('subtitle: String');
  });
});
