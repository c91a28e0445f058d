import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ENTRIES, makeField, renderWidget } from '../shared/test-utils';
import { RelationWidget } from './RelationWidget';

const field = makeField({ field_type: 'relation', label: 'Author', options: '["author"]' });

describe('relation widget', () => {
  it('shows the related entry by title', async () => {
    renderWidget(RelationWidget, field, ENTRIES[0].id);
    expect(await screen.findByRole('group', { name: 'Author: Ada Lovelace' })).toBeInTheDocument();
  });
  it('emits the uuid of the entry picked, and null when removed', async () => {
    const { onChange } = renderWidget(RelationWidget, field, null);
    await userEvent.click(screen.getByRole('button', { name: 'Choose entry for Author' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Choose Grace Hopper' }));
    expect(onChange).toHaveBeenLastCalledWith(ENTRIES[1].id);
    await userEvent.click(screen.getByRole('button', { name: 'Remove entry from Author' }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
