/**
 * What each write of the publishing core stores in an item row and its history, as pure
 * functions of the row before it (docs/api.md "States and scheduling" (D20, D21), "Working
 * copies, publishing changes and history" (D70, D71), "History" (D72)):
 *
 * | step         | row columns                                                                 | history                         | published copy |
 * |--------------|-----------------------------------------------------------------------------|---------------------------------|----------------|
 * | create       | draft, version 1, latest_version 1, nothing published or pending            | version 1 (status draft)        | none           |
 * | content write| version + 1, updated_*, latest_version, has_pending_changes: a published item whose working copy differs from its published version | newest + 1 when the content changed, or the newest replaced (coalesced) | refreshed on a scheduled item |
 * | publish, unpublish, archive, schedule | the D20 columns (applyTransition), published_by/published_version, latest_version + 1, nothing pending, version + 1 | latest_version + 1: a copy of the newest snapshot with the new status | publish, schedule: copied; unpublish, archive: dropped |
 * | due publish  | published, published_at = publish_at, publish_at cleared, latest_version + 1 as the published version, nothing pending; version and updated_* kept | latest_version + 1: a copy of the newest snapshot, status published | kept (a scheduled item's copy already follows its working copy) |
 *
 * The core's single-item writes (core.ts: finishContentWrite, applyVerb; creates through
 * newDraftColumns) and the Contentful importer's bulk writer (import/contentful/entry-bulk-write.ts)
 * both take their columns, version numbers and published-copy moves from here, so a column or a
 * transition changed here reaches every writer. The due publish is written as column rules
 * (DUE_PUBLISH_RULES) that the scheduler's set-based UPDATE compiles to SQL and dueStep evaluates
 * on one row, so the batch and the single-row catch-up cannot drift apart.
 */
import { applyTransition, newDraftColumns, type ItemKind, type Status, type Verb } from './states.js';
import { iso } from '../../lib/time.js';

/** The columns of an item row that the steps read and write. */
export interface PublicationState {
  status: Status;
  publish_at: string | null;
  published_at: string | null;
  published_by: number | null;
  published_version: number | null;
  latest_version: number;
  /** The ETag counter (D5). */
  version: number;
  has_pending_changes: boolean;
}

/**
 * A write to the history: `append` a new snapshot (the working copy) as `version`, `copy` the
 * newest snapshot as `version` (state changes), or `replace` the snapshot, status and time of
 * `version`, the newest (coalesced updates, D72). `status` is the version's status.
 */
export interface HistoryStep {
  kind: 'append' | 'copy' | 'replace';
  version: number;
  status: Status;
}

/** What happens to the published copy: made equal to the working copy, removed, or left as it is. */
export type PublishedCopyStep = 'copy' | 'drop' | 'keep';

/** One write's outcome: the columns to set (written in this key order), its history write, the published copy. */
export interface Step<Columns> {
  columns: Columns;
  history: HistoryStep | null;
  published: PublishedCopyStep;
}

/** The columns a create writes: newDraftColumns (states.ts). */
export type CreateColumns = ReturnType<typeof newDraftColumns>;

/** Create (and duplicate, import): a draft, its working copy as version 1 (docs/api.md "States and scheduling"; D26). */
export function createStep(now: string, userId: number): Step<CreateColumns> & { history: HistoryStep } {
  return { columns: newDraftColumns(now, userId), history: { kind: 'append', version: 1, status: 'draft' }, published: 'keep' };
}

/** The columns a content write sets. */
export interface ContentWriteColumns {
  version: number;
  updated_at: string;
  updated_by: number;
  latest_version: number;
  has_pending_changes: boolean;
}

/**
 * A content write to an item in `row` (its effective state, after the D21 catch-up), at `now`
 * (ISO) by `userId`. `changed`: the content differs from the newest version's (a restore always
 * counts as changed); `coalesce`: the write replaces the newest version (D72, decided by the
 * caller: same actor, an `update`, within the window, not the published version); `newest`: the
 * number of the newest version in the history (0 when it has none); `matchesPublished`: the
 * working copy after the write holds the published version's content, by the comparison that
 * decides whether a write makes a version (the kind's contentKey); false when nothing is
 * published. A published item has pending changes exactly when its working copy differs from its
 * published version (D70): typing the old text back or restoring the published version clears
 * them. A scheduled item's published copy follows its working copy (D71).
 */
export function contentWriteStep(
  row: Pick<PublicationState, 'status' | 'version' | 'latest_version'>,
  write: { changed: boolean; coalesce: boolean; newest: number; matchesPublished: boolean; now: string; userId: number },
): Step<ContentWriteColumns> {
  let history: HistoryStep | null = null;
  let latest = row.latest_version;
  if (write.changed) {
    if (write.coalesce) history = { kind: 'replace', version: write.newest, status: row.status };
    else history = { kind: 'append', version: (latest = write.newest + 1), status: row.status };
  }
  return {
    columns: {
      version: row.version + 1,
      updated_at: write.now,
      updated_by: write.userId,
      latest_version: latest,
      has_pending_changes: row.status === 'published' && !write.matchesPublished,
    },
    history,
    published: write.changed && row.status === 'scheduled' ? 'copy' : 'keep',
  };
}

/** The columns a state change sets. */
export interface VerbColumns {
  status: Status;
  published_at: string | null;
  publish_at: string | null;
  published_by: number | null;
  published_version: number | null;
  latest_version: number;
  has_pending_changes: boolean;
  version: number;
  updated_at: string;
  updated_by: number;
}

/**
 * `verb` applied at `now` by `userId` to an item in `row` (its effective state, D21): the D20
 * transition (applyTransition, with D71's publish of pending changes), the newest snapshot
 * recorded again as version latest_version + 1 with the new status, which is the published
 * version after `publish`; publish and schedule copy the working copy to the published copy and
 * record who published, unpublish and archive drop it. Throws 409 INVALID_STATE_TRANSITION when
 * D20 refuses, 400 when `schedule` lacks `publishAt` (checked by parsePublishAt).
 */
export function verbStep(
  kind: ItemKind,
  verb: Verb,
  row: PublicationState,
  now: Date,
  userId: number,
  publishAt?: string,
): Step<VerbColumns> & { history: HistoryStep } {
  const next = applyTransition(kind, verb, row, now, publishAt, row.has_pending_changes);
  const versionNo = row.latest_version + 1;
  const live = verb === 'publish' || verb === 'schedule';
  return {
    columns: {
      status: next.status as Status,
      published_at: next.published_at,
      publish_at: next.publish_at,
      published_by: live ? userId : null,
      published_version: verb === 'publish' ? versionNo : null,
      latest_version: versionNo,
      has_pending_changes: false,
      version: row.version + 1,
      updated_at: iso(now),
      updated_by: userId,
    },
    history: { kind: 'copy', version: versionNo, status: next.status as Status },
    published: live ? 'copy' : 'drop',
  };
}

/** The row after `step`: its columns laid over `row`'s. */
export function afterStep<R extends object, C extends object>(row: R, step: Step<C>): R & C {
  return { ...row, ...step.columns };
}

/** The columns the publication of a due scheduled item sets (D21). */
export interface DueColumns {
  status: Status;
  published_at: string | null;
  publish_at: string | null;
  published_version: number;
  latest_version: number;
  has_pending_changes: boolean;
}

/**
 * A column's value after a set-based write, as a rule over the row before it: a constant, or
 * another column of the same row plus an integer offset. Rules are what a single UPDATE over many
 * rows can say, and what `applyColumnRules` evaluates on one row in memory.
 */
export type ColumnRule = { value: string | number | boolean | null } | { column: keyof PublicationState; plus?: number };

/**
 * The due publish (D21, D71) as column rules: the item is published at its `publish_at` (not when
 * the job gets to it), the newest snapshot is recorded again as `latest_version + 1`, which
 * becomes the published version; nothing is pending. `version` (the ETag) and `updated_*` are not
 * in the rules: readers already saw the item as published, so no editor's ETag goes stale.
 */
export const DUE_PUBLISH_RULES: { readonly [K in keyof DueColumns]: ColumnRule } = {
  status: { value: 'published' },
  published_at: { column: 'publish_at' },
  publish_at: { value: null },
  published_version: { column: 'latest_version', plus: 1 },
  latest_version: { column: 'latest_version', plus: 1 },
  has_pending_changes: { value: false },
};

/** Evaluates `rules` on `row` (all rules read the row before the write, as SQL's SET does). */
export function applyColumnRules<C>(rules: { readonly [K in keyof C]: ColumnRule }, row: PublicationState): C {
  const out: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(rules) as [string, ColumnRule][]) {
    if ('value' in rule) out[name] = rule.value;
    else if (rule.plus) out[name] = Number(row[rule.column]) + rule.plus;
    else out[name] = row[rule.column];
  }
  return out as C;
}

/**
 * The publication of a due scheduled item `row` (D21): DUE_PUBLISH_RULES applied to it, the newest
 * snapshot copied as the new published version, the published copy kept (it already follows the
 * working copy of a scheduled item, D71).
 */
export function dueStep(row: PublicationState): Step<DueColumns> & { history: HistoryStep } {
  const columns = applyColumnRules<DueColumns>(DUE_PUBLISH_RULES, row);
  return { columns, history: { kind: 'copy', version: columns.latest_version, status: 'published' }, published: 'keep' };
}
