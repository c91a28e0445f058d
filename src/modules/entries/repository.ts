/**
 * SQL for entries and their translations (one Kysely code path for SQLite and PostgreSQL; the
 * only dialect-dependent piece, JSON field access, comes from src/db/dialect.ts).
 *
 * Concurrency: writers take row locks (src/db/lock.ts) before reading what they will change
 * (lockContentType for writes that check slugs, unique values or positions; findEntryForUpdate
 * for writes to one entry). On PostgreSQL that serializes competing writers; SQLite runs one
 * write transaction at a time anyway. Lock order is always content type, then entry.
 */
import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/types.js';
import { comparableValue, dataFieldKind, dataFieldSql, type DataColumn } from '../../db/dialect.js';
import { fromJsonColumn } from '../../lib/json.js';
import type { FieldType } from '../content-types/model.js';
import { ITEM_COLUMNS, toItemRecord, type ItemRow } from '../publishing/item.js';
import { deleteItemRow, ENTRY_TABLES, insertItemRow, itemStore, updateItemRow, updateItemRows, type ItemRef } from '../publishing/repository.js';
import type { Entry, EntryData, EntryTranslation } from './model.js';

/** Addresses one entry of a content type. */
export type EntryRef = ItemRef;

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
    out.get(r.entry_id)?.push({
      id: Number(r.id),
      entry_id: r.entry_id,
      locale: r.locale,
      data: fromJsonColumn<EntryData>(r.data, {}),
      created_at: r.created_at,
      updated_at: r.updated_at,
    });
  }
  return out;
}

async function withTranslations(db: Db, rows: EntryRow[]): Promise<Entry[]> {
  const tr = await loadTranslations(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toEntry(r, tr.get(r.id) ?? []));
}

/**
 * Reads and locks of entries (the shared ItemStore, scoped by content type): findEntry (one
 * entry by id or slug, with its translations), findEntryForUpdate (locks its row first),
 * lockContentType (serializes writers that check slugs, unique values or positions) and
 * listEntryRows (a management page of working copies and the total), entryIdBySlug, slugsLike, maxPosition and entryExists.
 */
export const {
  find: findEntry,
  findForUpdate: findEntryForUpdate,
  lockScope: lockContentType,
  list: listEntryRows,
  idBySlug: entryIdBySlug,
  slugsLike,
  maxPosition,
  exists: entryExists,
} = itemStore<EntryRow, Entry>(ENTRY_TABLES, ROW_COLUMNS, 'content_type_id', withTranslations);

/** The entries with these ids, of any content type, with their translations; absent ids are left out. */
export async function findEntriesByIds(db: Db, ids: readonly string[]): Promise<Entry[]> {
  if (ids.length === 0) return [];
  const rows = await db.kysely
    .selectFrom('entries')
    .select(ROW_COLUMNS.map((c) => sql.ref(c).as(c)))
    .where('id', 'in', [...ids])
    .execute();
  return withTranslations(db, rows as unknown as EntryRow[]);
}

/**
 * True when another entry of the type (not `exceptId`, or none of those ids) holds `value` in
 * `<column>.<field>` (`data`: working copies; `published_data`: published versions) (is_unique fields; a
 * datetime by its instant: dialect.ts comparableValue). The content type id is written into the SQL as a literal so both planners match the field's partial
 * unique index (its WHERE names that literal) and read one index entry, not every entry.
 */
export async function uniqueValueTaken(
  db: Db,
  contentTypeId: string,
  field: { name: string; field_type: FieldType },
  value: unknown,
  exceptId: string | null | readonly string[],
  column: DataColumn = 'data',
): Promise<boolean> {
  const expr = dataFieldSql(db.dialect, field.name, field.field_type, undefined, column);
  let q = db.kysely
    .selectFrom('entries')
    .select('id')
    .where('content_type_id', '=', sql.lit(contentTypeId))
    .where((eb) => eb(expr, '=', comparableValue(field.field_type, value) as string | number) as Expression<SqlBool>);
  if (typeof exceptId === 'string') q = q.where('id', '!=', exceptId);
  else if (exceptId && exceptId.length) q = q.where('id', 'not in', exceptId);
  return Boolean(await q.limit(1).executeTakeFirst());
}

/**
 * One key per value as the database compares unique values (uniqueValueTaken): numbers by value
 * (`5` and PostgreSQL's numeric `"5.0"` alike), booleans by truth, datetimes by instant, text as
 * it is. Used to match the values valuesHeld returns to the values asked for.
 */
export function uniqueValueKey(fieldType: FieldType, value: unknown): string {
  const kind = dataFieldKind(fieldType);
  if (kind === 'num') return `n:${Number(value)}`;
  if (kind === 'bool') return `b:${value === true || value === 1 || value === '1' || value === 'true'}`;
  return `s:${String(comparableValue(fieldType, value))}`;
}

/** Values per statement of valuesHeld: one bound value each. */
const VALUES_PER_STATEMENT = 500;

/**
 * Which entries of content type `contentTypeId` hold one of `values` in `field` (in `column`): a
 * statement per 500 values instead of one uniqueValueTaken per value, for checks over many items
 * at once (a release's publication). Answers `{ id, key }` pairs, `key` as uniqueValueKey makes
 * it; callers leave out the ids they exclude.
 */
export async function valuesHeld(
  db: Db,
  contentTypeId: string,
  field: { name: string; field_type: FieldType },
  values: readonly unknown[],
  column: DataColumn = 'data',
): Promise<{ id: string; key: string }[]> {
  const expr = dataFieldSql(db.dialect, field.name, field.field_type, undefined, column);
  const out: { id: string; key: string }[] = [];
  for (let i = 0; i < values.length; i += VALUES_PER_STATEMENT) {
    const chunk = values.slice(i, i + VALUES_PER_STATEMENT).map((v) => comparableValue(field.field_type, v) as string | number);
    const rows = await db.kysely
      .selectFrom('entries')
      .select(['id', sql<unknown>`${expr}`.as('value')])
      // A literal, as in uniqueValueTaken: the unique indexes are partial, one per content type.
      .where('content_type_id', '=', sql.lit(contentTypeId))
      .where((eb) => eb(expr, 'in', chunk) as Expression<SqlBool>)
      .execute();
    for (const r of rows) out.push({ id: r.id, key: uniqueValueKey(field.field_type, r.value) });
  }
  return out;
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

/** The media of the workspace among `ids` that are not deleted: id → MIME type (media_kinds rules judge the kind by it). */
export async function findLiveMediaTypes(db: Db, workspaceId: string, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.kysely
    .selectFrom('media')
    .select(['id', 'mime_type'])
    .where('workspace_id', '=', workspaceId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .execute();
  return new Map(rows.map((r) => [r.id, r.mime_type]));
}

export type NewEntryRow = Omit<Entry, 'translations'>;

export const insertEntryRow = (db: Db, entry: NewEntryRow): Promise<void> => insertItemRow(db, ENTRY_TABLES, entry);

/** Working-copy columns and attributes of an entry row; publication columns go through the publishing core. */
export type EntryPatch = Partial<Pick<Entry, 'slug' | 'data' | 'position' | 'version' | 'updated_at' | 'updated_by'>>;

export const updateEntryRow = (db: Db, id: string, patch: EntryPatch): Promise<void> => updateItemRow(db, ENTRY_TABLES, id, patch);

/** Removes an entry with its translations, its published copy and its history (D72). */
export async function deleteEntryRow(db: Db, id: string): Promise<void> {
  // The foreign keys cascade too; explicit deletes keep it obvious on both dialects.
  await db.kysely.deleteFrom('entry_translations').where('entry_id', '=', id).execute();
  await db.kysely.deleteFrom('published_entry_translations').where('entry_id', '=', id).execute();
  // A deleted entry leaves every release it was in, with its release versions (D110).
  await db.kysely.deleteFrom('release_items').where('kind', '=', 'entry').where('item_id', '=', id).execute();
  await deleteItemRow(db, ENTRY_TABLES, id);
}

/**
 * Makes the published copy of an entry (what production keys read, D70) equal to its working
 * copy: `published_data` and published_entry_translations.
 */
export async function copyEntryToPublished(db: Db, id: string): Promise<void> {
  await db.kysely
    .updateTable('entries')
    .set((eb) => ({ published_data: eb.ref('data') }))
    .where('id', '=', id)
    .execute();
  await db.kysely.deleteFrom('published_entry_translations').where('entry_id', '=', id).execute();
  await copyTranslationsToPublished(db, [id]);
}

/**
 * Adds the working translations of entries `ids` (ids kept) to their published copy, 500
 * entries per statement: the translation half of publishing. Callers whose entries may hold
 * published translations clear them first (copyEntryToPublished); the importer's bulk path
 * calls it for entries it has just created, whose rows are inserted with their published data.
 */
export async function copyTranslationsToPublished(db: Db, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await db.kysely
      .insertInto('published_entry_translations')
      .columns(['entry_id', 'locale', 'id', 'data'])
      .expression(
        db.kysely
          .selectFrom('entry_translations')
          .select(['entry_id', 'locale', 'id', 'data'])
          .where('entry_id', 'in', ids.slice(i, i + 500)),
      )
      .execute();
  }
}

/** Removes the published copy of an entry (unpublish, archive: D71). */
export async function dropEntryPublished(db: Db, id: string): Promise<void> {
  await db.kysely.updateTable('entries').set({ published_data: null }).where('id', '=', id).execute();
  await db.kysely.deleteFrom('published_entry_translations').where('entry_id', '=', id).execute();
}

/** An entry's content as a snapshot holds it (snapshot.ts), for the batch writers below. */
export interface EntryContent {
  id: string;
  data: EntryData;
  translations: readonly { id: number; locale: string; data: EntryData }[];
}

/** Rows per multi-row INSERT of translations (4–6 bound values each). */
const TRANSLATION_CHUNK = 200;

/**
 * Replaces the published copies of these entries (`published_data` and published translations,
 * translation ids kept) by the given content, a few statements per 200 entries whatever their
 * number: a release's publication and its revert (src/modules/publishing/snapshots.ts).
 */
export async function writeEntryPublishedCopies(db: Db, items: readonly EntryContent[]): Promise<void> {
  if (items.length === 0) return;
  await updateItemRows(
    db,
    ENTRY_TABLES,
    items.map((i) => ({ id: i.id, columns: { published_data: i.data } })),
  );
  const ids = items.map((i) => i.id);
  for (let i = 0; i < ids.length; i += 500)
    await db.kysely
      .deleteFrom('published_entry_translations')
      .where('entry_id', 'in', ids.slice(i, i + 500))
      .execute();
  const rows = items.flatMap((i) => i.translations.map((t) => ({ entry_id: i.id, locale: t.locale, id: t.id, data: JSON.stringify(t.data) })));
  for (let i = 0; i < rows.length; i += TRANSLATION_CHUNK)
    await db.kysely
      .insertInto('published_entry_translations')
      .values(rows.slice(i, i + TRANSLATION_CHUNK))
      .execute();
}

/** Removes the published copies of these entries (a release's unpublish items). */
export async function dropEntryPublishedCopies(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await updateItemRows(
    db,
    ENTRY_TABLES,
    ids.map((id) => ({ id, columns: { published_data: null } })),
  );
  for (let i = 0; i < ids.length; i += 500)
    await db.kysely
      .deleteFrom('published_entry_translations')
      .where('entry_id', 'in', ids.slice(i, i + 500))
      .execute();
}

/**
 * Replaces the working copies of these entries (`data` and translations, which get new ids) by
 * the given content at `now`, in a few statements per 200 entries.
 */
export async function writeEntryWorkingCopies(db: Db, items: readonly EntryContent[], now: string): Promise<void> {
  if (items.length === 0) return;
  await updateItemRows(
    db,
    ENTRY_TABLES,
    items.map((i) => ({ id: i.id, columns: { data: i.data } })),
  );
  const ids = items.map((i) => i.id);
  for (let i = 0; i < ids.length; i += 500)
    await db.kysely
      .deleteFrom('entry_translations')
      .where('entry_id', 'in', ids.slice(i, i + 500))
      .execute();
  const rows = items.flatMap((i) =>
    i.translations.map((t) => ({ entry_id: i.id, locale: t.locale, data: JSON.stringify(t.data), created_at: now, updated_at: now })),
  );
  for (let i = 0; i < rows.length; i += TRANSLATION_CHUNK)
    await db.kysely
      .insertInto('entry_translations')
      .values(rows.slice(i, i + TRANSLATION_CHUNK))
      .execute();
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
      await db.kysely
        .insertInto('entry_translations')
        .values({ entry_id: entryId, locale: t.locale, data: JSON.stringify(t.data), created_at: now, updated_at: now })
        .execute();
    }
  }
}

/** Ids and positions of every entry of the type (reorder checks the complete list: D34). */
export async function entryPositions(db: Db, contentTypeId: string): Promise<{ id: string; position: number; version: number }[]> {
  const rows = await db.kysely
    .selectFrom('entries')
    .select(['id', 'position', 'version'])
    .where('content_type_id', '=', contentTypeId)
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, position: Number(r.position), version: Number(r.version) }));
}
