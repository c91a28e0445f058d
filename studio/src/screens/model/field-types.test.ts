import { describe, expect, it } from 'vitest';
import { FIELD_TYPES as SERVER_FIELD_TYPES } from '../../../../src/modules/content-types/model.js';
import { FIELD_TYPES, buildFieldInput, capabilities, emptyDraft, fieldNameFrom, moveItem, slugify } from './field-types';

describe('field types of the model screens', () => {
  it("lists every field type of D30, in the server's order", () => {
    expect(FIELD_TYPES.map((t) => t.value)).toEqual([...SERVER_FIELD_TYPES]);
  });

  it('derives slugs and field names the server accepts', () => {
    expect(slugify('Blog Post')).toBe('blog-post');
    expect(slugify('  Crème brûlée — 2024! ')).toBe('creme-brulee-2024');
    expect(slugify('x'.repeat(130))).toHaveLength(120);
    expect(fieldNameFrom('Published on')).toBe('publishedOn');
    expect(fieldNameFrom('2nd Title')).toBe('ndTitle');
    expect(fieldNameFrom('SKU')).toBe('sku');
    for (const label of ['Published on', 'Ünïcode label', 'a b c', 'SEO: meta description']) expect(fieldNameFrom(label)).toMatch(/^[a-z][a-zA-Z0-9_]{0,63}$/);
  });

  it('sends only what a field type accepts', () => {
    const textarea = buildFieldInput({
      ...emptyDraft(),
      label: 'Body',
      name: 'body',
      field_type: 'textarea',
      filterable: true,
      sortable: true,
      is_unique: true,
      max_length: 500,
      min: 3,
    });
    expect(textarea).toEqual({ name: 'body', label: 'Body', field_type: 'textarea', validation: { max_length: 500 } });
    const select = buildFieldInput({
      ...emptyDraft(),
      name: 'color',
      field_type: 'select',
      options: ['red', 'blue'],
      filterable: true,
      is_unique: true,
      required: true,
    });
    expect(select).toEqual({ name: 'color', field_type: 'select', options: ['red', 'blue'], filterable: true, is_unique: true, required: true });
    const relation = buildFieldInput({ ...emptyDraft(), name: 'author', field_type: 'relation_list', min: 1, max: 3 });
    expect(relation).toEqual({ name: 'author', field_type: 'relation_list', validation: { min: 1, max: 3 } });
    expect(capabilities('json')).toMatchObject({ filterable: false, unique: false, minMax: false, length: false, pattern: false });
    // Accepted kinds: in the server's order, for media types only.
    const media = buildFieldInput({ ...emptyDraft(), name: 'file', field_type: 'media', media_kinds: ['other', 'pdf'] });
    expect(media).toEqual({ name: 'file', field_type: 'media', validation: { media_kinds: ['pdf', 'other'] } });
    expect(buildFieldInput({ ...emptyDraft(), name: 'note', field_type: 'text', media_kinds: ['image'] })).toEqual({ name: 'note', field_type: 'text' });
    expect(capabilities('media_list').mediaKinds).toBe(true);
    expect(capabilities('relation').mediaKinds).toBe(false);
  });

  it('moves items for drag-and-drop reordering', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
  });
});
