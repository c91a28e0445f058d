/**
 * /studio/:workspace/graphql — the GraphQL explorer (docs/studio.md "GraphQL explorer"): the
 * screen (ExplorerScreen) with GraphiQL as its editor. GraphiqlPane is imported statically, so
 * GraphiQL comes with this route's lazy chunk and no other screen loads it; a second lazy boundary
 * here made the bundler split modules of every other screen's first load into more chunks
 * (test/studio-bundle.test.ts holds the first loads).
 */
import { ExplorerScreen } from './ExplorerScreen';
import GraphiqlPane from './GraphiqlPane';

export default function ApiExplorer() {
  return <ExplorerScreen Pane={GraphiqlPane} />;
}
