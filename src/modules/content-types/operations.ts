/**
 * Content type operations (docs/api.md "Content types", "Fields" (D31), "Content types"
 * (D32, D35)). Writes need
 * `schema:write`; reads need only a valid management key (D11).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid, notFound, validationError, type ErrorDetail } from '../../errors.js';
import { newId } from '../../lib/ids.js';
import { offsetPage, type OffsetPage } from '../../lib/pagination.js';
import { SLUG_PATTERN, slugify } from '../../lib/slugs.js';
import { iso } from '../../lib/time.js';
import { authorizeItem, canReadType, readableTypes } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { buildField, insertFieldWithIndexes, type FieldInput } from './fields.js';
import { waitingFlags } from './index-builds.js';
import { requireContentType } from './lookup.js';
import { fieldCapProblem, type ContentType, type Field } from './model.js';
import {
  countEntriesOfType,
  deleteContentTypeRow,
  findContentTypeBySlug,
  insertContentType,
  dropUniqueIndexes,
  listContentTypes as listContentTypesRows,
  syncDataIndex,
  updateContentTypeRow,
} from './repository.js';
import { blockUsage, type BlockUsage } from './usage.js';
import { recordAudit, type AuditTarget } from '../audit/record.js';
import { recordContentTypeEvent } from '../events/record.js';

export interface CreateContentTypeInput {
  name: string;
  slug?: string;
  description?: string | null;
  icon?: string | null;
  display_field?: string | null;
  is_block?: boolean;
  orderable?: boolean;
  /** Fields created with the type, in order (same shape as POST .../fields). */
  fields?: FieldInput[];
}

export type UpdateContentTypeInput = Partial<Pick<CreateContentTypeInput, 'name' | 'description' | 'icon' | 'display_field' | 'orderable'>>;

export async function listContentTypes(
  ctx: Context,
  actor: Actor,
  q: { page?: number; limit?: number; is_block?: boolean },
): Promise<{ items: ContentType[]; total: number; window: OffsetPage }> {
  const window = offsetPage(q.page, q.limit);
  const { items, total } = await listContentTypesRows(ctx.db, actor.workspaceId, {
    isBlock: q.is_block,
    entryTypes: readableTypes(actor),
    offset: window.offset,
    limit: window.limit,
  });
  return { items, total, window };
}

/** GET /content-types/{slug}: 404 also for an entry type the actor's role may not read (D120). */
export async function getContentType(ctx: Context, actor: Actor, slug: string): Promise<ContentType> {
  const ct = await requireContentType(ctx, actor.workspaceId, slug);
  if (!ct.is_block && !canReadType(actor, slug)) throw notFound(`content type '${slug}'`);
  return ct;
}

function checkDisplayField(displayField: string | null | undefined, fields: Pick<Field, 'name' | 'field_type'>[], errors: ErrorDetail[]): void {
  if (displayField === undefined || displayField === null) return;
  const f = fields.find((x) => x.name === displayField);
  if (!f) errors.push({ path: 'body.display_field', message: `'${displayField}' is not a field of this content type` });
}

/**
 * POST /content-types: 409 SLUG_TAKEN for a used slug; fields are validated like POST .../fields,
 * and at most MAX_FIELDS_PER_TYPE of them (400 at `body.fields`).
 */
export async function createContentType(ctx: Context, actor: Actor, input: CreateContentTypeInput): Promise<ContentType> {
  authorizeItem(actor, { resource: 'content_types', action: 'create' });
  const errors: ErrorDetail[] = [];
  const name = input.name.trim();
  if (!name) errors.push({ path: 'body.name', message: 'must not be empty' });
  const slug = input.slug ?? slugify(name);
  if (!SLUG_PATTERN.test(slug)) errors.push({ path: 'body.slug', message: 'must be lowercase letters, digits and single hyphens' });
  const now = iso(ctx.clock());
  const id = newId();
  const fields: Field[] = [];
  const cap = fieldCapProblem(0, input.fields?.length ?? 0);
  if (cap) throw invalid('body.fields', cap);
  (input.fields ?? []).forEach((fi, i) => {
    const built = buildField(id, fi, i, now, `body.fields.${i}`);
    errors.push(...built.errors);
    if (built.field) {
      if (fields.some((f) => f.name === built.field!.name))
        errors.push({ path: `body.fields.${i}.name`, message: `duplicate field name '${built.field.name}'` });
      fields.push(built.field);
    }
  });
  checkDisplayField(input.display_field, fields, errors);
  if (errors.length) throw validationError(errors);

  const created = await withTransaction(ctx.db, async (db) => {
    if (await findContentTypeBySlug(db, actor.workspaceId, slug)) throw new AppError('SLUG_TAKEN', `content type slug '${slug}' is already used`);
    const ct: ContentType = {
      id,
      workspace_id: actor.workspaceId,
      name,
      slug,
      description: input.description ?? null,
      icon: input.icon ?? null,
      display_field: input.display_field ?? null,
      is_block: input.is_block ?? false,
      orderable: input.orderable ?? false,
      fields,
      created_at: now,
      updated_at: now,
    };
    await insertContentType(db, ct);
    // Over a big table some flags wait for a background build (index-builds.ts).
    for (let i = 0; i < ct.fields.length; i++) ct.fields[i] = await insertFieldWithIndexes(ctx, db, ct, ct.fields[i]);
    await recordContentTypeEvent(db, now, ct, 'created');
    await recordAudit(db, { workspaceId: ct.workspace_id, at: now, actor, action: 'content_type.created', target: contentTypeTarget(ct) });
    return ct;
  });
  if (created.fields.some((f) => f.index_build)) ctx.indexBuilds?.kick();
  return created;
}

/** PATCH /content-types/{slug}: only presentation metadata (docs/api.md "Content types"); `is_block` is refused by the schema. */
export async function updateContentType(ctx: Context, actor: Actor, slug: string, patch: UpdateContentTypeInput): Promise<ContentType> {
  authorizeItem(actor, { resource: 'content_types', action: 'update' });
  return withTransaction(ctx.db, async (db) => {
    const ct = await requireContentType({ ...ctx, db }, actor.workspaceId, slug);
    const errors: ErrorDetail[] = [];
    if (patch.name !== undefined && !patch.name.trim()) errors.push({ path: 'body.name', message: 'must not be empty' });
    checkDisplayField(patch.display_field, ct.fields, errors);
    if (errors.length) throw validationError(errors);
    const now = iso(ctx.clock());
    const clean = { ...patch, ...(patch.name !== undefined ? { name: patch.name.trim() } : {}) };
    await updateContentTypeRow(db, ct.id, clean, now);
    await recordContentTypeEvent(db, now, ct, 'updated');
    const changedFields = Object.keys(clean).filter((k) => clean[k as keyof typeof clean] !== undefined);
    await recordAudit(db, { workspaceId: ct.workspace_id, at: now, actor, action: 'content_type.updated', target: contentTypeTarget(ct), changedFields });
    return { ...ct, ...clean, updated_at: now };
  });
}

/** DELETE /content-types/{slug}: 409 CONTENT_TYPE_NOT_EMPTY while entries (or blocks) use it. */
export async function deleteContentType(ctx: Context, actor: Actor, slug: string): Promise<void> {
  authorizeItem(actor, { resource: 'content_types', action: 'delete' });
  await withTransaction(ctx.db, async (db) => {
    const ct = await requireContentType({ ...ctx, db }, actor.workspaceId, slug);
    const entries = await countEntriesOfType(db, ct.id);
    if (entries > 0)
      throw new AppError('CONTENT_TYPE_NOT_EMPTY', `content type '${slug}' holds ${entries} entr${entries === 1 ? 'y' : 'ies'}; delete them first`);
    const usage = await blockUsage(db, ct.id);
    if (usage.count > 0)
      throw new AppError('CONTENT_TYPE_NOT_EMPTY', `block type '${slug}' is used by ${usage.count} block(s) on ${usage.pages.length} page(s)`);
    await recordContentTypeEvent(db, ctx.clock(), ct, 'deleted');
    await recordAudit(db, { workspaceId: ct.workspace_id, at: ctx.clock(), actor, action: 'content_type.deleted', target: contentTypeTarget(ct) });
    await dropUniqueIndexes(db, ct.fields);
    await deleteContentTypeRow(db, ct.id);
    for (const f of ct.fields) {
      const waiting = waitingFlags(f.index_build);
      if (f.filterable || f.sortable || waiting.filterable || waiting.sortable) await syncDataIndex(db, f.name, f.field_type);
    }
  });
}

/** GET /content-types/{slug}/block-usage (D35). */
export async function getBlockUsage(ctx: Context, actor: Actor, slug: string): Promise<BlockUsage & { is_block: boolean }> {
  const ct = await requireContentType(ctx, actor.workspaceId, slug);
  return { ...(await blockUsage(ctx.db, ct.id)), is_block: ct.is_block };
}

/** How the audit log names a content type (D122). */
export function contentTypeTarget(ct: { id: string; slug: string }): AuditTarget {
  return { kind: 'content_type', id: ct.id, slug: ct.slug };
}
