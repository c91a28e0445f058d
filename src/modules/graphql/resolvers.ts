/**
 * Root fields of the GraphQL schema (docs/graphql.md "Root fields", D102), each calling the
 * delivery operation its REST endpoint calls, so both APIs answer a question alike: visibility,
 * whitelist, locale and fallback, filters (`where` read as REST filters: parseFilter, filter-tree.ts),
 * sorts (`order` as REST's `sort`), signed cursors bound like REST's (D44). Errors become GraphQL
 * errors with `extensions.code` (errors.ts); an entry, page or asset that is not there, or not
 * visible to the key, is null.
 */
import type { GraphQLFieldResolver } from 'graphql';
import { AppError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { countEntryList, entryCursor, planEntryList, readEntryBySlug, readEntryWindow } from '../delivery/operations.js';
import { flattenFilters, parseSysFilter, type FilterNode, type SysColumn } from '../delivery/filter-tree.js';
import { parseFilter } from '../delivery/filters.js';
import { resolveRequestedLocale } from '../delivery/localization.js';
import type { DeliveryType } from '../delivery/model.js';
import { parseSort } from '../delivery/sort.js';
import { requireEntryType } from '../delivery/visibility.js';
import { listDeliveryMediaWindow } from '../media/delivery.js';
import { countPageList, deliveredListPage, deliveredPage, findVisiblePage, pageCursor, planPageList, readPageWindow } from '../pages/delivery.js';
import { effectiveStatus } from '../publishing/states.js';
import { entryNode, type EntryNode, type PageNode } from './context.js';
import { badInput, toGraphqlError } from './errors.js';
import type { TypeNames } from './names.js';
import type { ResolverContext } from './types.js';

type Resolver<A> = GraphQLFieldResolver<unknown, ResolverContext, A>;

/** The most items one collection returns (D102, as REST's `limit`). */
export const MAX_FIRST = 100;

/** Runs a resolver body, turning what it throws into a GraphQL error; NOT_FOUND reads as null. */
async function guarded<T>(c: ResolverContext, run: () => Promise<T>): Promise<T | null> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return null;
    throw toGraphqlError(err, c.quire.ctx.log);
  }
}

/** The page size of a collection: `last` when given, else `first`; 0 to 100 (BAD_USER_INPUT). */
function pageSize(args: { first?: number | null; last?: number | null }): number {
  const [name, n] = args.last !== undefined && args.last !== null ? ['last', args.last] : ['first', args.first ?? 10];
  if (n < 0 || n > MAX_FIRST) throw badInput(name, `must be from 0 to ${MAX_FIRST}`);
  return n;
}

/**
 * A Relay connection of `nodes`; `cursorOf(i)` signs the cursor of node i. Cursors are made only
 * when `edges { cursor }` or `pageInfo { startCursor endCursor }` is asked for (graphql-js calls a
 * function-valued field): signing one costs two HMACs, which were 12 % of a 10-post list query
 * that selected `nodes` only.
 */
function connection<N>(
  nodes: N[],
  cursorOf: (i: number) => string,
  info: { hasNextPage: boolean; hasPreviousPage: boolean },
  totalCount: () => Promise<number>,
) {
  const last = nodes.length - 1;
  return {
    edges: () => nodes.map((node, i) => ({ node, cursor: () => cursorOf(i) })),
    nodes,
    pageInfo: { ...info, startCursor: () => (last < 0 ? null : cursorOf(0)), endCursor: () => (last < 0 ? null : cursorOf(last)) },
    totalCount,
  };
}

/** `blogPost(slug, id, locale)`: exactly one of slug and id (BAD_USER_INPUT). */
export function entryRoot(typeSlug: string): Resolver<{ slug?: string | null; id?: string | null; locale?: string | null }> {
  return (_root, args, c) => {
    const slug = args.slug ?? null;
    const id = args.id ?? null;
    if ((slug === null) === (id === null)) throw badInput(slug === null ? 'slug' : 'id', 'give exactly one of slug and id');
    const q = c.quire;
    return guarded(c, async (): Promise<EntryNode | null> => {
      if (slug !== null) {
        const found = await readEntryBySlug(q.ctx, q.actor, slug, typeSlug, args.locale ?? undefined, q.schema);
        return entryNode({ row: effectiveStatus(found.row, found.now), type: found.type }, found.locale);
      }
      const type = requireEntryType(q.schema, q.actor, typeSlug);
      const locale = resolveRequestedLocale(q.schema.workspace, args.locale ?? undefined);
      if (!isUuid(id!)) return null;
      const node = await q.entries(locale).load(id!.toLowerCase());
      return node && node.type.id === type.id ? node : null;
    });
  };
}

type WhereInput = Record<string, unknown>;

const SYS_COLUMNS: Record<string, SysColumn> = { slug: 'slug', publishedAt: 'published_at', updatedAt: 'updated_at', createdAt: 'created_at' };

/** A `where` input as a filter tree of REST filters (parseFilter) and column conditions (parseSysFilter). */
function whereTree(type: DeliveryType, names: TypeNames, where: WhereInput, path: string): FilterNode {
  const byName = new Map([...names.fields].map(([field, name]) => [name, field]));
  const parts: FilterNode[] = [];
  for (const [key, input] of Object.entries(where)) {
    if (input === null || input === undefined) continue;
    if (key === 'AND' || key === 'OR') {
      const list = (input as WhereInput[]).map((w, i) => whereTree(type, names, w, `${path}.${key}[${i}]`));
      parts.push(key === 'AND' ? { and: list } : { or: list });
    } else if (key === 'sys') {
      for (const [name, ops] of Object.entries(input as WhereInput)) {
        if (ops === null || ops === undefined) continue;
        for (const [op, raw] of Object.entries(ops as WhereInput)) {
          if (raw !== null && raw !== undefined)
            parts.push(parseSysFilter(`${path}.sys.${name}.${op}`, SYS_COLUMNS[name], op, raw as string | boolean | string[]));
        }
      }
    } else {
      const field = byName.get(key) ?? key;
      for (const [op, raw] of Object.entries(input as WhereInput)) {
        if (raw === null || raw === undefined) continue;
        const text = Array.isArray(raw) ? raw.map(String) : String(raw);
        parts.push(parseFilter(type, `${path}.${key}.${op}`, field, op, text));
      }
    }
  }
  return { and: parts };
}

interface CollectionArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
  locale?: string | null;
  where?: WhereInput | null;
  order?: string[] | null;
}

/**
 * `blogPostCollection`: REST's list (planEntryList, readEntryWindow) with `order` as its `sort`
 * (one value at a time, as REST sorts by one key; ties by id) and `where` as its filters.
 * `first`/`after` read forward; `last`/`before` read backward (either of them given).
 */
export function entryCollectionRoot(type: DeliveryType, names: TypeNames): Resolver<CollectionArgs> {
  return (_root, args, c) => {
    const limit = pageSize(args);
    if ((args.order?.length ?? 0) > 1) throw badInput('order', 'takes one value: lists sort by one key, ties by id');
    const q = c.quire;
    const backward = (args.last ?? null) !== null || (args.before ?? null) !== null;
    return guarded(c, async () => {
      const plan = await planEntryList(
        q.ctx,
        q.actor,
        type.slug,
        args.locale ?? undefined,
        (_schema, t) => {
          const sort = parseSort(t, args.order?.[0]);
          const tree = args.where ? whereTree(t, names, args.where, 'where') : null;
          const flat = flattenFilters(tree);
          return flat !== null ? { sort, filters: flat } : { sort, filters: [], where: tree };
        },
        q.schema,
      );
      const cursor = (backward ? args.before : args.after) ?? undefined;
      const window = await readEntryWindow(q.ctx, plan, { limit, cursor, backward });
      const loader = q.entries(plan.locale);
      const nodes = window.rows.map((row) => {
        const node = entryNode({ row: effectiveStatus(row, plan.now), type: plan.type }, plan.locale);
        // A relation to an entry of this list needs no query of its own.
        loader.prime(node.id, node);
        return node;
      });
      const info = backward
        ? { hasNextPage: cursor !== undefined, hasPreviousPage: window.more }
        : { hasNextPage: window.more, hasPreviousPage: cursor !== undefined };
      return connection(
        nodes,
        (i) => entryCursor(q.ctx, plan, window.rows[i]),
        info,
        async () => (await countEntryList(q.ctx, plan)).total,
      );
    });
  };
}

/** `page(slug, locale)`: REST's GET /pages/{slug}; blocks through the request's loaders. */
export const pageRoot: Resolver<{ slug: string; locale?: string | null }> = (_root, args, c) =>
  guarded(c, async (): Promise<PageNode> => {
    const found = await findVisiblePage(c.quire.ctx, c.quire.actor, args.slug, { locale: args.locale ?? undefined }, c.quire.schema);
    return { page: deliveredPage(found, false), row: found.row, locale: found.locale, blocksTranslated: null };
  });

/** `pageCollection(first, after, locale)`: REST's GET /pages in navigation order (`position`). */
export const pageCollectionRoot: Resolver<{ first?: number | null; after?: string | null; locale?: string | null }> = (_root, args, c) => {
  const limit = pageSize({ first: args.first });
  const q = c.quire;
  return guarded(c, async () => {
    const plan = await planPageList(q.ctx, q.actor, { locale: args.locale ?? undefined }, q.schema);
    const window = await readPageWindow(q.ctx, plan, { limit, cursor: args.after ?? undefined });
    const nodes: PageNode[] = window.rows.map((row) => {
      const page = deliveredListPage(plan, row);
      return { page, row, locale: plan.locale, blocksTranslated: page.is_fallback === undefined ? null : !page.is_fallback };
    });
    return connection(
      nodes,
      (i) => pageCursor(q.ctx, plan, window.rows[i]),
      { hasNextPage: window.more, hasPreviousPage: args.after !== undefined && args.after !== null },
      () => countPageList(q.ctx, plan),
    );
  });
};

/** `asset(id)`: REST's GET /media/{id} (the key's workspace, live assets only). */
export const assetRoot: Resolver<{ id: string }> = (_root, args, c) => (isUuid(args.id) ? c.quire.media.load(args.id.toLowerCase()) : null);

/** `assetCollection(first, after, where: {mimeType, folder})`: the workspace's live assets, newest first. */
export const assetCollectionRoot: Resolver<{
  first?: number | null;
  after?: string | null;
  where?: { mimeType?: string | null; folder?: string | null } | null;
}> = (_root, args, c) => {
  const limit = pageSize({ first: args.first });
  const q = c.quire;
  return guarded(c, async () => {
    const window = await listDeliveryMediaWindow(q.ctx, q.actor, {
      limit,
      cursor: args.after ?? undefined,
      mimeType: args.where?.mimeType ?? undefined,
      folder: args.where?.folder ?? undefined,
    });
    return connection(
      window.items,
      (i) => window.cursors[i],
      { hasNextPage: window.more, hasPreviousPage: args.after !== undefined && args.after !== null },
      window.total,
    );
  });
};
