/**
 * Publishing and reverting releases (docs/releases.md "Publishing", "Scheduling", "Revert";
 * D112, D113). Scope `content:publish`.
 *
 * A publication is one transaction, all or nothing: the release's row and its items' rows are
 * locked, the release is checked as it will be (validation.ts; 422 RELEASE_INVALID listing
 * every problem, nothing changed; then the workflows' publish guard, 409 WORKFLOW_STAGE), then every item moves at once through the publishing core's
 * batch (src/modules/publishing/snapshots.ts): variants become published versions (a `publish`
 * version carrying the release id), `unpublish` items are unpublished. Production readers see
 * either none of it or all of it: the published copies, the workspace revision that delivery
 * caches are keyed on (bumped by the database's triggers) and the events commit together.
 *
 * A scheduled release is published by the scheduler's job (publishDueReleases), exactly once
 * across instances: the transaction that flips the release from `scheduled` to `published`
 * (claimDueRelease) is the only one that publishes it. A refused scheduled publication rolls back
 * and leaves the release `failed` with its reasons and a `release.failed` event.
 *
 * A revert publishes, atomically, what each item was before: its previous published version
 * back, or unpublished when the release first published it; items the release unpublished are
 * published again with the version they had. Items published again since the release answer 409
 * RELEASE_CONFLICT listing them, unless `force`.
 */
import type { Context } from '../../context.js';
import type { Db } from '../../db/types.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, type ErrorDetail } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import { systemActor, type Actor } from '../auth/permissions.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { entrySnapshotKind } from '../entries/spec.js';
import { recordAudit, SCHEDULER } from '../audit/record.js';
import { recordReleaseEvent } from '../events/record.js';
import { pageSnapshotKind } from '../pages/spec.js';
import { findVersionSnapshots } from '../publishing/repository.js';
import { applySnapshotMoves, type SnapshotKind, type SnapshotMove } from '../publishing/snapshots.js';
import { effectiveStatus } from '../publishing/states.js';
import type { ReleaseItemKind, ReleaseItemRecord, ReleaseRecord } from './model.js';
import {
  claimDueRelease,
  dueReleaseIds,
  findRelease,
  findReleaseForUpdate,
  itemHeads,
  listItems,
  markFailed,
  recordOutcomes,
  updateRelease,
  type ItemHead,
} from './repository.js';
import { releaseProblems, type ReleaseRows } from './validation.js';
import { releaseAudit } from './audit.js';
import { publishStageProblems, workflowStageError } from '../workflows/state.js';
import { releaseNotFound } from './variants.js';
import { notifyReleaseFailed } from './failure-notice.js';

const KINDS: Record<ReleaseItemKind, SnapshotKind<unknown>> = {
  entry: entrySnapshotKind as SnapshotKind<unknown>,
  page: pageSnapshotKind as SnapshotKind<unknown>,
};

/** The rows of the items, locked (unless `lock` is false), in their effective state (D21: a due scheduled item is published). */
async function lockRows(db: Db, workspaceId: string, items: readonly ReleaseItemRecord[], now: string, lock = true): Promise<ReleaseRows> {
  const read = async (kind: ReleaseItemKind) => {
    const ids = items.filter((i) => i.kind === kind).map((i) => i.item_id);
    const rows = ids.length ? await itemHeads(db, kind, workspaceId, ids, lock) : new Map<string, ItemHead>();
    for (const [id, row] of rows) rows.set(id, effectiveStatus(row, now));
    return rows;
  };
  return { entry: await read('entry'), page: await read('page') };
}

/**
 * A release publishes (or unpublishes) each of its items: the actor's role must be able to publish
 * every one of them (D120: its type, and its creator under own_only), whoever added it.
 */
async function authorizeItems(db: Db, actor: Actor, workspaceId: string, rows: ReleaseRows): Promise<void> {
  const slugs = new Map((await listAllContentTypes(db, workspaceId)).map((t) => [t.id, t.slug]));
  for (const row of rows.entry.values()) {
    authorizeItem(actor, { resource: 'entries', action: 'publish', contentType: slugs.get(row.content_type_id ?? ''), createdBy: row.created_by });
  }
  for (const row of rows.page.values()) authorizeItem(actor, { resource: 'pages', action: 'publish', createdBy: row.created_by });
}

/** The publish guard's problems for the items the release publishes (its unpublications need none). */
function workflowProblems(db: Db, workspaceId: string, items: readonly ReleaseItemRecord[], rows: ReleaseRows): Promise<ErrorDetail[]> {
  const publishing = items.flatMap((i) => {
    const row = i.action === 'publish' ? rows[i.kind].get(i.item_id) : undefined;
    return row ? [{ kind: i.kind, id: i.item_id, slug: row.slug, contentTypeId: row.content_type_id ?? null }] : [];
  });
  return publishStageProblems(db, workspaceId, publishing);
}

/** 422 RELEASE_INVALID listing every problem. */
function invalidRelease(problems: ErrorDetail[]): AppError {
  return new AppError('RELEASE_INVALID', `The release cannot be published: ${problems.length} problem${problems.length === 1 ? '' : 's'}`, problems);
}

/**
 * Publishes `release` (locked by the caller) inside the caller's transaction: validation, the
 * moves, the items' outcomes, the release's columns and its `release.published` event. Throws
 * 422 RELEASE_INVALID (before anything is written).
 */
async function publishIn(db: Db, release: ReleaseRecord, actor: Actor, now: Date): Promise<void> {
  const at = iso(now);
  const items = await listItems(db, release.id);
  const rows = await lockRows(db, release.workspace_id, items, at);
  await authorizeItems(db, actor, release.workspace_id, rows);
  const problems = await releaseProblems(db, release.workspace_id, items, rows, at);
  if (problems.length) throw invalidRelease(problems);
  // The publish guard (docs/workflow.md "The publish guard"): 409 WORKFLOW_STAGE; a scheduled release fails with it.
  const offStage = await workflowProblems(db, release.workspace_id, items, rows);
  if (offStage.length) throw workflowStageError(offStage);
  const outcomes: Parameters<typeof recordOutcomes>[2][number][] = [];
  for (const kind of ['entry', 'page'] as const) {
    const mine = items.filter((i) => i.kind === kind && rows[kind].has(i.item_id));
    if (mine.length === 0) continue;
    const k = KINDS[kind];
    const moves: SnapshotMove<unknown>[] = mine.map((i) =>
      i.action === 'publish' ? { id: i.item_id, op: 'publish', snapshot: k.fromJson(i.snapshot) } : { id: i.item_id, op: 'unpublish' },
    );
    const result = await applySnapshotMoves(db, k, rows[kind], moves, actor, now, release.id);
    for (const i of mine) {
      const before = rows[kind].get(i.item_id)!;
      outcomes.push({
        kind,
        itemId: i.item_id,
        priorStatus: before.status,
        priorPublishedAt: before.published_at,
        priorPublishedVersion: before.status === 'published' ? (before.published_version ?? before.latest_version) : null,
        result: result.get(i.item_id)!,
      });
    }
  }
  await recordOutcomes(db, release.id, outcomes);
  const published = { ...release, status: 'published' as const, published_at: release.publish_at ?? at, publish_at: null };
  await updateRelease(db, release.id, {
    status: 'published',
    published_at: published.published_at,
    publish_at: null,
    failure: null,
    updated_at: at,
    updated_by: actor.userId,
  });
  await recordReleaseEvent(db, now, published, 'published');
  await recordAudit(db, releaseAudit(actor, release, at, 'release.published'));
}

/**
 * POST /releases/{id}/publish: publishes the release now (open, failed or scheduled; a schedule
 * is cleared). 404, 409 INVALID_STATE_TRANSITION for a published release, 422 RELEASE_INVALID.
 */
export async function publishRelease(ctx: Context, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'releases:publish');
  const now = ctx.clock();
  await withTransaction(ctx.db, async (db) => {
    const release = await findReleaseForUpdate(db, actor.workspaceId, id);
    if (!release) throw releaseNotFound(id);
    authorizeItem(actor, { resource: 'releases', action: 'publish', createdBy: release.created_by });
    if (release.status === 'published') throw new AppError('INVALID_STATE_TRANSITION', "release cannot be published from status 'published'");
    await publishIn(db, { ...release, publish_at: null }, actor, now);
  });
}

/**
 * GET /releases/{id}/validation: the problems a publication now would refuse, by the same checks
 * as publishRelease (docs/releases.md "Publishing"), read in one transaction without locking or
 * writing anything; an empty list when the release would go live. Any management key may ask
 * (reads need no scope). 404; 409 INVALID_STATE_TRANSITION for a published release.
 */
export async function validateRelease(ctx: Context, actor: Actor, id: string): Promise<ErrorDetail[]> {
  const at = iso(ctx.clock());
  return withTransaction(ctx.db, async (db) => {
    const release = await findRelease(db, actor.workspaceId, id);
    if (!release) throw releaseNotFound(id);
    if (release.status === 'published') throw new AppError('INVALID_STATE_TRANSITION', "release cannot be validated in status 'published': it went live");
    const items = await listItems(db, release.id);
    const rows = await lockRows(db, release.workspace_id, items, at, false);
    return [...(await releaseProblems(db, release.workspace_id, items, rows, at)), ...(await workflowProblems(db, release.workspace_id, items, rows))];
  });
}

/**
 * The scheduler's pass over due releases (D112): each due release is claimed and published in
 * one transaction, exactly once across instances; one that fails validation is left `failed`
 * with its reasons (and a `release.failed` event). Returns how many were published and failed.
 */
export async function publishDueReleases(ctx: Context): Promise<{ published: number; failed: number }> {
  const now = ctx.clock();
  const at = iso(now);
  let published = 0;
  let failed = 0;
  for (const due of await dueReleaseIds(ctx.db, at)) {
    try {
      const done = await withTransaction(ctx.db, async (db) => {
        const release = await findReleaseForUpdate(db, due.workspace_id, due.id);
        if (!release || !(await claimDueRelease(db, release.id, at))) return false;
        // The release is published by whoever scheduled it, checked as such when it was scheduled.
        await publishIn(db, release, { ...systemActor(release.workspace_id, release.updated_by ?? release.created_by ?? 0), label: 'scheduler' }, now);
        return true;
      });
      if (done) published++;
    } catch (err) {
      const reasons =
        err instanceof AppError && err.errors ? err.errors : [{ path: 'release', message: err instanceof AppError ? err.message : 'the publication failed' }];
      if (!(err instanceof AppError)) ctx.log.error({ err, release: due.id }, 'scheduled release failed');
      const marked = await withTransaction(ctx.db, async (db) => {
        const release = await findReleaseForUpdate(db, due.workspace_id, due.id);
        if (!release || !(await markFailed(db, release.id, reasons, at))) return false;
        await recordReleaseEvent(db, now, { ...release, status: 'failed' }, 'failed');
        await recordAudit(db, releaseAudit(SCHEDULER, release, at, 'release.failed'));
        await notifyReleaseFailed(db, ctx, at, release, reasons);
        return true;
      });
      if (marked) failed++;
    }
  }
  return { published, failed };
}

/**
 * POST /releases/{id}/revert `{force?}`: puts back what each item was before the release
 * (see the module comment). 409 INVALID_STATE_TRANSITION unless the release is published and not
 * reverted yet; 409 RELEASE_CONFLICT listing the items published again since (unless `force`).
 */
export async function revertRelease(ctx: Context, actor: Actor, id: string, opts: { force?: boolean } = {}): Promise<void> {
  authorize(actor, 'releases:publish');
  const now = ctx.clock();
  const at = iso(now);
  await withTransaction(ctx.db, async (db) => {
    const release = await findReleaseForUpdate(db, actor.workspaceId, id);
    if (!release) throw releaseNotFound(id);
    authorizeItem(actor, { resource: 'releases', action: 'publish', createdBy: release.created_by });
    if (release.status !== 'published' || release.reverted_at !== null) {
      const why = release.reverted_at !== null ? 'reverted' : release.status;
      throw new AppError('INVALID_STATE_TRANSITION', `release cannot be reverted from status '${why}'`);
    }
    const items = await listItems(db, release.id);
    const rows = await lockRows(db, release.workspace_id, items, at);
    await authorizeItems(db, actor, release.workspace_id, rows);
    const conflicts: ErrorDetail[] = [];
    for (const i of items) {
      const row = rows[i.kind].get(i.item_id);
      if (!row) continue;
      const republished = i.action === 'unpublish' ? row.status === 'published' : row.published_version !== null && row.published_version !== i.result_version;
      if (republished) conflicts.push({ path: `${i.kind}.${i.item_id}`, message: `${i.kind} '${row.slug}' was published again since this release` });
    }
    if (conflicts.length && !opts.force) {
      throw new AppError(
        'RELEASE_CONFLICT',
        `${conflicts.length} item${conflicts.length === 1 ? ' was' : 's were'} published again since this release; send {"force": true} to revert anyway`,
        conflicts,
      );
    }
    for (const kind of ['entry', 'page'] as const) {
      const k = KINDS[kind];
      const moves: SnapshotMove<unknown>[] = [];
      const mine = items.filter((i) => i.kind === kind && rows[kind].has(i.item_id));
      const priors = await findVersionSnapshots(
        db,
        k.tables,
        mine.flatMap((i) => (i.prior_published_version === null ? [] : [{ itemId: i.item_id, version: i.prior_published_version }])),
      );
      for (const i of mine) {
        const row = rows[kind].get(i.item_id)!;
        if (i.prior_published_version !== null) {
          const before = priors.get(`${i.item_id}:${i.prior_published_version}`);
          if (before !== undefined) moves.push({ id: i.item_id, op: 'publish', snapshot: k.fromJson(before) });
        } else if (row.status === 'published' || row.status === 'scheduled') {
          moves.push({ id: i.item_id, op: 'unpublish' });
        }
      }
      if (moves.length) await applySnapshotMoves(db, k, rows[kind], moves, actor, now, null);
    }
    await updateRelease(db, release.id, { reverted_at: at, updated_at: at, updated_by: actor.userId });
    await recordAudit(db, releaseAudit(actor, release, at, 'release.reverted'));
  });
}
