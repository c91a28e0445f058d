/**
 * Field definitions (docs/api.md "Fields" (D30, D31), "Rules Quire decided" (D34),
 * "Content types" (D35)): building and checking a
 * new field, and the field operations (list, create, PATCH label/filterable/sortable, reorder,
 * impact reports). Writes need `schema:write`.
 */
import type { Context } from '../../context.js';
import { lockRows } from '../../db/lock.js';
import { withTransaction } from '../../db/transaction.js';
import type { Db } from '../../db/types.js';
import { invalid, notFound, validationError, type ErrorDetail } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { isPlainObject } from '../../lib/json.js';
import { compilePattern } from '../../lib/pattern.js';
import { assertCompleteOrder } from '../../lib/order.js';
import { iso } from '../../lib/time.js';
import { authorizeItem } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { requireContentType } from './lookup.js';
import { fieldCapProblem, FIELD_NAME_PATTERN, FIELD_TYPES, INDEXABLE_TYPES, UNIQUE_TYPES, type ContentType, type Field, type FieldType } from './model.js';
import {
  countEntriesWithValue,
  countTranslationsWithValue,
  createUniqueIndex,
  findContentTypeById,
  insertField,
  syncDataIndex,
  updateFieldRow,
} from './repository.js';
import { anyFlag, planFlags, recordBuild, waitingFlags } from './index-builds.js';
import { recordAudit, type AuditTarget } from '../audit/record.js';
import { recordContentTypeEvent } from '../events/record.js';
import { ASSET_KINDS, isAssetKind } from '../media/kinds.js';

export interface FieldInput {
  name: string;
  label?: string;
  field_type: string;
  required?: boolean;
  is_unique?: boolean;
  localizable?: boolean;
  filterable?: boolean;
  sortable?: boolean;
  sort_order?: number;
  /** JSON-encoded array of strings, or the array itself (D2 spirit: objects are accepted too). */
  options?: string | string[] | null;
  /** JSON-encoded object, or the object itself. */
  validation?: string | Record<string, unknown> | null;
}

const OPTION_TYPES = new Set<FieldType>(['select', 'multi_select', 'relation', 'relation_list']);
const VALIDATION_KEYS = new Set(['min', 'max', 'min_length', 'max_length', 'pattern', 'media_kinds']);
const MEDIA_TYPES = new Set<FieldType>(['media', 'media_list']);

/**
 * The problem of a `media_kinds` rule for a field of `type`, or null: only media and media_list
 * fields take it, as a non-empty list of distinct kinds of media/kinds.ts.
 */
function mediaKindsProblem(type: FieldType, value: unknown): string | null {
  if (!MEDIA_TYPES.has(type)) return 'only media and media_list fields take media_kinds';
  if (!Array.isArray(value) || value.length === 0) return `must be a non-empty array of media kinds (${ASSET_KINDS.join(', ')})`;
  const unknown = value.find((k) => !isAssetKind(k));
  if (unknown !== undefined) return `${JSON.stringify(unknown)} is not a media kind; the kinds are ${ASSET_KINDS.join(', ')}`;
  if (new Set(value).size !== value.length) return 'must name each kind once';
  return null;
}

function parseMaybeJson(value: unknown, path: string, errors: ErrorDetail[]): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    errors.push({ path, message: 'must be valid JSON' });
    return undefined;
  }
}

/**
 * Checks a field definition and returns the Field to insert (or the errors, with `path` prefixed
 * by `pathPrefix`, e.g. `body` or `body.fields.2`).
 */
export function buildField(
  contentTypeId: string,
  input: FieldInput,
  defaultOrder: number,
  now: string,
  pathPrefix = 'body',
): { field: Field | null; errors: ErrorDetail[] } {
  const errors: ErrorDetail[] = [];
  const at = (k: string) => `${pathPrefix}.${k}`;
  if (!FIELD_NAME_PATTERN.test(input.name)) errors.push({ path: at('name'), message: 'must match ^[a-z][a-zA-Z0-9_]{0,63}$' });
  const type = input.field_type as FieldType;
  if (!(FIELD_TYPES as readonly string[]).includes(type)) errors.push({ path: at('field_type'), message: `must be one of ${FIELD_TYPES.join(', ')}` });

  let options: string[] | null = null;
  if (input.options !== undefined && input.options !== null) {
    const parsed = parseMaybeJson(input.options, at('options'), errors);
    if (parsed !== undefined) {
      if (!Array.isArray(parsed) || parsed.some((o) => typeof o !== 'string' || o.length === 0 || o.length > 200)) {
        errors.push({ path: at('options'), message: 'must be a JSON array of non-empty strings' });
      } else if (!OPTION_TYPES.has(type) && parsed.length > 0) {
        errors.push({ path: at('options'), message: 'only select, multi_select, relation and relation_list fields take options' });
      } else {
        options = [...new Set(parsed as string[])];
      }
    }
  }
  if ((type === 'select' || type === 'multi_select') && (!options || options.length === 0)) {
    errors.push({ path: at('options'), message: `a ${type} field needs options: the list of its choices` });
  }

  let validation: Record<string, unknown> | null = null;
  if (input.validation !== undefined && input.validation !== null) {
    const parsed = parseMaybeJson(input.validation, at('validation'), errors);
    if (parsed !== undefined) {
      if (!isPlainObject(parsed)) errors.push({ path: at('validation'), message: 'must be a JSON object' });
      else {
        for (const [k, v] of Object.entries(parsed)) {
          if (!VALIDATION_KEYS.has(k))
            errors.push({ path: at(`validation.${k}`), message: 'is not a known rule (min, max, min_length, max_length, pattern, media_kinds)' });
          else if (k === 'media_kinds') {
            const problem = mediaKindsProblem(type, v);
            if (problem) errors.push({ path: at('validation.media_kinds'), message: problem });
          } else if (k === 'pattern') {
            if (typeof v !== 'string' || v.length > 500)
              errors.push({ path: at('validation.pattern'), message: 'must be a regular expression of at most 500 characters' });
            else {
              const compiled = compilePattern(v);
              if ('error' in compiled) errors.push({ path: at('validation.pattern'), message: compiled.error });
            }
          } else if (typeof v !== 'number' || !Number.isFinite(v) || ((k === 'min_length' || k === 'max_length') && (!Number.isInteger(v) || v < 0))) {
            errors.push({ path: at(`validation.${k}`), message: 'must be a number (a non-negative integer for lengths)' });
          }
        }
        validation = parsed;
      }
    }
  }

  const filterable = input.filterable ?? false;
  const sortable = input.sortable ?? false;
  if ((filterable || sortable) && !INDEXABLE_TYPES.has(type)) {
    errors.push({ path: at(filterable ? 'filterable' : 'sortable'), message: `${type} fields cannot be filterable or sortable` });
  }
  const isUnique = input.is_unique ?? false;
  if (isUnique && !UNIQUE_TYPES.has(type)) errors.push({ path: at('is_unique'), message: `${type} fields cannot be unique` });
  const label = (input.label ?? input.name).trim();
  if (!label || label.length > 200) errors.push({ path: at('label'), message: 'must be 1 to 200 characters' });
  if (errors.length) return { field: null, errors };
  return {
    errors,
    field: {
      id: newId(),
      content_type_id: contentTypeId,
      name: input.name,
      label,
      field_type: type,
      required: input.required ?? false,
      is_unique: isUnique,
      localizable: input.localizable ?? false,
      filterable,
      sortable,
      sort_order: input.sort_order ?? defaultOrder,
      options: options ? JSON.stringify(options) : null,
      validation: validation ? JSON.stringify(validation) : null,
      created_at: now,
      updated_at: now,
      index_build: null,
    },
  };
}

function requireField(ct: ContentType, fieldId: string): Field {
  const f = ct.fields.find((x) => x.id === fieldId);
  if (!f) throw notFound(`field '${fieldId}' of content type '${ct.slug}'`);
  return f;
}

export async function listFields(ctx: Context, actor: Actor, slug: string): Promise<Field[]> {
  return (await requireContentType(ctx, actor.workspaceId, slug)).fields;
}

/**
 * Inserts a new field of `ct` (in transaction `db`) with its indexes. Flags whose index must be
 * built over a big table wait for a background build (index-builds.ts): the field is inserted
 * with them off and `index_build` says what is being built. Returns the field as inserted.
 */
export async function insertFieldWithIndexes(ctx: Context, db: Db, ct: Pick<ContentType, 'id'>, built: Field): Promise<Field> {
  const wanted = { filterable: built.filterable, sortable: built.sortable, is_unique: built.is_unique };
  const plan = await planFlags(ctx, db, ct.id, built, wanted, false);
  const field: Field = { ...built, ...plan.now };
  await insertField(db, field);
  if (field.filterable || field.sortable) await syncDataIndex(db, field.name, field.field_type);
  if (field.is_unique) await createUniqueIndex(db, ct.id, field);
  if (anyFlag(plan.later)) field.index_build = await recordBuild(db, ct.id, field, plan.later, field.created_at);
  return field;
}

/**
 * POST .../fields: appends a field; existing entries simply hold no value for it (docs/api.md
 * "Fields"). A type
 * already holding MAX_FIELDS_PER_TYPE fields answers 400 (fieldCapProblem); the type's row is
 * locked first, so concurrent additions count each other's fields.
 */
export async function createField(ctx: Context, actor: Actor, slug: string, input: FieldInput): Promise<Field> {
  authorizeItem(actor, { resource: 'content_types', action: 'update' });
  const created = await withTransaction(ctx.db, async (db) => {
    const found = await requireContentType({ ...ctx, db }, actor.workspaceId, slug);
    await lockRows(db, 'content_types', { id: found.id });
    // Read again under the lock: a concurrent addition may have committed since the first read.
    const ct = (await findContentTypeById(db, found.id)) ?? found;
    const cap = fieldCapProblem(ct.fields.length, 1);
    if (cap) throw invalid('body', cap);
    const order = ct.fields.reduce((m, f) => Math.max(m, f.sort_order + 1), 0);
    const { field: built, errors } = buildField(ct.id, input, order, iso(ctx.clock()));
    if (!built) throw validationError(errors);
    if (ct.fields.some((f) => f.name === built.name)) throw invalid('body.name', `content type '${slug}' already has a field '${built.name}'`);
    const field = await insertFieldWithIndexes(ctx, db, ct, built);
    await recordContentTypeEvent(db, field.created_at, ct, 'updated');
    await recordAudit(db, { workspaceId: ct.workspace_id, at: field.created_at, actor, action: 'field.created', target: fieldTarget(ct, field) });
    return field;
  });
  if (created.index_build) ctx.indexBuilds?.kick();
  return created;
}

/**
 * PATCH .../fields/{id}: label, filterable, sortable; creates or drops the field's index. Turning
 * a flag on over a big table answers with the flag still off and `index_build` (the flag turns on
 * once the index is ready); turning a waiting flag off cancels it; a failed build's record goes
 * with the next PATCH of a flag.
 */
export async function updateField(
  ctx: Context,
  actor: Actor,
  slug: string,
  fieldId: string,
  patch: { label?: string; filterable?: boolean; sortable?: boolean },
): Promise<Field> {
  authorizeItem(actor, { resource: 'content_types', action: 'update' });
  const updated = await withTransaction(ctx.db, async (db) => {
    const ct = await requireContentType({ ...ctx, db }, actor.workspaceId, slug);
    const field = requireField(ct, fieldId);
    const errors: ErrorDetail[] = [];
    if (patch.label !== undefined && (!patch.label.trim() || patch.label.length > 200))
      errors.push({ path: 'body.label', message: 'must be 1 to 200 characters' });
    if ((patch.filterable || patch.sortable) && !INDEXABLE_TYPES.has(field.field_type)) {
      errors.push({ path: `body.${patch.filterable ? 'filterable' : 'sortable'}`, message: `${field.field_type} fields cannot be filterable or sortable` });
    }
    if (errors.length) throw validationError(errors);
    const now = iso(ctx.clock());
    const clean: { label?: string; filterable?: boolean; sortable?: boolean } = patch.label !== undefined ? { label: patch.label.trim() } : {};
    let indexBuild = field.index_build;
    if (patch.filterable !== undefined || patch.sortable !== undefined) {
      const waiting = waitingFlags(field.index_build);
      const wanted = {
        filterable: patch.filterable ?? (field.filterable || waiting.filterable),
        sortable: patch.sortable ?? (field.sortable || waiting.sortable),
        is_unique: false,
      };
      const plan = await planFlags(ctx, db, ct.id, field, wanted, field.filterable || field.sortable);
      clean.filterable = plan.now.filterable;
      clean.sortable = plan.now.sortable;
      // Before the index sync, which keeps an index a waiting build needs.
      indexBuild = await recordBuild(db, ct.id, field, { ...plan.later, is_unique: waiting.is_unique }, now);
    }
    await updateFieldRow(db, field.id, clean, now);
    const updated: Field = { ...field, ...clean, updated_at: now, index_build: indexBuild };
    if (updated.filterable !== field.filterable || updated.sortable !== field.sortable || indexBuild !== field.index_build)
      await syncDataIndex(db, field.name, field.field_type);
    await recordContentTypeEvent(db, now, ct, 'updated');
    const changedFields = Object.keys(patch).filter((k) => patch[k as keyof typeof patch] !== undefined);
    await recordAudit(db, { workspaceId: ct.workspace_id, at: now, actor, action: 'field.updated', target: fieldTarget(ct, field), changedFields });
    return updated;
  });
  if (updated.index_build?.state === 'building') ctx.indexBuilds?.kick();
  return updated;
}

/** PATCH .../fields/reorder: `order` must be exactly the set of the type's field ids (D34). */
export async function reorderFields(ctx: Context, actor: Actor, slug: string, order: string[]): Promise<void> {
  authorizeItem(actor, { resource: 'content_types', action: 'update' });
  await withTransaction(ctx.db, async (db) => {
    const ct = await requireContentType({ ...ctx, db }, actor.workspaceId, slug);
    assertCompleteOrder(
      order,
      ct.fields.map((f) => f.id),
      'body.order',
    );
    const now = iso(ctx.clock());
    for (let i = 0; i < order.length; i++) await updateFieldRow(db, order[i], { sort_order: i }, now);
    await recordContentTypeEvent(db, now, ct, 'updated');
    await recordAudit(db, {
      workspaceId: ct.workspace_id,
      at: now,
      actor,
      action: 'content_type.updated',
      target: { kind: 'content_type', id: ct.id, slug: ct.slug },
      changedFields: ['fields'],
    });
  });
}

export async function fieldDeletionImpact(
  ctx: Context,
  actor: Actor,
  slug: string,
  fieldId: string,
): Promise<{ affected_entries: number; field_name: string; field_type: string }> {
  const ct = await requireContentType(ctx, actor.workspaceId, slug);
  const field = requireField(ct, fieldId);
  return { affected_entries: await countEntriesWithValue(ctx.db, ct.id, field.name), field_name: field.name, field_type: field.field_type };
}

export async function fieldLocalizationImpact(
  ctx: Context,
  actor: Actor,
  slug: string,
  fieldId: string,
): Promise<{ affected_entries: number; field_name: string; localizable: boolean; locales: { locale: string; count: number }[] }> {
  const ct = await requireContentType(ctx, actor.workspaceId, slug);
  const field = requireField(ct, fieldId);
  return {
    affected_entries: await countEntriesWithValue(ctx.db, ct.id, field.name),
    field_name: field.name,
    localizable: field.localizable,
    locales: await countTranslationsWithValue(ctx.db, ct.id, field.name),
  };
}

/** How the audit log names a field (D122): its id, and `<type slug>.<field name>`. */
function fieldTarget(ct: { slug: string }, field: { id: string; name: string }): AuditTarget {
  return { kind: 'field', id: field.id, slug: `${ct.slug}.${field.name}` };
}
