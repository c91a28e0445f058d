/**
 * Finding a content type by slug for an operation, shared by the content type, field and entry
 * operations. Its own file so that operations.ts and fields.ts, which both need it, do not
 * import each other.
 */
import type { Context } from '../../context.js';
import { notFound } from '../../errors.js';
import type { ContentType } from './model.js';
import { findContentTypeBySlug } from './repository.js';

/** The content type `slug` of the workspace, with its fields; throws 404 NOT_FOUND when absent. */
export async function requireContentType(ctx: Context, workspaceId: string, slug: string): Promise<ContentType> {
  const ct = await findContentTypeBySlug(ctx.db, workspaceId, slug);
  if (!ct) throw notFound(`content type '${slug}'`);
  return ct;
}
