import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ENTRIES, makeField, renderWidget } from '../shared/test-utils';
import { RelationListWidget } from './RelationListWidget';

const field = makeField({ field_type: 'relation_list', label: 'Authors', options: '["author"]' });
const [ada, grace, alan] = ENTRIES;

describe('relation_list widget', () => {
  it('shows the related entries by title, in order', async () => {
    renderWidget(RelationListWidget, field, [grace.id, ada.id]);
    const list = screen.getByRole('list', { name: 'Authors' });
    await within(list).findByText('Grace Hopper');
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('Grace Hopper'), expect.stringContaining('Ada Lovelace')]);
  });
  it('searches the allowed types and emits uuid[] with the pick appended', async () => {
    const { onChange, sources } = renderWidget(RelationListWidget, field, [ada.id]);
    await userEvent.click(screen.getByRole('button', { name: 'Add entry to Authors' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Search entries' }), 'alan');
    await waitFor(() => expect(sources.searchEntries).toHaveBeenCalledWith(['author'], 'alan'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Choose Grace Hopper' })).not.toBeInTheDocument());
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Alan Turing' }));
    expect(onChange).toHaveBeenLastCalledWith([ada.id, alan.id]);
  });
  it('does not offer an entry already in the list', async () => {
    renderWidget(RelationListWidget, field, [ada.id]);
    await userEvent.click(screen.getByRole('button', { name: 'Add entry to Authors' }));
    await screen.findByRole('button', { name: 'Choose Grace Hopper' });
    expect(screen.queryByRole('button', { name: 'Choose Ada Lovelace' })).not.toBeInTheDocument();
  });
  it('reorders with the move buttons and removes, emitting null when empty', async () => {
    const { onChange } = renderWidget(RelationListWidget, field, [ada.id, grace.id]);
    await userEvent.click(await screen.findByRole('button', { name: 'Move Grace Hopper up' }));
    expect(onChange).toHaveBeenLastCalledWith([grace.id, ada.id]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Grace Hopper' }));
    expect(onChange).toHaveBeenLastCalledWith([ada.id]);
    await userEvent.click(screen.getByRole('button', { name: 'Remove Ada Lovelace' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
  it('reorders with the keyboard: Space lifts a handle, ArrowDown moves it, Space drops', async () => {
    // jsdom lays nothing out: give each row of the list a 40 px high box, in document order.
    const rect = vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const row = this.closest('li');
      const index = row ? [...row.parentElement!.children].indexOf(row) : 0;
      return { x: 0, y: index * 40, top: index * 40, left: 0, width: 300, height: 36, right: 300, bottom: index * 40 + 36, toJSON: () => ({}) } as DOMRect;
    });
    try {
      const { onChange } = renderWidget(RelationListWidget, field, [ada.id, grace.id, alan.id]);
      const handle = await screen.findByRole('button', { name: 'Drag Ada Lovelace' });
      handle.focus();
      await userEvent.keyboard('[Space]');
      await userEvent.keyboard('[ArrowDown]');
      await userEvent.keyboard('[Space]');
      await waitFor(() => expect(onChange).toHaveBeenLastCalledWith([grace.id, ada.id, alan.id]));
    } finally {
      rect.mockRestore();
    }
  });
  it('read-only: no add, move or remove controls', async () => {
    renderWidget(RelationListWidget, field, [ada.id], { readOnly: true });
    await screen.findByText('Ada Lovelace');
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });
});
