/** `date`: a calendar day stored as YYYY-MM-DD (D30), picked from a calendar. */
import { useId } from 'react';
import { DatePickerInput } from '@mantine/dates';
import type { FieldWidgetProps } from '../types';

export function DateWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  const id = useId();
  return (
    <DatePickerInput
      // One id for the field and its calendar's popover: the calendar (a dialog) is named by the
      // field's button (aria-labelledby), which otherwise points at an id no element has.
      id={id}
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description}
      error={error}
      readOnly={readOnly}
      valueFormat="YYYY-MM-DD"
      placeholder="Pick a date"
      clearable={!readOnly}
      // Mantine's clear button has no name of its own; screen readers need one (axe button-name).
      clearButtonProps={{ 'aria-label': `Clear ${label ?? field.label}` }}
      value={value ?? null}
      onChange={(v) => onChange(v ? String(v).slice(0, 10) : null)}
      popoverProps={{ withinPortal: true, id }}
      nextLabel="Next month"
      previousLabel="Previous month"
    />
  );
}
