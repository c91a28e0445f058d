import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { NumberWidget } from './NumberWidget';

describe('number widget', () => {
  it('shows the value and emits numbers (decimals allowed)', async () => {
    const { onChange } = renderWidget(NumberWidget, makeField({ field_type: 'number', label: 'Price' }), 12);
    const input = screen.getByRole('textbox', { name: 'Price' });
    expect(input).toHaveValue('12');
    await userEvent.clear(input);
    expect(onChange).toHaveBeenLastCalledWith(null);
    await userEvent.type(input, '14.5');
    expect(onChange).toHaveBeenLastCalledWith(14.5);
    expect(onChange.mock.calls.every(([v]) => v === null || typeof v === 'number')).toBe(true);
  });
});
