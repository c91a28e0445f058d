/**
 * List filters (docs/api.md "Sorting" (D43)): `filter[<field>]=v` (equality) or `filter[<field>][<op>]=v`
 * on data fields marked `filterable`, compared with their default-locale value. Several filters
 * combine with AND.
 *
 * | op | meaning | field types |
 * |---|---|---|
 * | eq, ne | equal / not equal (ne also matches entries without a value) | all filterable |
 * | lt, lte, gt, gte | ranges | text, email, url, select, number, integer, date, datetime |
 * | in | one of a comma-separated list (at most 100 values) | all but boolean |
 * | contains | case-insensitive substring | text, email, url, select |
 * | exists | `true`: has a value; `false`: has none | all filterable |
 *
 * Values are coerced by field type (integer, number, `true`/`false`, `YYYY-MM-DD`, an ISO
 * date-time with a zone, read as its UTC instant: datetimes compare by the moment they name,
 * whatever offset a value was written with; a select's options, uuids for relation and media); a bad value,
 * an unknown operator, a field that is not filterable or not a field answers 400 at
 * `query.filter[...]`.
 */
import { invalid } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { stableStringify } from '../../lib/json.js';
import { parseDatetime } from '../../lib/time.js';
import { fieldOptions, type Field, type FieldType } from '../content-types/model.js';
import type { DeliveryType } from './model.js';

export const FILTER_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'exists'] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** A coerced filter value as compared in SQL (booleans are bound as 1/0 by the repository). */
export type FilterScalar = string | number | boolean;

export type FilterCondition =
  | { field: Field; op: 'eq' | 'ne' | 'lt' | 'lte' | 'gt' | 'gte' | 'contains'; value: FilterScalar }
  | { field: Field; op: 'in'; value: FilterScalar[] }
  | { field: Field; op: 'exists'; value: boolean };

const TEXT_TYPES = new Set<FieldType>(['text', 'email', 'url', 'select']);
const RANGE_TYPES = new Set<FieldType>(['text', 'email', 'url', 'select', 'number', 'integer', 'date', 'datetime']);
const KEY = /^filter\[([^\][]*)\](?:\[([^\][]*)\])?$/;
const MAX_IN = 100;
const MAX_VALUE_LENGTH = 1000;

/** Whether operator `op` applies to fields of `type` (the table above). */
export function allowed(op: FilterOp, type: FieldType): boolean {
  switch (op) {
    case 'eq':
    case 'ne':
    case 'exists':
      return true;
    case 'in':
      return type !== 'boolean';
    case 'contains':
      return TEXT_TYPES.has(type);
    default:
      return RANGE_TYPES.has(type);
  }
}

function isDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Coerces one text value to the field's type; returns an error message instead when it cannot. */
function coerce(field: Field, text: string): FilterScalar | { error: string } {
  if (text.length > MAX_VALUE_LENGTH) return { error: `must be at most ${MAX_VALUE_LENGTH} characters` };
  switch (field.field_type) {
    case 'integer':
      return /^-?\d{1,15}$/.test(text) ? Number(text) : { error: 'must be an integer' };
    case 'number': {
      const n = Number(text);
      return text.trim() !== '' && /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) && Number.isFinite(n) ? n : { error: 'must be a number' };
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : { error: 'must be true or false' };
    case 'date':
      return isDate(text) ? text : { error: 'must be a date as YYYY-MM-DD' };
    case 'datetime': {
      // Compared by instant, like the field's SQL expression (dialect.ts dataFieldText).
      const d = parseDatetime(text);
      return d ? d.instant : { error: 'must be an ISO 8601 date-time with a time zone' };
    }
    case 'select': {
      const options = fieldOptions(field);
      return options.includes(text) ? text : { error: `must be one of: ${options.join(', ')}` };
    }
    case 'relation':
    case 'media':
      return isUuid(text) ? text.toLowerCase() : { error: 'must be a uuid' };
    default:
      return text;
  }
}

/**
 * The filters of a list request: every query key starting with `filter[`, checked against the
 * fields of `type`. Returns the conditions in a canonical order (field, then operator).
 */
export function parseFilters(type: DeliveryType, query: Readonly<Record<string, unknown>>): FilterCondition[] {
  const out: FilterCondition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (!key.startsWith('filter[')) continue;
    const path = `query.${key}`;
    const m = KEY.exec(key);
    if (!m) throw invalid(path, 'must be filter[<field>] or filter[<field>][<op>]');
    const [, name, opText = 'eq'] = m;
    if (typeof raw !== 'string') {
      // Checked after the operator and field, whose messages come first.
      filterTarget(type, path, name, opText);
      throw invalid(path, 'must be given once, as a string');
    }
    out.push(parseFilter(type, path, name, opText, opText === 'in' ? raw.split(',') : raw));
  }
  return sortFilters(out);
}

/** `filters` in the canonical order (field, then operator), as parseFilters returns them. */
export function sortFilters(filters: FilterCondition[]): FilterCondition[] {
  return filters.sort((a, b) => (a.field.name === b.field.name ? a.op.localeCompare(b.op) : a.field.name.localeCompare(b.field.name)));
}

/** The field and operator of a filter, checked (unknown operator or field, not filterable, operator not for its type): 400 at `path`. */
function filterTarget(type: DeliveryType, path: string, name: string, opText: string): { field: Field; op: FilterOp } {
  if (!(FILTER_OPS as readonly string[]).includes(opText)) throw invalid(path, `unknown operator '${opText}'; use one of ${FILTER_OPS.join(', ')}`);
  const op = opText as FilterOp;
  const field = type.fieldsByName.get(name);
  if (!field) throw invalid(path, `'${name}' is not a field of content type '${type.slug}'`);
  if (!field.filterable) {
    // Marked filterable, but its index is still being built: the flag turns on once it is ready.
    if (field.index_build?.state === 'building' && field.index_build.filterable)
      throw invalid(path, `field '${name}' is not filterable yet: its index is being built; retry once it is ready`);
    throw invalid(path, `field '${name}' is not filterable; mark it filterable to filter by it`);
  }
  if (!allowed(op, field.field_type)) throw invalid(path, `operator '${op}' does not apply to ${field.field_type} fields`);
  return { field, op };
}

/**
 * One filter on field `name` of `type` with operator `opText` and its value as text (`in`: the
 * list of values): the rules of parseFilters for one condition, shared by every way a filter is
 * given (the REST query, GraphQL `where`). Throws 400 VALIDATION_FAILED at `path`.
 */
export function parseFilter(type: DeliveryType, path: string, name: string, opText: string, raw: string | readonly string[]): FilterCondition {
  const { field, op } = filterTarget(type, path, name, opText);
  if (op === 'in') {
    const items = typeof raw === 'string' ? [raw] : raw;
    if (items.length > MAX_IN) throw invalid(path, `may list at most ${MAX_IN} values`);
    const values: FilterScalar[] = [];
    for (const item of items) {
      if (item === '') throw invalid(path, 'must be a comma-separated list without empty items');
      const v = coerce(field, item);
      if (typeof v === 'object') throw invalid(path, `'${item}' ${v.error}`);
      values.push(v);
    }
    return { field, op, value: values };
  }
  if (typeof raw !== 'string') throw invalid(path, 'must be one value');
  if (op === 'exists') {
    if (raw !== 'true' && raw !== 'false') throw invalid(path, 'must be true or false');
    return { field, op, value: raw === 'true' };
  }
  if (op === 'contains') {
    if (raw === '' || raw.length > MAX_VALUE_LENGTH) throw invalid(path, `must be 1 to ${MAX_VALUE_LENGTH} characters`);
    return { field, op, value: raw };
  }
  const v = coerce(field, raw);
  if (typeof v === 'object') throw invalid(path, v.error);
  return { field, op, value: v };
}

/** Canonical text of a filter list, bound into cursors (D44). */
export function canonicalFilters(filters: FilterCondition[]): string {
  return stableStringify(filters.map((f) => [f.field.name, f.op, f.value]));
}
