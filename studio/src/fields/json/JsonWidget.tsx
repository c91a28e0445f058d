/**
 * `json`: any JSON value (D30) edited as text. The value is emitted only when the text parses;
 * while it does not, the parse error is shown and the last valid value stays in the entry.
 * An empty text stores no value.
 */
import { useState } from 'react';
import { Textarea } from '@mantine/core';
import type { FieldWidgetProps } from '../types';

/** The parse error of `text` in words, or null when it is valid JSON (or empty). */
export function jsonProblem(text: string): string | null {
  if (!text.trim()) return null;
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    return `Not valid JSON: ${(err as Error).message}`;
  }
}

export function JsonWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<unknown>) {
  // The text is the widget's own state: an invalid draft cannot be expressed as a value.
  const [text, setText] = useState(() => (value === null || value === undefined ? '' : JSON.stringify(value, null, 2)));
  const problem = jsonProblem(text);
  return (
    <Textarea
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description ?? 'JSON: an object, array, string, number or boolean'}
      error={problem ?? error}
      readOnly={readOnly}
      autosize
      minRows={4}
      maxRows={20}
      styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      spellCheck={false}
      value={text}
      onChange={(e) => {
        const next = e.currentTarget.value;
        setText(next);
        if (!next.trim()) onChange(null);
        else if (!jsonProblem(next)) onChange(JSON.parse(next) as unknown);
      }}
    />
  );
}
