/**
 * The one check against a small reference (D120): random custom roles × random requests, by
 * session and by keys holding random scopes; `decideItem` allows exactly what the reference
 * decision below allows, and every refusal names the action and resource. The reference is
 * written from the rule's words, not from permission-rules.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCOPES, type Actor, type Scope } from '../auth/permissions.js';
import { decideItem } from './authorize.js';
import { entryWriteLimits, PERMISSION_ACTIONS, refusalOf, RESOURCES, scopesOfPermissions, type ItemRequest, type Permission } from './permission-rules.js';
import { PRESET_TABLE, type RoleRow } from './roles.js';

const TYPES = ['post', 'news', 'page'];
const LOCALES = ['en', 'de', 'fr'];
const FIELDS = ['title', 'body', 'note'];
const ME = 7;
const NEVER_PUBLISHED: readonly string[] = ['media', 'content_types', 'webhooks'];

const subset = <T>(items: readonly T[]) => fc.subarray([...items]);

const permission: fc.Arbitrary<Permission> = fc
  .record({
    resource: fc.constantFrom(...RESOURCES),
    actions: subset(PERMISSION_ACTIONS),
    content_types: fc.option(subset(TYPES), { nil: undefined }),
    locales: fc.option(subset(LOCALES), { nil: undefined }),
    deny_fields: fc.option(subset(FIELDS), { nil: undefined }),
    own_only: fc.option(fc.boolean(), { nil: undefined }),
  })
  .map((p) => {
    // The limits each resource takes, as validation leaves them.
    const entries = p.resource === 'entries';
    const owned = ['entries', 'pages', 'media', 'releases'].includes(p.resource);
    return Object.fromEntries(
      Object.entries({
        resource: p.resource,
        actions: p.actions,
        content_types: entries ? p.content_types : undefined,
        locales: entries ? p.locales : undefined,
        deny_fields: entries ? p.deny_fields : undefined,
        own_only: owned ? p.own_only : undefined,
      }).filter(([, v]) => v !== undefined),
    ) as unknown as Permission;
  });

const request: fc.Arbitrary<ItemRequest> = fc.record({
  resource: fc.constantFrom(...RESOURCES),
  action: fc.constantFrom(...PERMISSION_ACTIONS),
  contentType: fc.constantFrom(...TYPES),
  locales: subset(LOCALES),
  fields: subset(FIELDS),
  createdBy: fc.constantFrom<number | null>(ME, 8, null),
});

/** The scope a request needs, from D12 and D82 as docs/access.md tables them. */
function neededScope(req: ItemRequest): Scope | null {
  if (req.resource === 'webhooks') return 'webhooks:write';
  if (req.action === 'read') return null;
  if (req.resource === 'media') return 'media:write';
  if (req.resource === 'content_types') return 'schema:write';
  return req.action === 'publish' ? 'content:publish' : 'content:write';
}

/** The reference: some permission allows every part of the request. */
function reference(permissions: readonly Permission[], keyScopes: ReadonlySet<Scope>, req: ItemRequest): boolean {
  if (req.action === 'publish' && NEVER_PUBLISHED.includes(req.resource)) return false;
  const scope = neededScope(req);
  if (scope) {
    if (!keyScopes.has(scope)) return false;
    // The role has the scope when one of its permissions grants a write on a resource the scope covers.
    let roleHas = false;
    for (const p of permissions) {
      for (const a of p.actions) {
        // Only an action the resource has grants its scope (media, content types and webhooks are never published).
        const exists = !(a === 'publish' && NEVER_PUBLISHED.includes(p.resource));
        if (a !== 'read' && exists && neededScope({ ...req, resource: p.resource, action: a }) === scope) roleHas = true;
      }
    }
    if (!roleHas) return false;
  }
  for (const p of permissions) {
    if (p.resource !== req.resource || !p.actions.includes(req.action)) continue;
    if (req.resource === 'entries' && p.content_types && !p.content_types.includes(req.contentType!)) continue;
    if (p.locales && req.locales!.some((l) => !p.locales!.includes(l))) continue;
    if (p.deny_fields && req.fields!.some((f) => p.deny_fields!.includes(f))) continue;
    const mine = req.action === 'read' || req.action === 'create' || req.createdBy === ME;
    if (p.own_only && !mine) continue;
    return true;
  }
  return false;
}

function actorOf(permissions: readonly Permission[], keyScopes: readonly Scope[] | null): Actor {
  const row: RoleRow = {
    name: 'custom-id',
    label: 'Custom',
    description: '',
    workspaceId: 'w',
    preset: false,
    scopes: scopesOfPermissions(permissions),
    manages: false,
    ownsWorkspace: false,
    permissions,
  };
  const roles = PRESET_TABLE.with([row]);
  const own = new Set<Scope>(keyScopes ?? SCOPES);
  return {
    keyId: 'k',
    keyClass: 'management',
    workspaceId: 'w',
    userId: ME,
    role: 'custom-id',
    keyScopes: own,
    scopes: new Set(row.scopes.filter((s) => own.has(s))),
    environment: null,
    contentTypes: [],
    roles,
    ...(keyScopes === null ? { session: { digest: 'd' } } : {}),
  };
}

describe('decideItem against the reference decision (fast-check)', () => {
  it('random roles × random requests, by session and by keys with random scopes', () => {
    fc.assert(
      fc.property(fc.array(permission, { maxLength: 4 }), fc.option(subset(SCOPES), { nil: null }), request, (permissions, keyScopes, req) => {
        const actor = actorOf(permissions, keyScopes);
        const denial = decideItem(actor, req);
        expect(denial === null).toBe(reference(permissions, actor.keyScopes, req));
        if (denial) {
          expect(denial.code).toBe('FORBIDDEN');
          // Either the missing scope (key or role) or the role's refusal naming action and resource.
          expect(denial.message).toMatch(req.action === 'read' && req.resource !== 'webhooks' ? new RegExp(`may not read ${req.resource}`) : /lacks|may not/);
          if (/may not (create|read|update|delete|publish) /.test(denial.message) && !/lacks/.test(denial.message)) {
            expect(denial.message).toContain(`may not ${req.action} ${req.resource}`);
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the presets allow what their scopes allow, and every read but webhooks', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRESET_TABLE.rows), request, (row, req) => {
        const actor: Actor = { ...actorOf([], null), role: row.name, roles: PRESET_TABLE };
        const scope = neededScope(req);
        const allowed = scope === null || row.scopes.includes(scope);
        const noPublish = req.action === 'publish' && ['media', 'content_types', 'webhooks'].includes(req.resource);
        expect(decideItem(actor, req) === null).toBe(allowed && !noPublish);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('entryWriteLimits: what the Studio shows ahead agrees with the check', () => {
  it('a locale is writable, a field read-only, exactly when refusalOf says so for a write of that one value', () => {
    fc.assert(
      fc.property(fc.array(permission, { maxLength: 4 }), fc.constantFrom(...TYPES), (permissions, type) => {
        const limits = entryWriteLimits(permissions, type);
        const allows = (locales: string[], fields: string[]) =>
          refusalOf(permissions, { resource: 'entries', action: 'update', contentType: type, locales, fields, createdBy: ME }, ME) === null;
        // A write of one locale's values of no denied field: the fields limit plays no part.
        for (const l of LOCALES) expect(limits.canUpdate && (limits.locales === null || limits.locales.includes(l))).toBe(allows([l], []));
        for (const f of FIELDS) expect(limits.canUpdate && !limits.readOnlyFields.has(f)).toBe(allows([], [f]));
      }),
      { numRuns: 2000 },
    );
  });
});
