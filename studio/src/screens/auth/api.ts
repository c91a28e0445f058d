/** Calls of the sign-in and setup screens (contract "Session endpoints"). */
import { api } from '../../api/client';
import type { OneTimeToken, SessionInfo } from '../../api/types';

export type { OneTimeToken } from '../../api/types';

/** GET /session/token: what a setup or invitation link is for; 404 when used, expired or unknown. */
export async function fetchToken(token: string): Promise<OneTimeToken> {
  return (await api<OneTimeToken>('/session/token', { query: { token } })).data;
}

/** POST /session/password with a one-time token: sets the first password (accepting an invitation) and signs in. */
export async function redeemToken(token: string, password: string): Promise<SessionInfo> {
  return (await api<SessionInfo>('/session/password', { method: 'POST', body: { token, password } })).data;
}

/** POST /session/invitations/accept: the signed-in person accepts the invitation of this link; the session's new workspaces. */
export async function acceptInvitation(token: string): Promise<SessionInfo> {
  return (await api<SessionInfo>('/session/invitations/accept', { method: 'POST', body: { token } })).data;
}

/** Password rule of the server (10 to 200 characters), checked before sending. */
export function passwordProblem(password: string): string | null {
  if (password.length < 10) return 'Use at least 10 characters';
  if (password.length > 200) return 'Use at most 200 characters';
  return null;
}
