/**
 * The bulk writes of a Contentful import's entries (content-writer.ts): entries the checks
 * (entry-checks.ts) accepted are written with a few multi-row statements per batch, leaving what
 * the entry operations would leave one by one: rows, translations, published copies, versions
 * with action `import` (D72), change events with their webhook deliveries (D82). The columns,
 * version numbers and published-copy moves of each write are the publishing core's steps
 * (publishing/columns.ts: createStep, contentWriteStep, verbStep), the same the single-item path
 * takes, so a column or transition changed there reaches the import. Rows, versions
 * and published translations are written by the batch variants of the publishing core's
 * primitives (insertItemRows, appendVersions, copyLatestVersion: publishing/repository.ts;
 * copyTranslationsToPublished: entries/repository.ts), so a rule added there reaches the import.
 */
import { updateRowsByKey } from '../../../db/bulk.js';
import type { Db } from '../../../db/types.js';
import { copyTranslationsToPublished, lockContentType, loadTranslations, maxPosition } from '../../entries/repository.js';
import type { Entry, EntryData } from '../../entries/model.js';
import { entryContentKey, entrySnapshotOf } from '../../entries/snapshot.js';
import type { ContentType } from '../../content-types/model.js';
import { recordEvents, type EventInput } from '../../events/record.js';
import { contentWriteStep, createStep, verbStep, type CreateColumns, type PublicationState } from '../../publishing/columns.js';
import { appendVersions, copyLatestVersion, ENTRY_TABLES, insertItemRows, type VersionRow } from '../../publishing/repository.js';
import type { Status, Verb } from '../../publishing/states.js';

/** `items` in slices of `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Who writes and when: the import's workspace and user, and the batch's time (ISO). */
export interface WriteStamp {
  workspaceId: string;
  userId: number;
  now: string;
}

/** Checked values of an entry: data and translations as the entries API stores them. */
export interface EntryValues {
  data: EntryData;
  translations: { locale: string; data: EntryData }[];
}

/** A new entry accepted by the checks, written by insertNewEntries. */
export interface NewEntry {
  id: string;
  ct: ContentType;
  slug: string;
  values: EntryValues;
  /** Its status after the import's state action (draft when there is none or it was refused). */
  status: 'draft' | 'published' | 'archived';
  /**
   * For an entry created without some links (a link cycle) whose second pass is already known
   * (entry-checks.ts completeAtOnce): its full values and their state, written in the same
   * statements as what the second pass would have stored (the created draft of `values` as
   * version 1, the full content as version 2 when it differs, then the state change).
   */
  completion?: EntryCompletion;
}

/** The second pass of a new entry, decided before its first write. */
export interface EntryCompletion {
  values: EntryValues;
  status: 'draft' | 'published' | 'archived';
  /** False when the full content equals the one without links (no version 2 of its own). */
  changed: boolean;
}

/** A new entry created without some links in pass 1 and now written in full (updateEntry, then its state action). */
export interface Completion {
  stored: Entry;
  ct: ContentType;
  values: EntryValues;
  status: 'draft' | 'published' | 'archived';
}

type Table = 'entry_translations';

/** Inserts `rows` into `table`, `perStatement` rows per statement (bound parameters stay under both databases' limits). */
async function insertRows(db: Db, table: Table, rows: readonly object[], perStatement: number): Promise<void> {
  for (const part of chunks(rows, perStatement))
    await db.kysely
      .insertInto(table)
      .values(part as never)
      .execute();
}

/** The state action that brings a draft to `status` (the import's statuses: publish or archive). */
const VERB_TO: Record<Exclude<NewEntry['status'], 'draft'>, Verb> = { published: 'publish', archived: 'archive' };

/** A version of a new entry: which of its contents it holds, the created draft or the full values. */
interface PlannedVersion {
  version: number;
  status: Status;
  content: 'draft' | 'full';
}

/**
 * A new entry's row columns, history and events as the publishing core's steps leave them
 * (publishing/columns.ts): createStep, then its completion's content write (contentWriteStep:
 * an `import` write never coalesces), then the state action (verbStep).
 */
function planNewEntry(e: NewEntry, now: Date, at: string, userId: number) {
  const created = createStep(at, userId);
  let row: PublicationState & Omit<CreateColumns, keyof PublicationState> = created.columns;
  const versions: PlannedVersion[] = [{ ...created.history, content: 'draft' }];
  const events: { type: EventInput['type']; status: string; version: number }[] = [{ type: 'entry.created', status: row.status, version: row.latest_version }];
  let published = false;
  const c = e.completion;
  if (c) {
    // A new draft has no published version for its working copy to match.
    const write = contentWriteStep(row, { changed: c.changed, coalesce: false, newest: row.latest_version, matchesPublished: false, now: at, userId });
    row = { ...row, ...write.columns };
    if (write.history) versions.push({ ...write.history, content: 'full' });
    if (write.published !== 'keep') published = write.published === 'copy';
    events.push({ type: 'entry.updated', status: row.status, version: row.latest_version });
  }
  const status = c ? c.status : e.status;
  if (status !== 'draft') {
    const change = verbStep('entry', VERB_TO[status], row, now, userId);
    row = { ...row, ...change.columns };
    // A state change records the newest snapshot again.
    versions.push({ ...change.history, content: versions[versions.length - 1].content });
    published = change.published === 'copy';
    events.push({ type: `entry.${row.status}` as EventInput['type'], status: row.status, version: row.latest_version });
  }
  return { row, versions, events, published };
}

/**
 * Inserts new entries in their final state: what createEntry and then the state action
 * (publish, archive) store, version 1 the created draft and version 2 the state change. An entry
 * with a completion is stored as the second pass would leave it (updateEntry, then the state
 * action). The columns and version numbers are the publishing core's steps (planNewEntry).
 */
export async function insertNewEntries(db: Db, stamp: WriteStamp, list: readonly NewEntry[]): Promise<void> {
  if (list.length === 0) return;
  const { now, userId, workspaceId } = stamp;
  const clock = new Date(now);
  const plans = list.map((e) => planNewEntry(e, clock, now, userId));
  const typesUsed = [...new Map(list.map((e) => [e.ct.id, e.ct])).values()];
  const position = new Map<string, number>();
  for (const ct of typesUsed) {
    await lockContentType(db, ct.id);
    position.set(ct.id, await maxPosition(db, ct.id));
  }
  // The events first: on PostgreSQL each row written below fires a trigger updating the
  // workspace row, and every later check of an event's reference to that row walks its
  // versions of this transaction (about three per entry of the batch).
  const events: EventInput[] = list.flatMap((e, i) => {
    const subject = { workspaceId, itemKind: 'entry' as const, itemId: e.id, slug: e.slug, contentType: e.ct.slug };
    return plans[i].events.map((ev) => ({ ...subject, ...ev }));
  });
  await recordEvents(db, now, events);
  const stored = (e: NewEntry) => e.completion?.values ?? e.values;
  const rows = list.map((e, i) => {
    const pos = position.get(e.ct.id)! + 1;
    position.set(e.ct.id, pos);
    const data = stored(e).data;
    return {
      id: e.id,
      workspace_id: workspaceId,
      content_type_id: e.ct.id,
      slug: e.slug,
      data,
      published_data: plans[i].published ? data : null,
      position: pos,
      ...plans[i].row,
    };
  });
  await insertItemRows(db, ENTRY_TABLES, rows);
  const translations = list.flatMap((e) =>
    stored(e).translations.map((t) => ({ entry_id: e.id, locale: t.locale, data: JSON.stringify(t.data), created_at: now, updated_at: now })),
  );
  await insertRows(db, 'entry_translations', translations, 300);
  const written = await loadTranslations(
    db,
    list.map((e) => e.id),
  );
  await copyTranslationsToPublished(
    db,
    list.filter((_, i) => plans[i].published).map((e) => e.id),
  );
  const versions: VersionRow[] = [];
  list.forEach((e, i) => {
    const rows = written.get(e.id) ?? [];
    // Version 1 holds the created draft: with a completion, the values without the links, in
    // the translation records that were then rewritten in place (same ids).
    const created = e.completion ? e.values.translations : null;
    const first = created ? rows.map((t) => ({ ...t, data: created.find((c) => c.locale === t.locale)?.data ?? t.data })) : rows;
    const draft = entrySnapshotOf({ data: e.values.data, translations: first });
    const full = e.completion?.changed ? entrySnapshotOf({ data: e.completion.values.data, translations: rows }) : draft;
    for (const v of plans[i].versions)
      versions.push({
        itemId: e.id,
        version: v.version,
        action: 'import',
        status: v.status,
        snapshot: v.content === 'full' ? full : draft,
        created_at: now,
        created_by: userId,
      });
  });
  await appendVersions(db, ENTRY_TABLES, versions);
}

/** Writes completions: what updateEntry and then the state action store. */
export async function writeCompletions(db: Db, stamp: WriteStamp, list: readonly Completion[]): Promise<void> {
  if (list.length === 0) return;
  const { now, userId, workspaceId } = stamp;
  for (const ct of new Map(list.map((c) => [c.ct.id, c.ct])).values()) await lockContentType(db, ct.id);
  // Translations as replaceTranslations leaves them: the others deleted, existing locales
  // rewritten in place (ids kept), new ones inserted in order.
  const rewritten: { entry_id: string; locale: string; data: string }[] = [];
  const added: { entry_id: string; locale: string; data: string; created_at: string; updated_at: string }[] = [];
  const stale: number[] = [];
  for (const c of list) {
    const want = new Set(c.values.translations.map((t) => t.locale));
    const have = new Set(c.stored.translations.map((t) => t.locale));
    for (const t of c.stored.translations) if (!want.has(t.locale)) stale.push(t.id);
    for (const t of c.values.translations) {
      const row = { entry_id: c.stored.id, locale: t.locale, data: JSON.stringify(t.data) };
      if (have.has(t.locale)) rewritten.push(row);
      else added.push({ ...row, created_at: now, updated_at: now });
    }
  }
  for (const part of chunks(stale, 500)) await db.kysely.deleteFrom('entry_translations').where('id', 'in', part).execute();
  await rewriteTranslations(db, rewritten, now);
  await insertRows(db, 'entry_translations', added, 300);
  const translations = await loadTranslations(
    db,
    list.map((c) => c.stored.id),
  );

  const clock = new Date(now);
  const rows: EntryRowUpdate[] = [];
  const versions: VersionRow[] = [];
  const copies: { id: string; version: number; status: string }[] = [];
  const events: EventInput[] = [];
  const published: string[] = [];
  for (const c of list) {
    const id = c.stored.id;
    const snapshot = entrySnapshotOf({ data: c.values.data, translations: translations.get(id) ?? [] });
    const changed = entryContentKey(snapshot) !== entryContentKey(entrySnapshotOf(c.stored));
    // The publishing core's steps (publishing/columns.ts): updateEntry's content write (an
    // `import` write never coalesces), then the state action.
    // A completion's entry is a pass-1 draft (entry-checks.ts complete): nothing published to match.
    const write = contentWriteStep(c.stored, { changed, coalesce: false, newest: c.stored.latest_version, matchesPublished: false, now, userId });
    let row = { ...pickPublication(c.stored), ...write.columns };
    // The newest snapshot, when this batch writes it (a state change then records it again).
    let newest: unknown = null;
    if (write.history) {
      versions.push({
        itemId: id,
        version: write.history.version,
        action: 'import',
        status: write.history.status,
        snapshot,
        created_at: now,
        created_by: userId,
      });
      newest = snapshot;
    }
    // A pass-1 draft (entry-checks.ts complete) has never been published: no published copy to keep.
    let live = write.published === 'copy';
    const subject = { workspaceId, itemKind: 'entry' as const, itemId: id, slug: c.stored.slug, contentType: c.ct.slug };
    events.push({ ...subject, type: 'entry.updated', status: row.status, version: row.latest_version });
    if (c.status !== 'draft') {
      const change = verbStep('entry', VERB_TO[c.status], row, clock, userId);
      row = { ...row, ...change.columns };
      const { version, status } = change.history;
      if (newest !== null) versions.push({ itemId: id, version, action: 'import', status, snapshot: newest, created_at: now, created_by: userId });
      else copies.push({ id, version, status });
      live = change.published === 'copy';
      events.push({ ...subject, type: `entry.${row.status}` as EventInput['type'], status: row.status, version: row.latest_version });
    }
    if (live) published.push(id);
    rows.push({
      id,
      data: JSON.stringify(c.values.data),
      published_data: live ? JSON.stringify(c.values.data) : null,
      ...row,
      has_pending_changes: row.has_pending_changes ? 1 : 0,
    });
  }
  await updateEntryRows(db, rows);
  await copyTranslationsToPublished(db, published);
  await appendVersions(db, ENTRY_TABLES, versions);
  for (const c of copies) await copyLatestVersion(db, ENTRY_TABLES, [{ id: c.id, version: c.version, createdBy: userId }], 'import', c.status, now);
  await recordEvents(db, now, events);
}

/** The publication columns of a stored entry. */
function pickPublication(e: Entry): PublicationState {
  const { status, publish_at, published_at, published_by, published_version, latest_version, version, has_pending_changes } = e;
  return { status, publish_at, published_at, published_by, published_version, latest_version, version, has_pending_changes };
}

/** The columns of an entry row a completion writes: its content and every publication column (the pending flag as 0/1). */
type EntryRowUpdate = Omit<PublicationState, 'has_pending_changes'> & {
  id: string;
  data: string;
  published_data: string | null;
  has_pending_changes: number;
  updated_at: string;
  updated_by: number;
};

/** Updates entry rows, 200 rows per statement where batched (src/db/bulk.ts). */
async function updateEntryRows(db: Db, rows: readonly EntryRowUpdate[]): Promise<void> {
  await updateRowsByKey(db, 'entries', ['id'], rows, {
    types: {
      data: 'json',
      published_data: 'json',
      published_by: 'integer',
      published_version: 'integer',
      latest_version: 'integer',
      version: 'integer',
      has_pending_changes: 'integer',
      updated_by: 'integer',
    },
    perStatement: 200,
  });
}

/** Rewrites existing translations in place (data, updated_at), as replaceTranslations does; 300 rows per statement where batched. */
async function rewriteTranslations(db: Db, rows: readonly { entry_id: string; locale: string; data: string }[], now: string): Promise<void> {
  await updateRowsByKey(db, 'entry_translations', ['entry_id', 'locale'], rows, { types: { data: 'json' }, constants: { updated_at: now }, perStatement: 300 });
}
