/**
 * GraphiQL 5 itself (its Monaco editor, documentation explorer and history), in a chunk of its own
 * that only the GraphQL explorer screen loads (docs/studio.md "GraphQL explorer"). The editor's
 * workers are script files of the build (./monaco-workers). GraphiQL keeps its tabs, queries and
 * history in localStorage under a name per workspace; request headers are never stored, and the
 * delivery key is not a header it sees (the fetcher adds it).
 */
import { GraphiQL, type GraphiQLProps } from 'graphiql';
import 'graphiql/style.css';
import './graphiql-overrides.css';
import './monaco-workers';
import type { GraphQLParams } from './explorer';

type GraphiqlStorage = NonNullable<GraphiQLProps['storage']>;

/** localStorage seen through a prefix: one workspace's GraphiQL state never mixes with another's. */
function prefixedStorage(prefix: string): GraphiqlStorage {
  const ours = () => Object.keys(localStorage).filter((k) => k.startsWith(prefix));
  return {
    getItem: (key) => localStorage.getItem(prefix + key),
    setItem: (key, value) => localStorage.setItem(prefix + key, value),
    removeItem: (key) => localStorage.removeItem(prefix + key),
    clear: () => ours().forEach((k) => localStorage.removeItem(k)),
    get length() {
      return ours().length;
    },
  };
}

export interface GraphiqlPaneProps {
  workspaceId: string;
  /** explorer.ts createFetcher: answers GraphQL over HTTP bodies as they came */
  fetcher: (params: GraphQLParams, opts?: { headers?: Record<string, unknown> }) => Promise<unknown>;
  defaultQuery: string;
}

export default function GraphiqlPane({ workspaceId, fetcher, defaultQuery }: GraphiqlPaneProps) {
  return (
    <GraphiQL
      fetcher={fetcher as GraphiQLProps['fetcher']}
      defaultQuery={defaultQuery}
      storage={prefixedStorage(`quire.graphiql.${workspaceId}:`)}
      shouldPersistHeaders={false}
      showPersistHeadersSettings={false}
      forcedTheme="light"
      defaultEditorToolsVisibility={false}
    />
  );
}
