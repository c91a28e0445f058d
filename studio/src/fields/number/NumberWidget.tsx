/**
 * `number` and `integer` (D30): a number input bounded by the field's min/max. The integer form
 * refuses decimals (the decimal separator is not accepted), so it only ever emits whole numbers.
 */
import { NumberInput } from '@mantine/core';
import { fieldRules, rulesHint } from '../field-meta';
import type { FieldWidgetProps } from '../types';

export function NumberWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<number>) {
  const rules = fieldRules(field);
  const integer = field.field_type === 'integer';
  return (
    <NumberInput
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description ?? rulesHint(field)}
      error={error}
      readOnly={readOnly}
      allowDecimal={!integer}
      min={rules.min}
      max={rules.max}
      value={value ?? ''}
      onChange={(v) => {
        if (v === '' || v === null) return onChange(null);
        const n = typeof v === 'number' ? v : Number(v);
        // Mantine passes a string while the text is not a number yet ("-", "1."): wait for one.
        if (!Number.isFinite(n) || (typeof v === 'string' && v.trim() !== String(n))) return;
        onChange(integer ? Math.trunc(n) : n);
      }}
    />
  );
}
