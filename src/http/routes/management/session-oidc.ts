/**
 * Single sign-on routes (D121; docs/access.md "Single sign-on"): GET /session/methods (how people
 * sign in here, for the Studio's sign-in screen), and the two browser navigations of the
 * authorization code flow, GET /session/oidc/start and GET /session/oidc/callback. The latter two
 * answer redirects, never the JSON envelope: a refusal opens the Studio's sign-in page with
 * `?sso_error=<reason>`, which words it. They are left out of the OpenAPI document (a browser
 * follows them; no API client calls them). The rules are in src/modules/auth/oidc.ts.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { finishOidc, OIDC_COOKIE, OIDC_COOKIE_PATH, startOidc } from '../../../modules/auth/oidc.js';
import { OidcRefusal } from '../../../modules/auth/oidc-people.js';
import { requestContextOf, setSessionCookie } from '../../auth-hooks.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { OidcStartQuery, SignInMethodsSchema } from '../../schemas/session.js';

const TAGS = ['Studio: session'];

/** The flow cookie's attributes: like the session cookie's (HttpOnly, SameSite=Lax, Secure over https), sent to the callback only. */
function flowCookieOptions(ctx: Context, request: FastifyRequest) {
  const secure = ctx.config.publicUrl.startsWith('https:') || request.protocol === 'https';
  return { httpOnly: true, sameSite: 'lax' as const, path: OIDC_COOKIE_PATH, secure };
}

/** Sends the browser to the Studio's sign-in page, which words `reason`. */
function refuse(reply: FastifyReply, err: unknown): FastifyReply {
  const reason = err instanceof OidcRefusal ? err.reason : 'failed';
  return reply.header('cache-control', 'no-store').redirect(`/studio/sign-in?sso_error=${reason}`, 303);
}

export async function sessionOidcRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/session/methods',
    {
      config: { public: true },
      schema: {
        operationId: 'getSignInMethods',
        tags: TAGS,
        summary: 'How people sign in to this Studio: password, single sign-on (OpenID Connect) or both',
        security: [],
        response: { 200: EnvelopeOf(SignInMethodsSchema) },
      },
    },
    async () => {
      const oidc = ctx.config.oidc;
      return ok({
        password: !oidc?.only,
        sso: oidc ? { name: oidc.name, start_url: '/api/v1/manage/session/oidc/start' } : null,
      });
    },
  );

  r.get('/session/oidc/start', { config: { public: true }, schema: { hide: true, querystring: OidcStartQuery } }, async (req, reply) => {
    try {
      const started = await startOidc(ctx, req.query.next);
      reply.setCookie(OIDC_COOKIE, started.cookie, { ...flowCookieOptions(ctx, req), expires: started.expires });
      return reply.header('cache-control', 'no-store').redirect(started.url, 303);
    } catch (err) {
      if (!(err instanceof OidcRefusal)) throw err;
      return refuse(reply, err);
    }
  });

  r.get('/session/oidc/callback', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    // The flow is over whatever happens: its cookie goes.
    reply.clearCookie(OIDC_COOKIE, flowCookieOptions(ctx, req));
    try {
      const { session, next } = await finishOidc(ctx, query, req.cookies[OIDC_COOKIE], requestContextOf(req));
      setSessionCookie(ctx, req, reply, session.id, session.state.expiresAt);
      return reply.header('cache-control', 'no-store').redirect(`/studio${next}`, 303);
    } catch (err) {
      // finishOidc logs why; whatever it was, the browser lands on the sign-in page, not an envelope.
      return refuse(reply, err);
    }
  });
}
