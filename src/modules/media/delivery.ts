/**
 * The delivery list of media (docs/graphql.md "Root fields": `assetCollection`, D102): the key's
 * workspace's live assets, newest first (ties by id), of one MIME type (`image/png`, or a family
 * as `image/*`) and one folder (`""`: the root) when asked, paged by signed cursor (D44: bound to
 * the workspace, the filters and the key's visibility, so a cursor works for that list only).
 */
import type { Context } from '../../context.js';
import { invalid } from '../../errors.js';
import { stableStringify } from '../../lib/json.js';
import type { Actor } from '../auth/permissions.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../delivery/cursor.js';
import { perspectiveOf, visibilityOfPerspective } from '../read/perspective.js';
import { toDeliveryMedia, type DeliveryMedia } from './model.js';
import { noteMedia } from '../read/cache-tags.js';
import { countDeliveryMediaRows, listDeliveryMediaRows } from './repository.js';

export interface DeliveryMediaWindowInput {
  limit: number;
  cursor?: string;
  mimeType?: string;
  folder?: string;
}

/** One window of the list, the cursor after each item, whether more follow, and the list's total (counted when asked). Errors: 400 at `query.cursor`. */
export async function listDeliveryMediaWindow(
  ctx: Context,
  actor: Actor,
  input: DeliveryMediaWindowInput,
): Promise<{ items: DeliveryMedia[]; cursors: string[]; more: boolean; total: () => Promise<number> }> {
  if (input.mimeType !== undefined && !/^[a-z0-9.+-]+\/([a-z0-9.+-]+|\*)$/i.test(input.mimeType))
    throw invalid('query.mimeType', 'must be a MIME type such as image/png or image/*');
  const filters = { mimeType: input.mimeType, folder: input.folder };
  const binding: CursorBinding = {
    contentTypeId: `media:${actor.workspaceId}`,
    sort: 'created_at:desc',
    filters: stableStringify(filters),
    locale: null,
    environment: visibilityOfPerspective(perspectiveOf(actor)),
  };
  const after = input.cursor === undefined ? undefined : decodeCursor(ctx.secret, binding, input.cursor);
  if (after && typeof after.value !== 'string') throw invalid('query.cursor', 'is not a valid cursor for this query');
  const rows = await listDeliveryMediaRows(ctx.db, actor.workspaceId, {
    ...filters,
    after: after ? { createdAt: after.value as string, id: after.id } : undefined,
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  noteMedia(
    ctx,
    actor.workspaceId,
    page.map((r) => r.id),
    true,
  );
  return {
    items: page.map((r) => toDeliveryMedia(ctx.config, r)),
    cursors: page.map((r) => encodeCursor(ctx.secret, binding, { value: r.created_at, id: r.id })),
    more: rows.length > input.limit,
    total: () => countDeliveryMediaRows(ctx.db, actor.workspaceId, filters),
  };
}
