/**
 * Releases as Quire keeps them (docs/releases.md; D110–D113): a release groups changes to
 * entries and pages that go live together. Its items say what it does to each entry or page;
 * a `publish` item holds the item's release version (its variant), a snapshot in the form the
 * item's history keeps (src/modules/entries/snapshot.ts, src/modules/pages/snapshot.ts).
 */

export const RELEASE_STATUSES = ['open', 'scheduled', 'published', 'failed'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

export const RELEASE_ITEM_KINDS = ['entry', 'page'] as const;
export type ReleaseItemKind = (typeof RELEASE_ITEM_KINDS)[number];

export const RELEASE_ITEM_ACTIONS = ['publish', 'unpublish'] as const;
export type ReleaseItemAction = (typeof RELEASE_ITEM_ACTIONS)[number];

/** D110: at most this many items in one release (409 RELEASE_TOO_LARGE beyond). */
export const MAX_RELEASE_ITEMS = 1000;

/** A release row as the module uses it. */
export interface ReleaseRecord {
  id: string;
  workspace_id: string;
  title: string;
  description: string | null;
  status: ReleaseStatus;
  publish_at: string | null;
  published_at: string | null;
  reverted_at: string | null;
  /** Why the last scheduled publication failed (status `failed`), else null. */
  failure: { path: string; message: string }[] | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
}

/** One item of a release as the module uses it. */
export interface ReleaseItemRecord {
  release_id: string;
  kind: ReleaseItemKind;
  item_id: string;
  action: ReleaseItemAction;
  /** The history version the variant was copied from (unpublish: the newest version when added). */
  base_version: number;
  /** The variant (publish items), as the item's history stores a snapshot; null for unpublish. */
  snapshot: unknown;
  prior_status: string | null;
  prior_published_at: string | null;
  prior_published_version: number | null;
  result_version: number | null;
  created_at: string;
  updated_at: string;
  created_by: number | null;
  updated_by: number | null;
}

/** Release statuses whose content can still change: items added, removed or edited. */
export function isEditable(status: ReleaseStatus): boolean {
  return status === 'open' || status === 'failed';
}
