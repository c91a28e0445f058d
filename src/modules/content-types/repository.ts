/** SQL for content types and fields, including the expression indexes of D43 / issue item 9. */
import { sql } from 'kysely';
import type { Db } from '../../db/types.js';
import { createDataIndexSql, createUniqueIndexSql, dataFieldJsonTypeSql, dataFieldKind, dropDataIndexSql, dropUniqueIndexSql } from '../../db/dialect.js';
import { fieldTypesNeedingDataIndex } from './index-build-repository.js';
import type { ContentType, Field, FieldType } from './model.js';

type CtRow = Omit<ContentType, 'fields' | 'is_block' | 'orderable'> & { is_block: number; orderable: number };
type FieldRow = Omit<Field, 'required' | 'is_unique' | 'localizable' | 'filterable' | 'sortable' | 'field_type' | 'index_build'> & {
  field_type: string;
  required: number;
  is_unique: number;
  localizable: number;
  filterable: number;
  sortable: number;
};
/** The columns of a field's index build (migration 017), joined to its row; all null without one. */
type BuildColumns = {
  b_state: string | null;
  b_filterable: number | null;
  b_sortable: number | null;
  b_is_unique: number | null;
  b_indexes_built: number | null;
  b_indexes_total: number | null;
  b_error: string | null;
  b_started_at: string | null;
  b_updated_at: string | null;
};

export function toField(row: FieldRow & Partial<BuildColumns>): Field {
  const { b_state, b_filterable, b_sortable, b_is_unique, b_indexes_built, b_indexes_total, b_error, b_started_at, b_updated_at, ...columns } = row;
  return {
    ...columns,
    field_type: row.field_type as FieldType,
    required: Boolean(row.required),
    is_unique: Boolean(row.is_unique),
    localizable: Boolean(row.localizable),
    filterable: Boolean(row.filterable),
    sortable: Boolean(row.sortable),
    index_build: b_state
      ? {
          state: b_state === 'failed' ? 'failed' : 'building',
          filterable: Boolean(b_filterable),
          sortable: Boolean(b_sortable),
          is_unique: Boolean(b_is_unique),
          indexes_built: Number(b_indexes_built ?? 0),
          indexes_total: Number(b_indexes_total ?? 0),
          error: b_error ?? null,
          started_at: b_started_at ?? '',
          updated_at: b_updated_at ?? '',
        }
      : null,
  };
}

function toContentType(row: CtRow, fields: Field[]): ContentType {
  return { ...row, is_block: Boolean(row.is_block), orderable: Boolean(row.orderable), fields };
}

/** Fields of the given content types, ordered by sort_order then name, grouped by type id. */
export async function fieldsByContentType(db: Db, contentTypeIds: string[]): Promise<Map<string, Field[]>> {
  const out = new Map<string, Field[]>(contentTypeIds.map((id) => [id, []]));
  if (contentTypeIds.length === 0) return out;
  const rows = await db.kysely
    .selectFrom('fields')
    .leftJoin('field_index_builds as b', 'b.field_id', 'fields.id')
    .selectAll('fields')
    .select([
      'b.state as b_state',
      'b.filterable as b_filterable',
      'b.sortable as b_sortable',
      'b.is_unique as b_is_unique',
      'b.indexes_built as b_indexes_built',
      'b.indexes_total as b_indexes_total',
      'b.error as b_error',
      'b.started_at as b_started_at',
      'b.updated_at as b_updated_at',
    ])
    .where('fields.content_type_id', 'in', contentTypeIds)
    .orderBy('fields.sort_order')
    .orderBy('fields.created_at')
    .orderBy('fields.id')
    .execute();
  for (const row of rows) out.get(row.content_type_id)?.push(toField(row));
  return out;
}

async function withFields(db: Db, rows: CtRow[]): Promise<ContentType[]> {
  const fields = await fieldsByContentType(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toContentType(r, fields.get(r.id) ?? []));
}

export async function findContentTypeBySlug(db: Db, workspaceId: string, slug: string): Promise<ContentType | null> {
  const row = await db.kysely.selectFrom('content_types').selectAll().where('workspace_id', '=', workspaceId).where('slug', '=', slug).executeTakeFirst();
  return row ? (await withFields(db, [row]))[0] : null;
}

export async function findContentTypeById(db: Db, id: string): Promise<ContentType | null> {
  const row = await db.kysely.selectFrom('content_types').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? (await withFields(db, [row]))[0] : null;
}

/** The content type holding field `fieldId`, with its fields; null when the field is gone. */
export async function findContentTypeOfField(db: Db, fieldId: string): Promise<ContentType | null> {
  const row = await db.kysely.selectFrom('fields').select('content_type_id').where('id', '=', fieldId).executeTakeFirst();
  return row ? findContentTypeById(db, row.content_type_id) : null;
}

/** Every content type of a workspace with fields, ordered by name (schema, relation targets). */
export async function listAllContentTypes(db: Db, workspaceId: string): Promise<ContentType[]> {
  const rows = await db.kysely.selectFrom('content_types').selectAll().where('workspace_id', '=', workspaceId).orderBy('name').orderBy('id').execute();
  return withFields(db, rows);
}

export interface ContentTypeListQuery {
  isBlock?: boolean;
  /** The entry types listed (block types always are); absent: every type (D120). */
  entryTypes?: readonly string[] | null;
  offset: number;
  limit: number;
}

export async function listContentTypes(db: Db, workspaceId: string, q: ContentTypeListQuery): Promise<{ items: ContentType[]; total: number }> {
  let base = db.kysely.selectFrom('content_types').where('workspace_id', '=', workspaceId);
  if (q.isBlock !== undefined) base = base.where('is_block', '=', q.isBlock ? 1 : 0);
  const readable = q.entryTypes;
  if (readable) base = base.where((eb) => (readable.length ? eb.or([eb('is_block', '=', 1), eb('slug', 'in', readable)]) : eb('is_block', '=', 1)));
  const [{ n }] = await base.select((eb) => eb.fn.countAll<number>().as('n')).execute();
  const rows = await base.selectAll().orderBy('name').orderBy('id').offset(q.offset).limit(q.limit).execute();
  return { items: await withFields(db, rows), total: Number(n) };
}

/** Which of `slugs` name entry types (not block types) of the workspace. */
export async function entryTypeSlugsAmong(db: Db, workspaceId: string, slugs: readonly string[]): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  const rows = await db.kysely
    .selectFrom('content_types')
    .select('slug')
    .where('workspace_id', '=', workspaceId)
    .where('is_block', '=', 0)
    .where('slug', 'in', slugs)
    .execute();
  return new Set(rows.map((r) => r.slug));
}

export async function insertContentType(db: Db, ct: ContentType): Promise<void> {
  const { fields: _fields, ...row } = ct;
  await db.kysely
    .insertInto('content_types')
    .values({ ...row, is_block: ct.is_block ? 1 : 0, orderable: ct.orderable ? 1 : 0 })
    .execute();
}

export async function updateContentTypeRow(
  db: Db,
  id: string,
  patch: Partial<Pick<ContentType, 'name' | 'description' | 'icon' | 'display_field' | 'orderable' | 'is_block'>>,
  now: string,
): Promise<void> {
  const { orderable, is_block, ...rest } = patch;
  await db.kysely
    .updateTable('content_types')
    .set({
      ...rest,
      ...(orderable === undefined ? {} : { orderable: orderable ? 1 : 0 }),
      ...(is_block === undefined ? {} : { is_block: is_block ? 1 : 0 }),
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteContentTypeRow(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('content_types').where('id', '=', id).execute();
}

export async function countEntriesOfType(db: Db, contentTypeId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('content_type_id', '=', contentTypeId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many fields each content type of the workspace holds (types without fields are left out). */
export async function fieldCountsOfWorkspace(db: Db, workspaceId: string): Promise<{ content_type_id: string; slug: string; n: number }[]> {
  const rows = await db.kysely
    .selectFrom('fields as f')
    .innerJoin('content_types as ct', 'ct.id', 'f.content_type_id')
    .select(['f.content_type_id', 'ct.slug', (eb) => eb.fn.countAll<number>().as('n')])
    .where('ct.workspace_id', '=', workspaceId)
    .groupBy(['f.content_type_id', 'ct.slug'])
    .execute();
  return rows.map((r) => ({ content_type_id: r.content_type_id, slug: r.slug, n: Number(r.n) }));
}

export async function insertField(db: Db, field: Field): Promise<void> {
  const { index_build: _build, ...columns } = field;
  await db.kysely
    .insertInto('fields')
    .values({
      ...columns,
      required: field.required ? 1 : 0,
      is_unique: field.is_unique ? 1 : 0,
      localizable: field.localizable ? 1 : 0,
      filterable: field.filterable ? 1 : 0,
      sortable: field.sortable ? 1 : 0,
    })
    .execute();
}

export async function updateFieldRow(
  db: Db,
  id: string,
  patch: { label?: string; filterable?: boolean; sortable?: boolean; is_unique?: boolean; sort_order?: number },
  now: string,
): Promise<void> {
  const set: Record<string, unknown> = { updated_at: now };
  if (patch.is_unique !== undefined) set.is_unique = patch.is_unique ? 1 : 0;
  if (patch.label !== undefined) set.label = patch.label;
  if (patch.filterable !== undefined) set.filterable = patch.filterable ? 1 : 0;
  if (patch.sortable !== undefined) set.sortable = patch.sortable ? 1 : 0;
  if (patch.sort_order !== undefined) set.sort_order = patch.sort_order;
  await db.kysely.updateTable('fields').set(set).where('id', '=', id).execute();
}

/**
 * Creates or drops the expression index serving `data.<name>` for fields of this kind, so it
 * exists exactly while some content type has such a field marked filterable or sortable (or
 * waiting for a background build that will mark it so).
 */
export async function syncDataIndex(db: Db, fieldName: string, fieldType: FieldType): Promise<void> {
  const kind = dataFieldKind(fieldType);
  const needs = await fieldTypesNeedingDataIndex(db, fieldName);
  const needed = needs.on.some((t) => dataFieldKind(t) === kind);
  // A background build (index-builds.ts) makes the index itself; it must not be dropped under it.
  if (!needed && needs.waiting.some((t) => dataFieldKind(t) === kind)) return;
  // One index on the working copy (management, preview keys), one on the published version
  // (production keys): both kinds of delivery query filter and sort through an index (D70).
  for (const column of ['data', 'published_data'] as const) {
    const ddl = needed ? createDataIndexSql(db.dialect, fieldName, fieldType, column) : dropDataIndexSql(fieldName, fieldType, column);
    await sql.raw(ddl).execute(db.kysely);
  }
}

/**
 * Creates the unique index backing an `is_unique` field (one per field, over the type's entries),
 * so checking a value reads one index entry instead of every entry of the type, and the database
 * itself refuses a duplicate. Fails if the type's entries already hold duplicates.
 */
export async function createUniqueIndex(db: Db, contentTypeId: string, field: Pick<Field, 'id' | 'name' | 'field_type'>): Promise<void> {
  await sql.raw(createUniqueIndexSql(db.dialect, contentTypeId, field.id, field.name, field.field_type)).execute(db.kysely);
}

/** Drops the unique indexes of these fields (their content type is being deleted). */
export async function dropUniqueIndexes(db: Db, fields: readonly Pick<Field, 'id' | 'is_unique'>[]): Promise<void> {
  for (const f of fields) if (f.is_unique) await sql.raw(dropUniqueIndexSql(f.id)).execute(db.kysely);
}

/** Entries of a content type holding a (non-null) value for `fieldName` in their default data. */
export async function countEntriesWithValue(db: Db, contentTypeId: string, fieldName: string): Promise<number> {
  const expr = dataFieldJsonTypeSql(db.dialect, fieldName);
  const row = await db.kysely
    .selectFrom('entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('content_type_id', '=', contentTypeId)
    .where(sql`${expr}`, 'is not', null)
    .where(sql`${expr}`, '!=', 'null')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Per locale, translations of this type's entries holding a value for `fieldName`. */
export async function countTranslationsWithValue(db: Db, contentTypeId: string, fieldName: string): Promise<{ locale: string; count: number }[]> {
  const expr = dataFieldJsonTypeSql(db.dialect, fieldName, 't');
  const rows = await db.kysely
    .selectFrom('entry_translations as t')
    .innerJoin('entries as e', 'e.id', 't.entry_id')
    .select(['t.locale', (eb) => eb.fn.countAll<number>().as('n')])
    .where('e.content_type_id', '=', contentTypeId)
    .where(sql`${expr}`, 'is not', null)
    .where(sql`${expr}`, '!=', 'null')
    .groupBy('t.locale')
    .orderBy('t.locale')
    .execute();
  return rows.map((r) => ({ locale: r.locale, count: Number(r.n) }));
}
