import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { MultiSelectWidget } from './MultiSelectWidget';

const field = makeField({ field_type: 'multi_select', label: 'Tags', options: '["news","guides","releases"]' });

describe('multi_select widget', () => {
  it('emits string[] as options are added, and null when none is left', async () => {
    const { onChange } = renderWidget(MultiSelectWidget, field, ['news']);
    expect(screen.getAllByText('news').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('combobox', { name: 'Tags' }));
    await userEvent.click(await screen.findByRole('option', { name: 'guides', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith(['news', 'guides']);
    await userEvent.click(await screen.findByRole('option', { name: 'news', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith(['guides']);
    await userEvent.click(await screen.findByRole('option', { name: 'guides', hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith(null);
  });
});
