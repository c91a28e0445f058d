/** `multi_select`: several distinct options (D30), stored as string[]; none selected stores null. */
import { MultiSelect } from '@mantine/core';
import { fieldOptions, rulesHint } from '../field-meta';
import type { FieldWidgetProps } from '../types';

export function MultiSelectWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string[]>) {
  return (
    <MultiSelect
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description ?? rulesHint(field)}
      error={error}
      readOnly={readOnly}
      data={fieldOptions(field)}
      value={Array.isArray(value) ? value : []}
      onChange={(v) => onChange(v.length ? v : null)}
      clearable={!readOnly}
      placeholder={value?.length ? undefined : 'Choose…'}
    />
  );
}
