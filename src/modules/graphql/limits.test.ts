import { buildSchema, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkQueryLimits, MAX_SELECTIONS, measureQuery, useQueryLimits } from './limits.js';

// The shapes the delivery schema has (docs/graphql.md): entry types, a collection per type,
// relations, relation lists, media lists, pages with block trees.
const schema = buildSchema(`
  interface Entry { sys: Sys! }
  interface Block { id: ID!, type: String!, position: Int!, children: [Block!]! }
  type Sys { id: ID!, slug: String!, contentType: String! }
  type Asset { id: ID!, url(transform: AssetTransform): String! }
  input AssetTransform { width: Int }
  type Author implements Entry { sys: Sys!, name: String, avatar: Asset, posts: [BlogPost!]! }
  type BlogPost implements Entry {
    sys: Sys!
    title: String
    tags: [String!]!
    author: Author
    related: [BlogPost!]!
    gallery: [Asset!]!
    anything: Entry
  }
  type Navigation implements Entry { sys: Sys!, links: [Entry!]! }
  type HeroBlock implements Block { id: ID!, type: String!, position: Int!, children: [Block!]!, image: Asset }
  type TextBlock implements Block { id: ID!, type: String!, position: Int!, children: [Block!]!, body: String, author: Author }
  type Page { id: ID!, slug: String!, blocks: [Block!]! }
  type PageInfo { hasNextPage: Boolean!, endCursor: String }
  type BlogPostEdge { cursor: String!, node: BlogPost! }
  type BlogPostConnection { edges: [BlogPostEdge!]!, nodes: [BlogPost!]!, pageInfo: PageInfo!, totalCount: Int! }
  type PageConnection { nodes: [Page!]!, pageInfo: PageInfo! }
  type Query {
    blogPost(slug: String, id: ID): BlogPost
    blogPostCollection(first: Int = 10, after: String, last: Int, before: String): BlogPostConnection!
    navigation(slug: String): Navigation
    page(slug: String!): Page
    pageCollection(first: Int = 10): PageConnection!
  }
`);

const limits = { maxDepth: 12, maxCost: 10_000 };
const measure = (query: string, variables?: Record<string, unknown>, operationName?: string) =>
  measureQuery(schema, parse(query), { variables, operationName });

describe('depth', () => {
  it('counts nested fields, a root field being 1', () => {
    expect(measure('{ blogPost(slug: "a") { title } }').depth).toBe(2);
    expect(measure('{ blogPost(slug: "a") { author { name } } }').depth).toBe(3);
    expect(measure('{ blogPostCollection { edges { node { author { avatar { url } } } } } }').depth).toBe(6);
  });

  it('takes the longest branch', () => {
    expect(measure('{ blogPost(slug: "a") { title author { posts { author { name } } } sys { id } } }').depth).toBe(5);
  });

  it('follows fragments and inline fragments without a level of their own', () => {
    const q = `
      query { blogPost(slug: "a") { ...P } }
      fragment P on BlogPost { author { ...A } }
      fragment A on Author { ... on Author { posts { title } } }`;
    expect(measure(q).depth).toBe(4);
  });

  it('measures the named operation only', () => {
    const q = `query Deep { blogPost { author { posts { author { name } } } } } query Flat { blogPost { title } }`;
    expect(measure(q, {}, 'Flat').depth).toBe(2);
    expect(measure(q, {}, 'Deep').depth).toBe(5);
  });

  it('exempts introspection with all it selects', () => {
    const q = `{ __schema { types { fields { type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } } }`;
    expect(measure(q).depth).toBe(0);
    expect(measure('{ __typename blogPost { __typename title } }').depth).toBe(2);
  });

  it('is refused over the limit with extensions.limit and extensions.depth', () => {
    const deep = `{ blogPost { ${'author { posts { '.repeat(6)}title${' } }'.repeat(6)} } }`;
    expect(measure(deep).depth).toBe(14);
    const error = checkQueryLimits(schema, parse(deep), {}, limits);
    expect(error?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 12, depth: 14, http: { status: 400 } });
    expect(error?.message).toContain('depth 14');
    expect(checkQueryLimits(schema, parse(deep), {}, { maxDepth: 14, maxCost: 10_000_000 })).toBeNull();
  });
});

describe('cost', () => {
  it('counts 1 per object and nothing for scalars', () => {
    expect(measure('{ blogPost { title tags } }').cost).toBe(1);
    expect(measure('{ blogPost { title sys { id } author { name avatar { url } } } }').cost).toBe(4);
  });

  it('counts a collection as 1 plus first (default 10) times what it selects', () => {
    expect(measure('{ blogPostCollection { totalCount } }').cost).toBe(1);
    expect(measure('{ blogPostCollection { nodes { title } } }').cost).toBe(1 + 10 * 1);
    expect(measure('{ blogPostCollection(first: 5) { nodes { title author { name } } } }').cost).toBe(1 + 5 * 2);
    expect(measure('{ blogPostCollection(last: 20) { edges { cursor node { author { name } } } } }').cost).toBe(1 + 20 * 3);
  });

  it('reads first and last from variables, counted up to 100', () => {
    const q = 'query ($n: Int) { blogPostCollection(first: $n) { nodes { title } } }';
    expect(measure(q, { n: 3 }).cost).toBe(4);
    expect(measure(q, {}).cost).toBe(11); // the argument's default, 10
    expect(measure(q, { n: 5000 }).cost).toBe(101);
  });

  it('counts a plain list of objects 10 times, a list of scalars not at all', () => {
    expect(measure('{ blogPost { related { title } } }').cost).toBe(1 + 10);
    expect(measure('{ blogPost { gallery { url } related { author { name } } } }').cost).toBe(1 + 10 + 10 * 2);
    expect(measure('{ page(slug: "a") { blocks { type children { type children { type } } } } }').cost).toBe(1 + 10 * (1 + 10 * (1 + 10)));
  });

  it('multiplies nested collections and lists', () => {
    const q = '{ blogPostCollection(first: 100) { nodes { related { related { author { name } } } } } }';
    // node 1 + related 10 × (1 + related 10 × (1 + author 1))
    expect(measure(q).cost).toBe(1 + 100 * (1 + 10 * (1 + 10 * 2)));
    const error = checkQueryLimits(schema, parse(q), {}, limits);
    expect(error?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: 10_000, cost: 21_101 });
    expect(error?.message).toContain('cost 21101');
  });

  it('follows fragments and inline fragments, the costliest possible type of an interface counting', () => {
    const q = `
      { navigation(slug: "main") { links { ...Link } } }
      fragment Link on Entry { sys { slug } ... on BlogPost { author { name avatar { url } } } ... on Author { name } }`;
    // navigation 1 + links 10 × (1 + max(BlogPost: sys 1 + author 2, Author: sys 1))
    expect(measure(q).cost).toBe(1 + 10 * (1 + 3));
  });

  it('honors @skip and @include', () => {
    const q = 'query ($with: Boolean!) { blogPost { author @include(if: $with) { name } related @skip(if: $with) { title } } }';
    expect(measure(q, { with: true }).cost).toBe(2);
    expect(measure(q, { with: false }).cost).toBe(11);
  });

  it('exempts introspection', () => {
    expect(measure('{ __schema { types { name fields { name type { name } } } } }').cost).toBe(0);
    expect(measure('{ __type(name: "BlogPost") { fields { name } } blogPost { __typename } }').cost).toBe(1);
  });

  it('still counts the rest of a document when one field has an unreadable argument', () => {
    const q = 'query ($n: Int) { a: blogPostCollection(first: "x") { nodes { title } } b: blogPostCollection(first: $n) { nodes { title } } }';
    expect(measure(q, { n: 100 }).cost).toBe(101);
  });
});

describe('fragment cycles and expansion', () => {
  it('does not loop on a fragment cycle', () => {
    const q = `
      { blogPost { ...A } }
      fragment A on BlogPost { author { ...B } }
      fragment B on Author { posts { ...A } }`;
    const m = measure(q);
    // blogPost, author, posts; A is not spread again inside itself.
    expect(m.depth).toBe(3);
    expect(Number.isFinite(m.cost)).toBe(true);
  });

  it('refuses a document whose fragments expand past the limit, quickly', () => {
    // Each fragment spreads the next twice: 2^30 selections if expanded.
    const defs = Array.from({ length: 30 }, (_, i) => `fragment F${i} on BlogPost { a${i}: related { ...F${i + 1} } b${i}: related { ...F${i + 1} } }`);
    defs.push('fragment F30 on BlogPost { title }');
    const q = `{ blogPost { ...F0 } } ${defs.join('\n')}`;
    const started = performance.now();
    const error = checkQueryLimits(schema, parse(q), {}, { maxDepth: 1000, maxCost: 10_000 });
    expect(performance.now() - started).toBeLessThan(500);
    expect(error?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', limit: MAX_SELECTIONS });
    expect(error?.extensions.selections).toBeGreaterThan(MAX_SELECTIONS);
  });
});

describe('checkQueryLimits', () => {
  it('lets a query within both limits run', () => {
    const megaMenu = `
      { navigation(slug: "main") { sys { slug } links { __typename ... on BlogPost { sys { slug } title author { name } } ... on Author { sys { slug } name } } } }`;
    expect(checkQueryLimits(schema, parse(megaMenu), {}, limits)).toBeNull();
  });

  it('reports depth before cost', () => {
    const q = `{ blogPostCollection(first: 100) { nodes { ${'related { '.repeat(12)}title${' }'.repeat(12)} } } }`;
    expect(checkQueryLimits(schema, parse(q), {}, limits)?.extensions).toMatchObject({ depth: 15, limit: 12 });
  });
});

describe('useQueryLimits', () => {
  it('stops an execution over the limits before it runs', () => {
    const plugin = useQueryLimits({ maxDepth: 2, maxCost: 100 });
    let stopped: unknown = null;
    const run = (query: string) => {
      stopped = null;
      (plugin.onExecute as any)({
        args: { schema, document: parse(query), variableValues: {}, operationName: undefined },
        setResultAndStopExecution: (result: unknown) => {
          stopped = result;
        },
      });
      return stopped as { errors: { extensions: Record<string, unknown> }[] } | null;
    };
    expect(run('{ blogPost { title } }')).toBeNull();
    expect(run('{ blogPost { author { name } } }')?.errors[0].extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX', depth: 3, limit: 2 });
  });

  it('measures a document run again with the same variables once, answering a new error each time', () => {
    const plugin = useQueryLimits({ maxDepth: 12, maxCost: 50 });
    const document = parse('query ($n: Int) { blogPostCollection(first: $n) { nodes { title } } }');
    type Stopped = { errors: { extensions: Record<string, unknown> }[] };
    const run = (variables: Record<string, unknown>): Stopped | null => {
      let stopped: Stopped | null = null;
      (plugin.onExecute as any)({
        args: { schema, document, variableValues: variables, operationName: undefined },
        setResultAndStopExecution: (result: Stopped) => {
          stopped = result;
        },
      });
      return stopped as Stopped | null;
    };
    const first = run({ n: 60 });
    const second = run({ n: 60 });
    expect(first?.errors[0].extensions).toMatchObject({ cost: 61, limit: 50 });
    expect(second?.errors[0].extensions).toEqual(first?.errors[0].extensions);
    expect(second?.errors[0]).not.toBe(first?.errors[0]);
    expect(run({ n: 40 })).toBeNull();
    for (let n = 0; n < 100; n++) run({ n });
    expect(run({ n: 60 })?.errors[0].extensions).toMatchObject({ cost: 61 });
  });
});
