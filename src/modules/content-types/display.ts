/**
 * What people call an item (the Studio's home, media usage): an entry by its content type's
 * display field, a page by its SEO title. The value counts when it is non-blank text; callers fall
 * back to the slug (docs/api.md "Overview" and "Media management", usage).
 */
import { fromJsonColumn, isPlainObject } from '../../lib/json.js';

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() ? value : undefined;
}

/**
 * An entry's display value: `data` (a stored JSON column: the working copy's default-locale
 * values) at `displayField`; undefined without a display field or a text value there.
 */
export function entryDisplayValue(data: unknown, displayField: string | null): string | undefined {
  if (!displayField) return undefined;
  const values = fromJsonColumn<unknown>(data, null);
  return isPlainObject(values) ? textOf(values[displayField]) : undefined;
}

/** A page's SEO title from its stored `seo` column (default locale); undefined when blank. */
export function pageSeoTitle(seo: unknown): string | undefined {
  const values = fromJsonColumn<unknown>(seo, null);
  return isPlainObject(values) ? textOf(values.title) : undefined;
}
