/**
 * The block tree in jsdom: three levels rendered with the entry widgets, moves through the row
 * menu (up, indent, outdent), collapse, a translation with its fallback, and the depth limit
 * stated where a block cannot take children.
 */
import { useState } from 'react';
import { MantineProvider } from '@mantine/core';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ContentType } from '../../api/types';
import { makeField } from '../../fields/shared/test-utils';
import { theme } from '../../app/theme';
import { BlockTree } from './BlockTree';
import { MAX_BLOCK_DEPTH, type BlockNode } from './tree';

const type = (slug: string, name: string, fields: ContentType['fields']): ContentType =>
  ({ id: `t-${slug}`, slug, name, is_block: true, fields }) as unknown as ContentType;
const TYPES = [
  type('section', 'Section', [makeField({ name: 'heading', label: 'Heading', field_type: 'text', localizable: true })]),
  type('card', 'Card', [makeField({ name: 'title', label: 'Title', field_type: 'text', localizable: true })]),
];
const block = (id: string, t: string, data: Record<string, unknown>, children: BlockNode[] = [], translations = {}): BlockNode => ({
  id,
  type: t,
  data,
  translations,
  children,
});
const shape = (nodes: BlockNode[]): string => nodes.map((n) => `${n.id}${n.children.length ? `(${shape(n.children)})` : ''}`).join(',');

function Harness({ initial, locale = 'en', onTree }: { initial: BlockNode[]; locale?: string; onTree?: (t: BlockNode[]) => void }) {
  const [blocks, setBlocks] = useState(initial);
  return (
    <MantineProvider env="test" theme={theme}>
      <BlockTree
        blocks={blocks}
        types={TYPES}
        locale={locale}
        defaultLocale="en"
        readOnly={false}
        revision={0}
        errors={new Map([['c2', [{ path: 'data.title', message: 'is required' }]]])}
        onChange={(next) => {
          setBlocks(next);
          onTree?.(next);
        }}
      />
    </MantineProvider>
  );
}

const tree = () => [
  block('s1', 'section', { heading: 'Welcome' }, [block('c1', 'card', { title: 'First' }, [block('c3', 'card', { title: 'Deep' })]), block('c2', 'card', {})]),
];

async function menu(label: string, item: string) {
  await userEvent.click(screen.getByRole('button', { name: `Actions for ${label}` }));
  await userEvent.click(await screen.findByRole('menuitem', { name: item }));
}

describe('block tree', () => {
  it('shows three levels with the entry widgets and the API errors on their block', () => {
    render(<Harness initial={tree()} />);
    expect(screen.getByRole('textbox', { name: 'Heading' })).toHaveValue('Welcome');
    expect(screen.getAllByRole('textbox', { name: 'Title' }).map((t) => (t as HTMLInputElement).value)).toEqual(['First', 'Deep', '']);
    expect(screen.getByText('Level 3:')).toBeInTheDocument();
    expect(screen.getByText('is required')).toBeInTheDocument();
    expect(screen.getByText('needs attention')).toBeInTheDocument();
  });

  it('menus hold menu items only and open on their first enabled item', async () => {
    render(<Harness initial={tree()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Card “First”' }));
    const actions = await screen.findByRole('menu');
    // the first card of its section cannot move up: Move down takes the focus
    await waitFor(() => expect(document.activeElement).toHaveTextContent('Move down'));
    expect(document.activeElement).toHaveAttribute('role', 'menuitem');
    // nothing focusable but its items (Mantine's focus placeholder is off in the theme)
    expect([...actions.children].filter((c) => c.hasAttribute('tabindex') && c.getAttribute('role') !== 'menuitem')).toEqual([]);
  });

  it('moves blocks with the row menu: up, indent, outdent', async () => {
    let last: BlockNode[] = [];
    render(<Harness initial={tree()} onTree={(t) => (last = t)} />);
    await menu('Card #4', 'Move up');
    expect(shape(last)).toBe('s1(c2,c1(c3))');
    await menu('Card “First”', 'Outdent (out of its parent)');
    expect(shape(last)).toBe('s1(c2),c1(c3)');
    await menu('Card “First”', 'Indent (into the block above)');
    expect(shape(last)).toBe('s1(c2,c1(c3))');
  });

  it('adds a block inside another and puts the focus in its first field', async () => {
    let last: BlockNode[] = [];
    render(<Harness initial={tree()} onTree={(t) => (last = t)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add block inside Card “Deep”' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Section' }));
    expect(shape(last)).toMatch(/^s1\(c1\(c3\([0-9a-f-]{36}\)\),c2\)$/);
    const heading = screen.getAllByRole('textbox', { name: 'Heading' })[1];
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('leaves the focus where the editor put it when the new block would take it late (a slow render)', async () => {
    render(<Harness initial={tree()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add block inside Card “Deep”' }));
    const section = await screen.findByRole('menuitem', { name: 'Section' });
    // In one go, before the new block's focus is due (50 ms): add it, then go to another field.
    fireEvent.click(section);
    const title = screen.getAllByRole('textbox', { name: 'Title' })[0];
    act(() => title.focus());
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(title).toHaveFocus();
  });

  it('collapses a block: its fields and children are hidden', async () => {
    render(<Harness initial={tree()} />);
    await userEvent.click(screen.getByRole('button', { name: 'Collapse Card “First”' }));
    expect(screen.getByRole('button', { name: 'Expand Card “First”' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('button', { name: 'Drag Card “Deep”' })).toBeNull();
    expect(screen.getByText('1 inside')).toBeInTheDocument();
  });

  it('edits a translation beside the default value, marking fields that fall back', () => {
    const initial = [block('s1', 'section', { heading: 'Welcome' }, [block('c1', 'card', { title: 'First' })], { de: { heading: 'Willkommen' } })];
    render(<Harness initial={initial} locale="de" />);
    expect(screen.getByRole('textbox', { name: 'Heading (de)' })).toHaveValue('Willkommen');
    const card = screen.getByRole('button', { name: 'Drag Card “First”' }).closest('li') as HTMLElement;
    expect(within(card).getByRole('textbox', { name: 'Title (de)' })).toHaveValue('');
    expect(within(card).getAllByText('falls back to en').length).toBeGreaterThan(0);
    expect(within(card).getByText('en: First')).toBeInTheDocument();
  });

  it('says why a block at the 10th level takes no children', () => {
    let deep: BlockNode[] = [];
    for (let i = MAX_BLOCK_DEPTH; i >= 1; i -= 1) deep = [block(`b${i}`, 'card', { title: `L${i}` }, deep)];
    render(<Harness initial={deep} />);
    expect(screen.getByRole('button', { name: 'Add block inside Card “L10”' })).toBeDisabled();
    expect(screen.getByRole('note')).toHaveTextContent('Blocks nest at most 10 levels deep.');
    expect(screen.getByRole('button', { name: 'Add block inside Card “L9”' })).toBeEnabled();
  });
});
