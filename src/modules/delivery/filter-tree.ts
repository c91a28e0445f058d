/**
 * Filters combined with AND and OR, and filters on an entry's own columns (docs/graphql.md
 * "Filters", D102): what GraphQL's `where` asks, in the terms of the REST filters (filters.ts).
 * A field condition is exactly a REST filter (parseFilter: same operators, coercion and errors);
 * a column condition compares `slug`, `created_at`, `updated_at` or `published_at` as the list's
 * sort of that column reads it (query/conditions.ts sortExpression: per perspective, so a
 * production key compares the publication's `updated_at`, as it is shown). A tree that is a plain
 * AND of field conditions is handed to the repository as REST's filter list (flattenFilters), so
 * both APIs run the very same query for the same question.
 */
import { invalid } from '../../errors.js';
import { stableStringify } from '../../lib/json.js';
import { parseDatetime } from '../../lib/time.js';
import { sortFilters, type FilterCondition, type FilterScalar } from './filters.js';

/** The columns `where.sys` compares. */
export type SysColumn = 'slug' | 'created_at' | 'updated_at' | 'published_at';

export type SysOp = 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'in' | 'contains' | 'exists';

/** A condition on a column of the item itself. */
export type SysCondition =
  | { sys: SysColumn; op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains'; value: string }
  | { sys: SysColumn; op: 'in'; value: string[] }
  | { sys: SysColumn; op: 'exists'; value: boolean };

/** A filter tree: a field filter, a column condition, or an AND / OR of trees. */
export type FilterNode = FilterCondition | SysCondition | { and: FilterNode[] } | { or: FilterNode[] };

const SYS_OPS: readonly SysOp[] = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'exists'];
const MAX_IN = 100;

/**
 * A condition on column `column` with operator `op`: slugs compare as text, times as their UTC
 * instant (an ISO 8601 date-time with a zone; stored times are UTC ISO text, so they compare in
 * order). `contains` applies to the slug only. Throws 400 VALIDATION_FAILED at `path`.
 */
export function parseSysFilter(path: string, column: SysColumn, op: string, raw: string | boolean | readonly string[]): SysCondition {
  if (!(SYS_OPS as readonly string[]).includes(op)) throw invalid(path, `unknown operator '${op}'; use one of ${SYS_OPS.join(', ')}`);
  if (op === 'exists') {
    if (typeof raw !== 'boolean') throw invalid(path, 'must be true or false');
    return { sys: column, op, value: raw };
  }
  if (op === 'contains' && column !== 'slug') throw invalid(path, `operator 'contains' applies to the slug only`);
  const one = (text: string): string => {
    if (column === 'slug') {
      if (text === '' || text.length > 1000) throw invalid(path, 'must be 1 to 1000 characters');
      return text;
    }
    const d = parseDatetime(text);
    if (!d) throw invalid(path, 'must be an ISO 8601 date-time with a time zone');
    return d.instant;
  };
  if (op === 'in') {
    if (typeof raw === 'string' || typeof raw === 'boolean') throw invalid(path, 'must be a list');
    if (raw.length > MAX_IN) throw invalid(path, `may list at most ${MAX_IN} values`);
    return { sys: column, op, value: raw.map(one) };
  }
  if (typeof raw !== 'string') throw invalid(path, 'must be one value');
  return { sys: column, op: op as 'eq', value: one(raw) };
}

/** True for a field filter (a REST filter). */
export function isFieldCondition(node: FilterNode): node is FilterCondition {
  return 'field' in node;
}

/**
 * The tree as REST's filter list when it is one (an AND, at any depth, of field conditions
 * only), else null. An empty tree is the empty list.
 */
export function flattenFilters(node: FilterNode | null): FilterCondition[] | null {
  if (node === null) return [];
  const out: FilterCondition[] = [];
  const walk = (n: FilterNode): boolean => {
    if (isFieldCondition(n)) return out.push(n) > 0;
    if ('and' in n) return n.and.every(walk);
    return false;
  };
  return walk(node) ? sortFilters(out) : null;
}

function canonicalNode(node: FilterNode): unknown {
  if (isFieldCondition(node)) return [node.field.name, node.op, node.value as FilterScalar | FilterScalar[] | boolean];
  if ('sys' in node) return ['sys', node.sys, node.op, node.value];
  if ('and' in node) return { and: node.and.map(canonicalNode) };
  return { or: node.or.map(canonicalNode) };
}

/** Canonical text of a tree, bound into cursors (D44) like canonicalFilters. */
export function canonicalTree(node: FilterNode): string {
  return stableStringify(canonicalNode(node));
}
