/**
 * Authentication hooks for the two APIs. Each API is an encapsulated plugin whose onRequest hook
 * resolves the caller to `request.actor` before the body is read, so a caller without valid
 * credentials learns nothing about validation. Management routes declare their action in
 * `config.action`; the hook asks the permission check (modules/access/authorize.ts) for the
 * rules that depend on the credentials alone (session-only, scope) before the body is read, and
 * the operation asks it again for the whole rule.
 *
 * The management API also takes a Studio session (D90): a request with the `quire_session`
 * cookie and no X-API-Key is a session request. Its actor is the user with their current role
 * in the workspace named by X-Workspace-ID (src/modules/auth/sessions.ts); every method other
 * than GET, HEAD and OPTIONS must carry the session's X-CSRF-Token. Session-only actions (keys,
 * people, workspace settings: D91) refuse API keys with 403.
 * The cookie is parsed by @fastify/cookie, registered by the management plugin before this hook.
 *
 * Delivery routes that read content (`config.readsRelease`) take `?release={id}`: the hook checks
 * it once (src/modules/read/release.ts: 403 for production keys, 404 for an unknown release, 409
 * for a published one) and the request's actor then reads the release perspective (D111), before
 * the delivery cache looks up an answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { AppError } from '../errors.js';
import { authorizeCredentials, type Action } from '../modules/access/authorize.js';
import { authenticate } from '../modules/auth/operations.js';
import type { Actor, KeyClass, RequestContext } from '../modules/auth/permissions.js';
import { actorReadingRelease, releaseParam } from '../modules/read/release.js';
import { readSession, requireCsrf, SESSION_COOKIE, sessionActor, type SessionState } from '../modules/auth/sessions.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** What a management route does, as the permission check names it; none for reads (D11). */
    action?: Action;
    /** Skip authentication (e.g. /preview, which takes a token; the /session routes). */
    public?: boolean;
    /** A delivery read that takes `?release={id}` (the release perspective, D111). */
    readsRelease?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The first value of a header that may repeat. */
export function firstHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Cookie attributes of the session cookie: HttpOnly, SameSite=Lax, Path=/, Secure over https. */
function cookieOptions(ctx: Context, request: FastifyRequest) {
  const secure = ctx.config.publicUrl.startsWith('https:') || request.protocol === 'https';
  return { httpOnly: true, sameSite: 'lax' as const, path: '/', secure };
}

/** Sets the session cookie for a new session id, expiring with the session. */
export function setSessionCookie(ctx: Context, request: FastifyRequest, reply: FastifyReply, id: string, expiresAt: string): void {
  reply.setCookie(SESSION_COOKIE, id, { ...cookieOptions(ctx, request), expires: new Date(expiresAt) });
}

/** Clears the session cookie (same attributes as when it was set, so browsers drop it). */
export function clearSessionCookie(ctx: Context, request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(ctx, request));
}

/**
 * The valid session of a request's cookie, or 401 UNAUTHORIZED (the stale cookie is cleared).
 * With `csrf`, also 403 unless X-CSRF-Token is the session's token.
 */
export async function sessionOfRequest(ctx: Context, request: FastifyRequest, reply: FastifyReply, csrf: boolean): Promise<SessionState> {
  const cookie = request.cookies[SESSION_COOKIE];
  const session = await readSession(ctx, cookie);
  if (!session) {
    if (cookie !== undefined) clearSessionCookie(ctx, request, reply);
    throw new AppError('UNAUTHORIZED', cookie !== undefined ? 'Your Studio session has ended; sign in again' : 'Sign in to the Studio first: no session');
  }
  if (csrf) requireCsrf(ctx, session, firstHeader(request.headers['x-csrf-token']));
  return session;
}

/** Where a request came from, as the audit log records it (D122). */
export function requestContextOf(request: FastifyRequest): RequestContext {
  return { ip: request.ip ?? null, userAgent: firstHeader(request.headers['user-agent']) ?? null, requestId: request.id ?? null };
}

export function registerAuth(app: FastifyInstance, ctx: Context, keyClass: KeyClass): void {
  app.decorateRequest('actor', null as unknown as Actor);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const config = request.routeOptions.config;
    if (config?.public) return;
    const header = firstHeader(request.headers['x-api-key']);
    if (keyClass === 'management' && !header && request.cookies?.[SESSION_COOKIE] !== undefined) {
      const session = await sessionOfRequest(ctx, request, reply, !SAFE_METHODS.has(request.method));
      request.actor = await sessionActor(ctx, session, firstHeader(request.headers['x-workspace-id']));
    } else {
      request.actor = await authenticate(ctx, header, keyClass);
    }
    if (config?.action) authorizeCredentials(request.actor, config.action);
    // The audit log's request context (D122); a copy, since key actors are cached and shared.
    if (keyClass === 'management') request.actor = { ...request.actor, request: requestContextOf(request) };
    if (keyClass === 'delivery' && config?.readsRelease) {
      const release = releaseParam(request.query);
      if (release !== undefined) request.actor = await actorReadingRelease(ctx, request.actor, release);
    }
  });
}
