/** Item titles: an entry's display value and a page's SEO title, from stored JSON text or objects. */
import { describe, expect, it } from 'vitest';
import { entryDisplayValue, pageSeoTitle } from './display.js';

describe('entryDisplayValue', () => {
  it('reads the display field of the stored data (text on SQLite, an object on PostgreSQL)', () => {
    expect(entryDisplayValue('{"title":"Hello"}', 'title')).toBe('Hello');
    expect(entryDisplayValue({ title: 'Hello' }, 'title')).toBe('Hello');
  });
  it('is undefined without a display field, for a blank or non-text value, or unreadable data', () => {
    expect(entryDisplayValue({ title: 'Hello' }, null)).toBeUndefined();
    expect(entryDisplayValue({ title: '  ' }, 'title')).toBeUndefined();
    expect(entryDisplayValue({ title: 42 }, 'title')).toBeUndefined();
    expect(entryDisplayValue('not json', 'title')).toBeUndefined();
    expect(entryDisplayValue(null, 'title')).toBeUndefined();
  });
});

describe('pageSeoTitle', () => {
  it('reads the SEO title, undefined when it is missing or blank', () => {
    expect(pageSeoTitle('{"title":"Home"}')).toBe('Home');
    expect(pageSeoTitle({ title: null })).toBeUndefined();
    expect(pageSeoTitle({ title: '' })).toBeUndefined();
    expect(pageSeoTitle({})).toBeUndefined();
  });
});
