import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { TextWidget } from './TextWidget';

const field = makeField({ field_type: 'text', name: 'title', label: 'Title', validation: '{"max_length":120}' });

describe('text widget', () => {
  it('shows its value under its label, with the rule as a hint', () => {
    renderWidget(TextWidget, field, 'Hello');
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Hello');
    expect(screen.getByText('at most 120 characters')).toBeInTheDocument();
  });
  it('emits strings, and null when emptied', async () => {
    const { onChange } = renderWidget(TextWidget, field, 'ab');
    const input = screen.getByRole('textbox', { name: 'Title' });
    await userEvent.type(input, 'c');
    expect(onChange).toHaveBeenLastCalledWith('abc');
    await userEvent.clear(input);
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
  it('is read-only when asked, and shows the API error', () => {
    renderWidget(TextWidget, field, 'x', { readOnly: true, error: 'is required' });
    expect(screen.getByRole('textbox', { name: 'Title' })).toHaveAttribute('readonly');
    expect(screen.getByText('is required')).toBeInTheDocument();
  });
});
