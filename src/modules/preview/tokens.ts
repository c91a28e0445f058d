/**
 * Preview tokens (docs/api.md "GET /api/v1/public/preview", "Preview tokens" (D46)): a JWT (HS256) naming
 * one entry or,
 * for the Studio's live preview of pages, one page (`sub`, with `kind: 'page'`; tokens without
 * `kind` name an entry, as every token minted before pages could be previewed), and its workspace
 * (`wid`), audience `quire:preview`, valid for 48 hours. The signing key
 * is derived from the installation secret for this purpose only, so neither a cursor nor any other
 * value signed with the secret can pass as a token. Time comes from the context clock, so expiry
 * is testable. jose is loaded on the first token signed or verified, not at start
 * (docs/scaling.md "Memory").
 */
import { createHmac } from 'node:crypto';
import { AppError } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';

/** docs/api.md "Preview tokens": preview token lifetime, 48 hours. */
export const PREVIEW_TOKEN_LIFETIME_S = 48 * 3600;
const AUDIENCE = 'quire:preview';

/** What a preview token names: an entry (docs/api.md "GET /api/v1/public/preview") or a page (the Studio's live preview of pages). */
export type PreviewKind = 'entry' | 'page';

export interface PreviewClaims {
  kind: PreviewKind;
  /** the entry's or page's id */
  id: string;
  workspaceId: string;
}

/** The token signing key: derived per call (one HMAC, microseconds), so nothing is kept in memory. */
function signingKey(secret: Uint8Array): Uint8Array {
  return new Uint8Array(createHmac('sha256', secret).update('quire:preview-token:v1').digest());
}

/** Signs a token for `claims` issued at `now`; returns it with its expiry (ISO, D3). */
export async function signPreviewToken(secret: Uint8Array, claims: PreviewClaims, now: Date): Promise<{ token: string; expires_at: string }> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + PREVIEW_TOKEN_LIFETIME_S;
  // Entry tokens keep the original shape (no `kind`), so tokens minted before pages existed and after verify alike.
  const payload = claims.kind === 'page' ? { wid: claims.workspaceId, kind: 'page' } : { wid: claims.workspaceId };
  const { SignJWT } = await import('jose');
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.id)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(signingKey(secret));
  return { token, expires_at: iso(new Date(exp * 1000)) };
}

/**
 * Verifies a token at `now` and returns what it names. Throws 401 UNAUTHORIZED for an expired,
 * tampered or malformed token (it is a credential, like a key).
 */
export async function verifyPreviewToken(secret: Uint8Array, token: string, now: Date): Promise<PreviewClaims> {
  const { errors: joseErrors, jwtVerify } = await import('jose');
  try {
    const { payload } = await jwtVerify(token, signingKey(secret), {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      currentDate: now,
      requiredClaims: ['exp', 'sub'],
    });
    if (!isUuid(payload.sub) || !isUuid(payload.wid)) throw new AppError('UNAUTHORIZED', 'Invalid preview token');
    if (payload.kind !== undefined && payload.kind !== 'page') throw new AppError('UNAUTHORIZED', 'Invalid preview token');
    return { kind: payload.kind === 'page' ? 'page' : 'entry', id: payload.sub, workspaceId: payload.wid };
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new AppError('UNAUTHORIZED', 'This preview token has expired; preview tokens are valid for 48 hours');
    throw new AppError('UNAUTHORIZED', 'Invalid preview token');
  }
}
