/**
 * Preview (docs/api.md "GET /api/v1/public/preview", "Preview tokens" (D46)): minting signed tokens for
 * one entry (CLI
 * `quire preview-token`, POST /api/v1/manage/preview-tokens) and reading the entry a token names,
 * whatever its status, in the management shape (D6: with its translations).
 *
 * A token may also name a page (POST /preview-tokens `{page_id}`; the Studio's live preview of
 * pages): GET /preview then answers the page's working copy in the management shape (page, block
 * tree, SEO and block translations), whatever its status.
 *
 * Reading still needs a delivery key of the token's workspace (docs/api.md "Authentication": every delivery
 * endpoint requires X-API-Key), production or preview environment alike: the token is the grant to see
 * unpublished content. A token of another workspace answers 404 (nothing is revealed), an
 * expired, tampered or malformed token 401 UNAUTHORIZED, and an entry whose content type is
 * outside the key's whitelist 403 (D13).
 *
 * With a preview key, an entry's working copy can carry the origin of each value (`stega`,
 * `source_maps`; D140), as the delivery reads do: the same check (trace.ts) and walker.
 */
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { authorize } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import type { Entry } from '../entries/model.js';
import { findEntry } from '../entries/repository.js';
import type { PageContent } from '../pages/model.js';
import { getPage } from '../pages/operations.js';
import { findPage } from '../pages/repository.js';
import { loadDeliverySchema } from '../delivery/schema-cache.js';
import { effectiveStatus } from '../publishing/states.js';
import { sourceMapOf, type SourceMap } from '../read/source-map.js';
import { checkTraceRequest, openTrace, restTraceRequest } from '../read/trace.js';
import { traceWorkingCopy } from '../read/trace-working-copy.js';
import { findPreviewTarget } from './repository.js';
import { signPreviewToken, verifyPreviewToken, type PreviewKind } from './tokens.js';

export interface PreviewToken {
  token: string;
  expires_at: string;
}

/**
 * Mints a preview token for an entry (default) or a page of the workspace, valid 48 hours (used
 * by the CLI and the Studio). Throws 404 NOT_FOUND when the item is not in the workspace.
 */
export async function mintPreviewToken(ctx: Context, workspaceId: string, itemId: string, kind: PreviewKind = 'entry'): Promise<PreviewToken> {
  const id = itemId.toLowerCase();
  const exists = kind === 'page' ? await findPage(ctx.db, workspaceId, { id }) : await findPreviewTarget(ctx.db, workspaceId, id);
  if (!exists) throw notFound(`${kind} '${itemId}'`);
  return signPreviewToken(ctx.secret, { kind, id, workspaceId }, ctx.clock());
}

/** POST /preview-tokens `{entry_id}` or `{page_id}` (the schema admits exactly one): needs `content:write` (D46). */
export async function createPreviewToken(ctx: Context, actor: Actor, input: { entry_id: string } | { page_id: string }): Promise<PreviewToken> {
  authorize(actor, 'content:write');
  if ('page_id' in input) return mintPreviewToken(ctx, actor.workspaceId, input.page_id, 'page');
  return mintPreviewToken(ctx, actor.workspaceId, input.entry_id);
}

/** What a preview token names, read as its working copy. */
export type PreviewItem = { kind: 'entry'; entry: Entry } | { kind: 'page'; content: PageContent };

/**
 * GET /preview: the item a token names (its working copy), any status (D21 applied): an entry
 * with all its translations, or a page with its block tree and translations. 401 for a bad or
 * expired token, 404 for another workspace's token or a deleted item, 403 for an entry whose type
 * the key's whitelist leaves out (D13).
 */
export async function getPreview(ctx: Context, actor: Actor, token: string): Promise<PreviewItem> {
  const now = ctx.clock();
  const claims = await verifyPreviewToken(ctx.secret, token, now);
  if (claims.workspaceId !== actor.workspaceId) throw notFound(claims.kind);
  if (claims.kind === 'page') return { kind: 'page', content: await getPage(ctx, actor, { id: claims.id }) };
  const target = await findPreviewTarget(ctx.db, actor.workspaceId, claims.id);
  if (!target) throw notFound('entry');
  authorize(actor, 'content:read', { contentType: target.type_slug });
  const entry = await findEntry(ctx.db, target.content_type_id, { id: claims.id });
  if (!entry) throw notFound('entry');
  return { kind: 'entry', entry: effectiveStatus(entry, iso(now)) };
}

/**
 * getPreview with the origins of an entry's values (D140): strings with stega when `input.stega`,
 * `sourceMap` when `input.source_maps`, paths from the envelope's `data` (`$.entry.data.title`,
 * `$.entry.translations[0].data.title`, `$.translations[0].data.title`). A page token's answer
 * stays plain: a front end cannot tell the kinds of the tokens the Studio hands it apart before
 * reading them, and a page's origins come with GET /pages/{slug} and the preview key. Errors:
 * getPreview's, and 400 at `query.source_maps`/`query.stega` for a production key (before the
 * token is read).
 */
export async function readPreview(
  ctx: Context,
  actor: Actor,
  token: string,
  input: { source_maps?: boolean; stega?: boolean },
): Promise<{ item: PreviewItem; sourceMap: SourceMap | null }> {
  const request = restTraceRequest(input);
  checkTraceRequest(actor, request);
  const item = await getPreview(ctx, actor, token);
  if (item.kind === 'page' || (request.sourceMaps !== true && request.stega !== true)) return { item, sourceMap: null };
  const schema = await loadDeliverySchema(ctx, actor);
  const type = schema.byId.get(item.entry.content_type_id);
  const trace = openTrace(ctx.config.publicUrl, actor, schema.workspace, request);
  if (!trace || !type) return { item, sourceMap: null };
  const entry = traceWorkingCopy(trace, item.entry, type, '$.entry', ['$.translations']);
  return { item: { kind: 'entry', entry }, sourceMap: trace.map ? sourceMapOf(trace) : null };
}
