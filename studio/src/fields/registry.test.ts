import { describe, expect, it } from 'vitest';
import { registeredTypes, widgetFor } from './index';

// D30's field types; the server's list (src/modules/content-types/model.ts) is the source.
import { FIELD_TYPES } from '../../../src/modules/content-types/model';

describe('field widget registry', () => {
  it('has a widget for every field type of the API', () => {
    expect([...registeredTypes()].sort()).toEqual([...FIELD_TYPES].sort());
    for (const type of FIELD_TYPES) expect(widgetFor(type).component).toBeTypeOf('function');
  });
  it('names a type without a widget', () => {
    expect(() => widgetFor('colour')).toThrow("No widget registered for field type 'colour'");
  });
});
