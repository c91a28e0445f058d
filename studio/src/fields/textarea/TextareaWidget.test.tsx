import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { TextareaWidget } from './TextareaWidget';

const field = makeField({ field_type: 'textarea', name: 'summary', label: 'Summary' });

describe('textarea widget', () => {
  it('shows and edits multi-line text', async () => {
    const { onChange } = renderWidget(TextareaWidget, field, 'line one');
    const input = screen.getByRole('textbox', { name: 'Summary' });
    expect(input).toHaveValue('line one');
    await userEvent.type(input, '{Enter}two');
    expect(onChange).toHaveBeenLastCalledWith('line one\ntwo');
    await userEvent.clear(input);
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
