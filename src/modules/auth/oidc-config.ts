/**
 * Single sign-on settings (D121; docs/access.md "Single sign-on", docs/configuration.md): the
 * OIDC_* variables read into one frozen object, checked when the server starts so a mistake is a
 * clear startup error rather than a failed sign-in. Pure: no I/O (the issuer is discovered on
 * first use, src/modules/auth/oidc-client.ts).
 *
 * - OIDC_ISSUER: the provider's issuer URL. https, or http on a loopback host (127.0.0.0/8,
 *   [::1], localhost: a provider on the same machine, as in tests). Unset: no single sign-on,
 *   and every other OIDC_* variable must be unset too.
 * - OIDC_CLIENT_ID (required with an issuer) and OIDC_CLIENT_SECRET (a confidential client,
 *   client_secret_basic; unset: a public client, PKCE alone).
 * - OIDC_ROLE_CLAIM: the ID token or userinfo claim read for OIDC_ROLE_MAP (default `groups`). A
 *   string or an array of strings; a name not found as a whole is read as a dotted path
 *   (`resource_access.quire.roles` for Keycloak client roles).
 * - OIDC_ROLE_MAP: JSON `{"<claim value>": {"<workspace slug>": "<role>"}}`; the key `*` matches
 *   every person with a verified email (a default role, e.g. with Google). When several values of
 *   one person name the same workspace, the entry listed first in the map wins.
 * - OIDC_ONLY: `1`/`true` turns password sign-in, setup and invitation passwords off.
 * - OIDC_NAME: the provider's name on the Studio's button ("Sign in with <name>"); default the
 *   issuer's host.
 *
 * Errors: OidcSettingsError with a message naming the variable (config.ts makes it a ConfigError).
 */
import { SLUG_PATTERN } from '../../lib/slugs.js';

/** Maps one claim value to roles by workspace slug. */
export type RoleGrants = Readonly<Record<string, string>>;

export interface OidcSettings {
  /**
   * The issuer URL exactly as configured (and as the provider's discovery document states it: a
   * trailing slash is kept, since `https://host/realms/acme/` and `…/acme` are different issuers).
   */
  readonly issuer: string;
  readonly clientId: string;
  /** null: a public client (no secret, PKCE only). */
  readonly clientSecret: string | null;
  readonly roleClaim: string;
  /** Claim value → workspace slug → role name, in the order written (first match wins). */
  readonly roleMap: ReadonlyArray<readonly [string, RoleGrants]>;
  /** Password sign-in and password setting are off. */
  readonly only: boolean;
  /** What the Studio's button names the provider. */
  readonly name: string;
  /** True when the issuer is on a loopback host: plain http allowed and its address not guarded. */
  readonly loopback: boolean;
}

/** An unusable OIDC_* value; the message names the variable. */
export class OidcSettingsError extends Error {}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;
/** Most entries OIDC_ROLE_MAP may hold: it is read at every first sign-in. */
const MAX_MAP_ENTRIES = 1000;

/** True for a URL host (as `new URL().hostname` spells it) naming this machine. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOST.test(hostname);
}

function issuerFrom(raw: string): { issuer: string; host: string; loopback: boolean } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new OidcSettingsError(`OIDC_ISSUER must be an absolute https:// URL, got '${raw}'`);
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new OidcSettingsError(`OIDC_ISSUER must be an https:// URL (http:// only on a loopback host such as 127.0.0.1), got '${raw}'`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new OidcSettingsError(`OIDC_ISSUER must have no query, fragment or credentials, got '${raw}'`);
  }
  return { issuer: raw.trim(), host: url.hostname, loopback };
}

/**
 * Parses OIDC_ROLE_MAP: a JSON object of claim values, each an object of workspace slugs to role
 * names. Returns the entries in the order written.
 */
export function parseRoleMap(raw: string): [string, RoleGrants][] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    throw new OidcSettingsError(`OIDC_ROLE_MAP must be JSON such as {"quire-editors": {"marketing": "editor"}}: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new OidcSettingsError('OIDC_ROLE_MAP must be a JSON object of claim values, such as {"quire-editors": {"marketing": "editor"}}');
  }
  const entries = Object.entries(parsed as Record<string, unknown>);
  if (entries.length > MAX_MAP_ENTRIES) throw new OidcSettingsError(`OIDC_ROLE_MAP may hold at most ${MAX_MAP_ENTRIES} claim values`);
  return entries.map(([value, grants]) => {
    if (value === '') throw new OidcSettingsError('OIDC_ROLE_MAP: a claim value must not be empty');
    if (grants === null || typeof grants !== 'object' || Array.isArray(grants)) {
      throw new OidcSettingsError(`OIDC_ROLE_MAP["${value}"] must be an object of workspace slugs to roles, such as {"marketing": "editor"}`);
    }
    const pairs = Object.entries(grants as Record<string, unknown>);
    if (pairs.length === 0) throw new OidcSettingsError(`OIDC_ROLE_MAP["${value}"] names no workspace`);
    for (const [slug, role] of pairs) {
      if (!SLUG_PATTERN.test(slug)) throw new OidcSettingsError(`OIDC_ROLE_MAP["${value}"]: '${slug}' is not a workspace slug`);
      if (typeof role !== 'string' || role.trim() === '') {
        throw new OidcSettingsError(`OIDC_ROLE_MAP["${value}"]["${slug}"] must be a role name such as editor`);
      }
    }
    return [value, Object.freeze(Object.fromEntries(pairs.map(([slug, role]) => [slug, (role as string).trim()])))];
  });
}

function flag(env: Record<string, string | undefined>, name: string): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return false;
  if (/^(1|true|yes)$/i.test(raw)) return true;
  if (/^(0|false|no)$/i.test(raw)) return false;
  throw new OidcSettingsError(`${name} must be true or false, got '${raw}'`);
}

const OTHERS = ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_ROLE_CLAIM', 'OIDC_ROLE_MAP', 'OIDC_ONLY', 'OIDC_NAME'];

/** The single sign-on settings of an environment, or null when OIDC_ISSUER is unset. */
export function oidcSettingsFrom(env: Record<string, string | undefined>): OidcSettings | null {
  const rawIssuer = env.OIDC_ISSUER?.trim();
  if (!rawIssuer) {
    const stray = OTHERS.find((name) => env[name] !== undefined && env[name] !== '');
    // OIDC_ONLY without an issuer would lock everyone out: refused rather than ignored.
    if (stray) throw new OidcSettingsError(`${stray} is set but OIDC_ISSUER is not: set the issuer URL or unset ${stray}`);
    return null;
  }
  const { issuer, host, loopback } = issuerFrom(rawIssuer);
  const clientId = env.OIDC_CLIENT_ID?.trim();
  if (!clientId) throw new OidcSettingsError('OIDC_ISSUER is set: OIDC_CLIENT_ID must be set too (the client id the provider gave Quire)');
  const roleClaim = env.OIDC_ROLE_CLAIM?.trim() || 'groups';
  const rawMap = env.OIDC_ROLE_MAP?.trim();
  const roleMap = rawMap ? parseRoleMap(rawMap) : [];
  return Object.freeze({
    issuer,
    clientId,
    clientSecret: env.OIDC_CLIENT_SECRET ? env.OIDC_CLIENT_SECRET : null,
    roleClaim,
    roleMap: Object.freeze(roleMap.map((e) => Object.freeze(e) as readonly [string, RoleGrants])),
    only: flag(env, 'OIDC_ONLY'),
    name: env.OIDC_NAME?.trim() || host,
    loopback,
  });
}
