/**
 * Users, memberships, API keys and request authentication (docs/api.md "Authentication" (D10),
 * "Management keys: scopes, roles and their intersection" (D11,
 * D12), "Delivery keys" (D13), "GET /api/v1/public/pages" (D14); docs/cli.md "The `quire` command
 * line" (D61)). Used by the CLI, the demo seeding and the HTTP auth hooks.
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { iso } from '../../lib/time.js';
import { entryTypeSlugsAmong } from '../content-types/repository.js';
import { findWorkspaceBySlug, type Workspace } from '../workspaces/repository.js';
import { createWorkspace, type CreateWorkspaceInput } from '../workspaces/operations.js';
import { cachedActor, rememberActor, revisionOf } from './key-cache.js';
import { classOfKey, generateKey, hashesEqual, hashKey, keyHint } from './keys.js';
import { effectiveScopes } from '../access/authorize.js';
import { rolesOfWorkspace } from '../access/repository.js';
import { auditEntry, recordAudit, systemAuditActor, workspaceTarget, type AuditActor } from '../audit/record.js';
import { isRole, isScope, SCOPES, type Actor, type Environment, type KeyClass, type Role, type Scope } from './permissions.js';
import {
  findKeyById,
  findKeyWithRoleByHash,
  findMembershipRole,
  findUserByEmail,
  insertApiKey,
  insertUser,
  revokeKeyById,
  upsertMembership,
  type User,
} from './repository.js';
import { findCredentialsById } from './session-repository.js';
import { issueToken } from './sessions.js';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** D11: management keys live at most 365 days, 90 by default. */
export const MAX_KEY_LIFETIME_MS = 365 * 86_400_000;
export const DEFAULT_KEY_LIFETIME_MS = 90 * 86_400_000;

export async function requireWorkspace(ctx: Context, slug: string): Promise<Workspace> {
  const ws = await findWorkspaceBySlug(ctx.db, slug);
  if (!ws) throw new AppError('NOT_FOUND', `workspace '${slug}' not found`);
  return ws;
}

/** The email trimmed and lower-cased (how accounts are keyed); 400 at `path` unless it looks like an address. */
export function normalizeEmail(email: string, path = 'email'): string {
  const normalized = email.trim().toLowerCase();
  if (!EMAIL_PATTERN.test(normalized)) throw invalid(path, 'must be an email address');
  return normalized;
}

/** Finds a user by email or creates one. */
export async function ensureUser(ctx: Context, email: string, name: string | null = null): Promise<User> {
  const normalized = normalizeEmail(email);
  const existing = await findUserByEmail(ctx.db, normalized);
  if (existing) return existing;
  return insertUser(ctx.db, normalized, name, iso(ctx.clock()));
}

/** `quire users create`: a user (new or existing by email) with a role in the workspace. */
export async function createMember(ctx: Context, workspaceSlug: string, email: string, role: string): Promise<{ id: number; email: string; role: Role }> {
  if (!isRole(role)) throw invalid('role', `must be one of owner, admin, editor, author, viewer`);
  const ws = await requireWorkspace(ctx, workspaceSlug);
  return withTransaction(ctx.db, async (db) => {
    const user = await ensureUser({ ...ctx, db }, email);
    const before = await findMembershipRole(db, ws.id, user.id);
    await upsertMembership(db, ws.id, user.id, role, iso(ctx.clock()));
    await recordAudit(db, cliMemberAudit(ws.id, user, ctx.clock(), before ? 'member.role_changed' : 'member.added'));
    return { id: user.id, email: user.email, role };
  });
}

/** `quire users set-role`: changes an existing member's role; takes effect on the next request (D12). */
export async function setMemberRole(ctx: Context, workspaceSlug: string, email: string, role: string): Promise<{ id: number; email: string; role: Role }> {
  if (!isRole(role)) throw invalid('role', `must be one of owner, admin, editor, author, viewer`);
  const ws = await requireWorkspace(ctx, workspaceSlug);
  const user = await findUserByEmail(ctx.db, email.trim().toLowerCase());
  if (!user || !(await findMembershipRole(ctx.db, ws.id, user.id))) throw new AppError('NOT_FOUND', `user '${email}' is not a member of '${workspaceSlug}'`);
  await withTransaction(ctx.db, async (db) => {
    await upsertMembership(db, ws.id, user.id, role, iso(ctx.clock()));
    await recordAudit(db, cliMemberAudit(ws.id, user, ctx.clock(), 'member.role_changed'));
  });
  return { id: user.id, email: user.email, role };
}

/** The audit row of a membership the command line changed (D122). */
function cliMemberAudit(workspaceId: string, user: { id: number; email: string }, at: Date, action: 'member.added' | 'member.role_changed') {
  const target = { kind: 'user', id: String(user.id), slug: user.email };
  return { workspaceId, at, actor: systemAuditActor('cli'), action, target, changedFields: action === 'member.role_changed' ? ['role'] : undefined };
}

/** A member of a workspace found by email; 404 NOT_FOUND when the user or the membership is missing. */
export async function memberByEmail(
  ctx: Context,
  workspaceSlug: string,
  email: string,
): Promise<{ id: number; email: string; role: Role; workspaceId: string }> {
  const ws = await requireWorkspace(ctx, workspaceSlug);
  const user = await findUserByEmail(ctx.db, email.trim().toLowerCase());
  const role = user ? await findMembershipRole(ctx.db, ws.id, user.id) : null;
  if (!user || !role) throw new AppError('NOT_FOUND', `user '${email}' is not a member of '${workspaceSlug}'`);
  return { id: user.id, email: user.email, role, workspaceId: ws.id };
}

export interface CreateKeyInput {
  keyClass: KeyClass;
  name?: string;
  environment?: Environment;
  contentTypes?: string[];
  scopes?: string[];
  /** Lifetime in ms; management keys default to 90 days and may not exceed 365 (D11). */
  expiresInMs?: number;
}

export interface CreatedKey {
  id: string;
  key: string;
  expires_at: string | null;
}

/**
 * How a caller's key request is checked besides the common rules: where each error points (the
 * CLI names its options, the HTTP API its body fields), and two rules of the HTTP API: a given
 * scope list must name at least one scope, and a delivery key's whitelist must name existing
 * entry types of the workspace.
 */
export interface KeyRequestRules {
  paths: { scopes: string; expires: string; contentTypes: string; environment: string };
  refuseEmptyScopes: boolean;
  checkWhitelist: boolean;
}

/** The CLI's (and bootstrap's) rules: errors name the options; any scope list and whitelist are kept. */
export const CLI_KEY_RULES: KeyRequestRules = {
  paths: { scopes: 'scopes', expires: 'expires_in', contentTypes: 'content_types', environment: 'environment' },
  refuseEmptyScopes: false,
  checkWhitelist: false,
};

/**
 * Creates an API key for `userId` in `workspaceId`; returns the only copy of its value. The one
 * key-creation operation (the CLI, bootstrap and POST /api-keys all come here), so the rules of
 * a key are checked in one place (D10, D11, D13): management keys take known scopes (default all)
 * and expire within 365 days (default 90), no whitelist; delivery keys take an environment
 * (production or preview), no scopes, an optional positive lifetime and a whitelist. 400 at the
 * path `rules` names. Who may create keys is the caller's question (authorize 'keys:create').
 */
export async function createApiKey(
  ctx: Context,
  workspaceId: string,
  userId: number,
  input: CreateKeyInput,
  rules: KeyRequestRules = CLI_KEY_RULES,
  by: Actor | AuditActor = systemAuditActor('cli'),
): Promise<CreatedKey> {
  const now = ctx.clock();
  const at = rules.paths;
  let scopes: Scope[] = [];
  let environment: Environment | null = null;
  let expiresAt: string | null = null;
  if (input.keyClass === 'management') {
    if (input.contentTypes?.length) throw invalid(at.contentTypes, 'a content type whitelist applies to delivery keys only');
    const requested = input.scopes ?? [...SCOPES];
    for (const s of requested) if (!isScope(s)) throw invalid(at.scopes, `unknown scope '${s}'; scopes are ${SCOPES.join(', ')}`);
    if (rules.refuseEmptyScopes && requested.length === 0) throw invalid(at.scopes, 'name at least one scope');
    scopes = [...new Set(requested as Scope[])];
    const life = input.expiresInMs ?? DEFAULT_KEY_LIFETIME_MS;
    if (life <= 0 || life > MAX_KEY_LIFETIME_MS) throw invalid(at.expires, 'management keys expire within 365 days');
    expiresAt = iso(new Date(now.getTime() + life));
  } else {
    environment = input.environment ?? 'production';
    if (environment !== 'production' && environment !== 'preview') throw invalid(at.environment, 'must be production or preview');
    if (input.scopes?.length) throw invalid(at.scopes, 'scopes apply to management keys only');
    if (input.expiresInMs !== undefined) {
      if (input.expiresInMs <= 0) throw invalid(at.expires, 'must be positive');
      expiresAt = iso(new Date(now.getTime() + input.expiresInMs));
    }
    const types = [...new Set(input.contentTypes ?? [])];
    if (rules.checkWhitelist && types.length > 0) {
      const known = await entryTypeSlugsAmong(ctx.db, workspaceId, types);
      const missing = types.find((t) => !known.has(t));
      if (missing !== undefined) throw invalid(at.contentTypes, `'${missing}' is not a content type of this workspace`);
    }
  }
  const key = generateKey(input.keyClass);
  const id = newId();
  const name = input.name ?? `${input.keyClass} key`;
  await withTransaction(ctx.db, async (db) => {
    await insertApiKey(db, {
      id,
      workspace_id: workspaceId,
      key_class: input.keyClass,
      name,
      key_hash: hashKey(key),
      key_hint: keyHint(key),
      scopes,
      environment,
      content_types: [...new Set(input.contentTypes ?? [])],
      created_by: userId,
      expires_at: expiresAt,
      revoked_at: null,
      created_at: iso(now),
    });
    await recordAudit(db, { workspaceId, at: now, actor: by, action: 'key.created', target: { kind: 'key', id, slug: name } });
  });
  return { id, key, expires_at: expiresAt };
}

/**
 * `quire keys revoke` and DELETE /api-keys/{id} (with `workspaceId`: 404 for another workspace's
 * key): the key stops working on the next request. Recorded in the audit log as `key.revoked` by `by`.
 */
export async function revokeApiKey(
  ctx: Context,
  id: string,
  by: Actor | AuditActor = systemAuditActor('cli'),
  workspaceId?: string,
): Promise<{ id: string; revoked_at: string }> {
  const key = await findKeyById(ctx.db, id);
  if (!key || (workspaceId !== undefined && key.workspace_id !== workspaceId)) throw new AppError('NOT_FOUND', `API key '${id}' not found`);
  const now = iso(ctx.clock());
  await withTransaction(ctx.db, async (db) => {
    await revokeKeyById(db, id, now);
    await recordAudit(db, { workspaceId: key.workspace_id, at: now, actor: by, action: 'key.revoked', target: { kind: 'key', id, slug: key.name } });
  });
  return { id, revoked_at: key.revoked_at ?? now };
}

export interface BootstrapInput extends CreateWorkspaceInput {
  email?: string;
}

export interface BootstrapResult {
  workspace: { id: string; slug: string };
  user: { id: number; email: string };
  keys: { management: string; delivery: string; preview: string };
  /**
   * A one-time link (72 h) where the owner sets a Studio password (D90), or null when the owner
   * already has one (an existing user reused by email).
   */
  setup_url: string | null;
}

/** `quire bootstrap` (D61): workspace, owner, three keys and the owner's setup link, in one transaction. */
export async function bootstrap(ctx: Context, input: BootstrapInput): Promise<BootstrapResult> {
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const ws = await createWorkspace(tx, input);
    await recordAudit(db, auditEntry(ws.id, ctx.clock(), systemAuditActor('cli'), 'workspace.created', workspaceTarget(ws)));
    const user = await ensureUser(tx, input.email ?? `owner@${ws.slug}.local`);
    await upsertMembership(db, ws.id, user.id, 'owner', iso(ctx.clock()));
    await recordAudit(db, cliMemberAudit(ws.id, user, ctx.clock(), 'member.added'));
    const management = await createApiKey(tx, ws.id, user.id, { keyClass: 'management', name: 'bootstrap management key' });
    const delivery = await createApiKey(tx, ws.id, user.id, { keyClass: 'delivery', name: 'bootstrap delivery key', environment: 'production' });
    const preview = await createApiKey(tx, ws.id, user.id, { keyClass: 'delivery', name: 'bootstrap preview key', environment: 'preview' });
    const credentials = await findCredentialsById(db, user.id);
    const setup = credentials?.password_hash ? null : await issueToken(tx, user.id, ws.id, 'setup');
    return {
      workspace: { id: ws.id, slug: ws.slug },
      user: { id: user.id, email: user.email },
      keys: { management: management.key, delivery: delivery.key, preview: preview.key },
      setup_url: setup?.url ?? null,
    };
  });
}

const CLASS_LABEL: Record<KeyClass, string> = { delivery: 'delivery key (svc_live_…)', management: 'management key (svc_mgmt_…)' };

/**
 * Resolves the `X-API-Key` header to an Actor for an API that needs `required` keys.
 * Throws 401 UNAUTHORIZED for a missing, malformed, unknown, revoked or expired key, a key of
 * the other class (D10, message names the class required) or a management key whose creator left
 * the workspace (D12).
 */
export async function authenticate(ctx: Context, header: string | undefined, required: KeyClass): Promise<Actor> {
  const raw = (header ?? '').trim();
  if (!raw) throw new AppError('UNAUTHORIZED', `Missing X-API-Key header: a ${CLASS_LABEL[required]} is required`);
  const claimed = classOfKey(raw);
  if (!claimed) throw new AppError('UNAUTHORIZED', `Invalid API key: a ${CLASS_LABEL[required]} is required`);
  if (claimed !== required) throw new AppError('UNAUTHORIZED', `This endpoint requires a ${CLASS_LABEL[required]}, not a ${claimed} key`);
  const digest = hashKey(raw);
  const cached = await cachedActor(ctx, digest);
  if (cached) {
    if (cached.expiresAt && cached.expiresAt <= iso(ctx.clock())) throw new AppError('UNAUTHORIZED', 'This API key has expired');
    return cached.actor;
  }
  const key = await findKeyWithRoleByHash(ctx.db, digest);
  if (!key || !hashesEqual(key.key_hash, digest) || key.key_class !== claimed) throw new AppError('UNAUTHORIZED', 'Invalid API key');
  if (key.revoked_at) throw new AppError('UNAUTHORIZED', 'This API key has been revoked');
  if (key.expires_at && key.expires_at <= iso(ctx.clock())) throw new AppError('UNAUTHORIZED', 'This API key has expired');
  if (key.key_class === 'management' && !key.role) {
    throw new AppError('UNAUTHORIZED', 'This API key is no longer valid: its creator is not a member of the workspace');
  }
  const keyScopes = new Set(key.scopes);
  const roles = await rolesOfWorkspace(ctx, key.workspace_id);
  const actor: Actor = {
    keyId: key.id,
    keyClass: key.key_class,
    workspaceId: key.workspace_id,
    userId: key.created_by,
    role: key.role,
    keyScopes,
    scopes: effectiveScopes(keyScopes, key.role, roles),
    environment: key.environment,
    contentTypes: key.content_types,
    revision: revisionOf({ keyClass: key.key_class, environment: key.environment }, key.revisions),
    roles,
    label: key.name,
  };
  rememberActor(ctx, digest, actor, key.expires_at);
  return actor;
}
