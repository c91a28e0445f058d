/**
 * Permissions of a role (D120; docs/access.md "Roles and permissions"): what a role may do to which
 * resource, with four limits, and the decision for one write or read of one item. Pure (no I/O),
 * so the Studio loads it too.
 *
 * A permission is `{resource, actions, content_types?, locales?, deny_fields?, own_only?}`:
 * - `content_types` (entries only): the entries of these types only; other types cannot be read
 *   (404) nor written;
 * - `locales` (entries only): the write may change values of these locales only; the default
 *   locale's values are written through `data` (and the slug);
 * - `deny_fields` (entries only): these fields are readable but a write may not change them;
 * - `own_only` (entries, pages, media, releases): update, delete and publish only items the person
 *   created (a key acts for its creator).
 * A role allows a request when one of its permissions allows all of it. The presets' permissions
 * follow from their scopes (permissionsOfScopes); a custom role's scopes from its permissions
 * (scopesOfPermissions), so the key ∩ role rule of D12 still holds.
 */
import type { Scope } from '../auth/permissions.js';

export const RESOURCES = ['entries', 'pages', 'media', 'releases', 'content_types', 'webhooks'] as const;
export type PermissionResource = (typeof RESOURCES)[number];
export const PERMISSION_ACTIONS = ['read', 'create', 'update', 'delete', 'publish'] as const;
export type PermissionAction = (typeof PERMISSION_ACTIONS)[number];

export interface Permission {
  resource: PermissionResource;
  actions: readonly PermissionAction[];
  content_types?: readonly string[];
  locales?: readonly string[];
  deny_fields?: readonly string[];
  own_only?: boolean;
}

/** One request on one item, as the operation knows it once it has read the item. */
export interface ItemRequest {
  resource: PermissionResource;
  action: PermissionAction;
  /** Entries: the content type's slug. */
  contentType?: string;
  /** Entries: the locales whose values the write changes (the default locale for `data` and the slug). */
  locales?: readonly string[];
  /** Entries: the fields whose values the write changes, in any locale. */
  fields?: readonly string[];
  /** Update, delete, publish: who created the item (null: nobody known, as for a whole-type reorder). */
  createdBy?: number | null;
}

/** Resources whose writes each scope covers (D12's scopes, kept as they were). */
const SCOPE_OF: Record<PermissionResource, { write: Scope; publish?: Scope }> = {
  entries: { write: 'content:write', publish: 'content:publish' },
  pages: { write: 'content:write', publish: 'content:publish' },
  releases: { write: 'content:write', publish: 'content:publish' },
  media: { write: 'media:write' },
  content_types: { write: 'schema:write' },
  webhooks: { write: 'webhooks:write' },
};

/** Which limits each resource takes (validation refuses the others). */
export const LIMITS_OF: Record<PermissionResource, ReadonlySet<'content_types' | 'locales' | 'deny_fields' | 'own_only'>> = {
  entries: new Set(['content_types', 'locales', 'deny_fields', 'own_only']),
  pages: new Set(['own_only']),
  media: new Set(['own_only']),
  releases: new Set(['own_only']),
  content_types: new Set(),
  webhooks: new Set(),
};

/** Actions each resource has: media, content types and webhooks are never published. */
export function actionsOf(resource: PermissionResource): readonly PermissionAction[] {
  return SCOPE_OF[resource].publish ? PERMISSION_ACTIONS : PERMISSION_ACTIONS.filter((a) => a !== 'publish');
}

/**
 * The scope a request needs (key ∩ role, D12): none to read, except webhooks, whose reads need
 * `webhooks:write` (their URLs may hold credentials, D82).
 */
export function scopeOfRequest(resource: PermissionResource, action: PermissionAction): Scope | undefined {
  if (action === 'read') return resource === 'webhooks' ? 'webhooks:write' : undefined;
  return action === 'publish' ? SCOPE_OF[resource].publish : SCOPE_OF[resource].write;
}

/** A preset's permissions from its scopes: everyone reads content, media, releases and types; each scope adds its writes. */
export function permissionsOfScopes(scopes: readonly Scope[]): Permission[] {
  const has = new Set(scopes);
  return RESOURCES.flatMap((resource): Permission[] => {
    const s = SCOPE_OF[resource];
    const actions: PermissionAction[] = resource === 'webhooks' && !has.has('webhooks:write') ? [] : ['read'];
    if (has.has(s.write)) actions.push('create', 'update', 'delete');
    if (s.publish && has.has(s.publish)) actions.push('publish');
    return actions.length ? [{ resource, actions }] : [];
  });
}

/**
 * The scopes a custom role's permissions amount to: a write action on a resource grants that
 * resource's scope. Reading webhooks takes `webhooks:write` (D82), so a role reads them only with
 * a webhooks write action too; `read` alone grants no scope.
 */
export function scopesOfPermissions(permissions: readonly Permission[]): Scope[] {
  const out = new Set<Scope>();
  for (const p of permissions) {
    for (const a of p.actions) {
      const scope = a === 'read' ? undefined : scopeOfRequest(p.resource, a);
      if (scope) out.add(scope);
    }
  }
  return [...out];
}

/** Why a request is outside a role: what it names (resource, action and the type, locale or field). */
export interface ItemRefusal {
  reason: 'action' | 'content_type' | 'locale' | 'field' | 'own';
  /** The locale or field refused, for `locale` and `field`. */
  value?: string;
}

function limitRefusal(p: Permission, req: ItemRequest, userId: number): ItemRefusal | null {
  if (p.locales && req.locales) {
    const locale = req.locales.find((l) => !p.locales!.includes(l));
    if (locale !== undefined) return { reason: 'locale', value: locale };
  }
  if (p.deny_fields && req.fields) {
    const field = req.fields.find((f) => p.deny_fields!.includes(f));
    if (field !== undefined) return { reason: 'field', value: field };
  }
  if (p.own_only && (req.action === 'update' || req.action === 'delete' || req.action === 'publish') && req.createdBy !== userId) {
    return { reason: 'own' };
  }
  return null;
}

/**
 * Whether `permissions` allow `req` for person `userId`: null when one permission allows all of it,
 * else why not (the first matching permission's limit, or no permission for the action or type).
 */
export function refusalOf(permissions: readonly Permission[], req: ItemRequest, userId: number): ItemRefusal | null {
  // Media, content types and webhooks are never published, whatever a row says.
  if (!actionsOf(req.resource).includes(req.action)) return { reason: 'action' };
  const grants = permissions.filter((p) => p.resource === req.resource && p.actions.includes(req.action));
  if (grants.length === 0) return { reason: 'action' };
  const typed =
    req.resource === 'entries' && req.contentType !== undefined ? grants.filter((p) => !p.content_types || p.content_types.includes(req.contentType!)) : grants;
  if (typed.length === 0) return { reason: 'content_type' };
  let first: ItemRefusal | null = null;
  for (const p of typed) {
    const refusal = limitRefusal(p, req, userId);
    if (!refusal) return null;
    first ??= refusal;
  }
  return first;
}

/** The words of a refusal: "may not update entries of content type 'post' in locale 'en'". */
export function describeRefusal(req: ItemRequest, refusal: ItemRefusal): string {
  const type = req.contentType !== undefined && req.resource === 'entries' ? ` of content type '${req.contentType}'` : '';
  const base = `may not ${req.action} ${req.resource}${type}`;
  switch (refusal.reason) {
    case 'locale':
      return `${base} in locale '${refusal.value}'`;
    case 'field':
      return `${base}: field '${refusal.value}' is read-only for this role`;
    case 'own':
      return `${base} created by someone else`;
    default:
      return base;
  }
}

/**
 * What a role may change in the entries of type `typeSlug`, as the Studio shows it ahead: the
 * locales it may write (null: every locale) and the fields it may not change, for an item of the
 * person's own. Derived from refusalOf's rule (one permission must allow the whole write), so a
 * locale is writable when some update permission for the type allows it, and a field read-only
 * when every such permission denies it. No update permission: no locale, every field allowed to
 * none (`canUpdate` false).
 */
export function entryWriteLimits(
  permissions: readonly Permission[],
  typeSlug: string,
): { canUpdate: boolean; locales: readonly string[] | null; readOnlyFields: ReadonlySet<string> } {
  const grants = permissions.filter(
    (p) => p.resource === 'entries' && p.actions.includes('update') && (!p.content_types || p.content_types.includes(typeSlug)),
  );
  if (grants.length === 0) return { canUpdate: false, locales: [], readOnlyFields: new Set() };
  const locales = grants.some((p) => !p.locales) ? null : [...new Set(grants.flatMap((p) => p.locales ?? []))];
  const denied = grants.map((p) => new Set(p.deny_fields ?? []));
  const readOnlyFields = new Set([...denied[0]].filter((f) => denied.every((d) => d.has(f))));
  return { canUpdate: true, locales, readOnlyFields };
}
