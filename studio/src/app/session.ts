/**
 * The session query (GET /session) shared by the gate, the shell and the sign-in screens, and
 * the redirect target after signing in. `safeNext` keeps a return path inside the Studio.
 */
import { queryOptions } from '@tanstack/react-query';
import { fetchSession, type SessionInfo } from '../api/session';
import { SESSION_KEY } from './query-client';

export const sessionQuery = queryOptions({ queryKey: SESSION_KEY, queryFn: fetchSession, staleTime: 5 * 60_000, retry: false });

const LAST_WORKSPACE = 'quire.studio.workspace';

export function rememberWorkspace(slug: string): void {
  try {
    localStorage.setItem(LAST_WORKSPACE, slug);
  } catch {
    // storage may be disabled; the first workspace is then the default
  }
}

/** The workspace to open after sign-in: the last one used in this browser if still a member, else the first. */
export function defaultWorkspacePath(session: SessionInfo): string | null {
  let last: string | null = null;
  try {
    last = localStorage.getItem(LAST_WORKSPACE);
  } catch {
    last = null;
  }
  const ws = session.workspaces.find((w) => w.slug === last) ?? session.workspaces[0];
  return ws ? `/${ws.slug}` : null;
}

/** `next` from a query string when it is a path of this app (never another origin). */
export function safeNext(next: string | null): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}
