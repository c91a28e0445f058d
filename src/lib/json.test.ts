import { describe, expect, it } from 'vitest';
import { projectedStringify, stableStringify } from './json.js';

describe('stable JSON text', () => {
  const a = { title: 'T', body: { nodeType: 'document', data: {}, content: [{ value: 'x', nodeType: 'text' }] }, extra: { z: 1, a: [{ b: 2, a: 1 }] } };
  // The same value with every object's keys in another order (as jsonb gives them back).
  const b = { extra: { a: [{ a: 1, b: 2 }], z: 1 }, body: { data: {}, content: [{ nodeType: 'text', value: 'x' }], nodeType: 'document' }, title: 'T' };

  it('sorts the keys of every object, so equal values give equal text', () => {
    expect(stableStringify(a)).toBe(stableStringify(b));
    expect(stableStringify(a)).toBe(
      '{"body":{"content":[{"nodeType":"text","value":"x"}],"data":{},"nodeType":"document"},"extra":{"a":[{"a":1,"b":2}],"z":1},"title":"T"}',
    );
    expect(JSON.parse(stableStringify(a))).toEqual(a);
    expect(stableStringify(undefined)).toBe('null');
    expect(stableStringify({ gone: undefined, kept: null })).toBe('{"kept":null}');
    expect(stableStringify([3, { b: 1, a: 2 }])).toBe('[3,{"a":2,"b":1}]');
  });

  it('keeps the outermost order of a projection and sorts what is inside', () => {
    expect(projectedStringify(a)).toBe(
      '{"title":"T","body":{"content":[{"nodeType":"text","value":"x"}],"data":{},"nodeType":"document"},"extra":{"a":[{"a":1,"b":2}],"z":1}}',
    );
    expect(projectedStringify({ ...a, extra: b.extra, body: b.body })).toBe(projectedStringify(a));
    expect(projectedStringify('text')).toBe('"text"');
    expect(projectedStringify([{ b: 1, a: 2 }])).toBe('[{"a":2,"b":1}]');
  });
});
