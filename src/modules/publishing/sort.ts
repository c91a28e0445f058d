/**
 * The `sort` parameter of every list of entries and pages, management and delivery alike
 * (docs/api.md "Field selection, sorting and filters", "Sorting" (D43)): `<field>:asc` or
 * `<field>:desc` where
 * `<field>` is `created_at`, `updated_at`, `published_at`, `slug`, `position` (orderable lists
 * only) or, for entries, a data field marked `sortable` (sorted by its default-locale value).
 * Anything else answers 400 at `query.sort`.
 *
 * One order on both databases: every order ends with the id in the same direction, so pages are
 * stable and cursors exact, and a key that can be missing (`published_at`, data fields) sorts
 * missing values as the smallest value, with explicit NULLS FIRST ascending and NULLS LAST
 * descending (SQLite and PostgreSQL default to opposite null orders). `published_at` is the
 * effective publication time (D21: a due scheduled item counts as published at `publish_at`).
 */
import { invalid } from '../../errors.js';
import type { Field } from '../content-types/model.js';

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

/** What is being listed: its name for messages, whether it has a manual order, its sortable fields. */
export interface SortSubject {
  /** `content type 'post'` or `pages`, for error messages. */
  label: string;
  orderable: boolean;
  /** Data fields by name (entries); absent for pages. */
  fields?: ReadonlyMap<string, Field>;
  /** The order when `sort` is absent or empty. */
  default: SortSpec;
}

const COLUMNS: readonly SortColumn[] = ['created_at', 'updated_at', 'position', 'slug'];

/** A column sort spec, e.g. columnSort('position', 'asc'). */
export function columnSort(column: SortColumn, direction: 'asc' | 'desc'): SortSpec {
  return { key: { kind: 'column', column }, direction, nullable: false, text: `${column}:${direction}` };
}

/** Parses `sort`; throws 400 VALIDATION_FAILED at `query.sort`. */
export function parseSort(subject: SortSubject, raw: string | undefined): SortSpec {
  if (raw === undefined || raw.trim() === '') return subject.default;
  const m = /^([a-zA-Z][a-zA-Z0-9_]{0,63}):(asc|desc)$/.exec(raw.trim());
  if (!m) throw invalid('query.sort', 'must be <field>:asc or <field>:desc');
  const [, name, dir] = m;
  const direction = dir as 'asc' | 'desc';
  const text = `${name}:${direction}`;
  if (name === 'position') {
    if (!subject.orderable) throw invalid('query.sort', `'position' applies to orderable content types only; ${subject.label} is not orderable`);
    return columnSort('position', direction);
  }
  if ((COLUMNS as readonly string[]).includes(name)) return columnSort(name as SortColumn, direction);
  if (name === 'published_at') return { key: { kind: 'published_at' }, direction, nullable: true, text };
  const field = subject.fields?.get(name);
  if (!field) {
    const known = `created_at, updated_at, published_at, slug${subject.orderable ? ', position' : ''}${subject.fields ? ' or a sortable field' : ''}`;
    throw invalid('query.sort', `cannot sort ${subject.label} by '${name}': use ${known}`);
  }
  if (!field.sortable) {
    // Marked sortable, but its index is still being built: the flag turns on once it is ready.
    if (field.index_build?.state === 'building' && field.index_build.sortable)
      throw invalid('query.sort', `field '${name}' is not sortable yet: its index is being built; retry once it is ready`);
    throw invalid('query.sort', `field '${name}' is not sortable; mark it sortable to sort by it`);
  }
  return { key: { kind: 'data', field }, direction, nullable: true, text };
}
