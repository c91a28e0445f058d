import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import '../integer';
import { NumberWidget } from '../number/NumberWidget';
import { widgetFor } from '../registry';
import { makeField, renderWidget } from '../shared/test-utils';

describe('integer widget', () => {
  it('is the number widget registered for integer fields', () => {
    expect(widgetFor('integer').component).toBe(NumberWidget);
  });
  it('refuses 1.5: only whole numbers are emitted', async () => {
    const { onChange } = renderWidget(NumberWidget, makeField({ field_type: 'integer', label: 'Reading minutes' }), null);
    const input = screen.getByRole('textbox', { name: 'Reading minutes' });
    await userEvent.type(input, '1.5');
    expect(onChange).toHaveBeenCalled();
    expect(onChange.mock.calls.every(([v]) => v === null || Number.isInteger(v))).toBe(true);
    expect(onChange).not.toHaveBeenCalledWith(1.5);
    expect(input).not.toHaveValue('1.5');
  });
});
