/**
 * What a GraphQL request carries (docs/graphql.md "Relations", D102): the reader (a delivery key),
 * the workspace's model, one clock reading, and one set of DataLoaders made for this request
 * only, so every level of a query loads its entries, assets and blocks in one query each,
 * whatever the number of items on it. Loaders are kept per locale, since a root field's `locale`
 * applies to everything below it.
 */
import DataLoader from 'dataloader';
import type { Context } from '../../context.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import { readEntriesByIds, readMediaByIds, type VisibleEntry } from '../delivery/batch.js';
import { isFallback, type RequestedLocale } from '../delivery/localization.js';
import type { DeliverySchema, DeliveryType } from '../delivery/model.js';
import { objectColumn, type LocalizedData } from '../delivery/relations.js';
import type { DeliveryMedia } from '../media/model.js';
import { readPageBlocks, type LoadedBlock } from '../pages/delivery.js';
import { perspectiveOf, type Perspective } from '../read/perspective.js';
import type { DeliveredPage } from '../pages/delivery.js';
import type { DeliveryPageRow } from '../pages/delivery-repository.js';
import type { Trace } from '../read/source-map.js';

/** An entry as resolvers see it: its row, type, localized data, the locale it was read in. */
export interface EntryNode extends LocalizedData, VisibleEntry {
  kind: 'entry';
  id: string;
  slug: string;
  locale: RequestedLocale;
}

/** A page block with its children, read in `locale`. */
export interface BlockNode extends LocalizedData {
  kind: 'block';
  id: string;
  type: DeliveryType;
  position: number;
  children: BlockNode[];
  locale: RequestedLocale;
  /** Its page, and its place in it (`blocks.0.children.1`): what source maps name (D140). */
  pageId: string;
  path: string;
}

/** A delivered page read in `locale`; `blocksTranslated` is known for list rows, else read with the blocks. */
export interface PageNode {
  page: DeliveredPage;
  row: DeliveryPageRow;
  locale: RequestedLocale;
  blocksTranslated: boolean | null;
}

/** The per-request state hung off Yoga's context as `quire`. */
export interface GraphqlRequest {
  ctx: Context;
  actor: Actor;
  schema: DeliverySchema;
  perspective: Perspective;
  /** The request's time (ISO), so every level sees the same scheduled items (D21). */
  now: string;
  entries(locale: RequestedLocale): DataLoader<string, EntryNode | null>;
  media: DataLoader<string, DeliveryMedia | null>;
  /** Root blocks (children nested) by page id. */
  blocks(locale: RequestedLocale): DataLoader<string, { roots: BlockNode[]; translated: boolean }>;
  /** D140: the answer's trace (source map, stega), null when not asked for. */
  trace: Trace | null;
  /** Slugs of the pages whose blocks were asked for, by id (a block's Studio URL names its page). */
  pageSlugs: Map<string, string>;
}

/** The node of a visible entry read in `locale`. */
export function entryNode(entry: VisibleEntry, locale: RequestedLocale): EntryNode {
  const { row } = entry;
  const translation = row.tr_data === null || row.tr_data === undefined ? null : objectColumn(row.tr_data);
  return { kind: 'entry', ...entry, id: row.id, slug: row.slug, data: objectColumn(row.data), translation, locale };
}

/** Whether the entry read in its locale fell back to the default (D40). */
export function entryIsFallback(node: EntryNode): boolean {
  return isFallback(node.locale, node.translation !== null);
}

/** The block tree of one page: roots by position, each block's children by position. */
function blockTree(schema: DeliverySchema, blocks: readonly LoadedBlock[], locale: RequestedLocale): BlockNode[] {
  const nodes = new Map<string, BlockNode>();
  for (const b of blocks) {
    const type = schema.byId.get(b.block_type_id);
    if (type) nodes.set(b.id, { kind: 'block', id: b.id, type, position: b.position, children: [], locale, pageId: b.page_id, path: '', ...b.item });
  }
  const roots: BlockNode[] = [];
  for (const b of blocks) {
    const node = nodes.get(b.id);
    if (!node) continue;
    const parent = b.parent_id === null ? undefined : nodes.get(b.parent_id);
    if (b.parent_id === null) roots.push(node);
    else if (parent) parent.children.push(node);
  }
  const order = (list: BlockNode[], at: string) => {
    list.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1));
    list.forEach((n, i) => {
      n.path = `${at}.${i}`;
      order(n.children, `${n.path}.children`);
    });
  };
  order(roots, 'blocks');
  return roots;
}

function perLocale<V>(make: (locale: RequestedLocale) => DataLoader<string, V>): (locale: RequestedLocale) => DataLoader<string, V> {
  const loaders = new Map<string, DataLoader<string, V>>();
  return (locale) => {
    const key = `${locale.locale}\n${locale.requested ?? ''}`;
    let loader = loaders.get(key);
    if (!loader) {
      loader = make(locale);
      loaders.set(key, loader);
    }
    return loader;
  };
}

/** The state of one GraphQL request by `actor` against the workspace's `schema`. */
export function graphqlRequest(ctx: Context, actor: Actor, schema: DeliverySchema, trace: Trace | null = null): GraphqlRequest {
  const now = iso(ctx.clock());
  const perspective = perspectiveOf(actor);
  return {
    ctx,
    actor,
    schema,
    perspective,
    now,
    trace,
    pageSlugs: new Map(),
    entries: perLocale(
      (locale) =>
        new DataLoader<string, EntryNode | null>(async (ids) => {
          const found = await readEntriesByIds(ctx, actor, schema, locale, now, ids);
          return ids.map((id) => {
            const e = found.get(id);
            return e ? entryNode(e, locale) : null;
          });
        }),
    ),
    media: new DataLoader<string, DeliveryMedia | null>(async (ids) => {
      const found = await readMediaByIds(ctx, actor.workspaceId, ids);
      return ids.map((id) => found.get(id) ?? null);
    }),
    blocks: perLocale(
      (locale) =>
        new DataLoader<string, { roots: BlockNode[]; translated: boolean }>(async (pageIds) => {
          const found = await readPageBlocks(ctx, schema, perspective, locale, pageIds);
          return pageIds.map((id) => {
            const blocks = found.get(id) ?? [];
            return { roots: blockTree(schema, blocks, locale), translated: blocks.some((b) => b.trId !== null) };
          });
        }),
    ),
  };
}
