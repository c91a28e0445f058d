/**
 * The permission check (docs/api.md "Authentication", "Management keys: scopes, roles and
 * their intersection" (D11, D12), "Delivery keys" (D13), "Studio sessions, people, keys and
 * workspace" (D90, D91)): the one
 * place that decides whether an actor may do an action, for every entry point (HTTP routes, the
 * CLI, jobs, any future transport). It knows:
 *
 * - the scopes: a write action names the scope it needs;
 * - key ∩ role: a management key's power is its own scopes intersected with the scopes its
 *   creator's current role allows (the role is read on every request); a Studio session has the
 *   role's scopes only;
 * - session-only actions: API keys cannot list or change people, mint, list or revoke keys,
 *   change workspace settings, read the audit log or open the Studio's event stream: only a
 *   signed-in person can (D91, D122, D133);
 * - the manager rule: only roles that manage the workspace (owners and admins) change people,
 *   keys and settings and read the audit log;
 * - the owner rules: only a role that owns the workspace grants or takes the owner role, invites
 *   an owner, cancels an owner's invitation or removes an owner; the last owner is never demoted
 *   or removed (409 LAST_OWNER);
 * - the delivery whitelist: a delivery key with a content type whitelist reads those types only
 *   (an empty whitelist means all, D13);
 * - releases (D110, D112): creating and editing releases, their items and release versions needs
 *   `content:write`; publishing, scheduling and reverting them `content:publish`;
 * - the release perspective (D111): reading the workspace as a release will make it (`?release`)
 *   is for preview delivery keys and management actors; a production delivery key reads
 *   published content only.
 *
 * - a role's permissions (D120, permission-rules.ts): per resource and action, narrowed to content
 *   types, to the locales a write may change, with fields it may not change, or to the person's
 *   own items; operations ask `authorizeItem` once they know the item (type, locales and fields
 *   changed, creator), inside the write's transaction, so a refusal changes nothing.
 *
 * Roles are rows (roles.ts), read from the actor's context (Actor.roles); nothing here names a role. Refusals are 403 FORBIDDEN (409
 * LAST_OWNER for the last owner), with messages that say what is missing.
 */
import { AppError, type ErrorCode } from '../../errors.js';
import { SCOPES, type Actor, type Role, type Scope } from '../auth/permissions.js';
import { describeRefusal, refusalOf, scopeOfRequest, type ItemRequest } from './permission-rules.js';
import { PRESET_TABLE, type RoleTable } from './roles.js';

const PEOPLE = 'Managing people';
const KEYS = 'Managing API keys';
const SETTINGS = 'Changing workspace settings';

interface ActionRule {
  /** The scope the action needs (key ∩ role). */
  scope?: Scope;
  /** What the action is, when only a Studio session may do it: "<label> needs a Studio session". */
  sessionOnly?: string;
  /** What keys cannot do, in the refusal of a session-only action; default: mint keys or change members. */
  keysCannot?: string;
  /** What the action does, when only managing roles may: "Only owners and admins can <manager>". */
  manager?: string;
  /** The delivery whitelist applies. */
  whitelist?: boolean;
  /** What the action is, when production delivery keys may not do it: "<label> needs a preview key". */
  notProduction?: string;
}

/** Every action and its rule: the data the check reads. */
export const ACTIONS = {
  'content:write': { scope: 'content:write' },
  'content:publish': { scope: 'content:publish' },
  'media:write': { scope: 'media:write' },
  'schema:write': { scope: 'schema:write' },
  'webhooks:write': { scope: 'webhooks:write' },
  'content:read': { whitelist: true },
  'releases:write': { scope: 'content:write' },
  'releases:publish': { scope: 'content:publish' },
  'releases:read-perspective': { notProduction: 'Reading a release (?release)' },
  'people:list': { sessionOnly: PEOPLE },
  'people:invite': { sessionOnly: PEOPLE, manager: 'invite people' },
  'people:cancel-invitation': { sessionOnly: PEOPLE, manager: 'cancel invitations' },
  'people:change-role': { sessionOnly: PEOPLE, manager: 'change roles' },
  'people:remove': { sessionOnly: PEOPLE, manager: 'remove people' },
  'keys:list': { sessionOnly: KEYS, manager: 'manage API keys' },
  'keys:create': { sessionOnly: KEYS, manager: 'manage API keys' },
  'keys:revoke': { sessionOnly: KEYS, manager: 'manage API keys' },
  'settings:update': { sessionOnly: SETTINGS, manager: 'change workspace settings' },
  'roles:list': { sessionOnly: 'Managing roles', keysCannot: 'manage roles', manager: 'manage roles' },
  'roles:write': { sessionOnly: 'Managing roles', keysCannot: 'manage roles', manager: 'manage roles' },
  'studio:events': { sessionOnly: "The Studio's event stream", keysCannot: 'open it (it follows a person signed in to the Studio)' },
  'audit:read': {
    sessionOnly: 'Reading the audit log',
    keysCannot: 'read the audit log (export it with quire audit export)',
    manager: 'read the audit log',
  },
} as const satisfies Record<string, ActionRule>;

export type Action = keyof typeof ACTIONS;
export const ACTION_NAMES = Object.keys(ACTIONS) as Action[];

/** A capability the Studio reads besides the actions: the role may grant, take and remove the owner role. */
export const MANAGE_OWNERS = 'owners:manage';
export type Capability = Action | typeof MANAGE_OWNERS;
/**
 * Every capability a session can be given (the delivery whitelist's `content:read` is a key's, not
 * a role's; every session has the Studio's event stream).
 */
export const CAPABILITIES: readonly Capability[] = [
  ...ACTION_NAMES.filter((a) => a !== 'content:read' && a !== 'studio:events' && !a.startsWith('releases:')),
  MANAGE_OWNERS,
];

/**
 * What an action is done to, when the rule depends on it. People actions: `role` is the role the
 * person (or invitation) holds now, `grant` the role given to them, `owners` how many owners the
 * workspace has (needed when the person is an owner). `content:read`: the content type slug.
 */
export interface Resource {
  role?: Role;
  grant?: Role;
  owners?: number;
  contentType?: string;
}

/** Why an action is refused. */
export interface Denial {
  code: ErrorCode;
  message: string;
}

function rule(action: Action): ActionRule {
  return ACTIONS[action];
}

/** The scope an action needs, if any (the OpenAPI document names it). */
export function scopeOf(action: Action): Scope | undefined {
  return rule(action).scope;
}

/** True when only a Studio session may do the action (the OpenAPI document says so). */
export function isSessionOnly(action: Action): boolean {
  return rule(action).sessionOnly !== undefined;
}

/** The role rows the check reads for `actor`: its context's, else the presets. */
function rolesFor(actor: Actor): RoleTable {
  return actor.roles ?? PRESET_TABLE;
}

/**
 * The scopes a management key holds: its own, within its creator's role (D12), by the rows of
 * `roles` (the presets by default). Sessions: the role's.
 */
export function effectiveScopes(keyScopes: Iterable<Scope>, role: string | null, roles: RoleTable = PRESET_TABLE): Set<Scope> {
  const allowed = roles.row(role)?.scopes ?? [];
  const own = new Set(keyScopes);
  return new Set(allowed.filter((s) => own.has(s)));
}

function denied(code: ErrorCode, message: string): Denial {
  return { code, message };
}

/** What each scope covers, in the words of custom roles' permissions. */
const SCOPE_COVERS: Record<Scope, string> = {
  'content:write': 'may not create, update or delete entries, pages or releases',
  'content:publish': 'may not publish entries, pages or releases',
  'media:write': 'may not create, update or delete media',
  'schema:write': 'may not create, update or delete content_types',
  'webhooks:write': 'may not read or write webhooks',
};

/** The refusal of a missing scope; the message says whether the key, its creator or the session's role lacks it. */
function scopeDenial(actor: Actor, scope: Scope): Denial | null {
  const row = rolesFor(actor).row(actor.role);
  if (actor.keyScopes.has(scope) && row?.scopes.includes(scope)) return null;
  const role = row?.label ?? actor.role ?? 'none';
  // A custom role's refusal names what the scope covers, as its permissions do (D120).
  const covers = row && !row.preset ? ` (${SCOPE_COVERS[scope]})` : '';
  if (actor.session) return denied('FORBIDDEN', `Your role '${role}' lacks permission for '${scope}'${covers}`);
  if (!actor.keyScopes.has(scope)) return denied('FORBIDDEN', `This API key lacks the '${scope}' scope`);
  return denied('FORBIDDEN', `The key's creator (role '${role}') lacks permission for '${scope}'${covers}`);
}

/**
 * The parts of the rule that depend on the credentials alone (session-only, scope). Transports
 * run them before reading a request body, so a caller without the right learns nothing about
 * validation; `decide` runs them again.
 */
export function decideCredentials(actor: Actor, action: Action): Denial | null {
  const r = rule(action);
  if (r.notProduction !== undefined && actor.keyClass === 'delivery' && actor.environment !== 'preview') {
    return denied('FORBIDDEN', `${r.notProduction} needs a preview delivery key: production keys read published content only`);
  }
  if (r.sessionOnly !== undefined && !actor.session) {
    return denied('FORBIDDEN', `${r.sessionOnly} needs a Studio session: keys cannot ${r.keysCannot ?? 'mint keys or change members'}`);
  }
  if (r.scope) return scopeDenial(actor, r.scope);
  return null;
}

function ownsWorkspace(roles: RoleTable, role: string | null | undefined): boolean {
  return roles.row(role)?.ownsWorkspace === true;
}

/** The owner rules of the people actions, for the person or invitation `resource` describes. */
function ownerDenial(actor: Actor, action: Action, resource: Resource): Denial | null {
  const roles = rolesFor(actor);
  const mine = ownsWorkspace(roles, actor.role);
  const theirs = ownsWorkspace(roles, resource.role);
  switch (action) {
    case 'people:invite':
      return ownsWorkspace(roles, resource.grant) && !mine ? denied('FORBIDDEN', 'Only owners can invite an owner') : null;
    case 'people:cancel-invitation':
      return theirs && !mine ? denied('FORBIDDEN', 'Only owners can cancel the invitation of an owner') : null;
    case 'people:change-role':
      if ((theirs || ownsWorkspace(roles, resource.grant)) && !mine) return denied('FORBIDDEN', 'Only owners can grant or take the owner role');
      if (theirs && resource.owners !== undefined && resource.owners <= 1) {
        return denied('LAST_OWNER', 'The last owner cannot be demoted: make someone else an owner first');
      }
      return null;
    case 'people:remove':
      if (theirs && !mine) return denied('FORBIDDEN', 'Only owners can remove an owner');
      if (theirs && resource.owners !== undefined && resource.owners <= 1) {
        return denied('LAST_OWNER', 'The last owner cannot be removed: make someone else an owner first');
      }
      return null;
    default:
      return null;
  }
}

/**
 * Whether `actor` may do `action` to `resource`: null when allowed, else the refusal. Checks, in
 * order: session-only, scope (key ∩ role), manager, the delivery whitelist, the owner rules.
 * Without a resource, only the rules that need none are checked (an operation asks once on
 * entry and again once it has read the person or invitation).
 */
export function decide(actor: Actor, action: Action, resource: Resource = {}): Denial | null {
  const first = decideCredentials(actor, action);
  if (first) return first;
  const r = rule(action);
  if (r.manager !== undefined && !rolesFor(actor).row(actor.role)?.manages) {
    return denied('FORBIDDEN', `Only owners and admins can ${r.manager} (your role: ${rolesFor(actor).row(actor.role)?.label ?? actor.role ?? 'none'})`);
  }
  if (r.whitelist && resource.contentType !== undefined && !whitelistAllows(actor, resource.contentType)) {
    return denied('FORBIDDEN', `This API key may not read content type '${resource.contentType}'`);
  }
  return ownerDenial(actor, action, resource);
}

/** Throws the refusal of `decide` as an AppError (403 FORBIDDEN or 409 LAST_OWNER); returns when allowed. */
export function authorize(actor: Actor, action: Action, resource?: Resource): void {
  const denial = decide(actor, action, resource);
  if (denial) throw new AppError(denial.code, denial.message);
}

/**
 * Whether `actor` may do `req` to one item (D120): the scope it needs (key ∩ role, D12), then
 * the role's permissions with their limits. Delivery keys read as their whitelist says (D13).
 * Null when allowed, else a 403 naming the resource, action and the type, locale or field.
 */
export function decideItem(actor: Actor, req: ItemRequest): Denial | null {
  if (actor.keyClass === 'delivery') {
    if (req.action !== 'read') return denied('FORBIDDEN', 'Delivery keys cannot write');
    return req.contentType !== undefined && !whitelistAllows(actor, req.contentType)
      ? denied('FORBIDDEN', `This API key may not read content type '${req.contentType}'`)
      : null;
  }
  const scope = scopeOfRequest(req.resource, req.action);
  if (scope) {
    const missing = scopeDenial(actor, scope);
    if (missing) return missing;
  }
  const row = rolesFor(actor).row(actor.role);
  const refusal = row ? refusalOf(row.permissions, req, actor.userId) : { reason: 'action' as const };
  if (!refusal) return null;
  const words = describeRefusal(req, refusal);
  const role = row?.label ?? actor.role ?? 'none';
  return denied('FORBIDDEN', actor.session ? `Your role '${role}' ${words}` : `The key's creator (role '${role}') ${words}`);
}

/** Throws the refusal of `decideItem` as 403 FORBIDDEN; returns when allowed. */
export function authorizeItem(actor: Actor, req: ItemRequest): void {
  const denial = decideItem(actor, req);
  if (denial) throw new AppError(denial.code, denial.message);
}

/**
 * Throws 403 FORBIDDEN unless `actor` may change a comment written by `authorId`
 * (docs/workflow.md "Comments"): its text only by its author; deleting it by its author or by
 * owners and admins (roles that manage the workspace). A key acts for its creator. Resolving and
 * reopening need only what commenting needs: reading the item (the operation checks that).
 */
export function authorizeComment(actor: Actor, change: 'edit' | 'delete', authorId: number | null): void {
  if (authorId !== null && actor.userId === authorId) return;
  if (change === 'edit') throw new AppError('FORBIDDEN', "Only a comment's author can change its text");
  const row = rolesFor(actor).row(actor.role);
  if (row?.manages) return;
  throw new AppError('FORBIDDEN', `Only a comment's author, owners and admins can delete it (your role: ${row?.label ?? actor.role ?? 'none'})`);
}

/**
 * Throws 403 FORBIDDEN unless `actor`'s role may move items into workflow stage `stage`: any
 * role when the stage names none (`roles` null), else one it names; owners always may, so no
 * item can be stuck (docs/workflow.md "Workflows and stages").
 */
export function authorizeStage(actor: Actor, stage: { name: string; roles: readonly string[] | null }): void {
  if (stage.roles === null) return;
  const row = rolesFor(actor).row(actor.role);
  if (row?.ownsWorkspace || (actor.role !== null && stage.roles.includes(actor.role))) return;
  const role = row?.label ?? actor.role ?? 'none';
  throw new AppError('FORBIDDEN', `${actor.session ? 'Your role' : "The key's creator's role"} '${role}' may not move items into stage '${stage.name}'`);
}

/** Whether `actor` may read the entries of content type `slug` (a type it may not read is answered 404 and listed nowhere). */
export function canReadType(actor: Actor, slug: string): boolean {
  return decideItem(actor, { resource: 'entries', action: 'read', contentType: slug }) === null;
}

/**
 * The entry types `actor` may read: null for every type, else their slugs (type lists and the
 * schema leave the others out, D120). Block types are not entries and stay listed.
 */
export function readableTypes(actor: Actor): readonly string[] | null {
  if (actor.keyClass === 'delivery') return actor.contentTypes.length === 0 ? null : actor.contentTypes;
  const grants = (rolesFor(actor).row(actor.role)?.permissions ?? []).filter((p) => p.resource === 'entries' && p.actions.includes('read'));
  if (grants.some((p) => !p.content_types)) return null;
  return [...new Set(grants.flatMap((p) => p.content_types ?? []))];
}

/** `authorize` as a boolean. */
export function can(actor: Actor, action: Action, resource?: Resource): boolean {
  return decide(actor, action, resource) === null;
}

/** Throws like `authorize`, with only the credential rules (session-only, scope): see decideCredentials. */
export function authorizeCredentials(actor: Actor, action: Action): void {
  const denial = decideCredentials(actor, action);
  if (denial) throw new AppError(denial.code, denial.message);
}

/** D13: a delivery key reads the content types of its whitelist; an empty whitelist means every type. */
function whitelistAllows(actor: Actor, typeSlug: string): boolean {
  return actor.contentTypes.length === 0 || actor.contentTypes.includes(typeSlug);
}

/**
 * What a Studio session with `role` may do in a workspace, by the rows of `roles` (the presets by
 * default): the actions `decide` allows it (with no resource), plus `owners:manage` when the role
 * owns the workspace. The Studio shows and hides controls from this list; the server checks every
 * request again.
 */
export function capabilitiesOf(role: Role, roles: RoleTable = PRESET_TABLE): Capability[] {
  const actor: Actor = {
    keyId: 'capabilities',
    keyClass: 'management',
    workspaceId: '',
    userId: 0,
    role,
    keyScopes: new Set<Scope>(SCOPES),
    scopes: effectiveScopes(SCOPES, role, roles),
    environment: null,
    contentTypes: [],
    session: { digest: '' },
    roles,
  };
  return CAPABILITIES.filter((c) => (c === MANAGE_OWNERS ? ownsWorkspace(roles, role) : can(actor, c)));
}
