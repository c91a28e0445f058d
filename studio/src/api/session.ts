/**
 * Types and calls of the Studio session API (DECISIONS D90; docs/api.md "Studio sessions").
 * The shapes here mirror the server's session schemas.
 */
import { api } from './client';

export type Role = 'owner' | 'admin' | 'editor' | 'author' | 'viewer';
export type Scope = 'content:write' | 'content:publish' | 'media:write' | 'schema:write';

export interface SessionWorkspace {
  id: string;
  slug: string;
  name: string;
  role: Role;
}

export interface SessionInfo {
  user: { id: number; email: string; name: string | null };
  workspaces: SessionWorkspace[];
  csrf_token: string;
}

/** D12: what each role may do; the Studio hides what the server would refuse. */
export const ROLE_SCOPES: Record<Role, readonly Scope[]> = {
  owner: ['content:write', 'content:publish', 'media:write', 'schema:write'],
  admin: ['content:write', 'content:publish', 'media:write', 'schema:write'],
  editor: ['content:write', 'content:publish', 'media:write'],
  author: ['content:write', 'media:write'],
  viewer: [],
};

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
