/**
 * Block trees (docs/pages.md "The model" (D25)): the shape of `blocks` in page
 * writes, the limits
 * of a tree, and the conversions between the nested form clients see and the flat rows Quire
 * stores (`parent_id` + 0-based `position` among siblings).
 *
 * Input (D25): an array of blocks, each `{type, data}` or, for a full tree,
 * `{id?, type, data?, translations?, children?}` with `children` of the same shape. The read-only
 * keys a page read returns on each block (READ_ONLY_BLOCK_KEYS) are accepted and ignored, so a
 * block tree read can be sent back as it is (docs/pages.md "Writing a page back"): nesting and
 * array order decide the parent and position, `type` the block type. Limits: at
 * most MAX_BLOCK_DEPTH levels (roots are level 1) and MAX_BLOCKS blocks per page; beyond either,
 * 400 VALIDATION_FAILED naming the block that crosses the line. Traversal never goes deeper than
 * the limit, so an absurdly nested body cannot exhaust the stack.
 */
import { validationError, type ErrorDetail } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { isPlainObject } from '../../lib/json.js';

/** Deepest nesting a page may have (roots are level 1). */
export const MAX_BLOCK_DEPTH = 10;
/** Most blocks one page may hold. */
export const MAX_BLOCKS = 1000;

const BLOCK_KEYS = new Set(['id', 'type', 'data', 'translations', 'children']);
/** Keys of a block as reads return it that writes derive instead (the page, the type's id, the place in the tree). */
export const READ_ONLY_BLOCK_KEYS: ReadonlySet<string> = new Set(['page_id', 'block_type_id', 'parent_id', 'position']);

/** One block of a write, as sent (data and translations still unchecked). */
export interface BlockInput {
  /** Where the block is in the request, e.g. `body.blocks.0.children.1`. */
  path: string;
  /** Lowercased uuid when the client named the block. */
  id?: string;
  type: string;
  data: unknown;
  /** undefined when the block did not mention translations. */
  translations?: unknown;
  children: BlockInput[];
}

/** A block of a parsed tree in pre-order: parents come before their children. */
export interface FlatBlockInput {
  node: BlockInput;
  /** Index in the flat list of the parent; null for a root block. */
  parent: number | null;
  position: number;
  depth: number;
}

/**
 * Reads `blocks` of a page write. Throws 400 VALIDATION_FAILED listing the structural problems
 * (not an array, unknown keys, missing `type`, bad `id`, ids given twice), or at once when the
 * tree is deeper than MAX_BLOCK_DEPTH or holds more than MAX_BLOCKS blocks.
 */
export function parseBlockTree(input: unknown, path: string): BlockInput[] {
  const errors: ErrorDetail[] = [];
  const seenIds = new Map<string, string>();
  let count = 0;

  const parseList = (list: unknown, at: string, depth: number): BlockInput[] => {
    if (!Array.isArray(list)) {
      errors.push({ path: at, message: 'must be an array of blocks ({type, data, translations?, children?})' });
      return [];
    }
    if (list.length > 0 && depth > MAX_BLOCK_DEPTH) {
      throw validationError([{ path: at, message: `blocks nest at most ${MAX_BLOCK_DEPTH} levels deep; this tree goes deeper` }]);
    }
    const out: BlockInput[] = [];
    list.forEach((item, i) => {
      const p = `${at}.${i}`;
      count += 1;
      if (count > MAX_BLOCKS) throw validationError([{ path, message: `a page holds at most ${MAX_BLOCKS} blocks; this tree has more` }]);
      if (!isPlainObject(item)) {
        errors.push({ path: p, message: 'must be a block object {type, data, translations?, children?}' });
        return;
      }
      for (const k of Object.keys(item))
        if (!BLOCK_KEYS.has(k) && !READ_ONLY_BLOCK_KEYS.has(k)) errors.push({ path: `${p}.${k}`, message: 'is not a known key' });
      const node: BlockInput = { path: p, type: '', data: item.data, children: [] };
      if (typeof item.type !== 'string' || !item.type) errors.push({ path: `${p}.type`, message: 'is required: the slug of a block type' });
      else node.type = item.type;
      if (item.id !== undefined) {
        if (!isUuid(item.id)) errors.push({ path: `${p}.id`, message: 'must be a block id (uuid)' });
        else {
          const id = item.id.toLowerCase();
          const first = seenIds.get(id);
          if (first) errors.push({ path: `${p}.id`, message: `block '${id}' is already given at ${first}` });
          else seenIds.set(id, p);
          node.id = id;
        }
      }
      if (Object.hasOwn(item, 'translations')) node.translations = item.translations;
      if (item.children !== undefined && item.children !== null) node.children = parseList(item.children, `${p}.children`, depth + 1);
      out.push(node);
    });
    return out;
  };

  const roots = input === undefined || input === null ? [] : parseList(input, path, 1);
  if (errors.length) throw validationError(errors.slice(0, 100));
  return roots;
}

/** The blocks of a parsed tree in pre-order, with parent index, position and depth. */
export function flattenTree(roots: readonly BlockInput[]): FlatBlockInput[] {
  const out: FlatBlockInput[] = [];
  const visit = (nodes: readonly BlockInput[], parent: number | null, depth: number): void => {
    nodes.forEach((node, position) => {
      const index = out.length;
      out.push({ node, parent, position, depth });
      visit(node.children, index, depth + 1);
    });
  };
  visit(roots, null, 1);
  return out;
}

/** What nestBlocks needs of a stored block. */
export interface TreeRow {
  id: string;
  parent_id: string | null;
  position: number;
}

/**
 * Builds the nested form of flat rows: `make(row, children)` for each block, children first,
 * each level ordered by position (then id, for rows written with equal positions). Rows whose
 * parent is not among `rows` are left out; the depth is bounded by MAX_BLOCK_DEPTH + 1 so a
 * damaged tree cannot recurse without end.
 */
export function nestBlocks<R extends TreeRow, T>(rows: readonly R[], make: (row: R, children: T[]) => T): T[] {
  const byParent = new Map<string | null, R[]>();
  for (const r of rows) {
    const list = byParent.get(r.parent_id);
    if (list) list.push(r);
    else byParent.set(r.parent_id, [r]);
  }
  for (const list of byParent.values()) list.sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const build = (parent: string | null, depth: number): T[] => {
    const list = byParent.get(parent);
    if (!list || depth > MAX_BLOCK_DEPTH + 1) return [];
    return list.map((r) => make(r, build(r.id, depth + 1)));
  };
  return build(null, 1);
}

/** The request-style path of every block (`blocks.0.children.2`), for messages about stored blocks. */
export function treePaths(rows: readonly TreeRow[], prefix = 'blocks'): Map<string, string> {
  const out = new Map<string, string>();
  const assign = (nodes: { id: string; children: unknown[] }[], at: string): void => {
    nodes.forEach((n, i) => {
      out.set(n.id, `${at}.${i}`);
      assign(n.children as { id: string; children: unknown[] }[], `${at}.${i}.children`);
    });
  };
  assign(
    nestBlocks(rows, (r, children: { id: string; children: unknown[] }[]) => ({ id: r.id, children })),
    prefix,
  );
  return out;
}

/** Flat rows in pre-order (each parent before its children, siblings by position). */
export function preorder<R extends TreeRow>(rows: readonly R[]): R[] {
  const out: R[] = [];
  type Node = { row: R; children: Node[] };
  const walk = (nodes: Node[]): void => {
    for (const n of nodes) {
      out.push(n.row);
      walk(n.children);
    }
  };
  walk(nestBlocks<R, Node>(rows, (row, children) => ({ row, children })));
  return out;
}
