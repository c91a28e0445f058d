/**
 * CORS for both APIs (docs/front-ends.md "CORS" (D80)): one root
 * onRequest hook, so a
 * preflight is answered 204 before any API key or session is looked at.
 *
 * - Delivery (`/api/v1/public/**`) and its files (`/media/files/**`): any origin
 *   (`Access-Control-Allow-Origin: *`, also without an Origin header, so an answer a CDN keeps
 *   serves every site) unless CORS_DELIVERY_ORIGINS lists some; then a listed origin is echoed
 *   and answers carry `Vary: Origin`. Methods GET, HEAD, OPTIONS; no credentials.
 * - Management (`/api/v1/manage/**`): only CORS_MANAGEMENT_ORIGINS (default none). `*` allows any
 *   origin without credentials; listed origins are echoed with
 *   `Access-Control-Allow-Credentials: true` (a same-site front end may use a Studio session).
 * - A preflight from an origin the API does not allow answers 403 FORBIDDEN in the envelope,
 *   without any Access-Control-* header; an actual request from it is served without them (the
 *   browser then withholds the answer). OPTIONS without `Origin` and
 *   `Access-Control-Request-Method` is no preflight and answers 405 as before.
 *
 * Written as one hook with headers computed once rather than through @fastify/cors: its
 * per-request option objects, catch-all OPTIONS route and the `Vary: Origin` it adds to every
 * answer (which then had to be taken out again where the origin changes nothing) cost about
 * 30 µs of CPU per request, a third of a cached delivery hit (measured in-process, inject).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { FILES_PATH } from '../modules/media/locations.js';

/** Seconds a browser may keep a preflight answer. */
export const CORS_MAX_AGE = 600;

/** Response headers a browser script may read, on both APIs. */
const EXPOSED = [
  'ETag',
  'X-Request-Id',
  'X-Cache',
  'Cache-Tag',
  'Surrogate-Key',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
].join(', ');

interface Policy {
  /** null: any origin. */
  origins: ReadonlySet<string> | null;
  credentials: boolean;
  /** Preflight answer headers, joined once. */
  preflight: Record<string, string>;
  api: string;
  variable: string;
}

function policy(origins: ReadonlySet<string> | null, credentials: boolean, methods: string[], headers: string[], api: string, variable: string): Policy {
  return {
    origins,
    credentials,
    preflight: {
      'Access-Control-Allow-Methods': methods.join(', '),
      'Access-Control-Allow-Headers': headers.join(', '),
      'Access-Control-Max-Age': String(CORS_MAX_AGE),
    },
    api,
    variable,
  };
}

/** The CORS policy of each API (D80), from the configuration. */
export function corsPolicies(config: Pick<Config, 'corsDeliveryOrigins' | 'corsManagementOrigins'>): { delivery: Policy; management: Policy } {
  const anyManagement = config.corsManagementOrigins.includes('*');
  return {
    delivery: policy(
      config.corsDeliveryOrigins === null ? null : new Set(config.corsDeliveryOrigins),
      false,
      ['GET', 'HEAD', 'OPTIONS'],
      ['X-API-Key', 'Idempotency-Key', 'If-None-Match', 'Content-Type', 'Last-Event-ID'],
      'delivery API',
      'CORS_DELIVERY_ORIGINS',
    ),
    management: policy(
      anyManagement ? null : new Set(config.corsManagementOrigins),
      !anyManagement,
      ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
      ['X-API-Key', 'Content-Type', 'Idempotency-Key', 'If-Match', 'If-None-Match', 'X-Workspace-ID', 'X-CSRF-Token'],
      'management API',
      'CORS_MANAGEMENT_ORIGINS',
    ),
  };
}

function underPrefix(url: string, prefix: string): boolean {
  if (!url.startsWith(prefix)) return false;
  const next = url.charCodeAt(prefix.length);
  return Number.isNaN(next) || next === 47 /* / */ || next === 63; /* ? */
}

/** Registers CORS on the root instance (before the API plugins, so it runs before their auth hooks). */
export function registerCors(app: FastifyInstance, config: Pick<Config, 'corsDeliveryOrigins' | 'corsManagementOrigins'>): void {
  const policies = corsPolicies(config);
  const policyOf = (url: string): Policy | null => {
    if (underPrefix(url, '/api/v1/public') || underPrefix(url, FILES_PATH)) return policies.delivery;
    if (underPrefix(url, '/api/v1/manage')) return policies.management;
    return null;
  };

  // Root onRequest hooks also run for requests no route matches, so preflights (there are no
  // OPTIONS routes) are answered here and need no route of their own.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const p = policyOf(request.url);
    if (p === null) return done();
    const origin = request.headers.origin;
    const options = request.method === 'OPTIONS';
    const preflight = options && origin !== undefined && request.headers['access-control-request-method'] !== undefined;
    if (options && !preflight) return done();
    if (p.origins !== null) reply.header('Vary', 'Origin');
    const allowed = p.origins === null ? '*' : origin !== undefined && p.origins.has(origin) ? origin : null;
    if (allowed === null) {
      if (!preflight) return done();
      const how = p.origins?.size ? `only the origins of ${p.variable} are` : `no origin is (set ${p.variable} to allow one)`;
      return done(new AppError('FORBIDDEN', `Origin ${origin} may not call the ${p.api} from a browser: ${how}`));
    }
    reply.header('Access-Control-Allow-Origin', allowed);
    if (p.credentials) reply.header('Access-Control-Allow-Credentials', 'true');
    if (!preflight) {
      reply.header('Access-Control-Expose-Headers', EXPOSED);
      return done();
    }
    reply.headers(p.preflight).code(204).send();
  });
}
