import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { assertCompleteOrder } from './order.js';

function problems(order: string[], ids: string[]): string[] {
  try {
    assertCompleteOrder(order, ids, 'body.order');
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('VALIDATION_FAILED');
    expect(e.errors?.every((d) => d.path === 'body.order')).toBe(true);
    return (e.errors ?? []).map((d) => d.message);
  }
  return [];
}

describe('assertCompleteOrder', () => {
  it('accepts every id exactly once, in any order', () => {
    expect(problems(['b', 'c', 'a'], ['a', 'b', 'c'])).toEqual([]);
    expect(problems([], [])).toEqual([]);
  });

  it('names ids listed twice and ids not in the list', () => {
    expect(problems(['a', 'a', 'b', 'x'], ['a', 'b'])).toEqual(["id 'a' is listed twice", "id 'x' is not in this list"]);
  });

  it('requires the complete list', () => {
    expect(problems(['a'], ['a', 'b', 'c'])).toEqual(['the complete list is required; missing b, c']);
    expect(problems([], ['a'])).toEqual(['the complete list is required; missing a']);
  });

  it('reports every problem at once', () => {
    expect(problems(['x', 'x'], ['a'])).toEqual(["id 'x' is not in this list", "id 'x' is listed twice", 'the complete list is required; missing a']);
  });
});
