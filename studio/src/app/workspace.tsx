/**
 * The workspace a Studio screen works in, with the signed-in person's role and capabilities
 * there (from GET /session). The app shell provides it for every route under
 * /studio/:workspace; screens read it with useWorkspace().
 */
import { createContext, useContext } from 'react';
import { workspaceCan, type Scope, type SessionInfo, type SessionWorkspace } from '../api/session';

export interface WorkspaceContextValue {
  session: SessionInfo;
  workspace: SessionWorkspace;
  /** true when the session's capabilities include `scope` (D12); the server checks again on every request */
  can: (scope: Scope) => boolean;
  /** may change workspace settings, people and keys (owners and admins of the presets, D91) */
  administers: boolean;
  /** may grant, take and remove the owner role */
  managesOwners: boolean;
}

export const WorkspaceContext = createContext<WorkspaceContextValue | null>(null);

export function workspaceContextValue(session: SessionInfo, workspace: SessionWorkspace): WorkspaceContextValue {
  return {
    session,
    workspace,
    can: (scope) => workspaceCan(workspace, scope),
    administers: workspaceCan(workspace, 'settings:update'),
    managesOwners: workspaceCan(workspace, 'owners:manage'),
  };
}

export function useWorkspace(): WorkspaceContextValue {
  const value = useContext(WorkspaceContext);
  if (!value) throw new Error('useWorkspace() outside a workspace route');
  return value;
}
