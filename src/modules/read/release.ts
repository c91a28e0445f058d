/**
 * The release a request reads (docs/releases.md "Reading the workspace as a release will make
 * it"; D111): `?release={id}` on delivery reads (entries, pages, sync, GraphQL) makes every read
 * of the request take the release perspective. Checked once per request, before any read or
 * cached answer:
 *
 * - the permission check: a production delivery key → 403 FORBIDDEN (it reads published content
 *   only); preview keys and management actors may;
 * - the id must be a UUID (400 VALIDATION_FAILED at `query.release`, as on the management reads);
 * - the release must be the workspace's: unknown, deleted or another workspace's → 404 NOT_FOUND
 *   (nothing is revealed about other workspaces);
 * - it must still be to come (open, scheduled or failed): a published release → 409
 *   INVALID_STATE_TRANSITION, since what it made is what production keys read now (and a revert
 *   may have changed that since); reading it as a release would show neither.
 */
import type { Context } from '../../context.js';
import { AppError, invalid, notFound } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { authorize } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { findRelease } from '../releases/repository.js';

/** The `release` query parameter, or undefined when absent; 400 when repeated or not a UUID. */
export function releaseParam(query: unknown): string | undefined {
  const value = (query as Record<string, unknown> | null | undefined)?.release;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalid('query.release', 'must be given once');
  if (!isUuid(value)) throw invalid('query.release', 'must be a release id (a UUID)');
  return value.toLowerCase();
}

/**
 * `actor` reading release `id` (Actor.release set, so perspectiveOf gives its perspective), or
 * the refusal described in the module comment.
 */
export async function actorReadingRelease(ctx: Context, actor: Actor, id: string): Promise<Actor> {
  authorize(actor, 'releases:read-perspective');
  const release = await findRelease(ctx.db, actor.workspaceId, id);
  if (!release) throw notFound(`release '${id}'`);
  if (release.status === 'published') {
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      `release '${id}' was published at ${release.published_at}: what it made is what production keys read; read without ?release`,
    );
  }
  return { ...actor, release: release.id };
}
