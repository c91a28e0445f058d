/**
 * Publishing many items at once from snapshots (docs/releases.md "Publishing"; D112, D113): a
 * release's publication and its revert. Each item either has a snapshot published (its release
 * version, or the version a revert puts back) or is unpublished. The rows' columns come from the
 * core's pure verbStep, folded over the batch; the writes are set-based (one statement per chunk
 * of items, not per item): published copies from the snapshots, working copies where they follow,
 * the history (appendVersions), the publication columns (updateItemRows) and the events.
 *
 * Per published item, with N its newest version (its working copy, the core's invariant):
 * - version N+1 records the snapshot with action `publish` (and the release's id) and becomes
 *   the published version;
 * - a working copy equal to the snapshot, or one without pending changes (a published item whose
 *   working copy is its published version), becomes the snapshot: nothing stays pending;
 * - any other working copy keeps its changes: it is recorded again as version N+2 (action
 *   `update`, by the person who wrote it, not the publisher: review workflows read a working
 *   copy's last editor from the history, docs/workflow.md "Approvals"), so the newest version
 *   stays the working copy, and the item has pending changes. A working copy that becomes the
 *   snapshot is a content change: its workflow approvals go.
 * Unpublished items record a copy of version N as N+1 with status `draft`, and lose their
 * published copy (D71).
 * Either way the core's rule for `has_pending_changes` holds (columns.ts contentWriteStep):
 * pending exactly when the working copy differs from the published version by the kind's
 * contentKey, the comparison `same` makes here.
 *
 * The caller locks the rows and validates first: a state the D20 machine refuses still throws 409.
 */
import type { Db } from '../../db/types.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import { recordItemEventsAtOnce } from '../events/record.js';
import { verbStep, type PublicationState } from './columns.js';
import { workingCopyChanged } from '../workflows/state.js';
import { appendVersions, latestSnapshots, updateItemRows, workingCopyAuthors, type ItemColumns, type ItemTables, type VersionRow } from './repository.js';
import type { ItemKind } from './states.js';

/** What a batch needs to know of one kind of item, its snapshots and its copies. */
export interface SnapshotKind<S> {
  kind: ItemKind;
  tables: ItemTables;
  /** Equal for two snapshots exactly when their content is. */
  contentKey(snapshot: S): string;
  /** Reads a stored snapshot. */
  fromJson(value: unknown): S;
  /** Replaces the published copies of these items by their snapshots. */
  writePublished(db: Db, items: readonly { id: string; snapshot: S }[]): Promise<void>;
  /** Replaces the working copies of these items by their snapshots, at `now` (ISO). */
  writeWorking(db: Db, items: readonly { id: string; snapshot: S }[], now: string): Promise<void>;
  /** Removes the published copies of these items. */
  dropPublished(db: Db, ids: readonly string[]): Promise<void>;
}

/** One item's move: publish this snapshot, or unpublish. */
export type SnapshotMove<S> = { id: string; op: 'publish'; snapshot: S } | { id: string; op: 'unpublish' };

/** An item row as a batch reads it: its id and the columns the core's steps read. */
export type BatchRow = PublicationState & { id: string };

/**
 * Applies `moves` to the locked rows `rows` (their effective state, D21) at `now` by `actor`;
 * `releaseId` is recorded on the `publish` versions. Returns, per item, the version that became
 * the published one (publish) or the unpublish version.
 */
export async function applySnapshotMoves<S>(
  db: Db,
  k: SnapshotKind<S>,
  rows: ReadonlyMap<string, BatchRow>,
  moves: readonly SnapshotMove<S>[],
  actor: Actor,
  now: Date,
  releaseId: string | null,
): Promise<Map<string, number>> {
  const at = iso(now);
  const latest = await latestSnapshots(
    db,
    k.tables,
    moves.map((m) => m.id),
  );
  const authors = await workingCopyAuthors(
    db,
    k.tables,
    moves.filter((m) => m.op === 'publish').map((m) => m.id),
  );
  const versions: VersionRow[] = [];
  const columns: { id: string; columns: ItemColumns }[] = [];
  const working: { id: string; snapshot: S }[] = [];
  const published: { id: string; snapshot: S }[] = [];
  const unpublished: string[] = [];
  // An unpublished item was seen by production readers only if it was live (D83).
  const wasLive = new Set<string>();
  const result = new Map<string, number>();
  const version = (
    itemId: string,
    n: number,
    action: VersionRow['action'],
    status: string,
    snapshot: unknown,
    release: string | null,
    createdBy = actor.userId,
  ): VersionRow => ({
    itemId,
    version: n,
    action,
    status,
    snapshot,
    created_at: at,
    created_by: createdBy,
    releaseId: release,
  });
  for (const move of moves) {
    const row = rows.get(move.id);
    if (!row) throw new Error(`item ${move.id} was not read before its move`);
    const current = k.fromJson(latest.get(move.id) ?? {});
    if (move.op === 'unpublish') {
      const step = verbStep(k.kind, 'unpublish', row, now, actor.userId);
      versions.push(version(move.id, step.history.version, 'unpublish', step.history.status, current, null));
      columns.push({ id: move.id, columns: step.columns });
      unpublished.push(move.id);
      if (row.status === 'published') wasLive.add(move.id);
      result.set(move.id, step.history.version);
      continue;
    }
    // A release publishes its version of an item whatever the working copy holds: the D71 rule
    // against publishing a published item without changes is about the working copy.
    const step = verbStep(k.kind, 'publish', { ...row, has_pending_changes: true }, now, actor.userId);
    const n = step.history.version;
    versions.push(version(move.id, n, 'publish', 'published', move.snapshot, releaseId));
    published.push({ id: move.id, snapshot: move.snapshot });
    const same = k.contentKey(current) === k.contentKey(move.snapshot);
    const clean = row.status === 'published' && !row.has_pending_changes;
    if (same || clean) {
      if (!same) working.push({ id: move.id, snapshot: move.snapshot });
      columns.push({ id: move.id, columns: step.columns });
    } else {
      // The working copy recorded again is its author's, not the publisher's.
      versions.push(version(move.id, n + 1, 'update', 'published', current, null, authors.get(move.id) ?? actor.userId));
      columns.push({ id: move.id, columns: { ...step.columns, latest_version: n + 1, has_pending_changes: true } });
    }
    result.set(move.id, n);
  }
  await k.writeWorking(db, working, at);
  // Approvals are of the working copy they saw (docs/workflow.md "Approvals").
  for (const w of working) await workingCopyChanged(db, k.kind, w.id);
  await k.writePublished(db, published);
  await k.dropPublished(db, unpublished);
  await appendVersions(db, k.tables, versions);
  await updateItemRows(db, k.tables, columns);
  await recordItemEventsAtOnce(
    db,
    now,
    k.kind,
    published.map((p) => p.id),
    'published',
  );
  await recordItemEventsAtOnce(db, now, k.kind, unpublished, 'unpublished', (s) => wasLive.has(s.id));
  return result;
}
