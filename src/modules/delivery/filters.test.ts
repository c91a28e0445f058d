import { describe, expect, it } from 'vitest';
import type { Field, FieldType } from '../content-types/model.js';
import { canonicalFilters, parseFilters } from './filters.js';
import type { DeliveryType } from './model.js';

const field = (name: string, field_type: FieldType, extra: Partial<Field> = {}): Field => ({
  id: name,
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
const fields = [
  field('title', 'text'),
  field('views', 'integer'),
  field('price', 'number'),
  field('live', 'boolean'),
  field('day', 'date'),
  field('at', 'datetime'),
  field('kind', 'select', { options: JSON.stringify(['a', 'b']) }),
  field('author', 'relation'),
  field('secret', 'text', { filterable: false }),
];
const type: DeliveryType = {
  id: 'ct',
  slug: 'post',
  name: 'Post',
  is_block: false,
  orderable: false,
  display_field: 'title',
  fields,
  fieldsByName: new Map(fields.map((f) => [f.name, f])),
};
const parse = (query: Record<string, unknown>) => parseFilters(type, query).map((c) => [c.field.name, c.op, c.value]);

function refused(query: Record<string, unknown>, message: string): void {
  try {
    parseFilters(type, query);
    expect.unreachable();
  } catch (err) {
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(JSON.stringify((err as { errors: unknown }).errors)).toContain(message);
  }
}

describe('list filters (D43)', () => {
  it('reads filter[field] as eq and every operator, coercing values to the field type', () => {
    expect(parse({ 'filter[title]': 'Hi' })).toEqual([['title', 'eq', 'Hi']]);
    expect(parse({ 'filter[views][ne]': '3' })).toEqual([['views', 'ne', 3]]);
    expect(parse({ 'filter[views][lt]': '-2', 'filter[views][gte]': '1' })).toEqual([
      ['views', 'gte', 1],
      ['views', 'lt', -2],
    ]);
    expect(parse({ 'filter[price][lte]': '2.5' })).toEqual([['price', 'lte', 2.5]]);
    expect(parse({ 'filter[price][gt]': '1e3' })).toEqual([['price', 'gt', 1000]]);
    expect(parse({ 'filter[views][in]': '1,2,3' })).toEqual([['views', 'in', [1, 2, 3]]]);
    expect(parse({ 'filter[title][contains]': 'ell' })).toEqual([['title', 'contains', 'ell']]);
    // Text compares in order too (lexicographic).
    expect(parse({ 'filter[title][gt]': 'm' })).toEqual([['title', 'gt', 'm']]);
    expect(parse({ 'filter[author][exists]': 'false' })).toEqual([['author', 'exists', false]]);
    expect(parse({ 'filter[live]': 'true' })).toEqual([['live', 'eq', true]]);
    expect(parse({ 'filter[day][gte]': '2026-02-28' })).toEqual([['day', 'gte', '2026-02-28']]);
    expect(parse({ 'filter[at][lt]': '2026-11-21T12:00:00+02:00' })).toEqual([['at', 'lt', '2026-11-21T10:00:00.000Z']]);
    expect(parse({ 'filter[kind][in]': 'a,b' })).toEqual([['kind', 'in', ['a', 'b']]]);
    expect(parse({ 'filter[author]': '0190B7A2-0000-7000-8000-000000000001' })).toEqual([['author', 'eq', '0190b7a2-0000-7000-8000-000000000001']]);
    expect(parse({ sort: 'x', limit: '3' })).toEqual([]);
  });

  it('is canonical: the same filters in another order give the same text (bound into cursors)', () => {
    const a = canonicalFilters(parseFilters(type, { 'filter[views][gte]': '1', 'filter[title]': 'x' }));
    const b = canonicalFilters(parseFilters(type, { 'filter[title]': 'x', 'filter[views][gte]': '1' }));
    expect(a).toBe(b);
  });

  it.each([
    [{ 'filter[nope]': '1' }, "'nope' is not a field"],
    [{ 'filter[secret]': '1' }, 'not filterable'],
    [{ 'filter[views][between]': '1' }, "unknown operator 'between'"],
    [{ 'filter[views': '1' }, 'must be filter[<field>]'],
    [{ 'filter[live][gt]': 'true' }, "operator 'gt' does not apply to boolean fields"],
    [{ 'filter[views][contains]': '1' }, "operator 'contains' does not apply"],
    [{ 'filter[live][in]': 'true' }, "operator 'in' does not apply"],
    [{ 'filter[views]': '1.5' }, 'must be an integer'],
    [{ 'filter[price]': 'abc' }, 'must be a number'],
    [{ 'filter[live]': 'yes' }, 'must be true or false'],
    [{ 'filter[day]': '2026-02-30' }, 'YYYY-MM-DD'],
    [{ 'filter[at]': '2026-11-21T10:00' }, 'time zone'],
    [{ 'filter[kind]': 'c' }, 'must be one of: a, b'],
    [{ 'filter[author]': 'x' }, 'must be a uuid'],
    [{ 'filter[views][exists]': 'maybe' }, 'must be true or false'],
    [{ 'filter[views][in]': '1,,2' }, 'without empty items'],
    [{ 'filter[views][in]': Array.from({ length: 101 }, (_, i) => i).join(',') }, 'at most 100 values'],
    [{ 'filter[title][contains]': '' }, 'must be 1 to 1000 characters'],
    [{ 'filter[title]': ['a', 'b'] }, 'must be given once'],
  ])('refuses %j', (query, message) => refused(query, message));
});
