/**
 * Who a single sign-on is (D121; docs/access.md "Single sign-on"): the person is found by the
 * verified email the provider asserts; a person without an account, or with one in no workspace
 * yet, is given the memberships OIDC_ROLE_MAP grants for the values of OIDC_ROLE_CLAIM. Members
 * keep the memberships and roles they have: the map is read only while someone has no workspace,
 * and changes afterwards are made in the Studio or with the CLI (D91), so a role taken away in
 * Quire is not given back by the next sign-in.
 *
 * Errors: OidcRefusal with its reason (`email_unverified`, `not_mapped`), which the callback
 * turns into the Studio's sign-in page with the reason shown.
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { iso } from '../../lib/time.js';
import { rolesOf } from '../access/repository.js';
import { ensureUserRow } from '../users/repository.js';
import { findWorkspaceBySlug } from '../workspaces/repository.js';
import type { OidcSettings } from './oidc-config.js';
import type { Role } from './permissions.js';
import { recordAudit, systemAuditActor } from '../audit/record.js';
import { upsertMembership } from './repository.js';
import { findCredentialsByEmail, listUserWorkspaces } from './session-repository.js';
import type { SessionState } from './sessions.js';

/** Why a single sign-on was refused; the Studio's sign-in page words each one (`?sso_error=`). */
export type OidcRefusalReason = 'email_unverified' | 'not_mapped' | 'expired' | 'provider_error' | 'failed';

/** A refused single sign-on: the reason the person is shown, and what is logged. */
export class OidcRefusal extends Error {
  constructor(
    readonly reason: OidcRefusalReason,
    message: string,
  ) {
    super(message);
  }
}

/** Claims of the ID token (and userinfo) that matter here. */
export type Claims = Record<string, unknown>;

/**
 * The values of the role claim: a string or the strings of an array. A name not present as a
 * whole is read as a dotted path (`resource_access.quire.roles`), since claim names such as
 * `https://example.com/roles` contain dots themselves.
 */
export function claimValues(claims: Claims, name: string): string[] {
  let value: unknown = claims[name];
  if (value === undefined && name.includes('.')) {
    value = name
      .split('.')
      .reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), claims);
  }
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * The workspace slug → role grants of a person with these claim values: every map entry whose
 * value they carry (or `*`), in the map's order; the first entry naming a workspace decides its
 * role.
 */
export function grantsFor(settings: OidcSettings, values: readonly string[]): Map<string, string> {
  const carried = new Set(values);
  const grants = new Map<string, string>();
  for (const [value, roles] of settings.roleMap) {
    if (value !== '*' && !carried.has(value)) continue;
    for (const [slug, role] of Object.entries(roles)) if (!grants.has(slug)) grants.set(slug, role);
  }
  return grants;
}

/**
 * The verified email of the claims, lower-cased, or null. `email_verified` must be true; Microsoft
 * Entra ID, which sends none, says the same with its optional `xms_edov` claim (the email's domain
 * is verified by the tenant).
 */
export function verifiedEmail(claims: Claims): string | null {
  const email = claims.email;
  if (typeof email !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(email.trim())) return null;
  const verified = claims.email_verified === true || claims.email_verified === 'true' || claims.xms_edov === true || claims.xms_edov === 'true';
  return verified ? email.trim().toLowerCase() : null;
}

function displayName(claims: Claims): string | null {
  const name = typeof claims.name === 'string' ? claims.name.trim() : '';
  return name ? name.slice(0, 200) : null;
}

/**
 * The Quire person these claims sign in as: found by verified email, or created with the
 * memberships the role map grants (only workspaces and roles that exist; others are logged and
 * skipped). Refused when the email is unverified, or when a person without any workspace is
 * granted none.
 */
export async function personForClaims(ctx: Context, settings: OidcSettings, claims: Claims): Promise<SessionState['user']> {
  const email = verifiedEmail(claims);
  if (!email) {
    throw new OidcRefusal('email_unverified', 'the provider did not assert a verified email address (email_verified is not true)');
  }
  const existing = await findCredentialsByEmail(ctx.db, email);
  if (existing && (await listUserWorkspaces(ctx.db, existing.id)).length > 0) return { id: existing.id, email: existing.email, name: existing.name };

  const roles = await rolesOf(ctx);
  const memberships: { workspaceId: string; role: string }[] = [];
  for (const [slug, role] of grantsFor(settings, claimValues(claims, settings.roleClaim))) {
    const workspace = await findWorkspaceBySlug(ctx.db, slug);
    if (!workspace || !roles.row(role)) {
      ctx.log.warn({ workspace: slug, role }, `OIDC_ROLE_MAP grants ${workspace ? `the unknown role '${role}'` : `the unknown workspace '${slug}'`}: skipped`);
      continue;
    }
    memberships.push({ workspaceId: workspace.id, role });
  }
  if (memberships.length === 0) {
    // An account that exists already signs in as it would with a password (no workspace yet).
    if (existing) return { id: existing.id, email: existing.email, name: existing.name };
    throw new OidcRefusal('not_mapped', `${settings.roleClaim} of ${email} grants no workspace in OIDC_ROLE_MAP`);
  }
  const id = await withTransaction(ctx.db, async (db) => {
    const now = iso(ctx.clock());
    const userId = await ensureUserRow(db, email, displayName(claims), now);
    // Checked again inside the transaction: a first sign-in racing another keeps one set.
    if ((await listUserWorkspaces(db, userId)).length === 0) {
      for (const m of memberships) {
        await upsertMembership(db, m.workspaceId, userId, m.role as Role, now);
        // D122: the role map made this membership at the person's first single sign-on.
        const target = { kind: 'user', id: String(userId), slug: email };
        await recordAudit(db, { workspaceId: m.workspaceId, at: now, actor: systemAuditActor('oidc'), action: 'member.added', target });
      }
    }
    return userId;
  });
  const person = await findCredentialsByEmail(ctx.db, email);
  return { id, email, name: person?.name ?? null };
}
