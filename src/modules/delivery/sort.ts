/**
 * The `sort` parameter of delivery entry lists: the list sort of src/modules/publishing/sort.ts
 * (one parser for management and delivery lists) applied to a delivered content type.
 * Default: `created_at:desc`, or `position:asc` on orderable content types.
 */
import { columnSort, parseSort as parseListSort, type SortSpec } from '../publishing/sort.js';
import type { DeliveryType } from './model.js';

export type { SortColumn, SortKey, SortSpec } from '../publishing/sort.js';

/** The default order of a content type's entries. */
export function defaultSort(type: { orderable: boolean }): SortSpec {
  return type.orderable ? columnSort('position', 'asc') : columnSort('created_at', 'desc');
}

/** Parses `sort` for entries of `type`; throws 400 VALIDATION_FAILED at `query.sort`. */
export function parseSort(type: DeliveryType, raw: string | undefined): SortSpec {
  return parseListSort({ label: `content type '${type.slug}'`, orderable: type.orderable, fields: type.fieldsByName, default: defaultSort(type) }, raw);
}
