/**
 * The permission check on its own: key ∩ role, session-only actions, the manager rule, the owner
 * rules (last owner included), the delivery whitelist and the capabilities a session gets.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { ROLES, SCOPES, type Actor, type Role, type Scope } from '../auth/permissions.js';
import { authorize, can, capabilitiesOf, decide, effectiveScopes } from './authorize.js';
import { PRESET_ROLES, roleRow } from './roles.js';

function keyActor(role: Role | null, keyScopes: readonly Scope[]): Actor {
  return {
    keyId: 'k',
    keyClass: 'management',
    workspaceId: 'w',
    userId: 1,
    role,
    keyScopes: new Set(keyScopes),
    scopes: effectiveScopes(keyScopes, role),
    environment: null,
    contentTypes: [],
  };
}

function sessionActor(role: Role): Actor {
  return { ...keyActor(role, SCOPES), session: { digest: 'd' } };
}

function deliveryActor(contentTypes: string[]): Actor {
  return { ...keyActor(null, []), keyClass: 'delivery', environment: 'production', contentTypes };
}

describe('roles as data', () => {
  it('has the five presets, one row each, in the order of ROLES', () => {
    expect(PRESET_ROLES.map((r) => r.name)).toEqual([...ROLES]);
  });

  it('gives no row for no role or an unknown name', () => {
    expect(roleRow(null)).toBeUndefined();
    expect(roleRow('superuser')).toBeUndefined();
  });
});

describe('key ∩ role', () => {
  it("a key holds a scope only when both the key and its creator's role have it", () => {
    expect(can(keyActor('editor', ['content:write', 'schema:write']), 'content:write')).toBe(true);
    expect(decide(keyActor('editor', ['content:write', 'schema:write']), 'schema:write')).toEqual({
      code: 'FORBIDDEN',
      message: "The key's creator (role 'editor') lacks permission for 'schema:write'",
    });
    expect(decide(keyActor('owner', ['content:write']), 'media:write')?.message).toBe("This API key lacks the 'media:write' scope");
  });

  it('a key whose creator has no role has no scope', () => {
    expect(decide(keyActor(null, SCOPES), 'content:write')?.message).toBe("The key's creator (role 'none') lacks permission for 'content:write'");
  });

  it("a session has its role's scopes and names the role when refused", () => {
    expect(can(sessionActor('author'), 'media:write')).toBe(true);
    expect(decide(sessionActor('author'), 'content:publish')?.message).toBe("Your role 'author' lacks permission for 'content:publish'");
  });

  it('effectiveScopes is the intersection', () => {
    expect([...effectiveScopes(['content:write', 'webhooks:write'], 'editor')]).toEqual(['content:write']);
    expect([...effectiveScopes(SCOPES, 'viewer')]).toEqual([]);
  });
});

describe('session-only and manager actions', () => {
  it('refuses a key even when its creator is an owner', () => {
    expect(decide(keyActor('owner', SCOPES), 'keys:create')?.message).toBe('Managing API keys needs a Studio session: keys cannot mint keys or change members');
    expect(decide(keyActor('owner', SCOPES), 'people:list')?.message).toBe('Managing people needs a Studio session: keys cannot mint keys or change members');
    expect(decide(keyActor('owner', SCOPES), 'settings:update')?.message).toMatch(/^Changing workspace settings needs a Studio session/);
  });

  it('lets any member list people and only managing roles change them', () => {
    for (const role of ROLES) expect(can(sessionActor(role), 'people:list')).toBe(true);
    expect(can(sessionActor('admin'), 'people:remove')).toBe(true);
    expect(decide(sessionActor('editor'), 'people:remove')?.message).toBe('Only owners and admins can remove people (your role: editor)');
    expect(decide(sessionActor('viewer'), 'keys:revoke')?.message).toBe('Only owners and admins can manage API keys (your role: viewer)');
  });
});

describe('owner rules', () => {
  const admin = sessionActor('admin');
  const owner = sessionActor('owner');

  it('only an owner grants, takes or removes the owner role, invites an owner or cancels their invitation', () => {
    expect(decide(admin, 'people:change-role', { role: 'editor', grant: 'owner' })?.message).toBe('Only owners can grant or take the owner role');
    expect(decide(admin, 'people:change-role', { role: 'owner', grant: 'editor', owners: 2 })?.message).toBe('Only owners can grant or take the owner role');
    expect(can(admin, 'people:change-role', { role: 'editor', grant: 'admin' })).toBe(true);
    expect(decide(admin, 'people:remove', { role: 'owner', owners: 2 })?.message).toBe('Only owners can remove an owner');
    expect(decide(admin, 'people:invite', { grant: 'owner' })?.message).toBe('Only owners can invite an owner');
    expect(decide(admin, 'people:cancel-invitation', { role: 'owner' })?.message).toBe('Only owners can cancel the invitation of an owner');
    expect(can(owner, 'people:invite', { grant: 'owner' })).toBe(true);
  });

  it('never demotes or removes the last owner (409 LAST_OWNER)', () => {
    expect(decide(owner, 'people:change-role', { role: 'owner', grant: 'admin', owners: 1 })?.code).toBe('LAST_OWNER');
    expect(decide(owner, 'people:remove', { role: 'owner', owners: 1 })?.code).toBe('LAST_OWNER');
    expect(can(owner, 'people:remove', { role: 'owner', owners: 2 })).toBe(true);
  });

  it('authorize throws the refusal as an AppError with its status', () => {
    const thrown = (() => {
      try {
        authorize(owner, 'people:remove', { role: 'owner', owners: 1 });
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(AppError);
    expect((thrown as AppError).status).toBe(409);
  });
});

describe('delivery whitelist', () => {
  it('an empty whitelist reads every type; a whitelist only its own', () => {
    expect(can(deliveryActor([]), 'content:read', { contentType: 'post' })).toBe(true);
    expect(can(deliveryActor(['post']), 'content:read', { contentType: 'post' })).toBe(true);
    expect(decide(deliveryActor(['post']), 'content:read', { contentType: 'page' })?.message).toBe("This API key may not read content type 'page'");
  });
});

describe('capabilities', () => {
  it('lists what each preset may do', () => {
    expect(capabilitiesOf('viewer')).toEqual(['people:list']);
    expect(capabilitiesOf('author')).toEqual(['content:write', 'media:write', 'people:list']);
    expect(capabilitiesOf('editor')).toEqual(['content:write', 'content:publish', 'media:write', 'people:list']);
    expect(capabilitiesOf('admin')).not.toContain('owners:manage');
    expect(capabilitiesOf('admin')).toContain('keys:create');
    expect(capabilitiesOf('owner')).toContain('owners:manage');
  });
});
