import { describe, expect, it } from 'vitest';
import { queryHash } from '../modules/graphql/apq.js';
import { graphqlCacheArgsOf, useDeliveryCacheHints } from './graphql-cache.js';

const Q = '{ blogPostCollection { nodes { title } } }';
const H = queryHash(Q);
const ext = (hash: string) => JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('graphqlCacheArgsOf', () => {
  it('names the query by its hash, whether sent as text or as a persisted hash', () => {
    const byText = graphqlCacheArgsOf({ query: Q }, 'application/json');
    const byHash = graphqlCacheArgsOf({ extensions: ext(H) }, 'application/json');
    const both = graphqlCacheArgsOf({ query: Q, extensions: ext(H) }, 'application/json');
    expect(byText).toEqual({ hash: H, variables: '{}', operationName: '', accept: 'application/json', trace: '' });
    expect(byHash).toEqual(byText);
    expect(both).toEqual(byText);
  });

  it('keeps variables, operationName and Accept, absent variables being {}', () => {
    expect(
      graphqlCacheArgsOf({ query: Q, variables: '{"b":1,"a":[2,1]}', operationName: 'Posts' }, 'Application/GraphQL-Response+JSON, application/json;q=0.9'),
    ).toEqual({
      hash: H,
      variables: '{"a":[2,1],"b":1}',
      operationName: 'Posts',
      accept: 'application/graphql-response+json,application/json;q=0.9',
      trace: '',
    });
    expect(graphqlCacheArgsOf({ query: Q, variables: 'null', operationName: '' }, undefined)).toEqual({
      hash: H,
      variables: '{}',
      operationName: '',
      accept: '',
      trace: '',
    });
  });

  it('keeps the trace switches of extensions apart (D140): an answer with a source map or stega is not one without', () => {
    const trace = (extensions: unknown) => graphqlCacheArgsOf({ query: Q, extensions: JSON.stringify(extensions) }, undefined)?.trace;
    expect(trace({})).toBe('');
    expect(trace({ sourceMaps: true })).toBe('map');
    expect(trace({ stega: true })).toBe('stega');
    expect(trace({ sourceMaps: true, stega: true })).toBe('map+stega');
    expect(trace({ sourceMaps: 'yes', stega: false })).toBe('');
  });

  it('refuses what cannot run: no query, bad JSON, a mismatching hash, repeated parameters, an unsupported version', () => {
    expect(graphqlCacheArgsOf({}, undefined)).toBeNull();
    expect(graphqlCacheArgsOf({ query: Q, variables: '{' }, undefined)).toBeNull();
    expect(graphqlCacheArgsOf({ query: Q, variables: '[1]' }, undefined)).toBeNull();
    expect(graphqlCacheArgsOf({ extensions: '{' }, undefined)).toBeNull();
    expect(graphqlCacheArgsOf({ query: Q, extensions: ext('0'.repeat(64)) }, undefined)).toBeNull();
    expect(graphqlCacheArgsOf({ query: [Q, Q] }, undefined)).toBeNull();
    expect(graphqlCacheArgsOf({ query: Q, operationName: ['a', 'b'] }, undefined)).toBeNull();
    expect(graphqlCacheArgsOf({ extensions: JSON.stringify({ persistedQuery: { version: 2, sha256Hash: H } }) }, undefined)).toBeNull();
  });
});

describe('useDeliveryCacheHints', () => {
  type Hooks = {
    onResultProcess: (p: { request: object; result: unknown }) => void;
    onResponse: (p: { request: object; response: Response }) => void;
  };
  const hooks = useDeliveryCacheHints() as unknown as Hooks;
  const answer = (result: unknown) => {
    const request = {};
    const response = new Response('{}');
    hooks.onResultProcess({ request, result });
    hooks.onResponse({ request, response });
    return response.headers;
  };

  it('adds Vary: Accept to every answer and no-store to answers with errors only', () => {
    const fine = answer({ data: { a: 1 } });
    expect(fine.get('vary')).toBe('Accept');
    expect(fine.get('cache-control')).toBeNull();
    expect(answer({ data: null, errors: [{ message: 'x' }] }).get('cache-control')).toBe('no-store');
    expect(answer([{ data: {} }, { errors: [{ message: 'x' }] }]).get('cache-control')).toBe('no-store');
    expect(answer({ data: {}, errors: [] }).get('cache-control')).toBeNull();
  });
});
