/** deliveryCacheKey: what a delivery answer depends on, in one canonical string. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Scope } from '../modules/auth/permissions.js';
import { deliveryCacheKey } from './delivery-cache.js';

const actor = (over: { workspaceId?: string; environment?: 'production' | 'preview'; contentTypes?: string[]; scopes?: string[] } = {}) => ({
  workspaceId: over.workspaceId ?? 'w1',
  keyClass: 'delivery' as const,
  environment: over.environment ?? ('production' as const),
  scopes: new Set((over.scopes ?? ['content:read']) as Scope[]),
  contentTypes: over.contentTypes ?? [],
});
const OP = '/api/v1/public/entries';

describe('deliveryCacheKey', () => {
  it('ignores the order of query parameters and of whitelist and scope sets', () => {
    const a = deliveryCacheKey(actor({ contentTypes: ['post', 'note'] }), OP, { params: {}, query: { type: 'post', locale: 'de' } });
    const b = deliveryCacheKey(actor({ contentTypes: ['note', 'post'] }), OP, { params: {}, query: { locale: 'de', type: 'post' } });
    expect(a).toBe(b);
  });

  it('keeps apart what changes an answer: workspace, perspective, scopes, whitelist, operation, arguments', () => {
    const base = deliveryCacheKey(actor(), OP, { params: {}, query: { type: 'post' } });
    const others = [
      deliveryCacheKey(actor({ workspaceId: 'w2' }), OP, { params: {}, query: { type: 'post' } }),
      deliveryCacheKey(actor({ environment: 'preview' }), OP, { params: {}, query: { type: 'post' } }),
      deliveryCacheKey(actor({ scopes: ['content:read', 'media:read'] }), OP, { params: {}, query: { type: 'post' } }),
      deliveryCacheKey(actor({ contentTypes: ['post'] }), OP, { params: {}, query: { type: 'post' } }),
      deliveryCacheKey(actor(), '/api/v1/public/pages', { params: {}, query: { type: 'post' } }),
      deliveryCacheKey(actor(), OP, { params: {}, query: { type: 'note' } }),
      deliveryCacheKey(actor(), OP, { params: { slug: 'x' }, query: { type: 'post' } }),
    ];
    expect(new Set([base, ...others]).size).toBe(others.length + 1);
  });

  it('keeps the order of a repeated parameter’s values (it can matter, e.g. for a sort)', () => {
    expect(deliveryCacheKey(actor(), OP, { params: {}, query: { sort: ['a', 'b'] } })).not.toBe(
      deliveryCacheKey(actor(), OP, { params: {}, query: { sort: ['b', 'a'] } }),
    );
  });

  it('gives two different argument objects two different keys, whatever characters they hold', () => {
    const text = fc.string({ maxLength: 6, unit: fc.constantFrom('a', '=', ':', '[', ']', '1', '\n', '"', ',', '{') });
    const value = fc.oneof(text, fc.array(text, { maxLength: 3 }), fc.constant(null), fc.dictionary(text, text, { maxKeys: 2 }));
    const args = fc.record({ params: fc.dictionary(text, text, { maxKeys: 2 }), query: fc.dictionary(text, value, { maxKeys: 3 }) });
    fc.assert(
      fc.property(args, args, (a, b) => {
        const same = deliveryCacheKey(actor(), OP, a) === deliveryCacheKey(actor(), OP, b);
        const equal = JSON.stringify(sortDeep(a)) === JSON.stringify(sortDeep(b));
        expect(same).toBe(equal);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps a list apart from a string, and the rights part apart per actor', () => {
    const one = actor();
    expect(deliveryCacheKey(one, OP, { params: {}, query: { a: ['x'] } })).not.toBe(deliveryCacheKey(one, OP, { params: {}, query: { a: 'x' } }));
    expect(deliveryCacheKey(one, OP, { params: {}, query: {} })).toBe(deliveryCacheKey(one, OP, { params: {}, query: {} }));
    expect(deliveryCacheKey(actor({ workspaceId: 'w9' }), OP, { params: {}, query: {} })).not.toBe(deliveryCacheKey(one, OP, { params: {}, query: {} }));
  });
});

/** A value with every object's keys sorted, to compare argument objects as sets of keys. */
function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortDeep);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, sortDeep((value as Record<string, unknown>)[k])]),
    );
  return value;
}
