/** `email`: an address (D30). The browser's own check hints early; the API has the last word. */
import { TextInput } from '@mantine/core';
import type { FieldWidgetProps } from '../types';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function EmailWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  const local = value && !EMAIL.test(value) ? 'This does not look like an email address' : null;
  return (
    <TextInput
      type="email"
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description}
      error={error ?? local}
      readOnly={readOnly}
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value.trim() || null)}
    />
  );
}
