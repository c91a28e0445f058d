/**
 * Single sign-on with OpenID Connect (D121; docs/access.md "Single sign-on"): the authorization
 * code flow with PKCE (S256), state and nonce, by openid-client.
 *
 * - startOidc: new state, nonce and PKCE verifier; they travel in the `quire_oidc` cookie
 *   (HttpOnly, SameSite=Lax, 10 minutes, path of the callback), signed with HMAC-SHA256 under
 *   the installation secret, so any instance can finish a flow another began and nothing is
 *   stored. The answer is the provider's authorization URL.
 * - finishOidc: checks the cookie (signature, age), exchanges the code with the verifier and
 *   lets openid-client check the ID token (signature, issuer, audience, expiry), the state and
 *   the nonce; reads userinfo when the ID token lacks the email or the role claim; finds or
 *   creates the person (oidc-people.ts) and ends in concludeSignIn, as password sign-ins do.
 *   A code works once (the provider refuses it again) and the cookie is cleared by the callback
 *   whatever happens.
 *
 * Errors: OidcRefusal with a reason for everything the person can be told (the callback route
 * shows it on the Studio's sign-in page), never an error envelope.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type * as Oidc from 'openid-client';
import type { Context } from '../../context.js';
import { oidcClient, oidcSettings, openidClient, redirectUri } from './oidc-client.js';
import { personForClaims, OidcRefusal, claimValues, verifiedEmail, type Claims } from './oidc-people.js';
import type { RequestContext } from './permissions.js';
import { concludeSignIn, type StartedSession } from './sessions.js';

export const OIDC_COOKIE = 'quire_oidc';
/** How long a person has at the provider before the flow expires. */
export const OIDC_FLOW_MS = 10 * 60_000;
/** Where the flow cookie is sent: the callback only. */
export const OIDC_COOKIE_PATH = '/api/v1/manage/session/oidc';
const SCOPE = 'openid email profile';

/** What the flow cookie carries (signed, not secret from its own browser). */
interface FlowState {
  state: string;
  nonce: string;
  verifier: string;
  /** Expiry, ms since the epoch. */
  expires: number;
  /** The Studio path to open after signing in (starts with `/`). */
  next: string;
}

function sign(ctx: Context, payload: string): string {
  return createHmac('sha256', ctx.secret).update(`oidc-flow\0${payload}`).digest('base64url');
}

function sealFlow(ctx: Context, flow: FlowState): string {
  const payload = Buffer.from(JSON.stringify(flow)).toString('base64url');
  return `${payload}.${sign(ctx, payload)}`;
}

/** The flow of a cookie value, or null when it is missing, forged or expired. */
function openFlow(ctx: Context, value: string | undefined): FlowState | null {
  if (!value || value.length > 4096) return null;
  const [payload, mac] = value.split('.');
  if (!payload || !mac) return null;
  const expected = Buffer.from(sign(ctx, payload));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const flow = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as FlowState;
    if (typeof flow.expires !== 'number' || flow.expires <= ctx.clock().getTime()) return null;
    return flow;
  } catch {
    return null;
  }
}

/** A Studio path to return to (`/demo/model`), or `/` for anything else (no open redirect). */
export function studioNext(next: string | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || next.length > 2000) return '/';
  return next;
}

/** GET /session/oidc/start: the provider's authorization URL and the flow cookie to set. */
export async function startOidc(ctx: Context, next: string | undefined): Promise<{ url: string; cookie: string; expires: Date }> {
  oidcSettings(ctx);
  const oidc = await openidClient();
  let client: Oidc.Configuration;
  try {
    client = await oidcClient(ctx);
  } catch (err) {
    const why = whyRefused(err);
    ctx.log.warn({ detail: why }, 'single sign-on: the issuer could not be discovered');
    throw new OidcRefusal('provider_error', `the issuer could not be discovered: ${why}`);
  }
  const verifier = oidc.randomPKCECodeVerifier();
  const flow: FlowState = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier,
    expires: ctx.clock().getTime() + OIDC_FLOW_MS,
    next: studioNext(next),
  };
  const url = oidc.buildAuthorizationUrl(client, {
    redirect_uri: redirectUri(ctx),
    scope: SCOPE,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state: flow.state,
    nonce: flow.nonce,
  });
  return { url: url.href, cookie: sealFlow(ctx, flow), expires: new Date(flow.expires) };
}

/**
 * What openid-client's error says, with its cause (`unexpected "state" response parameter
 * value`, `unexpected ID Token "nonce" claim value`) and the provider's OAuth error
 * (`invalid_grant` for a code used before).
 */
function whyRefused(err: unknown): string {
  const parts = [(err as Error).message];
  const cause = (err as { cause?: unknown }).cause;
  if (cause instanceof Error) parts.push(cause.message);
  const oauth = (err as { error?: unknown; error_description?: unknown }).error;
  if (typeof oauth === 'string')
    parts.push(
      `${oauth}${typeof (err as { error_description?: unknown }).error_description === 'string' ? ` (${(err as { error_description: string }).error_description})` : ''}`,
    );
  return parts.join(': ');
}

/** The ID token's claims, completed from userinfo when the email or the role claim is missing. */
async function claimsOf(ctx: Context, client: Oidc.Configuration, tokens: Oidc.TokenEndpointResponse & Oidc.TokenEndpointResponseHelpers): Promise<Claims> {
  const idClaims = tokens.claims();
  if (!idClaims) throw new OidcRefusal('failed', 'the provider answered no ID token');
  const claims: Claims = { ...idClaims };
  const settings = oidcSettings(ctx);
  const complete = verifiedEmail(claims) !== null && (settings.roleMap.length === 0 || claimValues(claims, settings.roleClaim).length > 0);
  if (!complete && client.serverMetadata().userinfo_endpoint) {
    const info = await (await openidClient()).fetchUserInfo(client, tokens.access_token, idClaims.sub);
    for (const [name, value] of Object.entries(info)) if (!(name in claims)) claims[name] = value;
  }
  return claims;
}

/**
 * GET /session/oidc/callback: finishes the flow begun in this browser (`cookie`) with the URL the
 * provider sent the person back to (`query`, the raw query string); `request` is where the
 * request came from, for the audit log of the sign-in (D122). Answers the new session and the
 * Studio path to open.
 */
export async function finishOidc(
  ctx: Context,
  query: string,
  cookie: string | undefined,
  request: RequestContext,
): Promise<{ session: StartedSession; next: string }> {
  const address = request.ip ?? '';
  const settings = oidcSettings(ctx);
  const params = new URLSearchParams(query);
  let email: string | null = null;
  try {
    const flow = openFlow(ctx, cookie);
    if (!flow) throw new OidcRefusal('expired', 'no sign-in under way in this browser (the flow cookie is missing, forged or older than 10 minutes)');
    const providerError = params.get('error');
    if (providerError) throw new OidcRefusal('provider_error', `the provider answered ${providerError}: ${params.get('error_description') ?? ''}`.trim());
    const client = await oidcClient(ctx);
    const oidc = await openidClient();
    let tokens;
    try {
      tokens = await oidc.authorizationCodeGrant(client, new URL(`${redirectUri(ctx)}?${params.toString()}`), {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
    } catch (err) {
      // A state or nonce that does not match, a code used before, a bad ID token.
      throw new OidcRefusal('failed', `the provider's answer was refused: ${whyRefused(err)}`);
    }
    const claims = await claimsOf(ctx, client, tokens);
    email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
    const user = await personForClaims(ctx, settings, claims);
    const session = await concludeSignIn(ctx, { ok: true, method: 'oidc', address, request, user });
    return { session, next: flow.next };
  } catch (err) {
    // A refusal is the person's business (info); anything else (a database fault) is Quire's (error).
    if (!(err instanceof OidcRefusal)) ctx.log.error({ err }, 'single sign-on failed');
    const refusal = err instanceof OidcRefusal ? err : new OidcRefusal('failed', (err as Error).message);
    ctx.log.info({ reason: refusal.reason, detail: refusal.message }, 'single sign-on refused');
    await concludeSignIn(ctx, { ok: false, method: 'oidc', address, request, email, error: refusal });
    throw refusal; // concludeSignIn throws it already; this line is for the type checker
  }
}
