/**
 * Roles as data (docs/api.md "Authentication", "Management keys: scopes, roles and
 * their intersection" (D12), "Studio sessions, people, keys and workspace" (D91)). Each role is a
 * row: the
 * scopes it allows, whether it manages the workspace (people, API keys, settings) and whether it
 * may grant, take or remove the owner role. The permission check (authorize.ts) reads these rows
 * and knows no role by name, so a custom role is one more row.
 */
import { SCOPES, type Role, type Scope } from '../auth/permissions.js';

export interface RoleRow {
  name: Role;
  /** What a member with this role, and a management key they created, may write (D12). */
  scopes: readonly Scope[];
  /** Manages people, API keys and workspace settings (D91). */
  manages: boolean;
  /** Grants and takes the owner role, removes owners and cancels their invitations. */
  ownsWorkspace: boolean;
}

/** The five preset roles, most powerful first. */
export const PRESET_ROLES: readonly RoleRow[] = [
  { name: 'owner', scopes: SCOPES, manages: true, ownsWorkspace: true },
  { name: 'admin', scopes: SCOPES, manages: true, ownsWorkspace: false },
  { name: 'editor', scopes: ['content:write', 'content:publish', 'media:write'], manages: false, ownsWorkspace: false },
  { name: 'author', scopes: ['content:write', 'media:write'], manages: false, ownsWorkspace: false },
  { name: 'viewer', scopes: [], manages: false, ownsWorkspace: false },
];

const BY_NAME = new Map<string, RoleRow>(PRESET_ROLES.map((r) => [r.name, r]));

/** The row of role `name`, or undefined for no role (a key whose creator left) or an unknown name. */
export function roleRow(name: string | null | undefined): RoleRow | undefined {
  return name ? BY_NAME.get(name) : undefined;
}

/** The scopes role `name` allows; none for no role. */
export function scopesOfRole(name: string | null | undefined): readonly Scope[] {
  return roleRow(name)?.scopes ?? [];
}
