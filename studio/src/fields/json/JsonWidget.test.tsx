import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeField, renderWidget } from '../shared/test-utils';
import { JsonWidget, jsonProblem } from './JsonWidget';

const field = makeField({ field_type: 'json', label: 'Settings' });

describe('json widget', () => {
  it('shows the value as indented JSON', () => {
    renderWidget(JsonWidget, field, { a: [1, 2] });
    expect(screen.getByRole('textbox', { name: 'Settings' })).toHaveValue('{\n  "a": [\n    1,\n    2\n  ]\n}');
  });
  it('reports a parse error and emits nothing until the text parses', () => {
    const { onChange } = renderWidget(JsonWidget, field, null);
    const input = screen.getByRole('textbox', { name: 'Settings' });
    fireEvent.change(input, { target: { value: '{"a": ' } });
    expect(screen.getByText(/^Not valid JSON/)).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: '{"a": [true, null]}' } });
    expect(screen.queryByText(/^Not valid JSON/)).not.toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith({ a: [true, null] });
    fireEvent.change(input, { target: { value: '  ' } });
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(jsonProblem('42')).toBeNull();
  });
});
