/** Readers of a field definition's JSON-encoded `options` and `validation` (D30). */
import type { Field } from '../api/types';

/** `options`: the choices of a select, or the target type slugs of a relation ([] when none). */
export function fieldOptions(field: Pick<Field, 'options'>): string[] {
  if (!field.options) return [];
  try {
    const parsed: unknown = JSON.parse(field.options);
    return Array.isArray(parsed) ? parsed.filter((o): o is string => typeof o === 'string') : [];
  } catch {
    return [];
  }
}

export interface FieldRules {
  min?: number;
  max?: number;
  min_length?: number;
  max_length?: number;
  pattern?: string;
}

export function fieldRules(field: Pick<Field, 'validation'>): FieldRules {
  if (!field.validation) return {};
  try {
    const parsed: unknown = JSON.parse(field.validation);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as FieldRules) : {};
  } catch {
    return {};
  }
}

/** A one-line hint of the rules, e.g. "120 characters at most", shown under the label. */
export function rulesHint(field: Pick<Field, 'validation' | 'field_type'>): string | null {
  const r = fieldRules(field);
  const unit = ['multi_select', 'tags', 'media_list', 'relation_list'].includes(field.field_type) ? 'items' : 'characters';
  const parts: string[] = [];
  if (r.min_length !== undefined) parts.push(`at least ${r.min_length} ${unit}`);
  if (r.max_length !== undefined) parts.push(`at most ${r.max_length} ${unit}`);
  if (r.min !== undefined) parts.push(`minimum ${r.min}`);
  if (r.max !== undefined) parts.push(`maximum ${r.max}`);
  if (r.pattern) parts.push(`pattern ${r.pattern}`);
  return parts.length ? parts.join(', ') : null;
}
