/**
 * Limits of a GraphQL delivery query, computed on its parsed document before it runs
 * (docs/graphql.md "Limits" (D103)): its depth at most GRAPHQL_MAX_DEPTH (default 12) and its
 * cost at most GRAPHQL_MAX_COST (default 10,000); over either, 400 `QUERY_TOO_COMPLEX` with
 * `extensions.limit` and `extensions.depth` or `extensions.cost`.
 *
 * - Depth: the longest chain of nested fields, a root field being 1 (`{ post { author { name } } }`
 *   is 3). Fragments and inline fragments add no level of their own.
 * - Cost: every field whose type is an object (or interface or union) costs 1 plus what it selects;
 *   a field of a list of objects outside a connection (relation_list, media_list, `blocks`,
 *   `children`) costs 10 times that; a collection (a connection: a type with `pageInfo` and
 *   `edges` or `nodes`) costs 1 plus its `first` or `last` (default 10, counted up to 100, the most
 *   a collection returns) times what it selects, and its `edges` and `nodes` lists cost 1 per item
 *   like any object (the collection's multiplier already counts the items). Scalars cost nothing.
 *   Of an interface or union, the costliest possible type counts. `@skip`/`@include` are honored.
 * - Introspection (`__schema`, `__type`, `__typename`) is exempt from both, with all it selects.
 * - Fragments are followed wherever they are spread; a fragment cycle is not followed again (the
 *   validation refuses it anyway). A document whose fragments expand to more than MAX_SELECTIONS
 *   selections is refused the same way (`extensions.limit`, `extensions.selections`) before its
 *   cost is computed, so fragments spreading fragments cannot make the check itself slow.
 *
 * The cost is computed by graphql-query-complexity with the estimator below; depth and the
 * expansion count by a walk over the document. Pure: no I/O, no state.
 */
import {
  getNamedType,
  getNullableType,
  GraphQLError,
  isCompositeType,
  isListType,
  isObjectType,
  Kind,
  TypeInfo,
  ValidationContext,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { createComplexityRule, type ComplexityEstimatorArgs } from 'graphql-query-complexity';
import type { Plugin } from 'graphql-yoga';

/** The two limits of D103, from GRAPHQL_MAX_DEPTH and GRAPHQL_MAX_COST. */
export interface QueryLimits {
  readonly maxDepth: number;
  readonly maxCost: number;
}

export const DEFAULT_MAX_DEPTH = 12;
export const DEFAULT_MAX_COST = 10_000;
/** Items a collection is counted for without `first`/`last` (its default page size). */
export const DEFAULT_PAGE_SIZE = 10;
/** The most items a collection returns: a larger `first`/`last` is refused when it runs. */
export const MAX_PAGE_SIZE = 100;
/** Items a plain list of objects (relation_list, media_list, blocks, children) is counted for. */
export const LIST_FACTOR = 10;
/** Most selections a document may expand to once its fragments are spread. */
export const MAX_SELECTIONS = 10_000;

/** What a document measures: depth, cost, and the selections it expands to. */
export interface QueryMeasure {
  depth: number;
  cost: number;
  selections: number;
}

/** Options of one execution: the variables and the operation it runs. */
export interface MeasureOptions {
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

function isIntrospection(name: string): boolean {
  return name.startsWith('__');
}

/** A connection type: one with `pageInfo` and `edges` or `nodes` (the Relay shape of D102). */
function isConnection(type: GraphQLNamedType): boolean {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return 'pageInfo' in fields && ('edges' in fields || 'nodes' in fields);
}

/** The items a collection is counted for: `first` or `last` (the larger), else 10, at most 100. */
function pageSize(args: Record<string, unknown>): number {
  const sizes = [args.first, args.last].filter((n): n is number => typeof n === 'number');
  const n = sizes.length ? Math.max(...sizes) : DEFAULT_PAGE_SIZE;
  return Math.min(Math.max(n, 0), MAX_PAGE_SIZE);
}

/** The estimator of the cost rule above (see the module comment), for graphql-query-complexity. */
export function estimateCost({ type, field, args, childComplexity }: ComplexityEstimatorArgs): number {
  if (isIntrospection(field.name)) return 0;
  const named = getNamedType(field.type);
  if (!isCompositeType(named)) return 0;
  if (isConnection(named)) return 1 + pageSize(args) * childComplexity;
  const own = 1 + childComplexity;
  return isListType(getNullableType(field.type)) && !isConnection(type) ? LIST_FACTOR * own : own;
}

/** The operations an execution runs: the one named, else all (an unnamed document has one). */
function operationsOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode[] {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? ops.filter((op) => op.name?.value === operationName) : ops;
}

/**
 * Depth and expanded selection count of `operations`, each fragment measured once (memoized), a
 * fragment already being expanded on the current path counted as empty.
 */
function measureShape(document: DocumentNode, operations: OperationDefinitionNode[]): { depth: number; selections: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const memo = new Map<string, { depth: number; selections: number }>();
  const active = new Set<string>();

  const walk = (set: SelectionSetNode): { depth: number; selections: number } => {
    let depth = 0;
    let selections = 0;
    for (const sel of set.selections) {
      selections += 1;
      if (sel.kind === Kind.FIELD) {
        const inner = sel.selectionSet ? walk(sel.selectionSet) : { depth: 0, selections: 0 };
        selections += inner.selections;
        if (!isIntrospection(sel.name.value)) depth = Math.max(depth, 1 + inner.depth);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        const inner = walk(sel.selectionSet);
        selections += inner.selections;
        depth = Math.max(depth, inner.depth);
      } else {
        const name = sel.name.value;
        const fragment = fragments.get(name);
        if (!fragment || active.has(name)) continue;
        let inner = memo.get(name);
        if (!inner) {
          active.add(name);
          inner = walk(fragment.selectionSet);
          active.delete(name);
          memo.set(name, inner);
        }
        selections += inner.selections;
        depth = Math.max(depth, inner.depth);
      }
    }
    return { depth, selections };
  };

  let depth = 0;
  let selections = 0;
  for (const op of operations) {
    const m = walk(op.selectionSet);
    depth = Math.max(depth, m.depth);
    selections += m.selections;
  }
  return { depth, selections };
}

/**
 * The cost of `operations` under the estimator above, with the execution's variables. A field
 * whose arguments cannot be read (it fails when it runs) and an operation whose variables are
 * refused (it does not run) add nothing; the rest of the document is still counted.
 */
function measureCost(schema: GraphQLSchema, document: DocumentNode, options: MeasureOptions): number {
  let cost = 0;
  const typeInfo = new TypeInfo(schema);
  // Errors of reading arguments and variables are the execution's to report.
  const context = new ValidationContext(schema, document, typeInfo, () => undefined);
  const rule = createComplexityRule({
    maximumComplexity: Infinity,
    estimators: [estimateCost],
    variables: options.variables ?? {},
    operationName: options.operationName ?? undefined,
    maxQueryNodes: MAX_SELECTIONS + 2,
    onComplete: (complexity) => {
      cost = complexity;
    },
  });
  visit(document, visitWithTypeInfo(typeInfo, rule(context)));
  return cost;
}

/**
 * Depth, cost and expanded selections of the operation `options.operationName` of `document` (all
 * of its operations when unnamed). The cost is computed only when the document expands to at most
 * MAX_SELECTIONS selections (else it is reported as 0: the document is refused on its size).
 */
export function measureQuery(schema: GraphQLSchema, document: DocumentNode, options: MeasureOptions = {}): QueryMeasure {
  const shape = measureShape(document, operationsOf(document, options.operationName));
  const cost = shape.selections > MAX_SELECTIONS ? 0 : measureCost(schema, document, options);
  return { ...shape, cost };
}

/** A `QUERY_TOO_COMPLEX` error answering 400, with the limit and the measure that broke it. */
function tooComplex(message: string, extensions: Record<string, number>): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'QUERY_TOO_COMPLEX', ...extensions, http: { status: 400, spec: false } },
  });
}

/**
 * The error a query over `limits` answers with, or null when it may run. Expansion is checked
 * first, then depth, then cost.
 */
export function checkQueryLimits(schema: GraphQLSchema, document: DocumentNode, options: MeasureOptions, limits: QueryLimits): GraphQLError | null {
  return limitError(measureQuery(schema, document, options), limits);
}

/** The error of checkQueryLimits for a query measuring `m`, made anew on each call. */
function limitError(m: QueryMeasure, limits: QueryLimits): GraphQLError | null {
  if (m.selections > MAX_SELECTIONS) {
    return tooComplex(`Query expands to ${m.selections} selections once its fragments are spread; the limit is ${MAX_SELECTIONS}`, {
      limit: MAX_SELECTIONS,
      selections: m.selections,
    });
  }
  if (m.depth > limits.maxDepth) {
    return tooComplex(`Query depth ${m.depth} exceeds the limit of ${limits.maxDepth}`, { limit: limits.maxDepth, depth: m.depth });
  }
  if (m.cost > limits.maxCost) {
    return tooComplex(`Query cost ${m.cost} exceeds the limit of ${limits.maxCost}`, { limit: limits.maxCost, cost: m.cost });
  }
  return null;
}

/** Measures kept per document (and schema) for its variables and operation: at most this many each. */
const VERDICTS_PER_DOCUMENT = 64;

/**
 * A GraphQL Yoga plugin applying checkQueryLimits to every execution, after the document is parsed
 * and validated and before any resolver runs (in onExecute, not in the validation: the validation
 * result is cached per document, while the cost depends on the variables). Yoga parses a query
 * text it has seen into the same document object, so the measure is kept per schema, document,
 * variables and operation (at most VERDICTS_PER_DOCUMENT of each document, in this plugin, which
 * lives with its app): a query run again is not measured again.
 */
export function useQueryLimits(limits: QueryLimits): Plugin<Record<string, unknown>> {
  const measures = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, QueryMeasure>>>();
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const variables = args.variableValues as Record<string, unknown> | null | undefined;
      let bySchema = measures.get(args.schema);
      if (!bySchema) measures.set(args.schema, (bySchema = new WeakMap()));
      let byDocument = bySchema.get(args.document);
      if (!byDocument) bySchema.set(args.document, (byDocument = new Map()));
      const key = `${args.operationName ?? ''}\n${JSON.stringify(variables ?? {})}`;
      let measure = byDocument.get(key);
      if (measure === undefined) {
        measure = measureQuery(args.schema, args.document, { variables, operationName: args.operationName });
        if (byDocument.size >= VERDICTS_PER_DOCUMENT) byDocument.clear();
        byDocument.set(key, measure);
      }
      const error = limitError(measure, limits);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}
