/**
 * Studio sessions and one-time links (docs/api.md "Studio sessions, people, keys and workspace"
 * (D90); the Studio contract): sign-in with email
 * and password, the session actor of the management API, CSRF tokens, setup and invitation links,
 * password changes.
 *
 * Values and what is stored:
 * - a session id is `qs_` + 32 random bytes (base64url), sent only in the `quire_session`
 *   cookie; the database keeps its SHA-256 (`sessions.id_hash`), so a copy of the database signs
 *   nobody in. A session ends on sign-out, on a password change (all of the user's sessions), on
 *   removal from a workspace (all of them), after SESSION_IDLE_HOURS without a request and
 *   SESSION_MAX_AGE_HOURS after sign-in;
 * - a one-time token is `qt_` + 32 random bytes, stored as its SHA-256, valid 72 hours, used once
 *   (a conditional update marks it, so two redemptions racing cannot both win). A new link for
 *   a person retires their older unused links;
 * - the CSRF token of a session is HMAC-SHA256(installation secret, session digest): stable for
 *   the session's life, returned by POST/GET /session, compared in constant time. This is the
 *   synchronizer-token pattern without storage. @fastify/csrf-protection was not used: it keeps
 *   its secret in a second cookie or in @fastify/session, while these sessions are database rows
 *   whose token the Studio reads from GET /session; deriving the token from the session keeps one
 *   cookie and one source of truth.
 *
 * Errors: 401 UNAUTHORIZED (bad credentials, no valid session), 429 RATE_LIMITED (throttle.ts),
 * 403 FORBIDDEN (CSRF, workspace not joined), 404 NOT_FOUND (unknown, used or expired token),
 * 400 VALIDATION_FAILED (password length, X-Workspace-ID).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { hashPassword, PASSWORD_MAX, PASSWORD_MIN, verifyPassword } from './passwords.js';
import { capabilitiesOf, effectiveScopes, type Capability } from '../access/authorize.js';
import type { Permission } from '../access/permission-rules.js';
import { rolesOfWorkspace } from '../access/repository.js';
import { recordAudit, systemAuditActor, type AuditActor } from '../audit/record.js';
import { SCOPES, type Actor, type RequestContext, type Scope } from './permissions.js';
import {
  consumeToken,
  deleteSession,
  deleteStaleSessions,
  deleteUserSessions,
  findCredentialsByEmail,
  findCredentialsById,
  findSession,
  findToken,
  insertSession,
  insertToken,
  listUserWorkspaces,
  retireUnusedTokens,
  touchSession,
  updateLastSignIn,
  updatePasswordHash,
  type MembershipOfUser,
  type TokenPurpose,
} from './session-repository.js';
import { accountState } from '../users/repository.js';
import { claimAttempt, clearAccountFailures } from './throttle.js';

export const SESSION_COOKIE = 'quire_session';
/** One-time links live 72 hours (D90). */
export const TOKEN_LIFETIME_MS = 72 * 3_600_000;
/** last_seen_at is written at most once a minute per session: idle limits are hours. */
const TOUCH_EVERY_MS = 60_000;
const SESSION_VALUE = /^qs_[A-Za-z0-9_-]{43}$/;
const TOKEN_VALUE = /^qt_[A-Za-z0-9_-]{43}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** What POST/GET /session answer (contract: SessionInfo). */
export interface SessionInfo {
  user: { id: number; email: string; name: string | null };
  /** Each workspace with the person's role there and what that role may do (authorize's capabilities). */
  workspaces: { id: string; slug: string; name: string; role: string; permissions: Permission[]; capabilities: Capability[] }[];
  csrf_token: string;
}

/** A valid session as the auth hook and the session routes see it. */
export interface SessionState {
  /** SHA-256 of the session id (the row key); never the id itself. */
  digest: string;
  user: { id: number; email: string; name: string | null };
  expiresAt: string;
}

/** A new session: the cookie value (shown once, to the browser) and its state. */
export interface StartedSession {
  id: string;
  state: SessionState;
  info: SessionInfo;
}

/** The CSRF token of the session with this digest: HMAC-SHA256 of the digest under the installation secret. */
export function csrfTokenFor(ctx: Context, digest: string): string {
  return createHmac('sha256', ctx.secret).update(`csrf\0${digest}`).digest('base64url');
}

/** True when `header` is the session's CSRF token (constant-time). */
export function csrfMatches(ctx: Context, digest: string, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(csrfTokenFor(ctx, digest));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Throws 403 FORBIDDEN unless `header` is the session's CSRF token. */
export function requireCsrf(ctx: Context, session: SessionState, header: string | undefined): void {
  if (!csrfMatches(ctx, session.digest, header)) throw new AppError('FORBIDDEN', 'Missing or invalid CSRF token');
}

/** 400 at `path` unless the password is PASSWORD_MIN to PASSWORD_MAX characters long. */
export function checkPassword(password: string, path = 'body.password'): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw invalid(path, `must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
}

/** Starts a session for `user` (records the sign-in time); the cookie value is in the answer only. */
export async function startSession(ctx: Context, user: SessionState['user']): Promise<StartedSession> {
  const id = `qs_${randomBytes(32).toString('base64url')}`;
  const now = ctx.clock();
  const expiresAt = iso(new Date(now.getTime() + ctx.config.sessionMaxAgeHours * 3_600_000));
  const digest = sha256(id);
  await insertSession(ctx.db, { id_hash: digest, user_id: user.id, created_at: iso(now), last_seen_at: iso(now), expires_at: expiresAt });
  await updateLastSignIn(ctx.db, user.id, iso(now));
  const state = { digest, user, expiresAt };
  return { id, state, info: await sessionInfo(ctx, state) };
}

/** SessionInfo of a valid session: the person, their workspaces with roles and capabilities (read now) and the CSRF token. */
export async function sessionInfo(ctx: Context, session: SessionState): Promise<SessionInfo> {
  const workspaces = await Promise.all(
    (await listUserWorkspaces(ctx.db, session.user.id)).map(async (w) => {
      const roles = await rolesOfWorkspace(ctx, w.id);
      const permissions = (roles.row(w.role)?.permissions ?? []).map((p) => ({ ...p }));
      return { ...w, permissions, capabilities: capabilitiesOf(w.role, roles) };
    }),
  );
  return { user: session.user, workspaces, csrf_token: csrfTokenFor(ctx, session.digest) };
}

/**
 * POST /session: signs a person in. Same 401 for an unknown email, no password yet and a wrong
 * password, each after one scrypt computation; 429 when throttled (before any hashing).
 */
export async function signIn(ctx: Context, input: { email: string; password: string }, address: string, request?: RequestContext): Promise<StartedSession> {
  requirePasswords(ctx);
  const email = input.email.trim().toLowerCase();
  // Whether the account exists only picks the throttle's store (same limits, same answers).
  const user = await findCredentialsByEmail(ctx.db, email);
  const attempt = await claimAttempt(ctx, email, address, user !== null);
  const ok = await verifyPassword(user?.password_hash ?? null, input.password, ctx.config.passwordHashLog2n);
  if (!user || !ok) {
    return concludeSignIn(ctx, { ok: false, method: 'password', email, address, request, error: new AppError('UNAUTHORIZED', 'Invalid email or password') });
  }
  await attempt.succeeded();
  return concludeSignIn(ctx, { ok: true, method: 'password', address, request, user: { id: user.id, email: user.email, name: user.name } });
}

/** How a person signed in: email and password (POST /session) or single sign-on (D121). */
export type SignInMethod = 'password' | 'oidc';

/** How a sign-in attempt ended, as concludeSignIn receives it. */
export type SignInOutcome =
  | { ok: true; method: SignInMethod; address: string; request?: RequestContext; user: SessionState['user'] }
  /** `email` as given or asserted (null when none was), `error` what the caller answers. */
  | { ok: false; method: SignInMethod; address: string; request?: RequestContext; email: string | null; error: Error };

/**
 * Where every Studio sign-in ends, by password and by single sign-on alike (D90, D121): a
 * success sweeps stale sessions and starts one; a failure throws its `error`. What a sign-in
 * leaves besides the session (the audit log's session.sign_in and session.sign_in_failed, D122)
 * belongs here, so one call covers both ways in.
 */
export async function concludeSignIn(ctx: Context, outcome: SignInOutcome): Promise<StartedSession> {
  const now = ctx.clock();
  const request = outcome.request ?? { ip: outcome.address, userAgent: null, requestId: null };
  if (!outcome.ok) {
    // No change to roll back: the failure is recorded on its own, about the account when the email has one.
    const known = outcome.email === null ? null : await findCredentialsByEmail(ctx.db, outcome.email);
    const actor: AuditActor = { type: 'user', id: known ? String(known.id) : null, label: outcome.email, userId: known?.id ?? null, request };
    const target = { kind: 'user', id: known ? String(known.id) : null, slug: outcome.email };
    await recordAudit(ctx.db, { workspaceId: null, at: now, actor, action: 'session.sign_in_failed', target, changedFields: [outcome.method] });
    throw outcome.error;
  }
  // Sessions end lazily when read; those never read again are swept here, at sign-in (a small
  // table: people times browsers).
  await deleteStaleSessions(ctx.db, iso(now), iso(new Date(now.getTime() - ctx.config.sessionIdleHours * 3_600_000)));
  const user = outcome.user;
  return withTransaction(ctx.db, async (db) => {
    const started = await startSession({ ...ctx, db }, user);
    await recordAudit(db, {
      workspaceId: null,
      at: now,
      actor: { type: 'user', id: String(user.id), label: user.email, userId: user.id, request },
      action: 'session.sign_in',
      target: userTarget(user),
      changedFields: [outcome.method],
    });
    return started;
  });
}

/** How the audit log names a person (D122): installation-wide rows about them show in their workspaces' logs. */
function userTarget(user: { id: number; email: string }) {
  return { kind: 'user', id: String(user.id), slug: user.email };
}

/** The audit row of a person acting on their own account (sign-out, password), in the request `request`. */
function selfAudit(user: { id: number; email: string }, at: Date, action: string, request?: RequestContext) {
  const actor: AuditActor = { type: 'user', id: String(user.id), label: user.email, userId: user.id, request };
  return { workspaceId: null, at, actor, action, target: userTarget(user) };
}

/**
 * 403 FORBIDDEN when OIDC_ONLY turned passwords off (D121): password sign-in, setting a password
 * with a setup or invitation link, changing one and `quire users set-password` all refuse.
 */
export function requirePasswords(ctx: Context): void {
  const oidc = ctx.config.oidc;
  if (oidc?.only) throw new AppError('FORBIDDEN', `Passwords are turned off on this Quire (OIDC_ONLY): sign in with ${oidc.name}`);
}

/**
 * The session named by a cookie value, or null when there is none or it has ended (a session
 * past its idle or absolute limit is deleted here). Refreshes `last_seen_at` at most once a minute.
 */
export async function readSession(ctx: Context, cookieValue: string | undefined): Promise<SessionState | null> {
  if (!cookieValue || !SESSION_VALUE.test(cookieValue)) return null;
  const digest = sha256(cookieValue);
  const row = await findSession(ctx.db, digest);
  if (!row) return null;
  const now = ctx.clock();
  const idleSince = new Date(now.getTime() - ctx.config.sessionIdleHours * 3_600_000);
  if (row.expires_at <= iso(now) || row.last_seen_at <= iso(idleSince)) {
    await deleteSession(ctx.db, digest);
    return null;
  }
  if (now.getTime() - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) await touchSession(ctx.db, digest, iso(now));
  return { digest, user: { id: row.user_id, email: row.email, name: row.name }, expiresAt: row.expires_at };
}

/** DELETE /session: ends this session. */
export async function signOut(ctx: Context, session: SessionState, request?: RequestContext): Promise<void> {
  await withTransaction(ctx.db, async (db) => {
    await deleteSession(db, session.digest);
    await recordAudit(db, selfAudit(session.user, ctx.clock(), 'session.sign_out', request));
  });
}

/**
 * The actor of a session request (contract "Session actor"): the workspace named by
 * X-Workspace-ID, or the user's only one; the user's current role there, read now; scopes are
 * the role's (D12). 400 for a malformed or missing-but-needed header, 403 for a workspace the
 * user does not belong to.
 */
export async function sessionActor(ctx: Context, session: SessionState, workspaceHeader: string | undefined): Promise<Actor> {
  const memberships = await listUserWorkspaces(ctx.db, session.user.id);
  let membership: MembershipOfUser | undefined;
  if (workspaceHeader !== undefined && workspaceHeader !== '') {
    if (!UUID.test(workspaceHeader)) throw invalid('headers.x-workspace-id', 'must be a workspace id (uuid)');
    membership = memberships.find((m) => m.id === workspaceHeader.toLowerCase());
    if (!membership) throw new AppError('FORBIDDEN', 'You are not a member of this workspace');
  } else if (memberships.length === 1) {
    membership = memberships[0];
  } else if (memberships.length === 0) {
    throw new AppError('FORBIDDEN', 'You are not a member of any workspace');
  } else {
    throw invalid('headers.x-workspace-id', 'you belong to several workspaces: name one with the X-Workspace-ID header');
  }
  const roles = await rolesOfWorkspace(ctx, membership.id);
  return {
    keyId: `session:${session.user.id}:${membership.id}`,
    keyClass: 'management',
    workspaceId: membership.id,
    userId: session.user.id,
    role: membership.role,
    // A session has no key scopes of its own: the role alone decides (D90).
    keyScopes: new Set<Scope>(SCOPES),
    scopes: effectiveScopes(SCOPES, membership.role, roles),
    environment: null,
    contentTypes: [],
    session: { digest: session.digest },
    roles,
    label: session.user.email,
  };
}

/** A one-time link for `userId`: setup (first owner, CLI) or invitation (into `workspaceId`). */
export interface IssuedToken {
  token: string;
  url: string;
  expires_at: string;
}

/** A new one-time token value (`qt_` + 32 random bytes) and the SHA-256 that is stored instead. */
export function newOneTimeToken(): { token: string; digest: string } {
  const token = `qt_${randomBytes(32).toString('base64url')}`;
  return { token, digest: sha256(token) };
}

/** The stored digest of a one-time token value, or null when the value is not one (never looked up). */
export function oneTimeTokenDigest(token: string): string | null {
  return TOKEN_VALUE.test(token) ? sha256(token) : null;
}

/** Creates a setup or invitation token (retiring the user's older unused ones) and its Studio URL. */
export async function issueToken(ctx: Context, userId: number, workspaceId: string | null, purpose: TokenPurpose): Promise<IssuedToken> {
  const token = `qt_${randomBytes(32).toString('base64url')}`;
  const now = ctx.clock();
  const expiresAt = iso(new Date(now.getTime() + TOKEN_LIFETIME_MS));
  await retireUnusedTokens(ctx.db, userId, iso(now));
  await insertToken(ctx.db, {
    token_hash: sha256(token),
    purpose,
    user_id: userId,
    workspace_id: workspaceId,
    created_at: iso(now),
    expires_at: expiresAt,
    used_at: null,
  });
  return { token, url: setupUrl(ctx, token), expires_at: expiresAt };
}

/** The Studio page that redeems `token`: `<PUBLIC_URL>/studio/setup?token=…`. */
export function setupUrl(ctx: Context, token: string): string {
  return `${ctx.config.publicUrl.replace(/\/+$/, '')}/studio/setup?token=${encodeURIComponent(token)}`;
}

/**
 * The unused, unexpired token with this value, or null. An invitation link of an earlier version
 * (purpose `invitation` in one_time_tokens; invitations are pending rows since migration 021)
 * counts only while its account is brand new: no password, never signed in, no membership but
 * the one it was made for. Otherwise it would set the password of someone's account.
 */
async function usableToken(ctx: Context, token: string) {
  if (!TOKEN_VALUE.test(token)) return null;
  const row = await findToken(ctx.db, sha256(token));
  if (!row || row.used_at !== null || row.expires_at <= iso(ctx.clock())) return null;
  if (row.purpose === 'invitation') {
    const account = await accountState(ctx.db, row.email);
    const elsewhere = (await listUserWorkspaces(ctx.db, row.user_id)).some((w) => w.id !== row.workspace_id);
    if (!account || account.has_password || account.signed_in || elsewhere) return null;
  }
  return row;
}

export const TOKEN_GONE = 'This link is unknown, already used or expired; ask for a new one';

/** GET /session/token: what a valid unused token is for; 404 otherwise. */
export async function describeToken(
  ctx: Context,
  token: string,
): Promise<{ purpose: TokenPurpose; email: string; workspace: { slug: string; name: string } | null; expires_at: string }> {
  const row = await usableToken(ctx, token);
  if (!row) throw new AppError('NOT_FOUND', TOKEN_GONE);
  const workspace = row.workspace_slug !== null && row.workspace_name !== null ? { slug: row.workspace_slug, name: row.workspace_name } : null;
  return { purpose: row.purpose, email: row.email, workspace, expires_at: row.expires_at };
}

/**
 * POST /session/password with a token: sets the password (ending the user's other sessions) and
 * signs in. 404 for an unknown, used or expired token.
 */
export async function redeemToken(ctx: Context, token: string, password: string, request?: RequestContext): Promise<StartedSession> {
  requirePasswords(ctx);
  checkPassword(password);
  const row = await usableToken(ctx, token);
  if (!row) throw new AppError('NOT_FOUND', TOKEN_GONE);
  const hash = await hashPassword(password, ctx.config.passwordHashLog2n);
  const user = await withTransaction(ctx.db, async (db) => {
    if (!(await consumeToken(db, row.token_hash, iso(ctx.clock())))) throw new AppError('NOT_FOUND', TOKEN_GONE);
    await updatePasswordHash(db, row.user_id, hash);
    await deleteUserSessions(db, row.user_id);
    const user = await findCredentialsById(db, row.user_id);
    if (user) await recordAudit(db, selfAudit(user, ctx.clock(), 'password.set', request));
    return user;
  });
  if (!user) throw new AppError('NOT_FOUND', TOKEN_GONE);
  await clearAccountFailures(ctx, user.email);
  return startSession(ctx, { id: user.id, email: user.email, name: user.name });
}

/**
 * POST /session/password on a session: checks the current password (400 at
 * `body.current_password` when wrong, not 401, which would read as "session ended"; counted by the
 * sign-in throttle), sets the new one, ends all of the user's sessions and starts a new one.
 */
export async function changePassword(
  ctx: Context,
  session: SessionState,
  input: { current_password: string; password: string },
  address: string,
  request?: RequestContext,
): Promise<StartedSession> {
  requirePasswords(ctx);
  checkPassword(input.password);
  const attempt = await claimAttempt(ctx, session.user.email, address, true);
  const user = await findCredentialsById(ctx.db, session.user.id);
  if (!user || !(await verifyPassword(user.password_hash, input.current_password, ctx.config.passwordHashLog2n))) {
    throw invalid('body.current_password', 'is not your current password');
  }
  await attempt.succeeded();
  const hash = await hashPassword(input.password, ctx.config.passwordHashLog2n);
  await withTransaction(ctx.db, async (db) => {
    await updatePasswordHash(db, user.id, hash);
    await deleteUserSessions(db, user.id);
    await recordAudit(db, selfAudit(user, ctx.clock(), 'password.changed', request ?? { ip: address, userAgent: null, requestId: null }));
  });
  return startSession(ctx, { id: user.id, email: user.email, name: user.name });
}

/** `quire users set-password`: sets a member's password directly and ends their sessions. */
export async function setPasswordForUser(ctx: Context, userId: number, password: string): Promise<void> {
  requirePasswords(ctx);
  checkPassword(password, 'password');
  const hash = await hashPassword(password, ctx.config.passwordHashLog2n);
  await withTransaction(ctx.db, async (db) => {
    await updatePasswordHash(db, userId, hash);
    await deleteUserSessions(db, userId);
    const user = await findCredentialsById(db, userId);
    if (user) await recordAudit(db, { ...selfAudit(user, ctx.clock(), 'password.set'), actor: systemAuditActor('cli') });
  });
}
