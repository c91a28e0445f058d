/**
 * More cases for delivery list filters (filters.ts; docs/api.md "Sorting" (D43)), beside filters.test.ts:
 * every operator against every filterable field type (allowed with the coerced value, or refused
 * with the exact message and path), the key syntax, unknown and non-filterable fields, value
 * coercion edges and the canonical form bound into cursors.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { INDEXABLE_TYPES, type Field, type FieldType } from '../content-types/model.js';
import { canonicalFilters, FILTER_OPS, parseFilters, type FilterOp } from './filters.js';
import type { DeliveryType } from './model.js';

const UUID = '0190B7A2-0000-7000-8000-00000000ABCD';

const field = (name: string, field_type: FieldType, extra: Partial<Field> = {}): Field => ({
  id: `f-${name}`,
  content_type_id: 'ct',
  name,
  label: name,
  field_type,
  required: false,
  is_unique: false,
  localizable: false,
  filterable: true,
  sortable: false,
  sort_order: 0,
  options: null,
  validation: null,
  created_at: '',
  updated_at: '',
  index_build: null,
  ...extra,
});

/** One filterable field per indexable type, named after it, with a valid value and its coercion. */
const SAMPLES: Record<string, { type: FieldType; raw: string; value: string | number | boolean; extra?: Partial<Field> }> = {
  f_text: { type: 'text', raw: 'Hello', value: 'Hello' },
  f_number: { type: 'number', raw: '2.5', value: 2.5 },
  f_integer: { type: 'integer', raw: '-7', value: -7 },
  f_boolean: { type: 'boolean', raw: 'false', value: false },
  f_date: { type: 'date', raw: '2024-02-29', value: '2024-02-29' },
  f_datetime: { type: 'datetime', raw: '2026-11-21T12:30:00+02:00', value: '2026-11-21T10:30:00.000Z' },
  f_email: { type: 'email', raw: 'ann@example.com', value: 'ann@example.com' },
  f_url: { type: 'url', raw: 'https://example.com/a', value: 'https://example.com/a' },
  f_select: { type: 'select', raw: 'red', value: 'red', extra: { options: JSON.stringify(['red', 'green']) } },
  f_relation: { type: 'relation', raw: UUID, value: UUID.toLowerCase(), extra: { options: JSON.stringify(['post']) } },
  f_media: { type: 'media', raw: UUID, value: UUID.toLowerCase() },
};

const fields: Field[] = [
  ...Object.entries(SAMPLES).map(([name, s]) => field(name, s.type, s.extra)),
  field('hidden', 'text', { filterable: false, sortable: true }),
  field('body', 'textarea', { filterable: false }),
];
const type: DeliveryType = {
  id: 'ct',
  slug: 'article',
  name: 'Article',
  is_block: false,
  orderable: false,
  display_field: 'f_text',
  fields,
  fieldsByName: new Map(fields.map((f) => [f.name, f])),
};

const parse = (query: Record<string, unknown>) => parseFilters(type, query).map((c) => [c.field.name, c.op, c.value]);

function refusal(query: Record<string, unknown>): { path: string; message: string } {
  try {
    parseFilters(type, query);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(e.status).toBe(400);
    expect(e.errors).toHaveLength(1);
    return e.errors![0];
  }
  throw new Error(`expected a refusal for ${JSON.stringify(query)}`);
}

/** D43's table, written out independently of the module. */
const APPLIES: Record<FilterOp, FieldType[] | 'all'> = {
  eq: 'all',
  ne: 'all',
  exists: 'all',
  lt: ['text', 'email', 'url', 'select', 'number', 'integer', 'date', 'datetime'],
  lte: ['text', 'email', 'url', 'select', 'number', 'integer', 'date', 'datetime'],
  gt: ['text', 'email', 'url', 'select', 'number', 'integer', 'date', 'datetime'],
  gte: ['text', 'email', 'url', 'select', 'number', 'integer', 'date', 'datetime'],
  in: ['text', 'email', 'url', 'select', 'number', 'integer', 'date', 'datetime', 'relation', 'media'],
  contains: ['text', 'email', 'url', 'select'],
};

describe('operators × filterable field types (D43)', () => {
  it('knows the nine operators', () => {
    expect([...FILTER_OPS]).toEqual(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'exists']);
  });

  it('covers every indexable type', () => {
    expect(new Set(Object.values(SAMPLES).map((s) => s.type))).toEqual(new Set(INDEXABLE_TYPES));
  });

  const cases = FILTER_OPS.flatMap((op) => Object.keys(SAMPLES).map((name) => [op, name] as const));
  it.each(cases)('filter[%s] on %s', (op, name) => {
    const s = SAMPLES[name];
    const applies = APPLIES[op] === 'all' || (APPLIES[op] as FieldType[]).includes(s.type);
    const key = `filter[${name}][${op}]`;
    const raw = op === 'exists' ? 'true' : op === 'contains' ? 'ell' : op === 'in' ? `${s.raw},${s.raw}` : s.raw;
    if (!applies) {
      expect(refusal({ [key]: raw })).toEqual({ path: `query.${key}`, message: `operator '${op}' does not apply to ${s.type} fields` });
      return;
    }
    const expected = op === 'exists' ? true : op === 'contains' ? 'ell' : op === 'in' ? [s.value, s.value] : s.value;
    expect(parse({ [key]: raw })).toEqual([[name, op, expected]]);
  });

  it.each(Object.keys(SAMPLES))('filter[%s] without an operator is eq', (name) => {
    expect(parse({ [`filter[${name}]`]: SAMPLES[name].raw })).toEqual([[name, 'eq', SAMPLES[name].value]]);
  });
});

describe('keys, fields and operators that are refused', () => {
  it.each([
    ['filter[f_integer][between]', '1', "unknown operator 'between'; use one of eq, ne, lt, lte, gt, gte, in, contains, exists"],
    ['filter[f_integer][EQ]', '1', "unknown operator 'EQ'; use one of eq, ne, lt, lte, gt, gte, in, contains, exists"],
    ['filter[f_integer][]', '1', "unknown operator ''; use one of eq, ne, lt, lte, gt, gte, in, contains, exists"],
    ['filter[nope]', '1', "'nope' is not a field of content type 'article'"],
    ['filter[nope][gt]', '1', "'nope' is not a field of content type 'article'"],
    ['filter[]', '1', "'' is not a field of content type 'article'"],
    ['filter[F_TEXT]', 'x', "'F_TEXT' is not a field of content type 'article'"],
    ['filter[hidden]', 'x', "field 'hidden' is not filterable; mark it filterable to filter by it"],
    ['filter[hidden][exists]', 'true', "field 'hidden' is not filterable; mark it filterable to filter by it"],
    ['filter[body][contains]', 'x', "field 'body' is not filterable; mark it filterable to filter by it"],
    ['filter[f_text][eq][x]', 'x', 'must be filter[<field>] or filter[<field>][<op>]'],
    ['filter[f_text]x', 'x', 'must be filter[<field>] or filter[<field>][<op>]'],
    ['filter[f_text', 'x', 'must be filter[<field>] or filter[<field>][<op>]'],
    ['filter[f[text]]', 'x', 'must be filter[<field>] or filter[<field>][<op>]'],
  ])('%s=%s', (key, raw, message) => {
    expect(refusal({ [key]: raw })).toEqual({ path: `query.${key}`, message });
  });

  it('checks the operator before the field, and the field before the value', () => {
    expect(refusal({ 'filter[nope][between]': '1' }).message).toContain("unknown operator 'between'");
    expect(refusal({ 'filter[hidden][between]': '1' }).message).toContain("unknown operator 'between'");
    expect(refusal({ 'filter[nope]': ['1', '2'] }).message).toContain("'nope' is not a field");
    expect(refusal({ 'filter[f_boolean][gt]': 'nonsense' }).message).toBe("operator 'gt' does not apply to boolean fields");
  });

  it('takes each filter once, as a string', () => {
    for (const raw of [['1', '2'], 1, null, { a: '1' }]) {
      expect(refusal({ 'filter[f_integer]': raw })).toEqual({ path: 'query.filter[f_integer]', message: 'must be given once, as a string' });
    }
  });

  it('ignores query keys that are not filters', () => {
    expect(parse({ type: 'article', sort: 'f_integer:asc', limit: '5', filters: 'x', 'Filter[f_text]': 'x', 'xfilter[f_text]': 'y' })).toEqual([]);
  });
});

describe('value coercion', () => {
  it.each([
    ['f_integer', '0', 0],
    ['f_integer', '-15', -15],
    ['f_integer', '999999999999999', 999999999999999],
    ['f_number', '+3', 3],
    ['f_number', '.5', 0.5],
    ['f_number', '5.', 5],
    ['f_number', '-1.25e2', -125],
    ['f_number', '1E-2', 0.01],
    ['f_boolean', 'true', true],
    ['f_date', '2026-12-31', '2026-12-31'],
    ['f_datetime', '2026-11-21T10:00Z', '2026-11-21T10:00:00.000Z'],
    ['f_datetime', '2026-11-21T10:00:00.123456789Z', '2026-11-21T10:00:00.123Z'],
    ['f_datetime', '2026-11-21T00:30:00-05:00', '2026-11-21T05:30:00.000Z'],
    ['f_text', '', ''],
    ['f_text', 'a,b', 'a,b'],
    ['f_relation', UUID.toLowerCase(), UUID.toLowerCase()],
  ])('%s = %j reads as %j', (name, raw, value) => {
    expect(parse({ [`filter[${name}]`]: raw })).toEqual([[name, 'eq', value]]);
  });

  it.each([
    ['f_integer', '1.0', 'must be an integer'],
    ['f_integer', '1e3', 'must be an integer'],
    ['f_integer', '+5', 'must be an integer'],
    ['f_integer', '1234567890123456', 'must be an integer'],
    ['f_integer', '', 'must be an integer'],
    ['f_integer', ' 1', 'must be an integer'],
    ['f_number', '', 'must be a number'],
    ['f_number', ' 1', 'must be a number'],
    ['f_number', '0x10', 'must be a number'],
    ['f_number', 'Infinity', 'must be a number'],
    ['f_number', '1e400', 'must be a number'],
    ['f_number', 'NaN', 'must be a number'],
    ['f_number', '1,5', 'must be a number'],
    ['f_boolean', 'TRUE', 'must be true or false'],
    ['f_boolean', '1', 'must be true or false'],
    ['f_date', '2023-02-29', 'must be a date as YYYY-MM-DD'],
    ['f_date', '2026-13-01', 'must be a date as YYYY-MM-DD'],
    ['f_date', '2026-1-01', 'must be a date as YYYY-MM-DD'],
    ['f_date', '2026-01-01T00:00:00Z', 'must be a date as YYYY-MM-DD'],
    ['f_datetime', '2026-11-21', 'must be an ISO 8601 date-time with a time zone'],
    ['f_datetime', '2026-11-21T10:00:00', 'must be an ISO 8601 date-time with a time zone'],
    ['f_datetime', '2026-11-31T10:00:00Z', 'must be an ISO 8601 date-time with a time zone'],
    ['f_select', 'blue', 'must be one of: red, green'],
    ['f_select', 'RED', 'must be one of: red, green'],
    ['f_relation', 'not-a-uuid', 'must be a uuid'],
    ['f_media', '', 'must be a uuid'],
    ['f_text', 'x'.repeat(1001), 'must be at most 1000 characters'],
  ])('%s = %j is refused: %s', (name, raw, message) => {
    expect(refusal({ [`filter[${name}]`]: raw })).toEqual({ path: `query.filter[${name}]`, message });
  });

  it('accepts a text value of exactly 1000 characters', () => {
    expect(parse({ 'filter[f_text]': 'x'.repeat(1000) })).toEqual([['f_text', 'eq', 'x'.repeat(1000)]]);
  });

  it('coerces every item of `in` and names the bad one', () => {
    expect(parse({ 'filter[f_number][in]': '1,2.5,-3' })).toEqual([['f_number', 'in', [1, 2.5, -3]]]);
    expect(parse({ 'filter[f_select][in]': 'green' })).toEqual([['f_select', 'in', ['green']]]);
    expect(parse({ 'filter[f_media][in]': `${UUID},${UUID.toLowerCase()}` })).toEqual([['f_media', 'in', [UUID.toLowerCase(), UUID.toLowerCase()]]]);
    expect(refusal({ 'filter[f_integer][in]': '1,x,3' })).toEqual({ path: 'query.filter[f_integer][in]', message: "'x' must be an integer" });
    expect(refusal({ 'filter[f_select][in]': 'red,blue' })).toEqual({ path: 'query.filter[f_select][in]', message: "'blue' must be one of: red, green" });
    expect(refusal({ 'filter[f_text][in]': '' }).message).toBe('must be a comma-separated list without empty items');
    expect(refusal({ 'filter[f_text][in]': 'a,' }).message).toBe('must be a comma-separated list without empty items');
  });

  it('allows 100 values in `in`, not 101', () => {
    const list = (n: number) => Array.from({ length: n }, (_, i) => String(i)).join(',');
    expect(parse({ 'filter[f_integer][in]': list(100) })[0][2]).toHaveLength(100);
    expect(refusal({ 'filter[f_integer][in]': list(101) }).message).toBe('may list at most 100 values');
  });

  it('takes `contains` as given (case-insensitive substring, no coercion) up to 1000 characters', () => {
    expect(parse({ 'filter[f_select][contains]': 'RE' })).toEqual([['f_select', 'contains', 'RE']]);
    expect(parse({ 'filter[f_url][contains]': '/a?b=c' })).toEqual([['f_url', 'contains', '/a?b=c']]);
    expect(parse({ 'filter[f_text][contains]': 'y'.repeat(1000) })[0][2]).toHaveLength(1000);
    expect(refusal({ 'filter[f_text][contains]': 'y'.repeat(1001) }).message).toBe('must be 1 to 1000 characters');
    expect(refusal({ 'filter[f_email][contains]': '' }).message).toBe('must be 1 to 1000 characters');
  });

  it('takes `exists` as true or false only, on every type', () => {
    for (const name of Object.keys(SAMPLES)) {
      expect(parse({ [`filter[${name}][exists]`]: 'false' })).toEqual([[name, 'exists', false]]);
      expect(refusal({ [`filter[${name}][exists]`]: '1' }).message).toBe('must be true or false');
    }
  });
});

describe('several filters and their canonical form', () => {
  it('combine (AND) and come back ordered by field, then operator', () => {
    expect(
      parse({
        'filter[f_text][ne]': 'a',
        'filter[f_integer][lte]': '9',
        'filter[f_integer][gte]': '1',
        'filter[f_boolean]': 'true',
        'filter[f_text][contains]': 'b',
      }),
    ).toEqual([
      ['f_boolean', 'eq', true],
      ['f_integer', 'gte', 1],
      ['f_integer', 'lte', 9],
      ['f_text', 'contains', 'b'],
      ['f_text', 'ne', 'a'],
    ]);
  });

  it('filter[x] and filter[x][eq] are the same filter', () => {
    expect(canonicalFilters(parseFilters(type, { 'filter[f_integer]': '3' }))).toBe(canonicalFilters(parseFilters(type, { 'filter[f_integer][eq]': '3' })));
  });

  it('equal after coercion, equal text: 2.50 and 2.5, two spellings of one instant', () => {
    expect(canonicalFilters(parseFilters(type, { 'filter[f_number]': '2.50' }))).toBe(canonicalFilters(parseFilters(type, { 'filter[f_number]': '2.5' })));
    expect(canonicalFilters(parseFilters(type, { 'filter[f_datetime][gt]': '2026-11-21T12:00:00+02:00' }))).toBe(
      canonicalFilters(parseFilters(type, { 'filter[f_datetime][gt]': '2026-11-21T10:00:00.000Z' })),
    );
  });

  it('differs whenever the field, the operator or the value differs', () => {
    const texts = [
      { 'filter[f_integer]': '3' },
      { 'filter[f_integer]': '4' },
      { 'filter[f_integer][ne]': '3' },
      { 'filter[f_number]': '3' },
      { 'filter[f_integer][in]': '3' },
      { 'filter[f_text]': '3' },
      { 'filter[f_integer]': '3', 'filter[f_text]': '3' },
      {},
    ].map((q) => canonicalFilters(parseFilters(type, q)));
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('is empty text for no filters', () => {
    expect(canonicalFilters([])).toBe('[]');
  });
});
