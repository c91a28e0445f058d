import { afterEach, describe, expect, it } from 'vitest';
import { makeField } from '../fields/shared/test-utils';
import { fieldTargets, findTarget, revealTarget, splitErrorKey, type ErrorTarget } from './field-errors';

afterEach(() => document.body.replaceChildren());

const target = (over: Partial<ErrorTarget>): ErrorTarget => ({ key: 'k', label: 'l', message: 'm', locale: 'en', field: null, blockId: null, ...over });

describe('refused fields as targets', () => {
  it('splits an error key at its last @', () => {
    expect(splitErrorKey('title@de')).toEqual(['title', 'de']);
  });

  it('orders an entry’s refused fields as the form shows them, the default locale first', () => {
    const fields = [
      makeField({ field_type: 'textarea', name: 'body', label: 'Body', sort_order: 1 }),
      makeField({ field_type: 'text', name: 'title', label: 'Title', sort_order: 0 }),
    ];
    const byField = new Map([
      ['body@en', 'is too long'],
      ['title@de', 'is required'],
      ['title@en', 'is required'],
    ]);
    expect(fieldTargets(byField, fields, 'en').map((t) => `${t.label}: ${t.message}`)).toEqual([
      'Title: is required',
      'Title (de): is required',
      'Body: is too long',
    ]);
  });

  it('finds a field’s control, a block’s field, an SEO field, or nothing while it is not shown', () => {
    document.body.innerHTML = `
      <div data-field="title"><label>Title<input id="entry-title"></label></div>
      <ul><li data-block="b1"><button id="handle">Drag</button><div data-field="title"><textarea id="block-title"></textarea></div></li></ul>
      <input data-seo-field="title" id="seo-title">`;
    expect(findTarget(document, target({ field: 'title' }))?.id).toBe('entry-title');
    expect(findTarget(document, target({ field: 'title', blockId: 'b1' }))?.id).toBe('block-title');
    expect(findTarget(document, target({ field: null, blockId: 'b1' }))?.id).toBe('handle');
    expect(findTarget(document, target({ field: 'seo.title' }))?.id).toBe('seo-title');
    expect(findTarget(document, target({ field: 'image', blockId: 'b1' }))).toBeNull();
    expect(findTarget(document, target({ field: 'title', blockId: 'b2' }))).toBeNull();
  });

  it('focuses a field that appears a little later (a collapsed block opening, a widget loading)', async () => {
    revealTarget(target({ field: 'late' }));
    await new Promise((r) => setTimeout(r, 50));
    document.body.innerHTML = '<div data-field="late"><input id="late"></div>';
    await new Promise((r) => setTimeout(r, 100));
    expect(document.activeElement?.id).toBe('late');
  });
});
