/**
 * Publishing states of Contentful entries and what they become in Quire (issue 12 item 1).
 *
 * An export states an entry's publishing facts in `sys` only: `archivedVersion` (archived),
 * `publishedVersion` (published; absent for a draft or an entry unpublished since) and `version`
 * (every save counts, the publish itself too, so a published entry without later edits has
 * `version == publishedVersion + 1`). An entry past that has **unpublished changes**; the export
 * holds only its latest content, the live one is lost.
 *
 * | Contentful state | Quire status after the import |
 * |---|---|
 * | draft (never published, or unpublished) | draft (a published Quire item is unpublished) |
 * | published | published |
 * | changed (`version > publishedVersion + 1`) | published with the latest content; `draft` with `--changed-as draft` |
 * | archived | archived |
 */
import type { CfSys } from './export.js';

export type CfState = 'draft' | 'published' | 'changed' | 'archived';
export type TargetStatus = 'draft' | 'published' | 'archived';
/** `--changed-as`: what an entry with unpublished changes becomes. */
export type ChangedAs = 'published' | 'draft';
export const CHANGED_AS: readonly ChangedAs[] = ['published', 'draft'];

/** The state an export's `sys` describes. */
export function cfState(sys: CfSys): CfState {
  if (typeof sys.archivedVersion === 'number') return 'archived';
  if (typeof sys.publishedVersion !== 'number') return 'draft';
  if (typeof sys.version === 'number' && sys.version > sys.publishedVersion + 1) return 'changed';
  return 'published';
}

/** The Quire status an item of `state` ends in. */
export function targetStatus(state: CfState, changedAs: ChangedAs): TargetStatus {
  if (state === 'changed') return changedAs;
  return state;
}

/** Counts of the export's items by state (the import report's `states`). */
export interface StateCounts {
  draft: number;
  published: number;
  changed: number;
  archived: number;
}

export function countStates(states: readonly CfState[]): StateCounts {
  const out: StateCounts = { draft: 0, published: 0, changed: 0, archived: 0 };
  for (const s of states) out[s] += 1;
  return out;
}

/** One entry or page with unpublished changes, as the report lists it. */
export interface ChangedItem {
  /** Contentful id. */
  entry: string;
  /** Quire content type slug, `page`, or `block` (a component entry of a page). */
  type: string;
  /** `version` and `publishedVersion` from the export. */
  version: number | null;
  published_version: number | null;
  /** What the import made of it: `published` (latest content live) or `draft`. */
  imported_as: ChangedAs;
}

export function changedItem(sys: CfSys, type: string, changedAs: ChangedAs): ChangedItem {
  return { entry: sys.id, type, version: sys.version ?? null, published_version: sys.publishedVersion ?? null, imported_as: changedAs };
}

/** Counts of one run's writes and state changes, all zero. */
export function zeroCounts(total: number) {
  return { total, created: 0, updated: 0, unchanged: 0, published: 0, unpublished: 0, archived: 0, failed: 0 };
}
