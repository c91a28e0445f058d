/**
 * Studio sign-in routes (D90; contract "Session endpoints"): POST/GET/DELETE /session,
 * GET /session/token and POST /session/password. They take no API key (`config.public`) and read
 * the session cookie themselves; the rules are in src/modules/auth/sessions.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { invalid } from '../../../errors.js';
import { changePassword, sessionInfo, signIn, signOut } from '../../../modules/auth/sessions.js';
import { acceptInvitation, describeLink, redeemLink } from '../../../modules/users/invitations.js';
import { clearSessionCookie, requestContextOf, sessionOfRequest, setSessionCookie } from '../../auth-hooks.js';
import { EmptyEnvelope, EnvelopeOf, ok } from '../../envelope.js';
import { AcceptInvitationBody, PasswordBody, SessionInfoSchema, SignInBody, TokenInfoSchema, TokenQuery } from '../../schemas/session.js';

const TAGS = ['Studio: session'];

export async function sessionRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.post(
    '/session',
    {
      config: { public: true },
      schema: {
        operationId: 'signIn',
        tags: TAGS,
        summary: 'Sign in to the Studio with email and password (sets the quire_session cookie)',
        description: 'A wrong email or password answers 401; repeated failures are throttled with 429 (5 per email or 20 per address in 15 minutes).',
        errors: ['UNAUTHORIZED'],
        security: [],
        body: SignInBody,
        response: { 200: EnvelopeOf(SessionInfoSchema) },
      },
    },
    async (req, reply) => {
      const started = await signIn(ctx, req.body, req.ip, requestContextOf(req));
      setSessionCookie(ctx, req, reply, started.id, started.state.expiresAt);
      return ok(started.info);
    },
  );

  r.get(
    '/session',
    {
      config: { public: true },
      schema: {
        operationId: 'getSession',
        tags: TAGS,
        summary: 'The signed-in person, their workspaces and the CSRF token',
        errors: ['UNAUTHORIZED'],
        security: [],
        response: { 200: EnvelopeOf(SessionInfoSchema) },
      },
    },
    async (req, reply) => ok(await sessionInfo(ctx, await sessionOfRequest(ctx, req, reply, false))),
  );

  r.delete(
    '/session',
    {
      config: { public: true },
      schema: {
        operationId: 'signOut',
        tags: TAGS,
        summary: 'Sign out: ends this session and clears the cookie (X-CSRF-Token required)',
        errors: ['UNAUTHORIZED', 'FORBIDDEN'],
        security: [],
        response: { 200: EmptyEnvelope },
      },
    },
    async (req, reply) => {
      await signOut(ctx, await sessionOfRequest(ctx, req, reply, true), requestContextOf(req));
      clearSessionCookie(ctx, req, reply);
      return ok(null);
    },
  );

  r.get(
    '/session/token',
    {
      config: { public: true },
      schema: {
        operationId: 'describeOneTimeToken',
        tags: TAGS,
        summary: 'What a one-time setup or invitation token is for and what its holder does next (404 when unknown, used or expired)',
        errors: ['NOT_FOUND'],
        security: [],
        querystring: TokenQuery,
        response: { 200: EnvelopeOf(TokenInfoSchema) },
      },
    },
    async (req) => ok(await describeLink(ctx, req.query.token)),
  );

  r.post(
    '/session/password',
    {
      config: { public: true },
      schema: {
        operationId: 'setPassword',
        tags: TAGS,
        summary: 'Set a password with a one-time token, or change it on a session (ends the other sessions, signs in)',
        description:
          'With `token` (a setup or invitation link, 72 hours; unknown, used or expired ones answer 404) or, on a session with its X-CSRF-Token, with `current_password`. Signs in (sets the cookie). An invitation link sets a password only for a brand-new account (no password, never signed in, no workspace): for any other account it answers 403 and the person signs in and accepts instead.',
        errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
        security: [],
        body: PasswordBody,
        response: { 200: EnvelopeOf(SessionInfoSchema) },
      },
    },
    async (req, reply) => {
      const { token, current_password, password } = req.body;
      if ((token === undefined) === (current_password === undefined)) {
        throw invalid('body', 'send either token (a setup or invitation link) or current_password (on a session), with password');
      }
      const started =
        token !== undefined
          ? await redeemLink(ctx, token, password, requestContextOf(req))
          : await changePassword(
              ctx,
              await sessionOfRequest(ctx, req, reply, true),
              { current_password: current_password!, password },
              req.ip,
              requestContextOf(req),
            );
      setSessionCookie(ctx, req, reply, started.id, started.state.expiresAt);
      return ok(started.info);
    },
  );

  r.post(
    '/session/invitations/accept',
    {
      config: { public: true },
      schema: {
        operationId: 'acceptInvitation',
        tags: TAGS,
        summary: 'Accept an invitation as the signed-in person it is for (X-CSRF-Token required); answers the new SessionInfo',
        description:
          'The token of the invitation link (e-mailed to the invited address, or passed on by the inviting admin) and a session of the account with that email are both needed. Another email answers 403; an unknown, used, cancelled or expired link 404. A person already a member keeps their role.',
        errors: ['UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND'],
        security: [],
        body: AcceptInvitationBody,
        response: { 200: EnvelopeOf(SessionInfoSchema) },
      },
    },
    async (req, reply) => ok(await acceptInvitation(ctx, await sessionOfRequest(ctx, req, reply, true), req.body.token, requestContextOf(req))),
  );
}
