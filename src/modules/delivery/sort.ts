/**
 * The `sort` query parameter (api.md "Sorting and field selection", DECISIONS.md D43):
 * `<field>:asc` or `<field>:desc` where `<field>` is `created_at`, `updated_at`, `published_at`,
 * `position` (orderable content types only), `slug`, or a data field marked `sortable` (sorted by
 * its default-locale value). Anything else answers 400 at `query.sort`.
 *
 * Default: `created_at:desc`, or `position:asc` on orderable content types. Every order ends with
 * the entry id in the same direction, so pages are stable and cursors exact. Missing values sort
 * as the smallest value (first ascending, last descending) on both databases.
 * `published_at` is the effective publication time (D21: a due scheduled entry counts as
 * published at its `publish_at`).
 */
import { invalid } from '../../errors.js';
import type { Field } from '../content-types/model.js';
import type { DeliveryType } from './model.js';

export type SortColumn = 'created_at' | 'updated_at' | 'position' | 'slug';

export type SortKey = { kind: 'column'; column: SortColumn } | { kind: 'published_at' } | { kind: 'data'; field: Field };

export interface SortSpec {
  key: SortKey;
  direction: 'asc' | 'desc';
  /** Whether the key can be null (then NULLS FIRST ascending, LAST descending). */
  nullable: boolean;
  /** Canonical text, e.g. `created_at:desc` (bound into cursors). */
  text: string;
}

const COLUMNS: readonly SortColumn[] = ['created_at', 'updated_at', 'position', 'slug'];

/** The default order of a content type's entries. */
export function defaultSort(type: DeliveryType): SortSpec {
  return type.orderable
    ? { key: { kind: 'column', column: 'position' }, direction: 'asc', nullable: false, text: 'position:asc' }
    : { key: { kind: 'column', column: 'created_at' }, direction: 'desc', nullable: false, text: 'created_at:desc' };
}

/** Parses `sort` for entries of `type`; throws 400 VALIDATION_FAILED at `query.sort`. */
export function parseSort(type: DeliveryType, raw: string | undefined): SortSpec {
  if (raw === undefined) return defaultSort(type);
  const m = /^([a-zA-Z][a-zA-Z0-9_]{0,63}):(asc|desc)$/.exec(raw.trim());
  if (!m) throw invalid('query.sort', 'must be <field>:asc or <field>:desc');
  const [, name, dir] = m;
  const direction = dir as 'asc' | 'desc';
  const text = `${name}:${direction}`;
  if (name === 'position') {
    if (!type.orderable) throw invalid('query.sort', `'position' applies to orderable content types only; '${type.slug}' is not orderable`);
    return { key: { kind: 'column', column: 'position' }, direction, nullable: false, text };
  }
  if ((COLUMNS as readonly string[]).includes(name)) return { key: { kind: 'column', column: name as SortColumn }, direction, nullable: false, text };
  if (name === 'published_at') return { key: { kind: 'published_at' }, direction, nullable: true, text };
  const field = type.fieldsByName.get(name);
  if (!field) throw invalid('query.sort', `'${name}' is not a field of content type '${type.slug}'`);
  if (!field.sortable) throw invalid('query.sort', `field '${name}' is not sortable; mark it sortable to sort by it`);
  return { key: { kind: 'data', field }, direction, nullable: true, text };
}
