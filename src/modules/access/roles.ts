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
import { permissionsOfScopes, type Permission } from './permission-rules.js';

export interface RoleRow {
  /** The role's key, as memberships, invitations and the wire carry it: a preset's name, a custom role's id (D120). */
  name: string;
  /** What people call it: a preset's name, a custom role's chosen name. */
  label: string;
  description: string;
  /** The workspace of a custom role; null for the presets (every workspace has them). */
  workspaceId: string | null;
  preset: boolean;
  /** What the role may do to which resource, with its limits (permission-rules.ts). */
  permissions: readonly Permission[];
  /** What a member with this role, and a management key they created, may write (D12). */
  scopes: readonly Scope[];
  /** Manages people, API keys and workspace settings (D91). */
  manages: boolean;
  /** Grants and takes the owner role, removes owners and cancels their invitations. */
  ownsWorkspace: boolean;
}

/** A preset's row: its permissions follow from its scopes. */
export function preset(name: string, scopes: readonly Scope[], manages: boolean, ownsWorkspace: boolean): RoleRow {
  return { name, label: name, description: '', workspaceId: null, preset: true, scopes, manages, ownsWorkspace, permissions: permissionsOfScopes(scopes) };
}

/**
 * The five preset roles, most powerful first: the rows migration 022 seeds. The check reads them
 * only for actors that no context resolved (the CLI's system actor, unit tests); every request's
 * actor carries its context's rows (Actor.roles).
 */
export const PRESET_ROLES: readonly RoleRow[] = [
  preset('owner', SCOPES, true, true),
  preset('admin', SCOPES, true, false),
  preset('editor', ['content:write', 'content:publish', 'media:write'], false, false),
  preset('author', ['content:write', 'media:write'], false, false),
  preset('viewer', [], false, false),
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

  /**
   * The key of the role `ref` names for a workspace: a preset by name, or a custom role of
   * `workspaceId` by id or by name (D120); undefined when none does.
   */
  resolve(ref: string, workspaceId: string): string | undefined {
    const visible = (r: RoleRow) => r.workspaceId === null || r.workspaceId === workspaceId;
    const byKey = this.byName.get(ref);
    if (byKey && visible(byKey)) return byKey.name;
    return this.rows.find((r) => r.workspaceId === workspaceId && r.label === ref)?.name;
  }

  /** This table with `more` rows added (a workspace's custom roles after the installation's). */
  with(more: readonly RoleRow[]): RoleTable {
    return more.length === 0 ? this : new RoleTable([...this.rows, ...more]);
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
