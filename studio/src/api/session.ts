/**
 * Calls of the Studio session API (DECISIONS D90; docs/api.md "Studio sessions"), and what a
 * role may do. The role table is the server's own (src/modules/auth/permissions.ts, a module
 * without imports, bundled as is), so the Studio hides exactly what the server would refuse.
 */
import { ROLE_SCOPES } from '../../../src/modules/auth/permissions.js';
import { api } from './client';
import type { Role, Scope, SessionInfo } from './types';

export type { Role, Scope, SessionInfo, SessionWorkspace } from './types';
export { ROLE_SCOPES };

export function roleCan(role: Role, scope: Scope): boolean {
  return ROLE_SCOPES[role].includes(scope);
}

/** Owners and admins manage keys, people and workspace settings (D91). */
export function roleAdministers(role: Role): boolean {
  return role === 'owner' || role === 'admin';
}

export async function fetchSession(): Promise<SessionInfo> {
  return (await api<SessionInfo>('/session')).data;
}

export async function signIn(email: string, password: string): Promise<SessionInfo> {
  return (await api<SessionInfo>('/session', { method: 'POST', body: { email, password } })).data;
}

export async function signOut(): Promise<void> {
  await api<null>('/session', { method: 'DELETE' });
}
