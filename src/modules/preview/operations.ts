/**
 * Preview (api.md "GET /preview", DECISIONS.md D46): minting signed tokens for one entry (CLI
 * `quire preview-token`, POST /api/v1/manage/preview-tokens) and reading the entry a token names,
 * whatever its status, in the management shape (D6: with its translations).
 *
 * Reading still needs a delivery key of the token's workspace (api.md: every delivery endpoint
 * requires X-API-Key), production or preview environment alike: the token is the grant to see
 * unpublished content. A token of another workspace answers 404 (nothing is revealed), an
 * expired, tampered or malformed token 401 UNAUTHORIZED, and an entry whose content type is
 * outside the key's whitelist 403 (D13).
 */
import type { Context } from '../../context.js';
import { AppError, notFound } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { requireScope } from '../auth/operations.js';
import type { Actor } from '../auth/permissions.js';
import { whitelistAllows } from '../delivery/visibility.js';
import type { Entry } from '../entries/model.js';
import { findEntry } from '../entries/repository.js';
import { effectiveStatus } from '../publishing/states.js';
import { findPreviewTarget } from './repository.js';
import { signPreviewToken, verifyPreviewToken } from './tokens.js';

export interface PreviewToken {
  token: string;
  expires_at: string;
}

/**
 * Mints a preview token for an entry of the workspace, valid 48 hours (used by the CLI).
 * Throws 404 NOT_FOUND when the entry is not in the workspace.
 */
export async function mintPreviewToken(ctx: Context, workspaceId: string, entryId: string): Promise<PreviewToken> {
  const id = entryId.toLowerCase();
  if (!(await findPreviewTarget(ctx.db, workspaceId, id))) throw notFound(`entry '${entryId}'`);
  return signPreviewToken(ctx.secret, { entryId: id, workspaceId }, ctx.clock());
}

/** POST /preview-tokens: needs `content:write` (D46). */
export async function createPreviewToken(ctx: Context, actor: Actor, input: { entry_id: string }): Promise<PreviewToken> {
  requireScope(actor, 'content:write');
  return mintPreviewToken(ctx, actor.workspaceId, input.entry_id);
}

/** GET /preview: the entry a token names (its working copy), any status (D21 applied), with all its translations. */
export async function getPreview(ctx: Context, actor: Actor, token: string): Promise<Entry> {
  const now = ctx.clock();
  const claims = await verifyPreviewToken(ctx.secret, token, now);
  if (claims.workspaceId !== actor.workspaceId) throw notFound('entry');
  const target = await findPreviewTarget(ctx.db, actor.workspaceId, claims.entryId);
  if (!target) throw notFound('entry');
  if (!whitelistAllows(actor, target.type_slug)) throw new AppError('FORBIDDEN', `This API key may not read content type '${target.type_slug}'`);
  const entry = await findEntry(ctx.db, target.content_type_id, { id: claims.entryId });
  if (!entry) throw notFound('entry');
  return effectiveStatus(entry, iso(now));
}
