/**
 * Content Source Maps and stega in GraphQL answers (docs/visual-editing.md, docs/graphql.md
 * "Source maps and stega"; D140): a request whose `extensions` hold `sourceMaps: true` gets
 * `extensions.sourceMap` in its answer, one with `stega: true` gets its text strings encoded; both
 * for preview keys only (a production key's request answers 400 `BAD_REQUEST`). Resolvers trace
 * what they return with the read model's walker (src/modules/read/source-map.ts), the same REST
 * uses, at the JSONPath of the field in `data` (aliases and list positions as the answer has them).
 */
import { GraphQLError, type GraphQLResolveInfo } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { AppError } from '../../errors.js';
import type { Actor } from '../auth/permissions.js';
import { blockOrigin, entryOrigin, jsonPath, sourceMapOf, type OriginItem, type Trace } from '../read/source-map.js';
import { openTrace } from '../read/trace.js';
import type { DeliverySchema } from '../delivery/model.js';
import type { BlockNode, EntryNode, GraphqlRequest } from './context.js';

/** The names of the trace switches in a GraphQL request's `extensions`. */
const NAMES = { sourceMaps: 'extensions.sourceMaps', stega: 'extensions.stega' };

/** What `extensions` asks for: `sourceMaps` and `stega` when exactly `true`. */
export function traceFlags(extensions: unknown): { sourceMaps: boolean; stega: boolean } {
  const e = extensions !== null && typeof extensions === 'object' ? (extensions as Record<string, unknown>) : {};
  return { sourceMaps: e.sourceMaps === true, stega: e.stega === true };
}

/**
 * The trace of a GraphQL request (null when it asks for neither), or a 400 `BAD_REQUEST` GraphQL
 * error naming the extension when a production key asks (the REST rule, openTrace).
 */
export function graphqlTrace(publicUrl: string, actor: Actor, model: DeliverySchema, extensions: unknown): Trace | null {
  try {
    return openTrace(publicUrl, actor, model.workspace, { ...traceFlags(extensions), names: NAMES });
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    throw new GraphQLError(`${err.errors?.[0]?.path ?? 'extensions'}: ${err.errors?.[0]?.message ?? err.message}`, {
      extensions: { code: 'BAD_REQUEST', errors: err.errors, http: { status: 400 } },
    });
  }
}

/** The JSONPath in `data` of the field being resolved (response names: aliases; list positions). */
export function pathOf(info: Pick<GraphQLResolveInfo, 'path'>): string {
  const keys: (string | number)[] = [];
  for (let p: GraphQLResolveInfo['path'] | undefined = info.path; p; p = p.prev) keys.push(p.key);
  return keys.reverse().reduce<string>((at, key) => jsonPath(at, key), '$');
}

/** The origin item of an entry or block node (a block's page slug was noted when its page's blocks were asked for). */
export function nodeOrigin(q: GraphqlRequest, trace: Trace, n: EntryNode | BlockNode): OriginItem {
  if (n.kind === 'entry') return entryOrigin(trace, { id: n.id, type: n.type.slug, slug: n.slug });
  return blockOrigin(trace, { id: n.id, type: n.type.slug, path: n.path }, { slug: q.pageSlugs.get(n.pageId) ?? '' });
}

/** The Yoga plugin adding `extensions.sourceMap` to the answer of a request that asked for it. */
export function useSourceMapExtension(): Plugin<Record<string, unknown>> {
  return {
    onExecute({ args }) {
      const trace = (args.contextValue as { quire?: GraphqlRequest }).quire?.trace ?? null;
      if (trace === null || !trace.map) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          setResult({ ...result, extensions: { ...result.extensions, sourceMap: sourceMapOf(trace) } });
        },
      };
    },
  };
}
