/**
 * `quire keys create --workspace SLUG --class delivery|management [--environment
 * production|preview] [--content-types a,b] [--scopes content:write,...] [--user EMAIL]
 * [--expires-in 30d|12h|90s]` → `{id, key, expires_at}` and `quire keys revoke --id ID`
 * (docs/api.md "Authentication" (D10), "Management keys: scopes, roles and their intersection"
 * (D11, D12), "Delivery keys" (D13); docs/cli.md "The `quire` command line" (D61)). The key acts
 * for `--user` (a member of the workspace) or, by
 * default, for the workspace owner; the rules of key creation live in the auth operation
 * createApiKey (scopes, 365-day limit, whitelist for delivery keys only).
 */
import type { Context } from '../../context.js';
import { AppError } from '../../errors.js';
import { createApiKey, requireWorkspace, revokeApiKey } from '../../modules/auth/operations.js';
import type { Environment, KeyClass } from '../../modules/auth/permissions.js';
import { findMembershipRole, findUserByEmail, findWorkspaceOwner, type User } from '../../modules/auth/repository.js';
import type { CommandResult } from '../io.js';

export interface KeysCreateOptions {
  workspace: string;
  keyClass: KeyClass;
  environment?: Environment;
  contentTypes?: string[];
  scopes?: string[];
  user?: string;
  /** Lifetime in milliseconds (parsed from --expires-in). */
  expiresInMs?: number;
}

/** The member the key acts for: `email` when given (must be a member), else the owner. */
async function keyCreator(ctx: Context, workspaceId: string, workspaceSlug: string, email: string | undefined): Promise<User> {
  if (email === undefined) {
    const owner = await findWorkspaceOwner(ctx.db, workspaceId);
    if (!owner) throw new AppError('NOT_FOUND', `workspace '${workspaceSlug}' has no owner; pass --user EMAIL`);
    return owner;
  }
  const user = await findUserByEmail(ctx.db, email.trim().toLowerCase());
  if (!user || !(await findMembershipRole(ctx.db, workspaceId, user.id))) {
    throw new AppError('NOT_FOUND', `user '${email}' is not a member of '${workspaceSlug}'`);
  }
  return user;
}

export async function runKeysCreate(ctx: Context, opts: KeysCreateOptions): Promise<CommandResult> {
  const ws = await requireWorkspace(ctx, opts.workspace);
  const user = await keyCreator(ctx, ws.id, ws.slug, opts.user);
  const created = await createApiKey(ctx, ws.id, user.id, {
    keyClass: opts.keyClass,
    environment: opts.environment,
    contentTypes: opts.contentTypes,
    scopes: opts.scopes,
    expiresInMs: opts.expiresInMs,
  });
  const what = opts.keyClass === 'management' ? 'management key' : `delivery key (${opts.environment ?? 'production'})`;
  const text = [
    `Created ${what} ${created.id} for ${user.email}${created.expires_at ? `, expires ${created.expires_at}` : ''}.`,
    created.key,
    'Store this key now: it is not shown again.',
  ].join('\n');
  return { json: { ...created }, text };
}

export async function runKeysRevoke(ctx: Context, opts: { id: string }): Promise<CommandResult> {
  const revoked = await revokeApiKey(ctx, opts.id);
  return { json: { ...revoked }, text: `Revoked key ${revoked.id} (at ${revoked.revoked_at}).` };
}
