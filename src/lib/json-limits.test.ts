import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJsonShape, jsonDepth } from './json-limits.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('checkJsonShape', () => {
  it('allows nesting up to the limit and refuses one level more', () => {
    expect(checkJsonShape(nested(5), 5)).toBeNull();
    expect(checkJsonShape(nested(6), 5)?.limit).toBe('depth');
    expect(checkJsonShape('{"a":{"b":{"c":1}}}', 3)).toBeNull();
    expect(checkJsonShape('{"a":{"b":{"c":{}}}}', 3)?.message).toMatch(/deeper than 3 levels/);
  });

  it('counts array elements per array, not commas of objects or strings', () => {
    expect(checkJsonShape('[1,2,3]', 10, 3)).toBeNull();
    expect(checkJsonShape('[1,2,3,4]', 10, 3)?.limit).toBe('array');
    expect(checkJsonShape('[[1,2],[3,4],[5,6]]', 10, 3)).toBeNull();
    expect(checkJsonShape('{"a":1,"b":2,"c":3,"d":4}', 10, 3)).toBeNull();
    expect(checkJsonShape('["a,b,c,d,e"]', 10, 3)).toBeNull();
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(checkJsonShape(JSON.stringify({ s: '[[[[[[[[[[', t: 'x\\"[[[[[[', u: '\\\\' }), 2)).toBeNull();
    expect(checkJsonShape('["\\\\", [[[]]]]', 3)?.limit).toBe('depth');
  });

  it('agrees with the depth of the parsed value for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), (value) => {
        const text = JSON.stringify(value);
        const depth = jsonDepth(value);
        expect(checkJsonShape(text, depth)).toBeNull();
        if (depth > 0) expect(checkJsonShape(text, depth - 1)?.limit).toBe('depth');
      }),
    );
  });

  it('scans a 1 MB body in linear time', () => {
    const text = nested(100_000) + 'x'.repeat(800_000);
    const started = performance.now();
    expect(checkJsonShape(text)?.limit).toBe('depth');
    expect(checkJsonShape(JSON.stringify({ s: 'x'.repeat(1_000_000) }))).toBeNull();
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('jsonDepth', () => {
  it('measures without recursion', () => {
    expect(jsonDepth(1)).toBe(0);
    expect(jsonDepth({ a: [1, { b: [] }] })).toBe(4);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonDepth(deep)).toBe(100_001);
  });
});
