/**
 * The page editor's working copy and the pure operations on its block tree (docs/pages.md
 * "Blocks in a write", "PUT: replacing the tree, keeping block ids"; D25). The Studio names new
 * blocks itself (uuid v4), so a block keeps its id from the first autosave on and every PUT sends
 * the whole tree with ids: kept blocks keep their rows and translations wherever they move.
 *
 * Limits (the server's, checked here first so the editor can say why an action is not offered):
 * at most MAX_BLOCK_DEPTH levels (root blocks are level 1) and MAX_BLOCKS blocks per page.
 * Every operation returns a new tree (the old one is never changed) or a `TreeRefusal` naming the
 * limit it would break.
 */
import { parseData } from '../../api/client';
import type { PageDetail } from '../../api/types';
import type { EntryData, Translations } from '../entries/api';
import { wireTranslations } from '../entries/api';

/** Deepest nesting of a page (src/modules/pages/tree.ts MAX_BLOCK_DEPTH; a test keeps them equal). */
export const MAX_BLOCK_DEPTH = 10;
/** Most blocks of a page (src/modules/pages/tree.ts MAX_BLOCKS). */
export const MAX_BLOCKS = 1000;

export interface BlockNode {
  id: string;
  /** block type slug */
  type: string;
  /** default-locale values */
  data: EntryData;
  /** per locale, the localizable values that override `data` */
  translations: Translations;
  children: BlockNode[];
}

export interface Seo {
  title: string | null;
  description: string | null;
  keywords: string[];
  og_image: string | null;
  canonical: string | null;
}
export type SeoKey = keyof Seo;
export type SeoOverrides = Partial<Seo>;

/** What the editor edits and autosaves: the page's working copy. */
export interface PageDraft {
  seo: Seo;
  seoTranslations: Record<string, SeoOverrides>;
  blocks: BlockNode[];
}

export const EMPTY_SEO: Seo = { title: null, description: null, keywords: [], og_image: null, canonical: null };

/** Why an action on the tree is refused (shown as is). */
export interface TreeRefusal {
  refused: string;
}
export const isRefusal = (r: unknown): r is TreeRefusal => typeof r === 'object' && r !== null && 'refused' in r;

/** A uuid v4 from getRandomValues (crypto.randomUUID exists only on https and localhost). */
export function newBlockId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The draft of a management page detail (D1: block and translation data are JSON strings). */
export function draftOfPage(detail: Pick<PageDetail, 'page' | 'blocks' | 'seo_translations' | 'block_translations'>): PageDraft {
  const byBlock = new Map<string, Translations>();
  for (const t of detail.block_translations) {
    const list = byBlock.get(t.block_id) ?? {};
    list[t.locale] = parseData(t.data);
    byBlock.set(t.block_id, list);
  }
  type Wire = PageDetail['blocks'][number];
  const convert = (b: Wire): BlockNode => ({
    id: b.id,
    type: b.type,
    data: parseData(b.data),
    translations: byBlock.get(b.id) ?? {},
    children: (b.children as Wire[]).map(convert),
  });
  const seoTranslations: Record<string, SeoOverrides> = {};
  for (const t of detail.seo_translations) seoTranslations[t.locale] = { ...t.seo };
  return { seo: { ...EMPTY_SEO, ...detail.page.seo }, seoTranslations, blocks: detail.blocks.map(convert) };
}

const blank = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** The body of PUT /pages/{slug}: the whole tree with ids and every translation (empty values left out). */
export function wireOfDraft(draft: PageDraft) {
  const seo: Seo = { ...draft.seo };
  for (const k of ['title', 'description', 'og_image', 'canonical'] as const) if (blank(seo[k])) seo[k] = null;
  const seoTranslations: Record<string, SeoOverrides> = {};
  for (const [locale, values] of Object.entries(draft.seoTranslations)) {
    const kept = Object.fromEntries(Object.entries(values).filter(([, v]) => !blank(v)));
    if (Object.keys(kept).length) seoTranslations[locale] = kept;
  }
  type WireBlock = { id: string; type: string; data: EntryData; translations: Record<string, { data: EntryData }>; children: WireBlock[] };
  const convert = (b: BlockNode): WireBlock => ({
    id: b.id,
    type: b.type,
    data: Object.fromEntries(Object.entries(b.data).filter(([, v]) => v !== null && v !== undefined)),
    translations: wireTranslations(b.translations),
    children: b.children.map(convert),
  });
  return { seo, seo_translations: seoTranslations, blocks: draft.blocks.map(convert) };
}

/** How many blocks the tree holds. */
export function countBlocks(nodes: readonly BlockNode[]): number {
  return nodes.reduce((n, b) => n + 1 + countBlocks(b.children), 0);
}

/** Levels a block and its descendants take (1 for a block without children). */
export function heightOf(node: BlockNode): number {
  return 1 + node.children.reduce((h, c) => Math.max(h, heightOf(c)), 0);
}

/** Where a block is: its parent (null for a root), its index among siblings and its level (1 for roots). */
export interface Location {
  node: BlockNode;
  parentId: string | null;
  index: number;
  level: number;
  siblings: BlockNode[];
}

export function locate(nodes: BlockNode[], id: string, parentId: string | null = null, level = 1): Location | null {
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i];
    if (node.id === id) return { node, parentId, index: i, level, siblings: nodes };
    const inner = locate(node.children, id, node.id, level + 1);
    if (inner) return inner;
  }
  return null;
}

/** The children list of `parentId` (the roots for null) replaced by `fn`'s answer. */
function withChildren(nodes: BlockNode[], parentId: string | null, fn: (list: BlockNode[]) => BlockNode[]): BlockNode[] {
  if (parentId === null) return fn(nodes);
  return nodes.map((b) => (b.id === parentId ? { ...b, children: fn(b.children) } : { ...b, children: withChildren(b.children, parentId, fn) }));
}

/** The tree with block `id` replaced by `fn(block)`; the blocks outside its path are the same objects (the tree itself when `id` is absent). */
export function updateBlock(nodes: BlockNode[], id: string, fn: (b: BlockNode) => BlockNode): BlockNode[] {
  // Shared subtrees let the editor's memoized block fields skip the blocks that did not change.
  let changed = false;
  const next = nodes.map((b) => {
    if (b.id === id) {
      changed = true;
      return fn(b);
    }
    const children = b.children.length ? updateBlock(b.children, id, fn) : b.children;
    if (children === b.children) return b;
    changed = true;
    return { ...b, children };
  });
  return changed ? next : nodes;
}

function levelOf(nodes: BlockNode[], parentId: string | null): number {
  if (parentId === null) return 0;
  return locate(nodes, parentId)?.level ?? 0;
}

const depthRefusal = (): TreeRefusal => ({ refused: `Blocks nest at most ${MAX_BLOCK_DEPTH} levels deep.` });
const countRefusal = (): TreeRefusal => ({ refused: `A page holds at most ${MAX_BLOCKS} blocks.` });

/** Whether a new block fits under `parentId` (null: at the top level); the refusal says why not. */
export function canAddUnder(nodes: BlockNode[], parentId: string | null): true | TreeRefusal {
  if (countBlocks(nodes) >= MAX_BLOCKS) return countRefusal();
  if (levelOf(nodes, parentId) + 1 > MAX_BLOCK_DEPTH) return depthRefusal();
  return true;
}

/** Inserts `node` (and its children) under `parentId` at `index` (default: last). */
export function insertBlock(nodes: BlockNode[], parentId: string | null, node: BlockNode, index?: number): BlockNode[] | TreeRefusal {
  if (countBlocks(nodes) + countBlocks([node]) > MAX_BLOCKS) return countRefusal();
  if (levelOf(nodes, parentId) + heightOf(node) > MAX_BLOCK_DEPTH) return depthRefusal();
  return withChildren(nodes, parentId, (list) => {
    const at = index === undefined ? list.length : Math.max(0, Math.min(index, list.length));
    return [...list.slice(0, at), node, ...list.slice(at)];
  });
}

/** The tree without block `id` (and its descendants). */
export function removeBlock(nodes: BlockNode[], id: string): BlockNode[] {
  return nodes.filter((b) => b.id !== id).map((b) => ({ ...b, children: removeBlock(b.children, id) }));
}

/** Whether `id` is `ancestorId` or lies below it. */
function isWithin(nodes: BlockNode[], ancestorId: string, id: string): boolean {
  const a = locate(nodes, ancestorId);
  return !!a && (a.node.id === id || locate(a.node.children, id) !== null);
}

/**
 * Moves block `id` (with its descendants) under `parentId` at `index`, the index counted in the
 * target list without the moved block. Refused into itself or below the depth limit.
 */
export function moveBlock(nodes: BlockNode[], id: string, parentId: string | null, index: number): BlockNode[] | TreeRefusal {
  const from = locate(nodes, id);
  if (!from) return { refused: 'That block no longer exists.' };
  if (parentId !== null && isWithin(nodes, id, parentId)) return { refused: 'A block cannot move into itself.' };
  const without = removeBlock(nodes, id);
  return insertBlock(without, parentId, from.node, index);
}

export function moveUp(nodes: BlockNode[], id: string): BlockNode[] | TreeRefusal {
  const at = locate(nodes, id);
  if (!at || at.index === 0) return { refused: 'It is the first block here.' };
  return moveBlock(nodes, id, at.parentId, at.index - 1);
}

export function moveDown(nodes: BlockNode[], id: string): BlockNode[] | TreeRefusal {
  const at = locate(nodes, id);
  if (!at || at.index === at.siblings.length - 1) return { refused: 'It is the last block here.' };
  return moveBlock(nodes, id, at.parentId, at.index + 1);
}

/** Makes the block the last child of its previous sibling. */
export function indent(nodes: BlockNode[], id: string): BlockNode[] | TreeRefusal {
  const at = locate(nodes, id);
  if (!at || at.index === 0) return { refused: 'Only a block with a block above it at the same level can be indented.' };
  const target = at.siblings[at.index - 1];
  return moveBlock(nodes, id, target.id, target.children.length);
}

/** Moves the block out of its parent, right after it. */
export function outdent(nodes: BlockNode[], id: string): BlockNode[] | TreeRefusal {
  const at = locate(nodes, id);
  if (!at || at.parentId === null) return { refused: 'The block is already at the top level.' };
  const parent = locate(nodes, at.parentId)!;
  return moveBlock(nodes, id, parent.parentId, parent.index + 1);
}

/** A copy of the block and its descendants with new ids, inserted right after it. */
export function duplicateBlock(nodes: BlockNode[], id: string): { nodes: BlockNode[]; copyId: string } | TreeRefusal {
  const at = locate(nodes, id);
  if (!at) return { refused: 'That block no longer exists.' };
  const copy = (b: BlockNode): BlockNode => ({
    ...b,
    id: newBlockId(),
    data: structuredClone(b.data),
    translations: structuredClone(b.translations),
    children: b.children.map(copy),
  });
  const dup = copy(at.node);
  const next = insertBlock(nodes, at.parentId, dup, at.index + 1);
  return isRefusal(next) ? next : { nodes: next, copyId: dup.id };
}

/** A place a block may move to ("Move to…"): a parent (null: top level) and its label's parts. */
export interface MoveTarget {
  parentId: string | null;
  level: number;
  node: BlockNode | null;
}

/** Every parent block `id` may move into, at its end (not itself or its descendants, within the depth limit). */
export function moveTargets(nodes: BlockNode[], id: string): MoveTarget[] {
  const at = locate(nodes, id);
  if (!at) return [];
  const height = heightOf(at.node);
  const out: MoveTarget[] = [{ parentId: null, level: 0, node: null }];
  const walk = (list: BlockNode[], level: number) => {
    for (const b of list) {
      if (b.id === id) continue;
      if (level + height <= MAX_BLOCK_DEPTH) out.push({ parentId: b.id, level, node: b });
      walk(b.children, level + 1);
    }
  };
  walk(nodes, 1);
  return out;
}

/** A visible row of the tree (collapsed blocks hide their descendants). */
export interface FlatBlock {
  node: BlockNode;
  parentId: string | null;
  /** 0 for root blocks */
  depth: number;
  index: number;
}

export function flatten(nodes: BlockNode[], collapsed: ReadonlySet<string>, parentId: string | null = null, depth = 0): FlatBlock[] {
  const out: FlatBlock[] = [];
  nodes.forEach((node, index) => {
    out.push({ node, parentId, depth, index });
    if (!collapsed.has(node.id)) out.push(...flatten(node.children, collapsed, node.id, depth + 1));
  });
  return out;
}

/**
 * Where a dragged block lands (dnd-kit): the rows as shown (without the dragged block's
 * descendants), the row it was dropped on, and how far it moved sideways in indentation steps.
 * The depth follows the horizontal move, bounded by the rows around the drop place (at most one
 * level below the row above, at least the level of the row below), as in outliners.
 */
export function projectDrop(rows: FlatBlock[], activeId: string, overId: string, levelsRight: number): { parentId: string | null; index: number } | null {
  const from = rows.findIndex((r) => r.node.id === activeId);
  const to = rows.findIndex((r) => r.node.id === overId);
  if (from < 0 || to < 0) return null;
  const moved = [...rows];
  const [active] = moved.splice(from, 1);
  moved.splice(to, 0, active);
  const prev = moved[to - 1];
  const next = moved[to + 1];
  const maxDepth = prev ? prev.depth + 1 : 0;
  const minDepth = next ? next.depth : 0;
  const depth = Math.max(minDepth, Math.min(maxDepth, active.depth + levelsRight));
  // The parent is the nearest row above at depth - 1; the index counts its children above the drop place.
  let parent: FlatBlock | null = null;
  if (depth > 0) {
    for (let i = to - 1; i >= 0; i -= 1) {
      if (moved[i].depth === depth - 1) {
        parent = moved[i];
        break;
      }
    }
  }
  let index = 0;
  for (let i = to - 1; i >= 0; i -= 1) {
    if (moved[i].depth < depth) break;
    if (moved[i].depth === depth) index += 1;
  }
  // Dropped just below a collapsed block, one level in: it goes after the hidden children.
  if (parent && index === 0 && moved[to - 1] === parent && !rows.some((r) => r.parentId === parent.node.id)) {
    index = parent.node.children.filter((c) => c.id !== activeId).length;
  }
  const parentId = parent ? parent.node.id : null;
  return { parentId, index };
}

/** Request paths of the blocks (`blocks.0.children.2`) → block id, to place the API's errors. */
export function blockPaths(nodes: BlockNode[], prefix = 'blocks'): Map<string, string> {
  const out = new Map<string, string>();
  nodes.forEach((b, i) => {
    out.set(`${prefix}.${i}`, b.id);
    for (const [p, id] of blockPaths(b.children, `${prefix}.${i}.children`)) out.set(p, id);
  });
  return out;
}

/**
 * Splits the API's errors by block: `body.blocks.0.children.1.data.title` (a save) and
 * `blocks.0.children.1.data.title` (publish) go to that block as `data.title`, which the entry
 * form's error mapping understands; the rest (SEO, slug) stay in `other`.
 */
export function errorsByBlock(errors: { path: string; message: string }[] | null | undefined, nodes: BlockNode[]) {
  const paths = blockPaths(nodes);
  const byBlock = new Map<string, { path: string; message: string }[]>();
  const other: { path: string; message: string }[] = [];
  for (const e of errors ?? []) {
    const m = /^(?:body\.)?(blocks(?:\.\d+(?:\.children\.\d+)*)?)(?:\.(.*))?$/.exec(e.path);
    const id = m ? paths.get(m[1]) : undefined;
    if (!id || !m) {
      other.push(e);
      continue;
    }
    const list = byBlock.get(id) ?? [];
    list.push({ path: m[2] ?? '', message: e.message });
    byBlock.set(id, list);
  }
  return { byBlock, other };
}
