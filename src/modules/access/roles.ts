/**
 * Roles as data (docs/api.md "Authentication", "Management keys: scopes, roles and
 * their intersection" (D12), "Studio sessions, people, keys and workspace" (D91)). Each role is a
 * row of the installation-wide `roles` table (migration 022, which seeds the five presets): the
 * scopes it allows, whether it manages the workspace (people, API keys, settings) and whether it
 * may grant, take or remove the owner role. The permission check (authorize.ts) reads these rows
 * and knows no role by name, so a custom role is one more row.
 *
 * The rows live in the database and are read by repository.ts; this file holds their shape and
 * the preset rows, with no I/O, so the Studio can load the check for its tests.
 */
import { SCOPES, type Scope } from '../auth/permissions.js';

export interface RoleRow {
  /** The role's key, as memberships, invitations and the wire carry it. */
  name: string;
  /** What a member with this role, and a management key they created, may write (D12). */
  scopes: readonly Scope[];
  /** Manages people, API keys and workspace settings (D91). */
  manages: boolean;
  /** Grants and takes the owner role, removes owners and cancels their invitations. */
  ownsWorkspace: boolean;
}

/**
 * The five preset roles, most powerful first: the rows migration 022 seeds. The check reads them
 * only for actors that no context resolved (the CLI's system actor, unit tests); every request's
 * actor carries its context's rows (Actor.roles).
 */
export const PRESET_ROLES: readonly RoleRow[] = [
  { name: 'owner', scopes: SCOPES, manages: true, ownsWorkspace: true },
  { name: 'admin', scopes: SCOPES, manages: true, ownsWorkspace: false },
  { name: 'editor', scopes: ['content:write', 'content:publish', 'media:write'], manages: false, ownsWorkspace: false },
  { name: 'author', scopes: ['content:write', 'media:write'], manages: false, ownsWorkspace: false },
  { name: 'viewer', scopes: [], manages: false, ownsWorkspace: false },
];

/** A set of role rows, looked up by name. */
export class RoleTable {
  private readonly byName: Map<string, RoleRow>;

  constructor(readonly rows: readonly RoleRow[]) {
    this.byName = new Map(rows.map((r) => [r.name, r]));
  }

  /** The row of role `name`, or undefined for no role (a key whose creator left) or an unknown name. */
  row(name: string | null | undefined): RoleRow | undefined {
    return name ? this.byName.get(name) : undefined;
  }
}

/** The preset rows as a table (immutable; not a cache). */
export const PRESET_TABLE = new RoleTable(PRESET_ROLES);

/** The row of role `name` in `table` (the presets by default), or undefined. */
export function roleRow(name: string | null | undefined, table: RoleTable = PRESET_TABLE): RoleRow | undefined {
  return table.row(name);
}

/** The scopes role `name` allows; none for no role. */
export function scopesOfRole(name: string | null | undefined, table: RoleTable = PRESET_TABLE): readonly Scope[] {
  return table.row(name)?.scopes ?? [];
}
