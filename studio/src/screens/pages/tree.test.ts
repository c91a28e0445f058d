import { describe, expect, it } from 'vitest';
import { MAX_BLOCK_DEPTH as SERVER_DEPTH, MAX_BLOCKS as SERVER_BLOCKS } from '../../../../src/modules/pages/tree';
import {
  MAX_BLOCK_DEPTH,
  MAX_BLOCKS,
  canAddUnder,
  countBlocks,
  draftOfPage,
  duplicateBlock,
  errorsByBlock,
  flatten,
  indent,
  insertBlock,
  isRefusal,
  moveBlock,
  moveDown,
  moveTargets,
  moveUp,
  newBlockId,
  outdent,
  projectDrop,
  removeBlock,
  updateBlock,
  wireOfDraft,
  type BlockNode,
} from './tree';

const b = (id: string, children: BlockNode[] = []): BlockNode => ({ id, type: 't', data: { label: id }, translations: {}, children });
/** the tree's shape as nested ids: "a(b,c(d))" */
const shape = (nodes: BlockNode[] | { refused: string }): string =>
  isRefusal(nodes) ? `refused: ${nodes.refused}` : nodes.map((n) => (n.children.length ? `${n.id}(${shape(n.children)})` : n.id)).join(',');
/** a chain of `n` blocks, each inside the previous one */
const chain = (n: number, prefix = 'l'): BlockNode[] => (n === 0 ? [] : [b(`${prefix}${n}`, chain(n - 1, prefix))]);

describe('page block tree', () => {
  const tree = [b('a', [b('a1'), b('a2')]), b('b'), b('c', [b('c1', [b('c11')])])];

  it('updates one block and shares every block outside its path', () => {
    const next = updateBlock(tree, 'c11', (n) => ({ ...n, data: { label: 'edited' } }));
    expect(next[2].children[0].children[0].data).toEqual({ label: 'edited' });
    expect(tree[2].children[0].children[0].data).toEqual({ label: 'c11' });
    // The path to it is new; the rest are the same objects, so memoized block fields skip them.
    expect(next).not.toBe(tree);
    expect(next[2]).not.toBe(tree[2]);
    expect(next[2].children[0]).not.toBe(tree[2].children[0]);
    expect(next[0]).toBe(tree[0]);
    expect(next[1]).toBe(tree[1]);
    expect(updateBlock(tree, 'absent', (n) => n)).toBe(tree);
  });

  it('uses the server limits', () => {
    expect(MAX_BLOCK_DEPTH).toBe(SERVER_DEPTH);
    expect(MAX_BLOCKS).toBe(SERVER_BLOCKS);
  });

  it('moves up, down, indents and outdents without changing the input', () => {
    expect(shape(moveUp(tree, 'b'))).toBe('b,a(a1,a2),c(c1(c11))');
    expect(shape(moveDown(tree, 'a1'))).toBe('a(a2,a1),b,c(c1(c11))');
    expect(shape(indent(tree, 'b'))).toBe('a(a1,a2,b),c(c1(c11))');
    expect(shape(outdent(tree, 'c11'))).toBe('a(a1,a2),b,c(c1,c11)');
    expect(shape(outdent(tree, 'a1'))).toBe('a(a2),a1,b,c(c1(c11))');
    expect(shape(tree)).toBe('a(a1,a2),b,c(c1(c11))');
    expect(isRefusal(moveUp(tree, 'a'))).toBe(true);
    expect(isRefusal(indent(tree, 'a'))).toBe(true);
    expect(isRefusal(outdent(tree, 'b'))).toBe(true);
  });

  it('moves a block with its children across parents, never into itself', () => {
    expect(shape(moveBlock(tree, 'c1', 'a', 1))).toBe('a(a1,c1(c11),a2),b,c');
    expect(shape(moveBlock(tree, 'c', 'c11', 0))).toBe('refused: A block cannot move into itself.');
    expect(moveTargets(tree, 'c').map((t) => t.parentId)).toEqual([null, 'a', 'a1', 'a2', 'b']);
  });

  it('refuses an 11th level and a 1,001st block, with the reason', () => {
    const deep = chain(MAX_BLOCK_DEPTH);
    expect(canAddUnder(deep, 'l2')).toBe(true);
    expect(canAddUnder(deep, 'l1')).toEqual({ refused: 'Blocks nest at most 10 levels deep.' });
    expect(isRefusal(insertBlock(deep, 'l1', b('x')))).toBe(true);
    // a two-level block fits at level 9 but not under it
    const pair = [b('p', [b('q')])];
    expect(isRefusal(moveBlock([...chain(8), ...pair], 'p', 'l1', 0))).toBe(false);
    expect(isRefusal(moveBlock([...chain(9), ...pair], 'p', 'l1', 0))).toBe(true);
    expect(moveTargets([...chain(9), ...pair], 'p').map((t) => t.parentId)).not.toContain('l1');
    const full = Array.from({ length: MAX_BLOCKS }, (_, i) => b(`n${i}`));
    expect(canAddUnder(full, null)).toEqual({ refused: 'A page holds at most 1000 blocks.' });
    expect(isRefusal(duplicateBlock(full, 'n0'))).toBe(true);
  });

  it('duplicates a subtree with new ids right after the original, and removes subtrees', () => {
    const r = duplicateBlock(tree, 'c');
    if (isRefusal(r)) throw new Error(r.refused);
    expect(countBlocks(r.nodes)).toBe(countBlocks(tree) + 3);
    expect(r.nodes[3].id).toBe(r.copyId);
    expect(r.nodes[3].children[0].data).toEqual({ label: 'c1' });
    expect(r.nodes[3].children[0].id).not.toBe('c1');
    expect(shape(removeBlock(tree, 'c1'))).toBe('a(a1,a2),b,c');
    expect(newBlockId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('projects a drop: depth follows the sideways move within the rows around it', () => {
    const rows = flatten(tree, new Set(['a']));
    // rows: a(0) b(0) c(0) c1(1) c11(2). b dropped on c lands between c and c1: inside c, first
    expect(projectDrop(rows, 'b', 'c', 0)).toEqual({ parentId: 'c', index: 0 });
    // on c1's place it lands above c11, so inside c1, whatever the sideways move
    expect(projectDrop(rows, 'b', 'c1', -3)).toEqual({ parentId: 'c1', index: 0 });
    // with c collapsed, b dropped on c goes after it at the top level, or inside it one step right
    const folded = flatten(tree, new Set(['a', 'c']));
    expect(projectDrop(folded, 'b', 'c', 0)).toEqual({ parentId: null, index: 2 });
    expect(projectDrop(folded, 'b', 'c', 1)).toEqual({ parentId: 'c', index: 1 });
    expect(shape(moveBlock(tree, 'b', 'c', 1))).toBe('a(a1,a2),c(c1(c11),b)');
    // c11 dragged up onto a, far left: top level, first
    expect(projectDrop(rows, 'c11', 'a', -5)).toEqual({ parentId: null, index: 0 });
  });

  it('reads the management detail and writes the PUT body with ids and translations', () => {
    const draft = draftOfPage({
      page: { seo: { title: 'Home', description: null, keywords: [], og_image: null, canonical: null } } as never,
      blocks: [{ id: 'x', type: 'hero', data: '{"headline":"Hi"}', children: [{ id: 'y', type: 'item', data: '{}', children: [] }] }] as never,
      seo_translations: [{ id: 1, locale: 'de', page_id: 'p', seo: { title: 'Start' } }],
      block_translations: [{ id: 2, block_id: 'x', locale: 'de', data: '{"headline":"Hallo"}' }],
    });
    expect(draft.blocks[0].translations).toEqual({ de: { headline: 'Hallo' } });
    draft.seo.description = '';
    draft.seoTranslations.fr = { title: '' };
    const body = wireOfDraft(draft);
    expect(body.seo.description).toBeNull();
    expect(body.seo_translations).toEqual({ de: { title: 'Start' } });
    expect(body.blocks).toEqual([
      {
        id: 'x',
        type: 'hero',
        data: { headline: 'Hi' },
        translations: { de: { data: { headline: 'Hallo' } } },
        children: [{ id: 'y', type: 'item', data: {}, translations: {}, children: [] }],
      },
    ]);
  });

  it('puts API errors on their block (save and publish paths)', () => {
    const { byBlock, other } = errorsByBlock(
      [
        { path: 'body.blocks.2.children.0.data.label', message: 'is required' },
        { path: 'blocks.0.translations.de.data.label', message: 'too long' },
        { path: 'body.seo.title', message: 'too long' },
      ],
      tree,
    );
    expect(byBlock.get('c1')).toEqual([{ path: 'data.label', message: 'is required' }]);
    expect(byBlock.get('a')).toEqual([{ path: 'translations.de.data.label', message: 'too long' }]);
    expect(other).toEqual([{ path: 'body.seo.title', message: 'too long' }]);
  });
});
