/**
 * The publishing core shared by entries and pages (docs/api.md "ETag and If-Match" (D5), "States
 * and scheduling" (D20–D22), "Working copies, publishing changes and history" (D70, D71), "History"
 * (D72)). What an
 * entry and a page have in common lives here once; each module keeps only what is its own
 * (entries: content type, fields, relations; pages: SEO and block trees) behind an ItemKindSpec.
 *
 * The write sequence of every write to one existing item, inside one transaction:
 *   1. lock and read the row (the caller: it knows how to find its item),
 *   2. If-Match (412 when stale) and the effective status: a due scheduled item is first
 *      published for real, exactly as the job would (beginWrite),
 *   3. validate and write the working copy (the caller),
 *   4. record it (finishContentWrite): a version when the content changed (consecutive updates
 *      by one person coalesce), `has_pending_changes` on a published item whose working copy
 *      now differs from its published version (the same content comparison), the published copy
 *      refreshed on a scheduled one (it goes live as it is at `publish_at`), a new ETag,
 *   5. re-read (the caller).
 * State changes (applyVerb) follow the same steps with the D20 state machine, extended by D71:
 * `publish` is allowed from `published` when there are pending changes.
 *
 * Every write records its change event (src/modules/events/record.ts, D82) in the same
 * transaction: `created` with the first version, `updated` or `restored` with a content write,
 * the verb's event with a state change, `published` when a due scheduled item is published.
 *
 * The columns, version numbers and published-copy moves of each write come from the pure steps
 * of ./columns.ts (contentWriteStep, verbStep), which the importer's bulk writer folds too.
 * Rows are written by the primitives of ./repository.ts, each with a batch variant used by the
 * writers that write many items at once, the importer's bulk path and the restore (item rows:
 * insertItemRows; history: appendVersions, copyLatestVersion): a rule added there reaches them.
 *
 * Invariant: an item's newest version holds its working copy. State changes therefore record a
 * copy of the newest snapshot, and the published version is always one of the versions.
 */
import type { Db } from '../../db/types.js';
import { invalid, notFound, validationError, type ErrorDetail } from '../../errors.js';
import { offsetMeta, offsetPage, type OffsetMeta } from '../../lib/pagination.js';
import { iso } from '../../lib/time.js';
import type { Actor } from '../auth/permissions.js';
import { decodeCursor, encodeCursor, type CursorBinding } from '../delivery/cursor.js';
import { recordItemAudit, SCHEDULER } from '../audit/record.js';
import { recordItemEvents, visibleToProduction, type ItemAction } from '../events/record.js';
import { assertPublishStage, workingCopyChanged } from '../workflows/state.js';
import { checkIfMatch } from './preconditions.js';
import {
  copyLatestVersion,
  findVersion,
  insertVersion,
  latestVersion,
  listVersions,
  listVersionsBefore,
  publishDue,
  replaceVersion,
  updatePublication,
  type ItemTables,
  type VersionAction,
  type VersionRecord,
} from './repository.js';
import { contentWriteStep, createStep, dueStep, verbStep } from './columns.js';
import { effectiveStatus, isDue, transition, type ItemKind, type Publication, type Status, type Verb } from './states.js';

/** The columns of an entry or page row that the core reads. */
export interface PublishedItem extends Publication {
  id: string;
  /** Its slug before the write: a slug change of a live item is seen by production readers (D83). */
  slug: string;
  status: Status;
  /** The ETag counter (D5). */
  version: number;
  published_by: number | null;
  published_version: number | null;
  latest_version: number;
  has_pending_changes: boolean;
}

/** What the core needs to know of one kind of item. */
export interface ItemKindSpec<Item extends PublishedItem, Snapshot> {
  kind: ItemKind;
  tables: ItemTables;
  /** The working copy's content, as a version stores it. */
  snapshot(db: Db, item: Item): Promise<Snapshot>;
  /** Equal for two snapshots exactly when their content is. */
  contentKey(snapshot: Snapshot): string;
  /** Reads a stored snapshot. */
  fromJson(value: unknown): Snapshot;
  /** Makes the published copy (what production reads) equal to the working copy. */
  copyToPublished(db: Db, item: Item): Promise<void>;
  /** Removes the published copy. */
  dropPublished(db: Db, item: Item): Promise<void>;
  /** The required values the working copy lacks (D22), as error details; empty when complete. */
  missingRequired(db: Db, item: Item): Promise<ErrorDetail[]>;
}

/**
 * The item as clients see it at `now` (D21): a due scheduled item is published, its newest
 * version being the published one, with nothing pending.
 */
export function presentItem<T extends PublishedItem>(item: T, now: Date | string): T {
  if (!isDue(item, now)) return item;
  return { ...effectiveStatus(item, now), published_version: item.latest_version, has_pending_changes: false };
}

/**
 * Step 2 of the write sequence: If-Match against the stored row, then the D21 catch-up. Returns
 * the row as it now is in the database. Throws 412 PRECONDITION_FAILED.
 */
export async function beginWrite<T extends PublishedItem>(db: Db, tables: ItemTables, stored: T, ifMatch: string | undefined, now: Date): Promise<T> {
  checkIfMatch(ifMatch, stored);
  if (!isDue(stored, now)) return stored;
  const [done] = await publishDueItems(db, tables, iso(now), stored.id);
  if (!done) return stored;
  return { ...stored, ...dueStep(stored).columns };
}

/**
 * Publishes the due scheduled items of `tables` (or only item `id`) and records each one's
 * `<kind>.published` event in the same transaction: the UPDATE that flips the status matches a
 * row once, so the event is recorded exactly once across instances (D82). Used by the
 * scheduler and by beginWrite's catch-up.
 */
export async function publishDueItems(db: Db, tables: ItemTables, now: string, id?: string): ReturnType<typeof publishDue> {
  const done = await publishDue(db, tables, now, id);
  const ids = done.map((d) => d.id);
  await recordItemEvents(db, now, kindOf(tables), ids, 'published');
  // The schedule published them, whoever's write caught up with it (D122).
  await recordItemAudit(db, now, SCHEDULER, kindOf(tables), ids, 'published');
  return done;
}

function kindOf(tables: ItemTables): ItemKind {
  return tables.table === 'entries' ? 'entry' : 'page';
}

/** The event an action records (D82): `<kind>.<verb>ed`. */
const VERB_EVENTS: Record<Verb, ItemAction> = { publish: 'published', unpublish: 'unpublished', archive: 'archived', schedule: 'scheduled' };

export interface ContentWriteOptions {
  /** The version's action: `update` by default; `import` for the importer, `restore` for restores. */
  action?: VersionAction;
  /** Seconds within which consecutive `update`s by one actor share a version (D72; 0: never). */
  coalesceSeconds: number;
  /** The top-level field names the write changed, for the audit log (D122). */
  changedFields?: readonly string[];
}

/**
 * Step 4 of the write sequence, after the caller wrote the working copy of `current` (the row
 * as beginWrite returned it). A restore always records a version; other writes only when the
 * content changed.
 */
export async function finishContentWrite<T extends PublishedItem, S>(
  db: Db,
  spec: ItemKindSpec<T, S>,
  current: T,
  actor: Actor,
  now: Date,
  opts: ContentWriteOptions,
): Promise<void> {
  const at = iso(now);
  const action = opts.action ?? 'update';
  const snapshot = await spec.snapshot(db, current);
  const key = spec.contentKey(snapshot);
  const latest = await latestVersion(db, spec.tables, current.id);
  const newest = latest ? { version: latest.version, key: spec.contentKey(spec.fromJson(latest.snapshot)) } : null;
  const changed = action === 'restore' || newest?.key !== key;
  const coalesce = changed && latest !== null && coalesces(latest, action, actor, current, now, opts.coalesceSeconds);
  const matchesPublished = await holdsPublishedContent(db, spec, current, key, newest);
  const step = contentWriteStep(current, { changed, coalesce, newest: latest?.version ?? 0, matchesPublished, now: at, userId: actor.userId });
  if (step.history?.kind === 'replace') {
    await replaceVersion(db, spec.tables, current.id, step.history.version, { snapshot, status: step.history.status, created_at: at });
  } else if (step.history) {
    await insertVersion(db, spec.tables, current.id, {
      version: step.history.version,
      action,
      status: step.history.status,
      created_at: at,
      created_by: actor.userId,
      snapshot,
    });
  }
  // Approvals are of the working copy they saw (docs/workflow.md "Approvals"): a change voids them, every writer alike.
  if (changed) await workingCopyChanged(db, spec.kind, current.id);
  // A scheduled item goes live as its working copy is at publish_at (D71): keep its copy current.
  if (step.published === 'copy') await spec.copyToPublished(db, current);
  await updatePublication(db, spec.tables, current.id, step.columns);
  // Production readers see a content write only through the slug (the working copy is not theirs, D70, D83).
  await recordItemEvents(
    db,
    now,
    spec.kind,
    [current.id],
    action === 'restore' ? 'restored' : 'updated',
    (s) => visibleToProduction(s, now) && s.slug !== current.slug,
  );
  await recordItemAudit(db, now, actor, spec.kind, [current.id], action === 'restore' ? 'restored' : 'updated', opts.changedFields);
}

/**
 * Whether content key `key` (the working copy after a write) is the content of `item`'s published
 * version (D70: a published item has pending changes exactly when it is not). The same
 * comparison as the one that decides whether a write makes a version (spec.contentKey); `newest`,
 * the history's newest version before the write, spares reading the published one when it is
 * that version. False when nothing is published.
 */
async function holdsPublishedContent<T extends PublishedItem, S>(
  db: Db,
  spec: ItemKindSpec<T, S>,
  item: T,
  key: string,
  newest: { version: number; key: string } | null,
): Promise<boolean> {
  if (item.status !== 'published' || item.published_version === null) return false;
  if (newest?.version === item.published_version) return newest.key === key;
  const published = await findVersion(db, spec.tables, item.id, item.published_version);
  return published !== null && spec.contentKey(spec.fromJson(published.snapshot)) === key;
}

/** D72: an `update` replaces the same actor's newest `update` version within the window, unless it is published. */
function coalesces(latest: VersionRecord, action: VersionAction, actor: Actor, current: PublishedItem, now: Date, seconds: number): boolean {
  if (seconds <= 0 || action !== 'update' || latest.action !== 'update') return false;
  if (latest.created_by !== actor.userId || latest.version === current.published_version) return false;
  return now.getTime() - Date.parse(latest.created_at) < seconds * 1000;
}

/**
 * Records version 1 of an item just inserted as a draft (create, duplicate, import): its working
 * copy with `action`.
 */
export async function recordFirstVersion<T extends PublishedItem, S>(
  db: Db,
  spec: ItemKindSpec<T, S>,
  item: T,
  actor: Actor,
  now: Date,
  action: VersionAction,
): Promise<void> {
  const snapshot = await spec.snapshot(db, item);
  const first = createStep(iso(now), actor.userId).history;
  await insertVersion(db, spec.tables, item.id, {
    version: first.version,
    action,
    status: first.status,
    created_at: iso(now),
    created_by: actor.userId,
    snapshot,
  });
  await recordItemEvents(db, now, spec.kind, [item.id], 'created');
  await recordItemAudit(db, now, actor, spec.kind, [item.id], 'created');
}

export interface VerbOptions {
  ifMatch?: string;
  /** For `schedule`: the ISO time, already checked by parsePublishAt. */
  publishAt?: string;
  /** The version's action: the verb by default; `import` for the importer. */
  action?: VersionAction;
}

/**
 * Applies `verb` to a locked item (D20, D71): If-Match, catch-up, the transition (409
 * INVALID_STATE_TRANSITION; `publish` from `published` only with pending changes), required
 * values for publish and schedule (400), the workflow's publish stage for publish and schedule
 * (409 WORKFLOW_STAGE; not for the importer's `import` action), the published copy (publish and schedule copy the
 * working copy; unpublish and archive remove it), a version and the publication columns.
 */
export async function applyVerb<T extends PublishedItem, S>(
  db: Db,
  spec: ItemKindSpec<T, S>,
  stored: T,
  actor: Actor,
  now: Date,
  verb: Verb,
  opts: VerbOptions,
): Promise<void> {
  const current = await beginWrite(db, spec.tables, stored, opts.ifMatch, now);
  // 409 before 400: a published item without changes cannot be published again, complete or not.
  transition(spec.kind, verb, current.status, current.has_pending_changes);
  if (verb === 'publish' || verb === 'schedule') {
    const missing = await spec.missingRequired(db, current);
    if (missing.length) throw validationError(missing);
    // The publish guard (docs/workflow.md "The publish guard"); the importer's writes bypass it.
    if (opts.action !== 'import') await assertPublishStage(db, workspaceOf(current), [guardedItem(spec.kind, current)]);
  }
  const step = verbStep(spec.kind, verb, current, now, actor.userId, opts.publishAt);
  if (step.published === 'copy') await spec.copyToPublished(db, current);
  else await spec.dropPublished(db, current);
  await copyLatestVersion(
    db,
    spec.tables,
    [{ id: current.id, version: step.history.version, createdBy: actor.userId }],
    opts.action ?? verb,
    step.history.status,
    iso(now),
  );
  await updatePublication(db, spec.tables, current.id, step.columns);
  // Production readers saw the change when the item was live before it or is after it (D83).
  await recordItemEvents(db, now, spec.kind, [current.id], VERB_EVENTS[verb], current.status === 'published' || verb === 'publish');
  await recordItemAudit(db, now, actor, spec.kind, [current.id], VERB_EVENTS[verb]);
}

/** The workspace of an entry or page row (both carry it; PublishedItem leaves it out). */
function workspaceOf(item: PublishedItem): string {
  return (item as PublishedItem & { workspace_id: string }).workspace_id;
}

/** An item as the publish guard reads it: an entry's content type, a page's none. */
function guardedItem(kind: ItemKind, item: PublishedItem) {
  const contentTypeId = (item as PublishedItem & { content_type_id?: string }).content_type_id ?? null;
  return { kind, id: item.id, slug: item.slug, contentTypeId: kind === 'entry' ? contentTypeId : null };
}

/** The query of a versions list: an offset page, or the page after a previous page's `next_cursor`. */
export interface VersionListQuery {
  page?: number;
  limit?: number;
  cursor?: string;
}

/** The meta of a versions list: offset pages carry totals, cursor pages only the next cursor. */
export type VersionListMeta = OffsetMeta | { page_size: number; next_cursor: string | null };

/** What a versions cursor is bound to: this item's history, and nothing else. */
function versionsBinding(kind: ItemKind, itemId: string): CursorBinding {
  return { contentTypeId: itemId, sort: 'version:desc', filters: `${kind}-versions`, locale: null, environment: 'management' };
}

/**
 * One page of an item's history, newest first (D72; docs/api.md "Pagination"). Without `cursor`, an
 * offset page with totals; with it, the versions after the cursor's position (keyset on the
 * version number, no total), so a walk by cursor sees every version once even while new ones
 * are appended. Either way `next_cursor` leads to the next page (null on the last). Cursors are
 * signed with the installation secret and bound to this item's history: a tampered one, or one
 * from another list (another item's history, an entries list), answers 400 at `query.cursor`.
 */
export async function itemVersions(
  db: Db,
  secret: Uint8Array,
  tables: ItemTables,
  kind: ItemKind,
  itemId: string,
  q: VersionListQuery,
): Promise<{ items: VersionRecord[]; meta: VersionListMeta }> {
  const binding = versionsBinding(kind, itemId);
  const next = (items: VersionRecord[], more: boolean) => (more ? encodeCursor(secret, binding, { value: items[items.length - 1].version, id: itemId }) : null);
  if (q.cursor !== undefined) {
    const limit = offsetPage(1, q.limit).limit;
    const after = decodeCursor(secret, binding, q.cursor);
    if (typeof after.value !== 'number' || !Number.isInteger(after.value) || after.value < 1 || after.id !== itemId)
      throw invalid('query.cursor', 'is not a valid cursor for this list; pass meta.next_cursor back unchanged');
    // One row more than asked tells whether a next page exists.
    const rows = await listVersionsBefore(db, tables, itemId, after.value, limit + 1);
    const items = rows.slice(0, limit);
    return { items, meta: { page_size: items.length, next_cursor: next(items, rows.length > limit) } };
  }
  const window = offsetPage(q.page, q.limit);
  const { items, total } = await listVersions(db, tables, itemId, window.offset, window.limit);
  const more = items.length > 0 && window.offset + items.length < total;
  return { items, meta: offsetMeta(window, total, items.length, next(items, more)) };
}

/** Version `n` of an item with its snapshot; 404 NOT_FOUND when it has no such version. */
export async function itemVersion<T extends PublishedItem, S>(
  db: Db,
  spec: ItemKindSpec<T, S>,
  itemId: string,
  n: number,
  label: string,
): Promise<VersionRecord & { snapshot: S }> {
  const found = Number.isSafeInteger(n) && n >= 1 ? await findVersion(db, spec.tables, itemId, n) : null;
  if (!found) throw notFound(`version ${n} of ${label}`);
  return { ...found, snapshot: spec.fromJson(found.snapshot) };
}

/** 400 for a version number that is not a positive integer (path params arrive as text). */
export function parseVersionNumber(raw: string | number): number {
  const n = typeof raw === 'number' ? raw : /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalid('params.version', 'must be a positive integer');
  return n;
}
