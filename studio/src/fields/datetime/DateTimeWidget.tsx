/**
 * `datetime`: a moment stored as ISO 8601 UTC (D3, D30), picked in the browser's time zone
 * (shown beside the label) and sent as UTC.
 */
import { DateTimePicker } from '@mantine/dates';
import type { FieldWidgetProps } from '../types';
import { isoToLocal, localToIso, timeZoneName } from './local';

export function DateTimeWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  return (
    <DateTimePicker
      label={`${label ?? field.label} (${timeZoneName()})`}
      withAsterisk={field.required}
      description={description}
      error={error}
      readOnly={readOnly}
      valueFormat="YYYY-MM-DD HH:mm"
      placeholder="Pick a date and time"
      clearable={!readOnly}
      // Mantine's clear button has no name of its own; screen readers need one (axe button-name).
      clearButtonProps={{ 'aria-label': `Clear ${label ?? field.label}` }}
      value={isoToLocal(value)}
      onChange={(v) => onChange(localToIso(v))}
      nextLabel="Next month"
      previousLabel="Previous month"
      submitButtonProps={{ 'aria-label': 'Confirm date and time' }}
      timePickerProps={{ hoursInputLabel: 'Hours', minutesInputLabel: 'Minutes' }}
    />
  );
}
