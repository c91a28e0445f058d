/**
 * The explorer's pure parts (docs/studio.md "GraphQL explorer"): keys per workspace in a
 * sessionStorage-like store, the default query named by the server's rules, and the fetcher
 * (X-API-Key, no cookie, GraphQL bodies of any status).
 */
import { describe, expect, it, vi } from 'vitest';
import type { ContentType, Field } from '../../api/types';
import { activeKey, createFetcher, defaultQuery, loadKeys, NO_KEYS, saveKeys } from './explorer';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
    removeItem: (k: string) => void items.delete(k),
  };
}

const T = '2026-11-25T09:00:00.000Z';
function field(name: string, field_type: Field['field_type'], sort_order: number): Field {
  return {
    id: `00000000-0000-7000-8000-0000000000${String(sort_order).padStart(2, '0')}`,
    content_type_id: 'ct',
    name,
    label: name,
    field_type,
    required: false,
    is_unique: false,
    localizable: false,
    filterable: false,
    sortable: false,
    sort_order,
    options: null,
    validations: null,
  } as unknown as Field;
}
function type(id: string, slug: string, name: string, fields: Field[], extra: Partial<ContentType> = {}): ContentType {
  return { id, slug, name, fields, is_block: false, display_field: null, created_at: T, updated_at: T, ...extra } as ContentType;
}

describe('explorer keys', () => {
  it('keeps each workspace’s keys apart and forgets them when both are cleared', () => {
    const storage = memoryStorage();
    expect(loadKeys('ws-1', storage)).toEqual(NO_KEYS);
    saveKeys('ws-1', { production: 'svc_live_a', preview: null, use: 'production' }, storage);
    saveKeys('ws-2', { production: null, preview: 'svc_live_b', use: 'production' }, storage);
    expect(loadKeys('ws-1', storage)).toEqual({ production: 'svc_live_a', preview: null, use: 'production' });
    // The only key is the one used.
    expect(loadKeys('ws-2', storage)).toEqual({ production: null, preview: 'svc_live_b', use: 'preview' });
    expect(activeKey(loadKeys('ws-2', storage))).toBe('svc_live_b');
    saveKeys('ws-1', NO_KEYS, storage);
    expect([...storage.items.keys()]).toEqual(['quire.explorer.ws-2']);
  });

  it('reads a damaged entry as no keys', () => {
    const storage = memoryStorage();
    storage.setItem('quire.explorer.ws-1', '{not json');
    expect(loadKeys('ws-1', storage)).toEqual(NO_KEYS);
    storage.setItem('quire.explorer.ws-1', JSON.stringify({ production: 42, preview: ' ', use: 'other' }));
    expect(loadKeys('ws-1', storage)).toEqual(NO_KEYS);
  });
});

describe('default query', () => {
  it('lists the first content type by name with its display field and scalar fields, as the server names them', () => {
    const post = type(
      '01900000-0000-7000-8000-000000000002',
      'blog-post',
      'Blog post',
      [field('body', 'rich_text', 1), field('title', 'text', 2), field('sys', 'text', 3), field('views', 'integer', 4), field('tags', 'tags', 5)],
      { display_field: 'title' },
    );
    const zebra = type('01900000-0000-7000-8000-000000000001', 'zebra', 'Zebra', [field('name', 'text', 1)]);
    const hero = type('01900000-0000-7000-8000-000000000000', 'hero', 'Amazing hero', [], { is_block: true });
    const query = defaultQuery([zebra, hero, post]);
    expect(query).toContain('query BlogPostList {');
    expect(query).toContain('  blogPostCollection(first: 5) {');
    // Display field first, then other scalars; a field named sys is sysField (names.ts); lists left out.
    const lines = query.split('\n');
    const fields = lines.slice(lines.indexOf('        publishedAt') + 2, lines.indexOf('    pageInfo {') - 1);
    expect(fields.map((l) => l.trim())).toEqual(['title', 'sysField', 'views']);
  });

  it('names a colliding or digit-first type as the schema does, and falls back to pages without types', () => {
    expect(defaultQuery([type('01900000-0000-7000-8000-000000000001', 'page', 'Page', [])])).toContain('pageEntryCollection(first: 5)');
    expect(defaultQuery([type('01900000-0000-7000-8000-000000000001', '404-page', 'Not found', [])])).toContain('_404PageCollection(first: 5)');
    expect(defaultQuery([])).toContain('pageCollection(first: 5)');
  });
});

describe('fetcher', () => {
  it('POSTs the operation with the key, no cookie, and returns GraphQL bodies of any status', async () => {
    const fetchImpl = vi.fn(
      async () => new Response(JSON.stringify({ errors: [{ message: 'no key', extensions: { code: 'UNAUTHORIZED' } }] }), { status: 401 }),
    );
    const fetcher = createFetcher('svc_live_x', fetchImpl as unknown as typeof fetch);
    const result = await fetcher({ query: '{ a }', operationName: null, variables: { n: 1 } }, { headers: { 'X-Trace': 't' } });
    expect(result).toEqual({ errors: [{ message: 'no key', extensions: { code: 'UNAUTHORIZED' } }] });
    const [url, init] = fetchImpl.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/public/graphql');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('omit');
    expect(init.headers).toMatchObject({ 'X-API-Key': 'svc_live_x', 'X-Trace': 't', Accept: 'application/graphql-response+json, application/json' });
    expect(JSON.parse(String(init.body))).toEqual({ query: '{ a }', variables: { n: 1 } });
  });

  it('turns an answer that is not JSON into a GraphQL error naming the status', async () => {
    const fetcher = createFetcher('k', (async () => new Response('<html>bad gateway</html>', { status: 502 })) as unknown as typeof fetch);
    expect(await fetcher({ query: '{ a }' })).toEqual({
      errors: [{ message: 'The GraphQL API answered 502 without a GraphQL body', extensions: { code: 'HTTP_502' } }],
    });
  });
});
