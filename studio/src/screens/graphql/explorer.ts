/**
 * The GraphQL explorer's pure parts (docs/studio.md "GraphQL explorer"): where it keeps the
 * delivery keys it queries with, the query it opens with, and the fetcher GraphiQL calls.
 *
 * - Keys: the GraphQL delivery API takes a delivery key (`X-API-Key`), not the Studio's session.
 *   The explorer keeps up to two keys (production and preview) per workspace in the tab's
 *   sessionStorage, under `quire.explorer.<workspace id>`: never in localStorage, never in the URL,
 *   gone when the tab closes.
 * - The default query lists a few entries of the workspace's first content type through its
 *   collection root field, named by the server's own naming rules.
 */
import type { ContentType } from '../../api/types';
import { nameTypes } from '../../../../src/modules/graphql/names.js';

export const GRAPHQL_URL = '/api/v1/public/graphql';

export type Perspective = 'production' | 'preview';

/** The keys of one workspace and which one the explorer sends. */
export interface ExplorerKeys {
  production: string | null;
  preview: string | null;
  use: Perspective;
}

export const NO_KEYS: ExplorerKeys = { production: null, preview: null, use: 'production' };

type KeyStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const storageName = (workspaceId: string) => `quire.explorer.${workspaceId}`;

/** The keys stored for `workspaceId` (NO_KEYS when none, or when the stored value is not ours). */
export function loadKeys(workspaceId: string, storage: KeyStorage = sessionStorage): ExplorerKeys {
  try {
    const raw = JSON.parse(storage.getItem(storageName(workspaceId)) ?? 'null') as Partial<ExplorerKeys> | null;
    if (!raw || typeof raw !== 'object') return NO_KEYS;
    const key = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
    return normalize({ production: key(raw.production), preview: key(raw.preview), use: raw.use === 'preview' ? 'preview' : 'production' });
  } catch {
    return NO_KEYS;
  }
}

/** Stores the keys of `workspaceId` for this tab; no key at all removes the entry. */
export function saveKeys(workspaceId: string, keys: ExplorerKeys, storage: KeyStorage = sessionStorage): ExplorerKeys {
  const value = normalize(keys);
  if (!value.production && !value.preview) storage.removeItem(storageName(workspaceId));
  else storage.setItem(storageName(workspaceId), JSON.stringify(value));
  return value;
}

/** `use` names a key that is there: with one key, that one. */
function normalize(keys: ExplorerKeys): ExplorerKeys {
  if (keys.use === 'preview' && !keys.preview && keys.production) return { ...keys, use: 'production' };
  if (keys.use === 'production' && !keys.production && keys.preview) return { ...keys, use: 'preview' };
  return keys;
}

/** The key the explorer sends now, or null. */
export function activeKey(keys: ExplorerKeys): string | null {
  return keys[keys.use];
}

/** Field types whose GraphQL value is a plain scalar (docs/graphql.md "Types"), shown in the default query. */
const SCALAR_TYPES = new Set(['text', 'textarea', 'email', 'url', 'select', 'number', 'integer', 'boolean', 'date', 'datetime']);

/**
 * The query the explorer opens with: the first few entries of the workspace's first content type
 * (by name, as the navigation lists them) with their sys fields, display field and up to two more
 * scalar fields, named as the server names them (src/modules/graphql/names.ts, bundled as is:
 * `blog-post` → `blogPostCollection`, collisions and leading digits included); without a content
 * type, the pages in navigation order.
 */
export function defaultQuery(types: readonly ContentType[]): string {
  const names = nameTypes(types);
  const type = [...types].filter((t) => !t.is_block).sort((a, b) => a.name.localeCompare(b.name))[0];
  const help = '# Ctrl-Enter runs it; Ctrl-Space completes; Docs lists every type.';
  if (!type) {
    return [
      '# Pages in navigation order, with their SEO titles.',
      help,
      'query Pages {',
      '  pageCollection(first: 5) {',
      '    nodes {',
      '      slug',
      '      seo {',
      '        title',
      '      }',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n');
  }
  const named = names.get(type.id)!;
  const fields = [...type.fields].sort((a, b) => a.sort_order - b.sort_order).filter((f) => SCALAR_TYPES.has(f.field_type));
  const display = fields.find((f) => f.name === type.display_field);
  const shown = [...(display ? [display] : []), ...fields.filter((f) => f !== display)].slice(0, 3).map((f) => named.fields.get(f.name) ?? f.name);
  return [
    `# The first ${type.name} entries and the next page's cursor.`,
    help,
    `query ${named.type.replace(/^_/, '')}List {`,
    `  ${named.collection}(first: 5) {`,
    '    totalCount',
    '    nodes {',
    '      sys {',
    '        id',
    '        slug',
    '        publishedAt',
    '      }',
    ...shown.map((name) => `      ${name}`),
    '    }',
    '    pageInfo {',
    '      hasNextPage',
    '      endCursor',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
}

/** What GraphiQL hands a fetcher (its FetcherParams and FetcherOpts, as far as the explorer reads them). */
export interface GraphQLParams {
  query: string;
  operationName?: string | null;
  variables?: unknown;
}

/**
 * A GraphiQL fetcher that POSTs to the delivery API with `key` in `X-API-Key` (headers typed in
 * GraphiQL's header editor are added, and may replace it). The answer is GraphQL over HTTP
 * (`{data, errors}`) for every status, 4xx included; a body that is not JSON becomes an error
 * naming the status.
 */
export function createFetcher(key: string, fetchImpl: typeof fetch = (...args) => fetch(...args)) {
  return async (params: GraphQLParams, opts?: { headers?: Record<string, unknown> }) => {
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/graphql-response+json, application/json',
      'X-API-Key': key,
    };
    for (const [name, value] of Object.entries(opts?.headers ?? {})) if (typeof value === 'string') headers[name] = value;
    const res = await fetchImpl(GRAPHQL_URL, {
      method: 'POST',
      credentials: 'omit',
      headers,
      body: JSON.stringify({ query: params.query, operationName: params.operationName ?? undefined, variables: params.variables ?? undefined }),
    });
    const text = await res.text();
    try {
      return JSON.parse(text) as { data?: unknown; errors?: unknown[] };
    } catch {
      return { errors: [{ message: `The GraphQL API answered ${res.status} without a GraphQL body`, extensions: { code: `HTTP_${res.status}` } }] };
    }
  };
}
