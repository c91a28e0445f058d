/** `text`: one line of text (D30); an empty input stores no value. */
import { TextInput } from '@mantine/core';
import { rulesHint } from '../field-meta';
import type { FieldWidgetProps } from '../types';

export function TextWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  return (
    <TextInput
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description ?? rulesHint(field)}
      error={error}
      readOnly={readOnly}
      value={value ?? ''}
      onChange={(e) => onChange(e.currentTarget.value || null)}
    />
  );
}
