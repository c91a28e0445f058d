import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { DateWidget } from './DateWidget';

const field = makeField({ field_type: 'date', label: 'Published on' });

describe('date widget', () => {
  it('shows the day and emits YYYY-MM-DD for the day picked', async () => {
    const { onChange } = renderWidget(DateWidget, field, '2026-11-21');
    const button = screen.getByRole('button', { name: 'Published on' });
    expect(button).toHaveTextContent('2026-11-21');
    await userEvent.click(button);
    await userEvent.click(await screen.findByRole('button', { name: '25 November 2026', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith('2026-11-25');
  });
});
