import { describe, expect, it } from 'vitest';
import { MAX_SLUG_LENGTH, SLUG_PATTERN, slugProblem, slugify } from './slugs.js';

describe('slugify', () => {
  it('makes kebab-case from names, camelCase and accents', () => {
    expect(slugify('Blog Post')).toBe('blog-post');
    expect(slugify('blogPost')).toBe('blog-post');
    expect(slugify('Crème brûlée')).toBe('creme-brulee');
    expect(slugify('  --Hello,   World!--  ')).toBe('hello-world');
  });

  it('returns an empty string when nothing usable is left', () => {
    expect(slugify('')).toBe('');
    expect(slugify('日本語')).toBe('');
    expect(slugify('!!!')).toBe('');
  });

  it('keeps at most 120 characters and never ends on a hyphen', () => {
    const long = slugify(`${'a'.repeat(119)} b c`);
    expect(long).toBe('a'.repeat(119));
    expect(slugify('x '.repeat(200)).length).toBeLessThanOrEqual(120);
    expect(slugify('x '.repeat(200))).toMatch(SLUG_PATTERN);
  });
});

describe('SLUG_PATTERN', () => {
  it('accepts lowercase runs joined by single hyphens only', () => {
    for (const ok of ['a', 'blog-post', 'a1-b2-c3', '2026']) expect(SLUG_PATTERN.test(ok)).toBe(true);
    for (const bad of ['', '-a', 'a-', 'a--b', 'A', 'a_b', 'a b', 'é']) expect(SLUG_PATTERN.test(bad)).toBe(false);
  });
});

describe('slugProblem', () => {
  const format = `must be lowercase letters, digits and single hyphens, at most ${MAX_SLUG_LENGTH} characters`;

  it('is null for a valid slug', () => {
    expect(slugProblem('hello-world')).toBeNull();
    expect(slugProblem('a'.repeat(MAX_SLUG_LENGTH))).toBeNull();
  });

  it('describes a malformed, empty, over-long or non-string slug', () => {
    expect(slugProblem('Hello')).toBe(format);
    expect(slugProblem('')).toBe(format);
    expect(slugProblem('a'.repeat(MAX_SLUG_LENGTH + 1))).toBe(format);
    expect(slugProblem(42)).toBe(format);
    expect(slugProblem(undefined)).toBe(format);
  });

  it('rejects reserved slugs only when asked to', () => {
    const reserved = new Set(['bulk', 'reorder']);
    expect(slugProblem('bulk')).toBeNull();
    expect(slugProblem('bulk', reserved)).toBe("'bulk' is reserved");
    expect(slugProblem('bulk-2', reserved)).toBeNull();
  });
});
