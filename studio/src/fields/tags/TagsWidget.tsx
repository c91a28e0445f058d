/**
 * `tags`: a free list of strings (D30; docs/api.md "Fields"), stored as string[] in the order typed;
 * an empty list stores null. Enter or a comma adds the typed value, leaving the box adds it too;
 * the server's limits are held here as well: at most 100 distinct tags of 1–256 characters (a
 * longer one is cut), line breaks become spaces.
 */
import { TagsInput } from '@mantine/core';
import { rulesHint } from '../field-meta';
import type { FieldWidgetProps } from '../types';

/** Limits of a `tags` value (mirrors src/modules/entries/validation.ts: MAX_TAGS, MAX_TAG_LENGTH). */
export const MAX_TAGS = 100;
export const MAX_TAG_LENGTH = 256;

/** Typed values as stored: trimmed, one line, at most MAX_TAG_LENGTH characters, distinct, empty ones left out. */
export function normalizeTags(values: readonly string[]): string[] {
  const out = values.map((v) => [...v.replace(/\s*[\r\n]+\s*/g, ' ').trim()].slice(0, MAX_TAG_LENGTH).join('')).filter((v) => v.length > 0);
  return [...new Set(out)].slice(0, MAX_TAGS);
}

export function TagsWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string[]>) {
  const tags = Array.isArray(value) ? value : [];
  return (
    <TagsInput
      label={label ?? field.label}
      withAsterisk={field.required}
      description={description ?? rulesHint(field) ?? 'Type a tag and press Enter or a comma'}
      error={error}
      readOnly={readOnly}
      value={tags}
      onChange={(v) => {
        const next = normalizeTags(v);
        onChange(next.length ? next : null);
      }}
      maxTags={MAX_TAGS}
      splitChars={[',']}
      acceptValueOnBlur
      clearable={!readOnly}
      placeholder={tags.length ? undefined : 'Add a tag…'}
    />
  );
}
