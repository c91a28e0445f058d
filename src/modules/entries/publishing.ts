/**
 * Entry state changes (api.md "States and transitions"; DECISIONS.md D20–D23): publish,
 * unpublish, archive and schedule, through the shared state machine of
 * src/modules/publishing/states.ts. Scope `content:publish`.
 *
 * - The transition starts from the effective status (a due scheduled entry is published: D21).
 * - publish and schedule check the entry's required fields (400 VALIDATION_FAILED with paths
 *   `data.<field>`): a scheduled entry will go live without another request, so it must be
 *   complete when scheduled.
 * - schedule needs `publish_at` in the future (400 otherwise).
 * - Each change bumps the version (ETag) and records `updated_by`.
 */
import type { Context } from '../../context.js';
import type { Db } from '../../db/types.js';
import { withTransaction } from '../../db/transaction.js';
import { validationError } from '../../errors.js';
import { requireScope } from '../auth/operations.js';
import type { Actor } from '../auth/permissions.js';
import type { ContentType } from '../content-types/model.js';
import { checkIfMatch } from '../publishing/preconditions.js';
import { applyTransition, effectiveStatus, parsePublishAt, transition, type Verb } from '../publishing/states.js';
import { iso } from '../../lib/time.js';
import type { Entry } from './model.js';
import { entryNotFound, requireEntryType, type WriteOptions } from './operations.js';
import { findEntry, findEntryForUpdate, updateEntryRow, type EntryRef } from './repository.js';
import { missingRequired } from './validation.js';

export interface StateChangeOptions extends WriteOptions {
  /** Required for `schedule`: ISO 8601 time in the future. */
  publishAt?: string;
}

/**
 * Applies `verb` to one entry inside the caller's transaction. `publishAt` must already be
 * checked (parsePublishAt). Throws 404, 412, 409 INVALID_STATE_TRANSITION or 400.
 */
export async function applyEntryVerb(db: Db, now: Date, actor: Actor, ct: ContentType, ref: EntryRef, verb: Verb, opts: StateChangeOptions): Promise<Entry> {
  const stored = await findEntryForUpdate(db, ct.id, ref);
  if (!stored) throw entryNotFound(ct, ref);
  checkIfMatch(opts.ifMatch, stored);
  const current = effectiveStatus(stored, now);
  // 409 before 400: a published entry cannot be published again, complete or not.
  transition('entry', verb, current.status);
  if (verb === 'publish' || verb === 'schedule') {
    const missing = missingRequired(ct.fields, current.data, 'data');
    if (missing.length) throw validationError(missing);
  }
  const next = applyTransition('entry', verb, current, now, opts.publishAt);
  await updateEntryRow(db, stored.id, {
    status: next.status as Entry['status'],
    published_at: next.published_at,
    publish_at: next.publish_at,
    version: stored.version + 1,
    updated_at: iso(now),
    updated_by: actor.userId,
  });
  const updated = await findEntry(db, ct.id, { id: stored.id });
  if (!updated) throw new Error('entry vanished after update');
  return updated;
}

/** Shared body of the four single-entry actions. Returns the entry after the change. */
export async function changeEntryStatus(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, verb: Verb, opts: StateChangeOptions = {}): Promise<Entry> {
  requireScope(actor, 'content:publish');
  const now = ctx.clock();
  const publishAt = verb === 'schedule' ? parsePublishAt(opts.publishAt, now) : undefined;
  return withTransaction(ctx.db, async (db) => {
    const ct = await requireEntryType({ ...ctx, db }, actor.workspaceId, typeSlug);
    return applyEntryVerb(db, now, actor, ct, ref, verb, { ...opts, publishAt });
  });
}

/** PATCH …/publish: draft, scheduled or archived → published (`published_at` = now). */
export function publishEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, opts: WriteOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'publish', opts);
}

/** PATCH …/unpublish: published or scheduled → draft. */
export function unpublishEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, opts: WriteOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'unpublish', opts);
}

/** PATCH …/archive: draft, scheduled or published → archived. */
export function archiveEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, opts: WriteOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'archive', opts);
}

/** PATCH …/schedule `{publish_at}`: draft, archived or scheduled → scheduled. */
export function scheduleEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, publishAt: string, opts: WriteOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'schedule', { ...opts, publishAt });
}
