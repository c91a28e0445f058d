/**
 * Release operations (docs/releases.md; D110, D112): create, list, read, edit and delete
 * releases; add, list and remove their items; schedule and unschedule. Publishing and reverting
 * are publication.ts; release versions of items are variants.ts.
 *
 * - Reads: any management key or session. Create, edit, delete and items: `content:write`;
 *   schedule and unschedule: `content:publish` (src/modules/access/authorize.ts).
 * - Items: `{kind: entry|page, id, action: publish|unpublish}`. A `publish` item copies the
 *   item's working copy as its release version (`base_version`: the newest version, which holds
 *   the working copy). Adding an item already in the release with the same action changes
 *   nothing; with the other action it replaces it. At most MAX_RELEASE_ITEMS items (409
 *   RELEASE_TOO_LARGE for one more). Items change only while the release is open or failed (409
 *   INVALID_STATE_TRANSITION otherwise).
 * - Delete: open, scheduled or failed releases; their variants go with them. Published releases
 *   stay as the record of what went live (and what a revert puts back).
 * - Schedule `{publish_at}` (in the future): open, failed or scheduled → scheduled, with a
 *   `release.scheduled` event; unschedule: scheduled → open.
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { offsetPage, type OffsetPage } from '../../lib/pagination.js';
import { iso } from '../../lib/time.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { findContentTypeById, listAllContentTypes } from '../content-types/repository.js';
import { findEntriesByIds } from '../entries/repository.js';
import { entrySnapshotOf } from '../entries/snapshot.js';
import { recordAudit } from '../audit/record.js';
import { releaseAudit } from './audit.js';
import { recordReleaseEvent } from '../events/record.js';
import { findPage, loadPageContent } from '../pages/repository.js';
import { pageSnapshotOf } from '../pages/snapshot.js';
import { effectiveStatus, parsePublishAt } from '../publishing/states.js';
import type { AddReleaseItemInput, CreateReleaseInput, ReleaseItemWire, ReleaseWire, UpdateReleaseInput } from '../../http/schemas/releases.js';
import { MAX_RELEASE_ITEMS, type ReleaseItemRecord, type ReleaseRecord, type ReleaseStatus } from './model.js';
import {
  countItems,
  deleteRelease as deleteReleaseRows,
  findItem,
  findReleaseForUpdate,
  insertRelease,
  itemHeads,
  listItems,
  listReleases as listReleaseRows,
  putItem,
  removeItem,
  updateRelease as updateReleaseRow,
} from './repository.js';
import { lockEditableRelease, releaseNotFound, requireRelease } from './variants.js';

/** A release on the wire: its row and its number of items. */
function present(r: ReleaseRecord, itemsCount: number): ReleaseWire {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    status: r.status,
    publish_at: r.publish_at,
    published_at: r.published_at,
    reverted_at: r.reverted_at,
    failure: r.failure,
    items_count: itemsCount,
    created_at: r.created_at,
    updated_at: r.updated_at,
    created_by: r.created_by,
  };
}

async function presentOne(ctx: Context, r: ReleaseRecord): Promise<ReleaseWire> {
  return present(r, (await countItems(ctx.db, [r.id])).get(r.id) ?? 0);
}

/** GET /releases: the workspace's releases, newest first (optionally of one status), offset pages. */
export async function listReleases(
  ctx: Context,
  actor: Actor,
  q: { page?: number; limit?: number; status?: ReleaseStatus },
): Promise<{ items: ReleaseWire[]; total: number; window: OffsetPage }> {
  const window = offsetPage(q.page, q.limit);
  const { items, total } = await listReleaseRows(ctx.db, actor.workspaceId, { status: q.status, offset: window.offset, limit: window.limit });
  const counts = await countItems(
    ctx.db,
    items.map((r) => r.id),
  );
  return { items: items.map((r) => present(r, counts.get(r.id) ?? 0)), total, window };
}

/** GET /releases/{id}. */
export async function getRelease(ctx: Context, actor: Actor, id: string): Promise<ReleaseWire> {
  return presentOne(ctx, await requireRelease(ctx, actor, id));
}

/** POST /releases `{title, description?}`: an open release. */
export async function createRelease(ctx: Context, actor: Actor, input: CreateReleaseInput): Promise<ReleaseWire> {
  authorize(actor, 'releases:write');
  authorizeItem(actor, { resource: 'releases', action: 'create' });
  const now = iso(ctx.clock());
  const release: ReleaseRecord = {
    id: newId(),
    workspace_id: actor.workspaceId,
    title: input.title,
    description: input.description ?? null,
    status: 'open',
    publish_at: null,
    published_at: null,
    reverted_at: null,
    failure: null,
    created_at: now,
    updated_at: now,
    created_by: actor.userId,
    updated_by: actor.userId,
  };
  const { failure: _failure, ...row } = release;
  await withTransaction(ctx.db, async (db) => {
    await insertRelease(db, row);
    await recordAudit(db, releaseAudit(actor, release, now, 'release.created'));
  });
  return present(release, 0);
}

/** PATCH /releases/{id} `{title?, description?}` (any status: they describe the release, not its content). */
export async function updateRelease(ctx: Context, actor: Actor, id: string, input: UpdateReleaseInput): Promise<ReleaseWire> {
  authorize(actor, 'releases:write');
  return withTransaction(ctx.db, async (db) => {
    const release = await findReleaseForUpdate(db, actor.workspaceId, id);
    if (!release) throw releaseNotFound(id);
    authorizeItem(actor, { resource: 'releases', action: 'update', createdBy: release.created_by });
    const patch = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      updated_at: iso(ctx.clock()),
      updated_by: actor.userId,
    };
    await updateReleaseRow(db, id, patch);
    const changedFields = ['title', 'description'].filter((k) => k in patch);
    await recordAudit(db, releaseAudit(actor, { ...release, ...patch }, patch.updated_at, 'release.updated', changedFields));
    return presentOne({ ...ctx, db }, { ...release, ...patch });
  });
}

/** DELETE /releases/{id}: open, scheduled or failed releases, with their items and variants. */
export async function deleteRelease(ctx: Context, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'releases:write');
  await withTransaction(ctx.db, async (db) => {
    const release = await findReleaseForUpdate(db, actor.workspaceId, id);
    if (!release) throw releaseNotFound(id);
    authorizeItem(actor, { resource: 'releases', action: 'delete', createdBy: release.created_by });
    if (release.status === 'published') throw new AppError('INVALID_STATE_TRANSITION', "release cannot be deleted from status 'published'");
    await recordAudit(db, releaseAudit(actor, release, iso(ctx.clock()), 'release.deleted'));
    await deleteReleaseRows(db, id);
  });
}

/** The wire form of items: each with its item's slug, type, status and conflict flag. */
async function presentItems(ctx: Context, workspaceId: string, items: readonly ReleaseItemRecord[]): Promise<ReleaseItemWire[]> {
  const now = iso(ctx.clock());
  const entries = await itemHeads(
    ctx.db,
    'entry',
    workspaceId,
    items.filter((i) => i.kind === 'entry').map((i) => i.item_id),
  );
  const pages = await itemHeads(
    ctx.db,
    'page',
    workspaceId,
    items.filter((i) => i.kind === 'page').map((i) => i.item_id),
  );
  const typeSlugs = new Map((await listAllContentTypes(ctx.db, workspaceId)).map((t) => [t.id, t.slug]));
  const out: ReleaseItemWire[] = [];
  for (const i of items) {
    const stored = (i.kind === 'entry' ? entries : pages).get(i.item_id);
    if (!stored) continue;
    const row = effectiveStatus(stored, now);
    // Published after the variant was copied, and not by this release.
    const conflict = row.published_version !== null && row.published_version > i.base_version && row.published_version !== i.result_version;
    out.push({
      kind: i.kind,
      id: i.item_id,
      slug: row.slug,
      content_type: row.content_type_id === null ? null : (typeSlugs.get(row.content_type_id) ?? null),
      action: i.action,
      base_version: i.base_version,
      conflict,
      status: row.status,
      created_at: i.created_at,
      updated_at: i.updated_at,
    });
  }
  return out;
}

/** GET /releases/{id}/items: every item, in the order they were added. */
export async function listReleaseItems(ctx: Context, actor: Actor, id: string): Promise<ReleaseItemWire[]> {
  const release = await requireRelease(ctx, actor, id);
  return presentItems(ctx, actor.workspaceId, await listItems(ctx.db, release.id));
}

/**
 * POST /releases/{id}/items `{kind, id, action}`: adds the entry or page (see the module
 * comment). 404 when the release or the item is not the workspace's; 409 RELEASE_TOO_LARGE;
 * 409 INVALID_STATE_TRANSITION when the release is scheduled or published.
 */
export async function addReleaseItem(ctx: Context, actor: Actor, id: string, input: AddReleaseItemInput): Promise<ReleaseItemWire> {
  authorize(actor, 'releases:write');
  return withTransaction(ctx.db, async (db) => {
    const tx = { ...ctx, db };
    const release = await lockEditableRelease(db, actor.workspaceId, id);
    authorizeItem(actor, { resource: 'releases', action: 'update', createdBy: release.created_by });
    const itemId = input.id.toLowerCase();
    const existing = await findItem(db, release.id, input.kind, itemId);
    if (existing && existing.action === input.action) return (await presentItems(tx, actor.workspaceId, [existing]))[0];
    if (!existing && ((await countItems(db, [release.id])).get(release.id) ?? 0) >= MAX_RELEASE_ITEMS) {
      throw new AppError('RELEASE_TOO_LARGE', `A release holds at most ${MAX_RELEASE_ITEMS} items`);
    }
    let snapshot: unknown = null;
    let base: number;
    if (input.kind === 'entry') {
      const [entry] = await findEntriesByIds(db, [itemId]);
      if (!entry || entry.workspace_id !== actor.workspaceId) throw notFound(`entry '${itemId}'`);
      // The release will publish or unpublish the entry: the role must be able to (D120).
      const type = await findContentTypeById(db, entry.content_type_id);
      authorizeItem(actor, { resource: 'entries', action: 'publish', contentType: type?.slug, createdBy: entry.created_by });
      base = entry.latest_version;
      if (input.action === 'publish') snapshot = entrySnapshotOf(entry);
    } else {
      const page = await findPage(db, actor.workspaceId, { id: itemId });
      if (!page) throw notFound(`page '${itemId}'`);
      authorizeItem(actor, { resource: 'pages', action: 'publish', createdBy: page.created_by });
      base = page.latest_version;
      if (input.action === 'publish') snapshot = pageSnapshotOf(await loadPageContent(db, page));
    }
    const now = iso(ctx.clock());
    const item: ReleaseItemRecord = {
      release_id: release.id,
      kind: input.kind,
      item_id: itemId,
      action: input.action,
      base_version: base,
      snapshot,
      prior_status: null,
      prior_published_at: null,
      prior_published_version: null,
      result_version: null,
      created_at: existing?.created_at ?? now,
      updated_at: now,
      created_by: existing?.created_by ?? actor.userId,
      updated_by: actor.userId,
    };
    await putItem(db, item);
    await updateReleaseRow(db, release.id, { updated_at: now, updated_by: actor.userId });
    await recordAudit(db, releaseAudit(actor, release, now, 'release.item_added', ['items']));
    return (await presentItems(tx, actor.workspaceId, [item]))[0];
  });
}

/** DELETE /releases/{id}/items/{kind}/{item_id}: takes the item (and its variant) out; 404 when it is not in the release. */
export async function removeReleaseItem(ctx: Context, actor: Actor, id: string, kind: 'entry' | 'page', itemId: string): Promise<void> {
  authorize(actor, 'releases:write');
  await withTransaction(ctx.db, async (db) => {
    const release = await lockEditableRelease(db, actor.workspaceId, id);
    authorizeItem(actor, { resource: 'releases', action: 'update', createdBy: release.created_by });
    if (!(await removeItem(db, release.id, kind, itemId.toLowerCase()))) throw notFound(`${kind} '${itemId}' in release '${id}'`);
    await updateReleaseRow(db, release.id, { updated_at: iso(ctx.clock()), updated_by: actor.userId });
    await recordAudit(db, releaseAudit(actor, release, iso(ctx.clock()), 'release.item_removed', ['items']));
  });
}

/** POST /releases/{id}/schedule `{publish_at}`: see the module comment. 400 for a time not in the future. */
export async function scheduleRelease(ctx: Context, actor: Actor, id: string, publishAtInput: string): Promise<ReleaseWire> {
  authorize(actor, 'releases:publish');
  const clock = ctx.clock();
  const publishAt = parsePublishAt(publishAtInput, clock);
  return withTransaction(ctx.db, async (db) => {
    const release = await findReleaseForUpdate(db, actor.workspaceId, id);
    if (!release) throw releaseNotFound(id);
    authorizeItem(actor, { resource: 'releases', action: 'publish', createdBy: release.created_by });
    if (release.status === 'published') throw new AppError('INVALID_STATE_TRANSITION', "release cannot be scheduled from status 'published'");
    const now = iso(clock);
    const next: ReleaseRecord = { ...release, status: 'scheduled', publish_at: publishAt, failure: null, updated_at: now, updated_by: actor.userId };
    await updateReleaseRow(db, id, { status: 'scheduled', publish_at: publishAt, failure: null, updated_at: now, updated_by: actor.userId });
    await recordReleaseEvent(db, clock, next, 'scheduled');
    await recordAudit(db, releaseAudit(actor, next, now, 'release.scheduled'));
    return presentOne({ ...ctx, db }, next);
  });
}

/** POST /releases/{id}/unschedule: scheduled → open (409 INVALID_STATE_TRANSITION from any other status). */
export async function unscheduleRelease(ctx: Context, actor: Actor, id: string): Promise<ReleaseWire> {
  authorize(actor, 'releases:publish');
  return withTransaction(ctx.db, async (db) => {
    const release = await findReleaseForUpdate(db, actor.workspaceId, id);
    if (!release) throw releaseNotFound(id);
    authorizeItem(actor, { resource: 'releases', action: 'publish', createdBy: release.created_by });
    if (release.status !== 'scheduled') throw new AppError('INVALID_STATE_TRANSITION', `release cannot be unscheduled from status '${release.status}'`);
    const now = iso(ctx.clock());
    const next: ReleaseRecord = { ...release, status: 'open', publish_at: null, updated_at: now, updated_by: actor.userId };
    await updateReleaseRow(db, id, { status: 'open', publish_at: null, updated_at: now, updated_by: actor.userId });
    await recordAudit(db, releaseAudit(actor, next, now, 'release.unscheduled'));
    return presentOne({ ...ctx, db }, next);
  });
}
