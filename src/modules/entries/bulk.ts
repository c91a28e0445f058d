/**
 * Bulk entry actions (docs/api.md "PATCH /api/v1/manage/content-types/{slug}/entries/bulk", "States
 * and scheduling" (D23)):
 *
 * - PATCH …/entries/bulk `{action, ids, publish_at?}`: action publish, unpublish, archive or
 *   schedule (which needs `publish_at` in the future); scope `content:publish`.
 * - DELETE …/entries/bulk `{ids}`: scope `content:write`.
 *
 * At most 100 distinct ids. Each id is handled in its own transaction and succeeds or fails
 * alone; the result lists `succeeded` (`reason` null) and `failed` (`reason` says why, e.g.
 * `entry cannot be published from status 'published'`), both in request order. Request-level
 * problems (too many ids, duplicates, a bad `publish_at`) answer 400 and change nothing.
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { AppError, invalid, validationError, type ErrorDetail } from '../../errors.js';
import { isUuid } from '../../lib/ids.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import { isVerb, parsePublishAt, type Verb } from '../publishing/states.js';
import type { BulkResult } from './model.js';
import { requireEntryType } from './operations.js';
import { applyEntryVerb } from './publishing.js';
import { deleteEntryRow, findEntryForUpdate } from './repository.js';
import { recordItemAudit } from '../audit/record.js';
import { recordItemEvents } from '../events/record.js';

export const MAX_BULK_IDS = 100;

export interface BulkActionInput {
  action: string;
  ids: string[];
  publish_at?: string;
}

function checkIds(ids: string[]): void {
  if (ids.length === 0) throw invalid('body.ids', 'must list at least one entry id');
  if (ids.length > MAX_BULK_IDS) throw invalid('body.ids', `must list at most ${MAX_BULK_IDS} ids`);
  const seen = new Set<string>();
  const errors: ErrorDetail[] = [];
  ids.forEach((id, i) => {
    if (seen.has(id)) errors.push({ path: `body.ids.${i}`, message: `'${id}' is listed twice` });
    seen.add(id);
  });
  if (errors.length) throw validationError(errors);
}

/** A failure reason for one item: the error's message, or its details for a validation error. */
function reasonOf(err: AppError): string {
  if (err.code === 'VALIDATION_FAILED' && err.errors?.length) return err.errors.map((e) => `${e.path} ${e.message}`).join('; ');
  if (err.code === 'NOT_FOUND') return 'entry not found';
  return err.message;
}

async function eachId(ids: string[], run: (id: string) => Promise<void>): Promise<BulkResult> {
  const result: BulkResult = { succeeded: [], failed: [] };
  for (const id of ids) {
    if (!isUuid(id)) {
      result.failed.push({ id, reason: 'entry not found' });
      continue;
    }
    try {
      await run(id.toLowerCase());
      result.succeeded.push({ id, reason: null });
    } catch (err) {
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      result.failed.push({ id, reason: reasonOf(err) });
    }
  }
  return result;
}

/** PATCH …/entries/bulk. */
export async function bulkEntryAction(ctx: Context, actor: Actor, typeSlug: string, input: BulkActionInput): Promise<BulkResult> {
  authorize(actor, 'content:publish');
  if (!isVerb(input.action)) throw invalid('body.action', 'must be one of publish, unpublish, archive, schedule');
  const verb: Verb = input.action;
  checkIds(input.ids);
  const now = ctx.clock();
  let publishAt: string | undefined;
  if (verb === 'schedule') publishAt = parsePublishAt(input.publish_at, now);
  else if (input.publish_at !== undefined) throw invalid('body.publish_at', 'is only accepted with action schedule');
  const ct = await requireEntryType(ctx, actor, typeSlug);
  return eachId(input.ids, async (id) => {
    await withTransaction(ctx.db, (db) => applyEntryVerb(db, now, actor, ct, { id }, verb, { publishAt }));
  });
}

/** DELETE …/entries/bulk. */
export async function bulkDeleteEntries(ctx: Context, actor: Actor, typeSlug: string, ids: string[]): Promise<BulkResult> {
  authorize(actor, 'content:write');
  checkIds(ids);
  const ct = await requireEntryType(ctx, actor, typeSlug);
  return eachId(ids, async (id) => {
    await withTransaction(ctx.db, async (db) => {
      const entry = await findEntryForUpdate(db, ct.id, { id });
      if (!entry) throw new AppError('NOT_FOUND', 'entry not found');
      authorizeItem(actor, { resource: 'entries', action: 'delete', contentType: ct.slug, createdBy: entry.created_by });
      await recordItemEvents(db, ctx.clock(), 'entry', [entry.id], 'deleted');
      await recordItemAudit(db, ctx.clock(), actor, 'entry', [entry.id], 'deleted');
      await deleteEntryRow(db, entry.id);
    });
  });
}
