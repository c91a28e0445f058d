/**
 * CORS for both APIs (DECISIONS.md D80, docs/front-ends.md "CORS"), through @fastify/cors
 * registered once at the root with a per-request delegator, so a preflight is answered 204 in an
 * onRequest hook before any API key or session is looked at.
 *
 * - Delivery (`/api/v1/public/**`) and its files (`/media/files/**`): any origin
 *   (`Access-Control-Allow-Origin: *`) unless CORS_DELIVERY_ORIGINS lists some; then a listed
 *   origin is echoed. Methods GET, HEAD, OPTIONS; no credentials.
 * - Management (`/api/v1/manage/**`): only CORS_MANAGEMENT_ORIGINS (default none). `*` allows any
 *   origin without credentials; listed origins are echoed with
 *   `Access-Control-Allow-Credentials: true` (a same-site front end may use a Studio session).
 * - A preflight from an origin the API does not allow answers 403 FORBIDDEN in the envelope,
 *   without any Access-Control-* header; an actual request from it is served without them (the
 *   browser then withholds the answer). OPTIONS without `Origin` and
 *   `Access-Control-Request-Method` is no preflight and answers 405 as before.
 * - `Vary: Origin` only where the answer depends on the origin (a narrowed list): @fastify/cors
 *   adds it to every answer when options are computed per request, which would split a CDN's
 *   cache per origin for nothing, so it is taken out again elsewhere.
 */
import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { FILES_PATH } from '../modules/media/locations.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** True when this request's CORS answer depends on its Origin (a narrowed origin list). */
    corsVariesByOrigin: boolean;
  }
}

/** Seconds a browser may keep a preflight answer. */
export const CORS_MAX_AGE = 600;

/** Response headers a browser script may read, on both APIs. */
const EXPOSED = ['ETag', 'X-Request-Id', 'X-Cache', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

interface Policy {
  /** null: any origin. */
  origins: ReadonlySet<string> | null;
  credentials: boolean;
  methods: string[];
  allowedHeaders: string[];
  api: string;
  variable: string;
}

/** The CORS policy of each API (D80), from the configuration. */
export function corsPolicies(config: Pick<Config, 'corsDeliveryOrigins' | 'corsManagementOrigins'>): { delivery: Policy; management: Policy } {
  const anyManagement = config.corsManagementOrigins.includes('*');
  return {
    delivery: {
      origins: config.corsDeliveryOrigins === null ? null : new Set(config.corsDeliveryOrigins),
      credentials: false,
      methods: ['GET', 'HEAD', 'OPTIONS'],
      allowedHeaders: ['X-API-Key', 'Idempotency-Key', 'If-None-Match', 'Content-Type'],
      api: 'delivery API',
      variable: 'CORS_DELIVERY_ORIGINS',
    },
    management: {
      origins: anyManagement ? null : new Set(config.corsManagementOrigins),
      credentials: !anyManagement,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      allowedHeaders: ['X-API-Key', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Workspace-ID', 'X-CSRF-Token'],
      api: 'management API',
      variable: 'CORS_MANAGEMENT_ORIGINS',
    },
  };
}

const OFF: FastifyCorsOptions = { origin: false };

function underPrefix(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Registers CORS on the root instance (before the API plugins, so it runs before their auth hooks). */
export async function registerCors(app: FastifyInstance, config: Pick<Config, 'corsDeliveryOrigins' | 'corsManagementOrigins'>): Promise<void> {
  const policies = corsPolicies(config);
  // Built once per policy (joined lists: @fastify/cors would join arrays on every request).
  const baseOptions = new Map<Policy, FastifyCorsOptions>(
    [policies.delivery, policies.management].map((policy) => [
      policy,
      {
        origin: '*',
        credentials: policy.credentials,
        methods: policy.methods.join(', '),
        allowedHeaders: policy.allowedHeaders.join(', '),
        exposedHeaders: EXPOSED.join(', '),
        maxAge: CORS_MAX_AGE,
        strictPreflight: false,
      },
    ]),
  );
  const optionsOf = (policy: Policy, origin: string | null): FastifyCorsOptions => {
    const base = baseOptions.get(policy) as FastifyCorsOptions;
    return policy.origins === null ? base : { ...base, origin: origin as string };
  };
  const policyOf = (url: string): Policy | null => {
    const path = url.split('?')[0];
    if (underPrefix(path, '/api/v1/public') || underPrefix(path, FILES_PATH)) return policies.delivery;
    if (underPrefix(path, '/api/v1/manage')) return policies.management;
    return null;
  };

  app.decorateRequest('corsVariesByOrigin', false);
  await app.register(cors, {
    hook: 'onRequest',
    delegator: (request: FastifyRequest, callback: (error: Error | null, options: FastifyCorsOptions) => void) => {
      const policy = policyOf(request.url);
      if (!policy) return callback(null, OFF);
      request.corsVariesByOrigin = policy.origins !== null;
      const origin = request.headers.origin ?? null;
      const preflight = request.method === 'OPTIONS' && origin !== null && request.headers['access-control-request-method'] !== undefined;
      if (request.method === 'OPTIONS' && !preflight) return callback(null, OFF);
      // Any origin: `*` even without an Origin header, so an answer a CDN keeps serves browsers too.
      if (policy.origins === null || (origin !== null && policy.origins.has(origin))) return callback(null, optionsOf(policy, origin));
      if (!preflight || origin === null) return callback(null, OFF);
      const how = policy.origins.size === 0 ? `no origin is (set ${policy.variable} to allow one)` : `only ${policy.variable} are`;
      return callback(new AppError('FORBIDDEN', `Origin ${origin} may not call the ${policy.api} from a browser: ${how}`), OFF);
    },
  });
  // See the module comment: Vary: Origin stays only where the origin changes the answer.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    const vary = request.corsVariesByOrigin ? undefined : reply.getHeader('vary');
    if (vary !== undefined && /origin/i.test(String(vary))) {
      const kept = String(vary)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '' && s.toLowerCase() !== 'origin');
      if (kept.length === 0) reply.removeHeader('vary');
      else reply.header('Vary', kept.join(', '));
    }
    done(null, payload);
  });
}
