/**
 * The vocabulary of permissions (docs/api.md "Authentication", "Management keys: scopes, roles
 * and their intersection" (D11, D12)): the scopes, the role names and the Actor. What each role
 * allows is data (rows of the `roles` table, modules/access/roles.ts) and whether an actor may do
 * something is decided in one place (modules/access/authorize.ts).
 */
import type { RoleTable } from '../access/roles.js';

/** `webhooks:write` (D82) covers every webhook endpoint, reads included (their URLs may hold credentials). */
export const SCOPES = ['content:write', 'content:publish', 'media:write', 'schema:write', 'webhooks:write'] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['owner', 'admin', 'editor', 'author', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

export type KeyClass = 'delivery' | 'management';
export type Environment = 'production' | 'preview';

/**
 * Who is calling: the key, its workspace and the user it acts for. `scopes` is already the
 * intersection of the key's scopes and the creator's role; `keyScopes` are the key's own.
 */
export interface Actor {
  keyId: string;
  keyClass: KeyClass;
  workspaceId: string;
  userId: number;
  /** The role key: a preset's name or a custom role's id (D120). */
  role: string | null;
  keyScopes: ReadonlySet<Scope>;
  scopes: ReadonlySet<Scope>;
  environment: Environment | null;
  /** Content type slugs a delivery key may read; empty means all (D13). */
  contentTypes: readonly string[];
  /**
   * The workspace revision this actor was checked against, when it came from a request: response
   * caches key their entries on it. `draft_revision` for preview delivery keys (working copies),
   * `revision` for every other key (what production readers see; migration 005).
   */
  revision?: number;
  /**
   * The release this request reads the workspace as (`?release={id}` on delivery, D111): set once
   * the request's release was checked (src/modules/read/release.ts), so every read of the request
   * takes the release perspective (src/modules/read/perspective.ts). Absent: the key's own.
   */
  release?: string;
  /**
   * Set when the actor came from a Studio session (D90) rather than an API key: the session's
   * digest (SHA-256 of its id, never the id). Session actors have the role's scopes only, and
   * only they may manage keys, people and workspace settings (D91).
   */
  session?: { digest: string };
  /**
   * The role rows of the context that resolved this actor (src/modules/access/roles.ts), which
   * the permission check reads; absent for actors no context resolved (the CLI's system actor,
   * unit tests), which are checked against the preset rows.
   */
  roles?: RoleTable;
  /** How the audit log names this actor (D122): a key's name, a person's email; absent: its id. */
  label?: string;
  /**
   * The request this actor acts in (D122), set by the transport that resolved it; absent for the
   * CLI and jobs. Operations hand it to the audit log and never read a transport of their own.
   */
  request?: RequestContext;
}

/** Where a request came from, as the audit log records it (D122). */
export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
  requestId: string | null;
}

/** The actor of the CLI and jobs: every scope, acting for `userId` (or nobody). */
export function systemActor(workspaceId: string, userId: number): Actor {
  const all = new Set<Scope>(SCOPES);
  return { keyId: 'system', keyClass: 'management', workspaceId, userId, role: 'owner', keyScopes: all, scopes: all, environment: null, contentTypes: [] };
}
