/**
 * The contract between the entry form and its field widgets (one widget per field type, D30;
 * STYLE.md "Studio habits"). A widget renders one field's value with its label, error and
 * description, and reports a new value in the shape the API stores (null: no value).
 */
import type { ComponentType, ReactNode } from 'react';
import type { Field } from '../api/types';

export type FieldType = Field['field_type'];

export interface FieldWidgetProps<V = unknown> {
  field: Field;
  /** the stored value; null or undefined when the entry holds none */
  value: V | null | undefined;
  /** a new value in the API's shape, or null to clear it */
  onChange: (value: V | null) => void;
  readOnly?: boolean;
  /** the API's message for this field (from errors[].path) */
  error?: string | null;
  /** under the label: e.g. the default-locale value, or "falls back to en" */
  description?: ReactNode;
  /** the accessible name; default the field's label */
  label?: string;
}

export interface FieldWidgetDefinition {
  type: FieldType;
  /** the widget; values reach it as stored, so it copes with any JSON in `value` */
  component: ComponentType<FieldWidgetProps<unknown>>;
  /** short human summary of a value, for diffs and the default-locale hint */
  summarize?: (value: unknown) => string;
}
