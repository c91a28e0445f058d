/** deliveryCacheKey: what a delivery answer depends on, in one canonical string. */
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
});
