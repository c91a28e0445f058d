/**
 * Who reads what (docs/api.md "Delivery keys" (D13), "Working copies, publishing changes and
 * history" (D70)): every read of content is made from one perspective,
 * derived once from the actor.
 * - `published`: the published versions, as production delivery keys see them (published items
 *   and scheduled items whose time has come, D21).
 * - `working`: the working copies of drafts, scheduled and published items, as preview delivery
 *   keys, preview tokens and the management API see them.
 * Archived items are in neither. A release perspective (the content of one release) will be a
 * third member; every consumer resolves a perspective through src/modules/read/resolver.ts, whose
 * exhaustive switches then name each place that must learn it.
 *
 * A delivery key's `environment` on the wire (`production` or `preview`) is its visibility, kept
 * as it is in the API, cursors and sync tokens; visibilityOf and perspectiveOfVisibility are the
 * only translations between the two words.
 */
import type { Actor } from '../auth/permissions.js';

/** What a reader reads: the published versions or the working copies. */
export type Perspective = 'published' | 'working';

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

/** The visibility word (the wire's `environment`) of a delivery perspective. */
export function visibilityOfPerspective(perspective: Perspective): Visibility {
  switch (perspective) {
    case 'published':
      return 'production';
    case 'working':
      return 'preview';
  }
}

/**
 * The perspective of `actor`: a delivery key's follows its visibility; every management actor
 * (key or session) reads working copies.
 */
export function perspectiveOf(actor: Pick<Actor, 'keyClass' | 'environment'>): Perspective {
  return actor.keyClass === 'delivery' ? perspectiveOfVisibility(visibilityOf(actor)) : 'working';
}
