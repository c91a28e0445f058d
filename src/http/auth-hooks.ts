/**
 * Authentication hooks for the two APIs. Each API is an encapsulated plugin whose onRequest hook
 * resolves `X-API-Key` to `request.actor` before the body is read, so a caller without a valid
 * key learns nothing about validation. Management routes name their scope in
 * `config.scope`; the check itself is requireScope (one place for the rule).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { authenticate, requireScope } from '../modules/auth/operations.js';
import type { Actor, KeyClass, Scope } from '../modules/auth/permissions.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** Scope a management route needs (api.md Authentication); none for reads (D11). */
    scope?: Scope;
    /** Skip API key authentication (e.g. /preview, which takes a token). */
    public?: boolean;
  }
}

export function registerAuth(app: FastifyInstance, ctx: Context, keyClass: KeyClass): void {
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    if (config?.public) return;
    const header = request.headers['x-api-key'];
    request.actor = await authenticate(ctx, Array.isArray(header) ? header[0] : header, keyClass);
    if (config?.scope) requireScope(request.actor, config.scope);
  });
}
