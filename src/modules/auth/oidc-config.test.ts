/** OIDC_* settings (D121; docs/access.md "Settings", "The role map"): what starts and what stops the server. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { oidcSettingsFrom, parseRoleMap } from './oidc-config.js';
import { claimValues, grantsFor, verifiedEmail } from './oidc-people.js';

const BASE = { OIDC_ISSUER: 'https://sso.example.com/realms/acme/', OIDC_CLIENT_ID: 'quire' };

describe('OIDC settings', () => {
  it('are null without an issuer, and refuse the other variables then', () => {
    expect(oidcSettingsFrom({})).toBeNull();
    expect(() => oidcSettingsFrom({ OIDC_ONLY: '1' })).toThrow('OIDC_ONLY is set but OIDC_ISSUER is not');
    expect(() => loadConfig({ OIDC_CLIENT_ID: 'x' })).toThrow(ConfigError);
  });

  it('read the issuer, client and defaults', () => {
    expect(oidcSettingsFrom({ ...BASE, OIDC_CLIENT_SECRET: 's3cret', OIDC_ONLY: 'true' })).toEqual({
      // As written: the provider's discovery document must name exactly this issuer.
      issuer: 'https://sso.example.com/realms/acme/',
      clientId: 'quire',
      clientSecret: 's3cret',
      roleClaim: 'groups',
      roleMap: [],
      only: true,
      name: 'sso.example.com',
      loopback: false,
    });
    expect(loadConfig({ ...BASE, OIDC_NAME: 'Okta' }).oidc?.name).toBe('Okta');
  });

  it('take https, or http on loopback only', () => {
    expect(oidcSettingsFrom({ ...BASE, OIDC_ISSUER: 'http://127.0.0.1:8080/realms/dev' })?.loopback).toBe(true);
    expect(oidcSettingsFrom({ ...BASE, OIDC_ISSUER: 'http://localhost:8080' })?.loopback).toBe(true);
    expect(oidcSettingsFrom({ ...BASE, OIDC_ISSUER: 'http://[::1]:8080' })?.loopback).toBe(true);
    for (const bad of ['http://sso.example.com', 'http://10.0.0.5', 'ftp://sso.example.com', 'sso.example.com', 'https://sso.example.com/?x=1']) {
      expect(() => loadConfig({ ...BASE, OIDC_ISSUER: bad }), bad).toThrow(/OIDC_ISSUER must/);
    }
    expect(() => loadConfig({ OIDC_ISSUER: 'https://sso.example.com' })).toThrow('OIDC_CLIENT_ID must be set too');
    expect(() => loadConfig({ ...BASE, OIDC_ONLY: 'maybe' })).toThrow("OIDC_ONLY must be true or false, got 'maybe'");
  });

  it('parse OIDC_ROLE_MAP in the order written and refuse what is not the documented shape', () => {
    expect(parseRoleMap('{"admins": {"marketing": "admin"}, "*": {"docs": " viewer "}}')).toEqual([
      ['admins', { marketing: 'admin' }],
      ['*', { docs: 'viewer' }],
    ]);
    const refusals: [string, RegExp][] = [
      ['not json', /must be JSON/],
      ['["admins"]', /must be a JSON object/],
      ['{"admins": "admin"}', /OIDC_ROLE_MAP\["admins"\] must be an object/],
      ['{"admins": {}}', /names no workspace/],
      ['{"admins": {"Not A Slug": "admin"}}', /'Not A Slug' is not a workspace slug/],
      ['{"admins": {"marketing": 3}}', /\["marketing"\] must be a role name/],
      ['{"": {"marketing": "admin"}}', /must not be empty/],
    ];
    for (const [raw, message] of refusals) expect(() => loadConfig({ ...BASE, OIDC_ROLE_MAP: raw }), raw).toThrow(message);
  });

  it('grant the first entry naming a workspace, and `*` to everyone', () => {
    const settings = oidcSettingsFrom({
      ...BASE,
      OIDC_ROLE_MAP: '{"admins": {"a": "admin"}, "editors": {"a": "editor", "b": "editor"}, "*": {"c": "viewer"}}',
    })!;
    expect([...grantsFor(settings, ['editors', 'admins'])]).toEqual([
      ['a', 'admin'],
      ['b', 'editor'],
      ['c', 'viewer'],
    ]);
    expect([...grantsFor(settings, [])]).toEqual([['c', 'viewer']]);
  });

  it('read claim values as strings, arrays or dotted paths, and only verified emails', () => {
    const claims = { groups: ['a', 3, 'b'], hd: 'example.com', 'https://x.example/roles': ['r'], resource_access: { quire: { roles: ['editor'] } } };
    expect(claimValues(claims, 'groups')).toEqual(['a', 'b']);
    expect(claimValues(claims, 'hd')).toEqual(['example.com']);
    expect(claimValues(claims, 'https://x.example/roles')).toEqual(['r']);
    expect(claimValues(claims, 'resource_access.quire.roles')).toEqual(['editor']);
    expect(claimValues(claims, 'missing.path')).toEqual([]);
    expect(verifiedEmail({ email: ' Ann@Example.com ', email_verified: true })).toBe('ann@example.com');
    expect(verifiedEmail({ email: 'ann@example.com', xms_edov: true })).toBe('ann@example.com');
    expect(verifiedEmail({ email: 'ann@example.com', email_verified: false })).toBeNull();
    expect(verifiedEmail({ email: 'ann@example.com' })).toBeNull();
    expect(verifiedEmail({ email_verified: true })).toBeNull();
  });
});
