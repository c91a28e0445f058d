/**
 * What typing re-renders in the block tree: the edited block's fields (and its ancestors'), not
 * every block's widgets (a ten-block page re-rendered them all on each key, 50–80 ms a key in
 * Chromium). Each field's comment button reads its open-thread count while it renders, so a
 * counting `counts` map in the comments scope tells which blocks' fields rendered, without mocking
 * a module. Changes made one right after another all land.
 */
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ContentType } from '../../api/types';
import { makeField } from '../../fields/shared/test-utils';
import { theme } from '../../app/theme';
import { CommentsContext, type CommentsScope } from '../../editor/comments/context';
import { BlockTree } from './BlockTree';
import type { BlockNode } from './tree';

/** Renders per block id, counted as the fields' comment buttons read their counts. */
const renders = new Map<string, number>();
class CountingMap extends Map<string, number> {
  override get(key: string): number | undefined {
    const id = /^blocks\.([^.]+)\./.exec(key)?.[1];
    if (id) renders.set(id, (renders.get(id) ?? 0) + 1);
    return super.get(key);
  }
}
const SCOPE: CommentsScope = { counts: new CountingMap(), locale: 'en', open: () => {}, name: () => {} };

const CARD = {
  id: 't-card',
  slug: 'card',
  name: 'Card',
  is_block: true,
  fields: [makeField({ name: 'title', label: 'Title', field_type: 'text', localizable: true })],
} as unknown as ContentType;
const card = (id: string, title: string, children: BlockNode[] = []): BlockNode => ({ id, type: 'card', data: { title }, translations: {}, children });

function Harness({ onTree }: { onTree: (t: BlockNode[]) => void }) {
  const [blocks, setBlocks] = useState([card('a', 'A', [card('a1', 'A1')]), card('b', 'B'), card('c', 'C')]);
  return (
    <MantineProvider env="test" theme={theme}>
      <CommentsContext.Provider value={SCOPE}>
        <BlockTree
          blocks={blocks}
          types={[CARD]}
          locale="en"
          defaultLocale="en"
          readOnly={false}
          revision={0}
          errors={new Map()}
          onChange={(next) => {
            setBlocks(next);
            onTree(next);
          }}
        />
      </CommentsContext.Provider>
    </MantineProvider>
  );
}

/** The title input of block `id` (each block is its own row, nested ones too). */
const field = (id: string) => within(document.querySelector<HTMLElement>(`li[data-block="${id}"]`)!).getByRole('textbox');

describe('BlockTree re-renders', () => {
  it('re-renders the edited block and its ancestors only, and keeps every change', () => {
    let tree: BlockNode[] = [];
    render(<Harness onTree={(t) => (tree = t)} />);
    expect(Object.fromEntries(renders)).toEqual({ a: 1, a1: 1, b: 1, c: 1 });

    fireEvent.change(field('b'), { target: { value: 'B!' } });
    expect(Object.fromEntries(renders)).toEqual({ a: 1, a1: 1, b: 2, c: 1 });
    // A nested block: its parent's node is new (its children changed), the others are shared.
    fireEvent.change(field('a1'), { target: { value: 'A1!' } });
    expect(Object.fromEntries(renders)).toEqual({ a: 2, a1: 2, b: 2, c: 1 });

    // Two changes one right after the other: the second builds on the first.
    act(() => {
      fireEvent.change(field('c'), { target: { value: 'C!' } });
      fireEvent.change(field('b'), { target: { value: 'B!!' } });
    });
    expect(tree.map((n) => n.data.title)).toEqual(['A', 'B!!', 'C!']);
    expect(tree[0].children[0].data.title).toBe('A1!');
  });
});
