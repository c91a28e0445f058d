import { describe, expect, it } from 'vitest';
import { compilePattern, type Pattern } from './pattern.js';

const compiled = (source: string): Pattern => {
  const p = compilePattern(source);
  if ('error' in p) throw new Error(p.error);
  return p;
};

describe('compilePattern', () => {
  it('finds the pattern anywhere in the value, as RegExp#test does; ^…$ anchors', () => {
    expect(compiled('b').test('abc')).toBe(true);
    expect(compiled('^b').test('abc')).toBe(false);
    expect(compiled('^[a-z0-9-]+$').test('hello-world')).toBe(true);
    expect(compiled('^\\p{L}+$').test('Grüße')).toBe(true);
    expect(compiled('^\\d{3}$').test('1234')).toBe(false);
  });

  it('refuses lookaround and backreferences with a message naming RE2', () => {
    for (const source of ['(?=a)b', '(?!a)b', '(a)\\1', '(?<=a)b', '[']) {
      const p = compilePattern(source);
      expect(p).toHaveProperty('error');
      expect((p as { error: string }).error).toMatch(/RE2 syntax/);
    }
  });

  it('matches catastrophic-backtracking patterns in linear time', () => {
    // ^(a+)+$ against 30 a's and a ! takes seconds with a backtracking engine.
    const started = performance.now();
    for (const source of ['^(a+)+$', '^(a|a)*$', '^(\\w+\\s?)*$', '(x+x+)+y']) {
      expect(compiled(source).test(`${'a'.repeat(30)}!`)).toBe(false);
      expect(compiled(source).test(`${'x'.repeat(20_000)}!`)).toBe(false);
    }
    // Generous bound: the point is not speed but that nothing is exponential.
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
