/** `textarea`: multi-line plain text (D30); grows with its content. */
import { Textarea } from '@mantine/core';
import { rulesHint } from '../field-meta';
import type { FieldWidgetProps } from '../types';

export function TextareaWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  return (
    <Textarea
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description ?? rulesHint(field)}
      error={error}
      readOnly={readOnly}
      autosize
      minRows={3}
      maxRows={16}
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value || null)}
    />
  );
}
