/**
 * Calls of the Studio session API (DECISIONS D90; docs/api.md "Studio sessions"), and what the
 * signed-in person may do in a workspace: the `capabilities` GET /session lists per workspace,
 * decided by the server's permission check, so the Studio hides exactly what the server would
 * refuse and knows no role table of its own.
 */
import { api } from './client';
import type { Capability, SessionInfo, SessionWorkspace, SignInMethods } from './types';

export type { Capability, Role, Scope, SessionInfo, SessionWorkspace, SignInMethods } from './types';

/** True when the session's capabilities in `workspace` include `capability`. */
export function workspaceCan(workspace: SessionWorkspace, capability: Capability): boolean {
  return workspace.capabilities.includes(capability);
}

export async function fetchSession(): Promise<SessionInfo> {
  return (await api<SessionInfo>('/session')).data;
}

/** How people sign in here (no session needed): the sign-in page's password form and single sign-on button. */
export async function fetchSignInMethods(): Promise<SignInMethods> {
  return (await api<SignInMethods>('/session/methods')).data;
}

export async function signIn(email: string, password: string): Promise<SessionInfo> {
  return (await api<SessionInfo>('/session', { method: 'POST', body: { email, password } })).data;
}

export async function signOut(): Promise<void> {
  await api<null>('/session', { method: 'DELETE' });
}
