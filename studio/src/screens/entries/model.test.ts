import { describe, expect, it } from 'vitest';
import type { Field } from '../../api/types';
import { diffDrafts, draftOf, errorKey, mapErrors, referencedIds, sameValue, summarize } from './model';

const field = (name: string, field_type: Field['field_type'], localizable = false) => ({ name, label: name.toUpperCase(), field_type, localizable }) as Field;

describe('entry editor model', () => {
  it('reads the draft of a wire entry (JSON strings, D1)', () => {
    expect(
      draftOf({ data: '{"title":"Hi"}', translations: [{ id: 1, entry_id: 'e', locale: 'de', data: '{"title":"Hallo"}', created_at: '', updated_at: '' }] }),
    ).toEqual({ data: { title: 'Hi' }, translations: { de: { title: 'Hallo' } } });
  });

  it('maps API error paths onto fields and locales', () => {
    const m = mapErrors(
      [
        { path: 'body.data.title', message: 'is required' },
        { path: 'data.body', message: 'is required' },
        { path: 'body.translations.de.data.title', message: 'must be at most 10 characters long' },
        { path: 'body.data.tags.1', message: "'x' is listed twice" },
        { path: 'body.slug', message: "'bulk' is reserved" },
        { path: 'body.data.colour', message: 'is not a field of this content type' },
      ],
      'en',
      ['title', 'body', 'tags'],
    );
    expect(m.byField.get(errorKey('en', 'title'))).toBe('is required');
    expect(m.byField.get(errorKey('en', 'body'))).toBe('is required');
    expect(m.byField.get(errorKey('de', 'title'))).toBe('must be at most 10 characters long');
    expect(m.byField.get(errorKey('en', 'tags'))).toBe("1: 'x' is listed twice");
    expect(m.other.map((e) => e.path)).toEqual(['body.slug', 'body.data.colour']);
  });

  it('summarizes values of every kind', () => {
    expect(summarize(field('a', 'text'), null)).toBe('—');
    expect(summarize(field('a', 'boolean'), false)).toBe('no');
    expect(summarize(field('a', 'multi_select'), ['x', 'y'])).toBe('x, y');
    expect(summarize(field('a', 'relation_list'), ['u1'])).toBe('1 item: u1');
    const doc = {
      nodeType: 'document',
      data: {},
      content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: 'Hello', marks: [], data: {} }] }],
    };
    expect(summarize(field('a', 'rich_text'), doc)).toBe('Hello');
    expect(summarize(field('a', 'text'), 'x'.repeat(200), 10)).toBe(`${'x'.repeat(9)}…`);
    const names: Record<string, string> = { u1: 'Ada Lovelace' };
    expect(summarize(field('a', 'relation'), 'u1', 120, (id) => names[id])).toBe('Ada Lovelace');
    expect(summarize(field('a', 'media_list'), ['u1', 'u2'], 120, (id) => names[id])).toBe('2 items: Ada Lovelace, u2');
    expect(
      referencedIds([field('r', 'relation_list'), field('m', 'media'), field('t', 'text')], [{ data: { r: ['e1', 'e2'], m: 'm1', t: 'x' }, translations: {} }]),
    ).toEqual({
      entries: ['e1', 'e2'],
      media: ['m1'],
    });
  });

  it('diffs a version against the working copy, field by field and per locale', () => {
    const fields = [field('title', 'text', true), field('price', 'number'), field('tags', 'multi_select')];
    const rows = diffDrafts(
      fields,
      ['en', 'de'],
      'en',
      { data: { title: 'Old', price: 1, tags: ['a'] }, translations: { de: { title: 'Alt' } } },
      { data: { title: 'New', tags: ['a'] }, translations: { de: {} } },
    );
    expect(rows).toEqual([
      { locale: 'en', field: 'title', label: 'TITLE', kind: 'changed', before: 'Old', after: 'New' },
      { locale: 'en', field: 'price', label: 'PRICE', kind: 'removed', before: '1', after: '—' },
      { locale: 'de', field: 'title', label: 'TITLE', kind: 'removed', before: 'Alt', after: '—' },
    ]);
    expect(sameValue({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] })).toBe(true);
    expect(sameValue({ a: [1] }, { a: [2] })).toBe(false);
  });
});
