import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { normalizeTags, TagsWidget } from './TagsWidget';

const field = makeField({ field_type: 'tags', label: 'Keywords' });

describe('tags widget', () => {
  it('adds typed values in order (Enter or comma), as string[]', async () => {
    const { onChange } = renderWidget(TagsWidget, field, ['alpha']);
    const box = screen.getAllByLabelText('Keywords').find((el) => el.tagName === 'INPUT')!;
    await userEvent.type(box, 'beta{Enter}');
    expect(onChange).toHaveBeenLastCalledWith(['alpha', 'beta']);
    await userEvent.type(box, 'gamma,');
    expect(onChange).toHaveBeenLastCalledWith(['alpha', 'beta', 'gamma']);
  });

  it('normalizes what the server would refuse', () => {
    expect(normalizeTags([' a ', 'a', '', 'b\nc', 'x'.repeat(300)])).toEqual(['a', 'b c', 'x'.repeat(256)]);
    expect(normalizeTags(Array.from({ length: 120 }, (_, i) => `t${i}`))).toHaveLength(100);
  });
});
