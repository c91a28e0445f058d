/**
 * Who reads what (docs/api.md "Delivery keys" (D13), "Working copies, publishing changes and
 * history" (D70)): every read of content is made from one perspective,
 * derived once from the actor.
 * - `published`: the published versions, as production delivery keys see them (published items
 *   and scheduled items whose time has come, D21).
 * - `working`: the working copies of drafts, scheduled and published items, as preview delivery
 *   keys, preview tokens and the management API see them.
 * - `release:<id>`: the workspace as release `<id>` will make it (D111): the release's `publish`
 *   items show their release version, its `unpublish` items are absent, every other item shows
 *   its published version; as preview keys and Studio sessions see it with `?release={id}`.
 * Archived items are in none (unless a release publishes them). Every consumer resolves a
 * perspective through src/modules/read/resolver.ts.
 *
 * A delivery key's `environment` on the wire (`production` or `preview`) is its visibility, kept
 * as it is in the API, cursors and sync tokens; visibilityOf and perspectiveOfVisibility are the
 * only translations between the two words. Cursors and sync tokens are bound to perspectiveBinding,
 * the visibility word for the first two and `release:<id>` for a release.
 */
import type { Actor } from '../auth/permissions.js';

/** The perspective of release `<id>`. */
export type ReleasePerspective = `release:${string}`;

/** What a reader reads: the published versions, the working copies or a release. */
export type Perspective = 'published' | 'working' | ReleasePerspective;

/** The perspective of the release `id`. */
export function releasePerspective(id: string): ReleasePerspective {
  return `release:${id}`;
}

/** The release a perspective reads, or null for the published and working perspectives. */
export function releaseOf(perspective: Perspective): string | null {
  return perspective.startsWith('release:') ? perspective.slice('release:'.length) : null;
}

/** A delivery key's visibility, its `environment` on the wire: `preview` keys read working copies. */
export type Visibility = 'production' | 'preview';

/** The visibility of a delivery key: `preview` keys also see drafts and scheduled items. */
export function visibilityOf(actor: Pick<Actor, 'environment'>): Visibility {
  return actor.environment === 'preview' ? 'preview' : 'production';
}

/** The perspective of a delivery key of `visibility`: production reads published versions. */
export function perspectiveOfVisibility(visibility: Visibility): Perspective {
  return visibility === 'preview' ? 'working' : 'published';
}

/** The visibility word (the wire's `environment`) of a delivery perspective: a release is read by preview keys. */
export function visibilityOfPerspective(perspective: Perspective): Visibility {
  return perspective === 'published' ? 'production' : 'preview';
}

/**
 * What cursors and sync tokens are bound to: the visibility word (`production`, `preview`) of
 * the published and working perspectives, as they have always been, and `release:<id>` for a
 * release, so a cursor or token of one perspective is refused by another.
 */
export function perspectiveBinding(perspective: Perspective): string {
  return releaseOf(perspective) === null ? visibilityOfPerspective(perspective) : perspective;
}

/**
 * The perspective of `actor`: the release it was checked for (`actor.release`, set per request
 * from `?release`), else a delivery key's follows its visibility and every management actor (key
 * or session) reads working copies.
 */
export function perspectiveOf(actor: Pick<Actor, 'keyClass' | 'environment' | 'release'>): Perspective {
  if (actor.release !== undefined) return releasePerspective(actor.release);
  return actor.keyClass === 'delivery' ? perspectiveOfVisibility(visibilityOf(actor)) : 'working';
}
