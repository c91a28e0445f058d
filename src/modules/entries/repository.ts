/**
 * SQL for entries and their translations (one Kysely code path for SQLite and PostgreSQL; the
 * only dialect-dependent piece, JSON field access, comes from src/db/dialect.ts).
 *
 * Concurrency: writers take row locks with a no-op UPDATE before reading what they will change
 * (lockContentType for writes that check slugs, unique values or positions; findEntryForUpdate
 * for writes to one entry). On PostgreSQL that serializes competing writers; SQLite runs one
 * write transaction at a time anyway. Lock order is always content type, then entry.
 */
import { type Expression, type SqlBool } from 'kysely';
import { lockRows } from '../../db/lock.js';
import type { Db } from '../../db/types.js';
import { dataFieldSql } from '../../db/dialect.js';
import { fromJsonColumn } from '../../lib/json.js';
import type { FieldType } from '../content-types/model.js';
import { ITEM_COLUMNS, toItemRecord, type ItemRow } from '../publishing/item.js';
import { deleteItemRow, ENTRY_TABLES, insertItemRow, updateItemRow } from '../publishing/repository.js';
import type { Status } from '../publishing/states.js';
import { statusCondition } from '../publishing/status-sql.js';
import type { SortSpec } from '../publishing/sort.js';
import { nullsOrdered, sortExpression } from '../delivery/query/conditions.js';
import type { Entry, EntryData, EntryTranslation } from './model.js';

/** Addresses one entry of a content type. */
export type EntryRef = { id: string } | { slug: string };

type EntryRow = ItemRow & { content_type_id: string; data: unknown };

const ROW_COLUMNS = [...ITEM_COLUMNS, 'content_type_id', 'data'] as const;

function toEntry(row: EntryRow, translations: EntryTranslation[]): Entry {
  return { ...toItemRecord(row), content_type_id: row.content_type_id, data: fromJsonColumn<EntryData>(row.data, {}), translations };
}

/** Translations of the given entries, by entry id, each list ordered by locale. */
export async function loadTranslations(db: Db, entryIds: string[]): Promise<Map<string, EntryTranslation[]>> {
  const out = new Map<string, EntryTranslation[]>(entryIds.map((id) => [id, []]));
  if (!entryIds.length) return out;
  const rows = await db.kysely.selectFrom('entry_translations').selectAll().where('entry_id', 'in', entryIds).orderBy('entry_id').orderBy('locale').execute();
  for (const r of rows) {
    out.get(r.entry_id)?.push({ id: Number(r.id), entry_id: r.entry_id, locale: r.locale, data: fromJsonColumn<EntryData>(r.data, {}), created_at: r.created_at, updated_at: r.updated_at });
  }
  return out;
}

async function withTranslations(db: Db, rows: EntryRow[]): Promise<Entry[]> {
  const tr = await loadTranslations(db, rows.map((r) => r.id));
  return rows.map((r) => toEntry(r, tr.get(r.id) ?? []));
}

/** One entry of a content type by id or slug, with its translations. */
export async function findEntry(db: Db, contentTypeId: string, ref: EntryRef): Promise<Entry | null> {
  let q = db.kysely.selectFrom('entries').select(ROW_COLUMNS).where('content_type_id', '=', contentTypeId);
  q = 'id' in ref ? q.where('id', '=', ref.id) : q.where('slug', '=', ref.slug);
  const row = await q.executeTakeFirst();
  return row ? (await withTranslations(db, [row]))[0] : null;
}

/** Locks the entry row (PostgreSQL: until the transaction ends), then reads it. */
export async function findEntryForUpdate(db: Db, contentTypeId: string, ref: EntryRef): Promise<Entry | null> {
  await lockRows(db, 'entries', 'id' in ref ? { content_type_id: contentTypeId, id: ref.id } : { content_type_id: contentTypeId, slug: ref.slug });
  return findEntry(db, contentTypeId, ref);
}

/** Serializes writers of one content type's entries (slugs, unique values, positions). */
export async function lockContentType(db: Db, contentTypeId: string): Promise<void> {
  await lockRows(db, 'content_types', { id: contentTypeId });
}

export interface EntryListQuery {
  contentTypeId: string;
  /** Effective status (D21): `published` includes due scheduled entries, `scheduled` excludes them. */
  status?: Status;
  now: string;
  sort: SortSpec;
  offset: number;
  limit: number;
}

/** One page of a content type's entries (management: working copies, any status) and the total. */
export async function listEntryRows(db: Db, q: EntryListQuery): Promise<{ items: Entry[]; total: number }> {
  let base = db.kysely.selectFrom('entries').where('content_type_id', '=', q.contentTypeId);
  if (q.status) base = base.where(statusCondition(q.status, q.now, 'entries'));
  const [{ n }] = await base.select((eb) => eb.fn.countAll<number>().as('n')).execute();
  const key = sortExpression(db.dialect, q.sort, q.now, 'entries');
  const dir = q.sort.direction;
  const rows = await base
    .select(ROW_COLUMNS.map((c) => `entries.${c}` as const))
    .orderBy(key, (ob) => nullsOrdered(ob, q.sort))
    .orderBy('entries.id', dir)
    .offset(q.offset)
    .limit(q.limit)
    .execute();
  return { items: await withTranslations(db, rows), total: Number(n) };
}

/** Highest position among the type's entries, -1 when it has none. */
export async function maxPosition(db: Db, contentTypeId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('entries')
    .select((eb) => eb.fn.max<number | null>('position').as('m'))
    .where('content_type_id', '=', contentTypeId)
    .executeTakeFirst();
  return row?.m === null || row?.m === undefined ? -1 : Number(row.m);
}

/** Slugs of the type equal to `base` or starting with `base-` (for picking `base-2`, `base-3` …). */
export async function slugsLike(db: Db, contentTypeId: string, base: string): Promise<Set<string>> {
  const rows = await db.kysely
    .selectFrom('entries')
    .select('slug')
    .where('content_type_id', '=', contentTypeId)
    .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
    .execute();
  return new Set(rows.map((r) => r.slug));
}

/** Id of the entry of this type using `slug`, if any. */
export async function entryIdBySlug(db: Db, contentTypeId: string, slug: string): Promise<string | null> {
  const row = await db.kysely.selectFrom('entries').select('id').where('content_type_id', '=', contentTypeId).where('slug', '=', slug).executeTakeFirst();
  return row?.id ?? null;
}

export async function entryExists(db: Db, id: string): Promise<boolean> {
  return Boolean(await db.kysely.selectFrom('entries').select('id').where('id', '=', id).executeTakeFirst());
}

/** True when another entry of the type holds `value` in `data.<field>` (is_unique fields). */
export async function uniqueValueTaken(db: Db, contentTypeId: string, field: { name: string; field_type: FieldType }, value: unknown, exceptId: string | null): Promise<boolean> {
  const expr = dataFieldSql(db.dialect, field.name, field.field_type);
  let q = db.kysely
    .selectFrom('entries')
    .select('id')
    .where('content_type_id', '=', contentTypeId)
    .where((eb) => eb(expr, '=', value as string | number) as Expression<SqlBool>);
  if (exceptId) q = q.where('id', '!=', exceptId);
  return Boolean(await q.limit(1).executeTakeFirst());
}

/** Content type slug of each existing entry among `ids` in the workspace. */
export async function findEntryTypeSlugs(db: Db, workspaceId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.kysely
    .selectFrom('entries as e')
    .innerJoin('content_types as ct', 'ct.id', 'e.content_type_id')
    .select(['e.id', 'ct.slug'])
    .where('e.workspace_id', '=', workspaceId)
    .where('e.id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.slug]));
}

/** The ids among `ids` naming media of the workspace that are not deleted. */
export async function findLiveMediaIds(db: Db, workspaceId: string, ids: string[]): Promise<Set<string>> {
  const rows = await db.kysely
    .selectFrom('media')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.id));
}

export type NewEntryRow = Omit<Entry, 'translations'>;

export async function insertEntryRow(db: Db, entry: NewEntryRow): Promise<void> {
  await insertItemRow(db, ENTRY_TABLES, entry);
}

/** Working-copy columns and attributes of an entry row; publication columns go through the publishing core. */
export type EntryPatch = Partial<Pick<Entry, 'slug' | 'data' | 'position' | 'version' | 'updated_at' | 'updated_by'>>;

export async function updateEntryRow(db: Db, id: string, patch: EntryPatch): Promise<void> {
  await updateItemRow(db, ENTRY_TABLES, id, patch);
}

/** Removes an entry with its translations, its published copy and its history (D72). */
export async function deleteEntryRow(db: Db, id: string): Promise<void> {
  // The foreign keys cascade too; explicit deletes keep it obvious on both dialects.
  await db.kysely.deleteFrom('entry_translations').where('entry_id', '=', id).execute();
  await db.kysely.deleteFrom('published_entry_translations').where('entry_id', '=', id).execute();
  await deleteItemRow(db, ENTRY_TABLES, id);
}

/**
 * Makes the published copy of an entry (what production keys read, D70) equal to its working
 * copy: `published_data` and published_entry_translations.
 */
export async function copyEntryToPublished(db: Db, id: string): Promise<void> {
  await db.kysely.updateTable('entries').set((eb) => ({ published_data: eb.ref('data') })).where('id', '=', id).execute();
  await db.kysely.deleteFrom('published_entry_translations').where('entry_id', '=', id).execute();
  await db.kysely
    .insertInto('published_entry_translations')
    .columns(['entry_id', 'locale', 'id', 'data'])
    .expression(db.kysely.selectFrom('entry_translations').select(['entry_id', 'locale', 'id', 'data']).where('entry_id', '=', id))
    .execute();
}

/** Removes the published copy of an entry (unpublish, archive: D71). */
export async function dropEntryPublished(db: Db, id: string): Promise<void> {
  await db.kysely.updateTable('entries').set({ published_data: null }).where('id', '=', id).execute();
  await db.kysely.deleteFrom('published_entry_translations').where('entry_id', '=', id).execute();
}

/**
 * Makes the entry's translations exactly `wanted` (one per locale): existing locales are updated
 * in place (their integer ids stay), new ones inserted, the others deleted.
 */
export async function replaceTranslations(db: Db, entryId: string, wanted: { locale: string; data: EntryData }[], now: string): Promise<void> {
  const existing = await db.kysely.selectFrom('entry_translations').select(['id', 'locale']).where('entry_id', '=', entryId).execute();
  const wantedLocales = new Set(wanted.map((t) => t.locale));
  const stale = existing.filter((e) => !wantedLocales.has(e.locale)).map((e) => e.id);
  if (stale.length) await db.kysely.deleteFrom('entry_translations').where('id', 'in', stale).execute();
  const have = new Set(existing.map((e) => e.locale));
  for (const t of wanted) {
    if (have.has(t.locale)) {
      await db.kysely
        .updateTable('entry_translations')
        .set({ data: JSON.stringify(t.data), updated_at: now })
        .where('entry_id', '=', entryId)
        .where('locale', '=', t.locale)
        .execute();
    } else {
      await db.kysely.insertInto('entry_translations').values({ entry_id: entryId, locale: t.locale, data: JSON.stringify(t.data), created_at: now, updated_at: now }).execute();
    }
  }
}

/** Ids and positions of every entry of the type (reorder checks the complete list: D34). */
export async function entryPositions(db: Db, contentTypeId: string): Promise<{ id: string; position: number; version: number }[]> {
  const rows = await db.kysely.selectFrom('entries').select(['id', 'position', 'version']).where('content_type_id', '=', contentTypeId).orderBy('position').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, position: Number(r.position), version: Number(r.version) }));
}
