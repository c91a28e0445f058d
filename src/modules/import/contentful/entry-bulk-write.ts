/**
 * The bulk writes of a Contentful import's entries (content-writer.ts): entries the checks
 * (entry-checks.ts) accepted are written with a few multi-row statements per batch, leaving what
 * the entry operations would leave one by one: rows, translations, published copies, versions
 * with action `import` (D72), change events with their webhook deliveries (D82). Rows, versions
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
import { appendVersions, copyLatestVersion, ENTRY_TABLES, insertItemRows, type VersionRow } from '../../publishing/repository.js';

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

/** The versions an entry row ends at after its create, its completion (if any) and its state action. */
function finalVersions(e: NewEntry): { afterContent: number; latest: number; version: number; status: NewEntry['status'] } {
  const c = e.completion;
  const status = c ? c.status : e.status;
  // Version 1 is the created draft; a completion is an update (version + 1, a history version
  // when the content changed); a state action adds one to both.
  const afterContent = c?.changed ? 2 : 1;
  const step = status === 'draft' ? 0 : 1;
  return { afterContent, latest: afterContent + step, version: (c ? 2 : 1) + step, status };
}

/**
 * Inserts new entries in their final state: what createEntry and then the state action
 * (publish, archive) store, version 1 the created draft and version 2 the state change. An entry
 * with a completion is stored as the second pass would leave it (finalVersions).
 */
export async function insertNewEntries(db: Db, stamp: WriteStamp, list: readonly NewEntry[]): Promise<void> {
  if (list.length === 0) return;
  const { now, userId, workspaceId } = stamp;
  const typesUsed = [...new Map(list.map((e) => [e.ct.id, e.ct])).values()];
  const position = new Map<string, number>();
  for (const ct of typesUsed) {
    await lockContentType(db, ct.id);
    position.set(ct.id, await maxPosition(db, ct.id));
  }
  // The events first: on PostgreSQL each row written below fires a trigger updating the
  // workspace row, and every later check of an event's reference to that row walks its
  // versions of this transaction (about three per entry of the batch).
  const events: EventInput[] = list.flatMap((e) => {
    const { afterContent, latest, status } = finalVersions(e);
    const subject = { workspaceId, itemKind: 'entry' as const, itemId: e.id, slug: e.slug, contentType: e.ct.slug };
    const out: EventInput[] = [{ ...subject, type: 'entry.created', status: 'draft', version: 1 }];
    if (e.completion) out.push({ ...subject, type: 'entry.updated', status: 'draft', version: afterContent });
    if (status !== 'draft') out.push({ ...subject, type: `entry.${status}`, status, version: latest });
    return out;
  });
  await recordEvents(db, now, events);
  const stored = (e: NewEntry) => e.completion?.values ?? e.values;
  const rows = list.map((e) => {
    const pos = position.get(e.ct.id)! + 1;
    position.set(e.ct.id, pos);
    const { latest, version, status } = finalVersions(e);
    const live = status === 'published';
    const data = stored(e).data;
    return {
      id: e.id,
      workspace_id: workspaceId,
      content_type_id: e.ct.id,
      slug: e.slug,
      data,
      published_data: live ? data : null,
      position: pos,
      status,
      publish_at: null,
      published_at: live ? now : null,
      version,
      created_at: now,
      updated_at: now,
      created_by: userId,
      updated_by: userId,
      published_by: live ? userId : null,
      published_version: live ? latest : null,
      latest_version: latest,
      has_pending_changes: false,
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
    list.filter((e) => finalVersions(e).status === 'published').map((e) => e.id),
  );
  const versions: VersionRow[] = [];
  for (const e of list) {
    const rows = written.get(e.id) ?? [];
    const { afterContent, latest, status } = finalVersions(e);
    // Version 1 holds the created draft: with a completion, the values without the links, in
    // the translation records that were then rewritten in place (same ids).
    const created = e.completion ? e.values.translations : null;
    const first = created ? rows.map((t) => ({ ...t, data: created.find((c) => c.locale === t.locale)?.data ?? t.data })) : rows;
    const draft = entrySnapshotOf({ data: e.values.data, translations: first });
    const full = e.completion?.changed ? entrySnapshotOf({ data: e.completion.values.data, translations: rows }) : draft;
    const version = (n: number, state: string, snapshot: unknown): VersionRow => ({
      itemId: e.id,
      version: n,
      action: 'import',
      status: state,
      snapshot,
      created_at: now,
      created_by: userId,
    });
    versions.push(version(1, 'draft', draft));
    if (afterContent > 1) versions.push(version(afterContent, 'draft', full));
    if (status !== 'draft') versions.push(version(latest, status, full));
  }
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

  const rows: EntryRowUpdate[] = [];
  const versions: VersionRow[] = [];
  const copies: { id: string; version: number; status: string }[] = [];
  const events: EventInput[] = [];
  for (const c of list) {
    const id = c.stored.id;
    const snapshot = entrySnapshotOf({ data: c.values.data, translations: translations.get(id) ?? [] });
    const changed = entryContentKey(snapshot) !== entryContentKey(entrySnapshotOf(c.stored));
    let latest = c.stored.latest_version;
    let version = c.stored.version + 1;
    if (changed) {
      latest += 1;
      versions.push({ itemId: id, version: latest, action: 'import', status: 'draft', snapshot, created_at: now, created_by: userId });
    }
    const subject = { workspaceId, itemKind: 'entry' as const, itemId: id, slug: c.stored.slug, contentType: c.ct.slug };
    events.push({ ...subject, type: 'entry.updated', status: 'draft', version: latest });
    if (c.status !== 'draft') {
      latest += 1;
      version += 1;
      if (changed) versions.push({ itemId: id, version: latest, action: 'import', status: c.status, snapshot, created_at: now, created_by: userId });
      else copies.push({ id, version: latest, status: c.status });
      events.push({ ...subject, type: `entry.${c.status}`, status: c.status, version: latest });
    }
    const live = c.status === 'published';
    rows.push({
      id,
      data: JSON.stringify(c.values.data),
      published_data: live ? JSON.stringify(c.values.data) : null,
      status: c.status,
      published_at: live ? now : null,
      published_by: live ? userId : null,
      published_version: live ? latest : null,
      latest_version: latest,
      version,
      updated_at: now,
      updated_by: userId,
    });
  }
  await updateEntryRows(db, rows);
  await copyTranslationsToPublished(
    db,
    list.filter((c) => c.status === 'published').map((c) => c.stored.id),
  );
  await appendVersions(db, ENTRY_TABLES, versions);
  for (const c of copies) await copyLatestVersion(db, ENTRY_TABLES, [{ id: c.id, version: c.version, createdBy: userId }], 'import', c.status, now);
  await recordEvents(db, now, events);
}

/** The columns of an entry row a completion writes. */
interface EntryRowUpdate {
  id: string;
  data: string;
  published_data: string | null;
  status: string;
  published_at: string | null;
  published_by: number | null;
  published_version: number | null;
  latest_version: number;
  version: number;
  updated_at: string;
  updated_by: number;
}

/** Updates entry rows (their pending changes cleared), 200 rows per statement where batched (src/db/bulk.ts). */
async function updateEntryRows(db: Db, rows: readonly EntryRowUpdate[]): Promise<void> {
  await updateRowsByKey(db, 'entries', ['id'], rows, {
    types: {
      data: 'json',
      published_data: 'json',
      published_by: 'integer',
      published_version: 'integer',
      latest_version: 'integer',
      version: 'integer',
      updated_by: 'integer',
    },
    constants: { has_pending_changes: 0 },
    perStatement: 200,
  });
}

/** Rewrites existing translations in place (data, updated_at), as replaceTranslations does; 300 rows per statement where batched. */
async function rewriteTranslations(db: Db, rows: readonly { entry_id: string; locale: string; data: string }[], now: string): Promise<void> {
  await updateRowsByKey(db, 'entry_translations', ['entry_id', 'locale'], rows, { types: { data: 'json' }, constants: { updated_at: now }, perStatement: 300 });
}
