/**
 * `datetime`: a moment stored with the offset its author wrote (docs/api.md "Datetime values").
 * The picker shows the time as written and the label its offset (`UTC+02:00`); an edit keeps that
 * offset. An empty field is picked in the browser's time zone (shown beside the label), and the
 * value takes the browser's offset at that date and time.
 */
import { useId } from 'react';
import { DateTimePicker } from '@mantine/dates';
import type { FieldWidgetProps } from '../types';
import { offsetLabel, offsetOf, timeZoneName, wallClock, withOffset } from './local';

export function DateTimeWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  const offset = offsetOf(value);
  const id = useId();
  return (
    <DateTimePicker
      // the calendar's dialog is named by the field's button (DateWidget says why)
      id={id}
      popoverProps={{ id }}
      label={`${label ?? field.label} (${offset ? offsetLabel(offset) : timeZoneName()})`}
      withAsterisk={field.required}
      description={description}
      error={error}
      readOnly={readOnly}
      valueFormat="YYYY-MM-DD HH:mm"
      placeholder="Pick a date and time"
      clearable={!readOnly}
      // Mantine's clear button has no name of its own; screen readers need one (axe button-name).
      clearButtonProps={{ 'aria-label': `Clear ${label ?? field.label}` }}
      value={wallClock(value)}
      onChange={(v) => onChange(withOffset(v, offset))}
      nextLabel="Next month"
      previousLabel="Previous month"
      submitButtonProps={{ 'aria-label': 'Confirm date and time' }}
      timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' }}
    />
  );
}
