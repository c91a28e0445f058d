/**
 * The workers of GraphiQL's editor (Monaco): the editor's own, JSON (variables, headers and the
 * answer) and GraphQL (validation and completion against the schema). Vite builds each `?worker`
 * import into its own script file under /studio/assets/, started with `new Worker(url)`, so they
 * run under the Studio's `script-src 'self'` and `worker-src 'self'` without a blob: or data: URL
 * (docs/studio.md "GraphQL explorer"). Imported only by the explorer's chunk.
 */
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import JsonWorker from 'monaco-editor/esm/vs/language/json/json.worker.js?worker';
import GraphQLWorker from 'monaco-graphql/esm/graphql.worker.js?worker';

(globalThis as { MonacoEnvironment?: unknown }).MonacoEnvironment = {
  getWorker(_workerId: string, label: string): Worker {
    if (label === 'json') return new JsonWorker();
    if (label === 'graphql') return new GraphQLWorker();
    return new EditorWorker();
  },
};
