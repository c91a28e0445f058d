/**
 * API keys over HTTP for the Studio (D91; the Studio contract "API keys"): list, create (the
 * value shown once), revoke. Owners and admins only, through a session only (a key cannot mint
 * keys): the permission check's rules (modules/access/authorize.ts). Created keys act for the signed-in person (`created_by`), so a
 * management key's power is its scopes intersected with that person's role, every request (D12).
 *
 * Rules of creation (D10, D11, D13) are createApiKey's (auth/operations.ts, the one key-creation
 * operation): management keys take scopes (default all) and expire `expires_at` (default 90
 * days from now, at most 365 days ahead); delivery keys take an environment (default
 * production), a whitelist of existing non-block content type slugs and an optional expiry.
 * Errors are 400 at `body.<field>`; a key of another workspace answers 404 like an unknown one.
 */
import type { Context } from '../../context.js';
import { invalid } from '../../errors.js';
import { parseTimestamp } from '../../lib/time.js';
import { authorize } from '../access/authorize.js';
import { createApiKey, revokeApiKey, type KeyRequestRules } from './operations.js';
import type { Actor, Environment, KeyClass, Scope } from './permissions.js';
import { findKeyById, listKeysOfWorkspace, type ApiKeyRecord } from './repository.js';

/** An API key as the Studio lists it (never its value or hash). */
export interface ApiKeyView {
  id: string;
  name: string;
  key_class: KeyClass;
  environment: Environment | null;
  scopes: Scope[];
  content_types: string[];
  key_hint: string;
  created_by: number;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
}

export function toKeyView(k: ApiKeyRecord): ApiKeyView {
  return {
    id: k.id,
    name: k.name,
    key_class: k.key_class,
    environment: k.environment,
    scopes: k.scopes,
    content_types: k.content_types,
    key_hint: k.key_hint,
    created_by: k.created_by,
    created_at: k.created_at,
    expires_at: k.expires_at,
    revoked_at: k.revoked_at,
  };
}

/** GET /api-keys: every key of the workspace, newest first, revoked ones included. */
export async function listKeys(ctx: Context, actor: Actor): Promise<ApiKeyView[]> {
  authorize(actor, 'keys:list');
  return (await listKeysOfWorkspace(ctx.db, actor.workspaceId)).map(toKeyView);
}

export interface CreateKeyBody {
  name: string;
  key_class: KeyClass;
  environment?: Environment;
  content_types?: string[];
  scopes?: string[];
  expires_at?: string | null;
}

/** The HTTP API's key rules: errors point at body fields; a scope list names a scope; the whitelist names existing entry types. */
const HTTP_KEY_RULES: KeyRequestRules = {
  paths: { scopes: 'body.scopes', expires: 'body.expires_at', contentTypes: 'body.content_types', environment: 'body.environment' },
  refuseEmptyScopes: true,
  checkWhitelist: true,
};

/**
 * POST /api-keys: creates a key for the signed-in person; the answer holds its only copy. Parses
 * the wire form (name, `expires_at` timestamp) and hands the rest to createApiKey, the one
 * key-creation operation.
 */
export async function createKeyForActor(ctx: Context, actor: Actor, body: CreateKeyBody): Promise<ApiKeyView & { key: string }> {
  authorize(actor, 'keys:create');
  const now = ctx.clock().getTime();
  const name = body.name.trim();
  if (!name) throw invalid('body.name', 'must not be empty');
  let expiresInMs: number | undefined;
  if (body.expires_at !== undefined && body.expires_at !== null) {
    const at = parseTimestamp(body.expires_at);
    if (!at) throw invalid('body.expires_at', 'must be an ISO 8601 timestamp');
    expiresInMs = at.getTime() - now;
    if (expiresInMs <= 0) throw invalid('body.expires_at', 'must be in the future');
  }
  if (body.key_class === 'management' && body.environment !== undefined) throw invalid('body.environment', 'applies to delivery keys only');
  const created = await createApiKey(
    ctx,
    actor.workspaceId,
    actor.userId,
    { keyClass: body.key_class, name, environment: body.environment, contentTypes: body.content_types, scopes: body.scopes, expiresInMs },
    HTTP_KEY_RULES,
    actor,
  );
  const record = await findKeyById(ctx.db, created.id);
  return { ...toKeyView(record!), key: created.key };
}

/** DELETE /api-keys/{id}: revokes the key at once (404 for an unknown key or one of another workspace). */
export async function revokeKeyOfWorkspace(ctx: Context, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'keys:revoke');
  await revokeApiKey(ctx, id, actor, actor.workspaceId);
}
