/** `select`: one of the field's options (D30), clearable. */
import { Select } from '@mantine/core';
import { fieldOptions } from '../field-meta';
import type { FieldWidgetProps } from '../types';

export function SelectWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  return (
    <Select
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description}
      error={error}
      readOnly={readOnly}
      data={fieldOptions(field)}
      value={value ?? null}
      onChange={(v) => onChange(v)}
      clearable={!readOnly}
      allowDeselect
      placeholder="Choose…"
    />
  );
}
