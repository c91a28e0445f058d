import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { SelectWidget } from './SelectWidget';

const field = makeField({ field_type: 'select', label: 'Category', options: '["books","tools","games"]' });

describe('select widget', () => {
  it('shows the chosen option and emits the one picked', async () => {
    const { onChange } = renderWidget(SelectWidget, field, 'books');
    const input = screen.getByRole('combobox', { name: 'Category' });
    expect(input).toHaveValue('books');
    await userEvent.click(input);
    await userEvent.click(await screen.findByRole('option', { name: 'tools', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith('tools');
  });
});
