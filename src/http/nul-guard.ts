/**
 * Refuses NUL characters (U+0000) anywhere in a request's path, query or JSON body with 400
 * VALIDATION_FAILED. PostgreSQL cannot store them in text or jsonb, SQLite truncates at them in
 * places, and no content needs them; refusing them up front keeps both dialects identical and
 * keeps a client from turning them into a 500.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalid } from '../errors.js';

/** Dotted path of the first string or key holding U+0000 in a parsed JSON value, or null. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (depth > 256 || value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], `${path}.${i}`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k.includes('\u0000')) return `${path}.${k.replaceAll('\u0000', '\\u0000')}`;
    const hit = findNul(v, `${path}.${k}`, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/** Throws 400 when the URL carries a NUL character (raw or percent-encoded). */
export function assertUrlWithoutNul(url: string): void {
  if (url.includes('%00') || url.includes('\u0000')) {
    throw invalid(url.split('?')[0].includes('%00') ? 'params' : 'query', 'must not contain NUL characters');
  }
}

/** Checks JSON bodies for NUL characters (URLs are checked by the app's onRequest hook). */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    if (request.body === undefined || request.body === null || typeof request.body !== 'object' || Buffer.isBuffer(request.body)) return;
    const hit = findNul(request.body, 'body');
    if (hit) throw invalid(hit, 'must not contain NUL characters');
  });
}
