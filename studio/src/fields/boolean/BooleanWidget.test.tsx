import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { BooleanWidget } from './BooleanWidget';

const field = makeField({ field_type: 'boolean', label: 'Featured' });

describe('boolean widget', () => {
  it('is a switch that emits true and false', async () => {
    const { onChange } = renderWidget(BooleanWidget, field, null);
    const sw = screen.getByRole('switch', { name: /Featured/ });
    expect(sw).not.toBeChecked();
    expect(screen.getByText('(not set)')).toBeInTheDocument();
    await userEvent.click(sw);
    expect(onChange).toHaveBeenLastCalledWith(true);
    await userEvent.click(sw);
    expect(onChange).toHaveBeenLastCalledWith(false);
  });
  it('shows a stored true, and cannot be changed read-only', () => {
    renderWidget(BooleanWidget, field, true, { readOnly: true });
    expect(screen.getByRole('switch', { name: /Featured/ })).toBeChecked();
    expect(screen.getByRole('switch', { name: /Featured/ })).toBeDisabled();
  });
});
