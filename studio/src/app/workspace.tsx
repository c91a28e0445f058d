/**
 * The workspace a Studio screen works in, with the signed-in person's role there. The app shell
 * provides it for every route under /studio/:workspace; screens read it with useWorkspace().
 */
import { createContext, useContext } from 'react';
import { roleAdministers, roleCan, type Scope, type SessionInfo, type SessionWorkspace } from '../api/session';

export interface WorkspaceContextValue {
  session: SessionInfo;
  workspace: SessionWorkspace;
  /** true when the role allows `scope` (D12); the server checks again on every request */
  can: (scope: Scope) => boolean;
  /** owners and admins: keys, people, workspace settings (D91) */
  administers: boolean;
}

export const WorkspaceContext = createContext<WorkspaceContextValue | null>(null);

export function workspaceContextValue(session: SessionInfo, workspace: SessionWorkspace): WorkspaceContextValue {
  return { session, workspace, can: (scope) => roleCan(workspace.role, scope), administers: roleAdministers(workspace.role) };
}

export function useWorkspace(): WorkspaceContextValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace() outside a workspace route');
  return value;
}
