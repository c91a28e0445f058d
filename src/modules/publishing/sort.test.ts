import { describe, expect, it } from 'vitest';
import { type AppError } from '../../errors.js';
import type { Field } from '../content-types/model.js';
import { columnSort, parseSort, type SortSubject } from './sort.js';

const title = { name: 'title', field_type: 'text', sortable: true } as Field;
const body = { name: 'body', field_type: 'textarea', sortable: false } as Field;
const entries: SortSubject = {
  label: "content type 'post'",
  orderable: false,
  fields: new Map([
    ['title', title],
    ['body', body],
  ]),
  default: columnSort('created_at', 'desc'),
};
const pages: SortSubject = { label: 'pages', orderable: true, default: columnSort('position', 'asc') };

function errorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    return err as AppError;
  }
  throw new Error('no error');
}

describe('parseSort', () => {
  it('uses the default for an absent or empty sort', () => {
    expect(parseSort(entries, undefined)).toEqual(columnSort('created_at', 'desc'));
    expect(parseSort(pages, '  ')).toEqual(columnSort('position', 'asc'));
  });

  it('marks published_at and data fields as nullable, columns not', () => {
    expect(parseSort(entries, 'published_at:asc')).toMatchObject({ key: { kind: 'published_at' }, nullable: true, text: 'published_at:asc' });
    expect(parseSort(entries, 'title:desc')).toMatchObject({ key: { kind: 'data', field: title }, nullable: true, direction: 'desc' });
    expect(parseSort(entries, 'slug:asc')).toMatchObject({ key: { kind: 'column', column: 'slug' }, nullable: false });
  });

  it('refuses position on lists without a manual order, and accepts it on pages', () => {
    expect(errorOf(() => parseSort(entries, 'position:asc')).errors?.[0].path).toBe('query.sort');
    expect(parseSort(pages, 'position:desc')).toEqual(columnSort('position', 'desc'));
  });

  it('refuses unknown and unsortable fields, malformed text, and data fields on pages', () => {
    for (const raw of ['colour:asc', 'body:asc', 'title', 'title:up', 'title:asc;drop']) {
      expect(errorOf(() => parseSort(entries, raw)).code).toBe('VALIDATION_FAILED');
    }
    expect(errorOf(() => parseSort(pages, 'title:asc')).errors?.[0].message).toMatch(/cannot sort pages by 'title'/);
  });
});
