/**
 * Page state changes (api.md "States and transitions"; DECISIONS.md D20–D23): publish,
 * unpublish, archive and schedule, through the shared state machine of
 * src/modules/publishing/states.ts (the one entries use). Scope `content:publish`.
 *
 * - The transition starts from the effective status (a due scheduled page is published: D21);
 *   refusals are 409 INVALID_STATE_TRANSITION `page cannot be published from status '…'`.
 * - publish and schedule check the required fields of every block (400 VALIDATION_FAILED with
 *   paths `blocks.0.children.1.data.<field>`): a scheduled page goes live without another request.
 * - schedule needs `publish_at` in the future (400 otherwise), as for entries.
 * - Each change bumps the page's version (ETag) and records `updated_by`. Routes answer `data`
 *   null for publish, unpublish and schedule and the Page for archive (D23).
 */
import type { Context } from '../../context.js';
import { withTransaction } from '../../db/transaction.js';
import { validationError } from '../../errors.js';
import { iso } from '../../lib/time.js';
import { requireScope } from '../auth/operations.js';
import type { Actor } from '../auth/permissions.js';
import { listAllContentTypes } from '../content-types/repository.js';
import { checkIfMatch } from '../publishing/preconditions.js';
import { applyTransition, effectiveStatus, parsePublishAt, transition, type Verb } from '../publishing/states.js';
import { missingRequiredInBlocks } from './blocks.js';
import type { Page } from './model.js';
import { pageNotFound, type PageWriteOptions } from './operations.js';
import { findPage, findPageForUpdate, loadPageContent, updatePageRow, type PageRef } from './repository.js';
import { treePaths } from './tree.js';

export interface PageStateOptions extends PageWriteOptions {
  /** Required for `schedule`: ISO 8601 time in the future. */
  publishAt?: string;
}

/** Applies `verb` to one page; returns the page after the change. Throws 404, 412, 409 or 400. */
export async function changePageStatus(ctx: Context, actor: Actor, ref: PageRef, verb: Verb, opts: PageStateOptions = {}): Promise<Page> {
  requireScope(actor, 'content:publish');
  const now = ctx.clock();
  const publishAt = verb === 'schedule' ? parsePublishAt(opts.publishAt, now) : undefined;
  return withTransaction(ctx.db, async (db) => {
    const stored = await findPageForUpdate(db, actor.workspaceId, ref);
    if (!stored) throw pageNotFound(ref);
    checkIfMatch(opts.ifMatch, stored);
    const current = effectiveStatus(stored, now);
    // 409 before 400: a published page cannot be published again, complete or not.
    transition('page', verb, current.status);
    if (verb === 'publish' || verb === 'schedule') {
      const content = await loadPageContent(db, stored);
      const types = new Map((await listAllContentTypes(db, actor.workspaceId)).map((t) => [t.id, t]));
      const missing = missingRequiredInBlocks(content.blocks, types, treePaths(content.blocks));
      if (missing.length) throw validationError(missing);
    }
    const next = applyTransition('page', verb, current, now, publishAt);
    await updatePageRow(db, stored.id, {
      status: next.status as Page['status'],
      published_at: next.published_at,
      publish_at: next.publish_at,
      version: stored.version + 1,
      updated_at: iso(now),
      updated_by: actor.userId,
    });
    return (await findPage(db, actor.workspaceId, { id: stored.id }))!;
  });
}

/** PATCH /pages/{slug}/publish: draft, scheduled or archived → published (`published_at` = now). */
export function publishPage(ctx: Context, actor: Actor, ref: PageRef, opts: PageWriteOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'publish', opts);
}

/** PATCH /pages/{slug}/unpublish: published or scheduled → draft. */
export function unpublishPage(ctx: Context, actor: Actor, ref: PageRef, opts: PageWriteOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'unpublish', opts);
}

/** PATCH /pages/{slug}/archive: draft, scheduled or published → archived. */
export function archivePage(ctx: Context, actor: Actor, ref: PageRef, opts: PageWriteOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'archive', opts);
}

/** PATCH /pages/{slug}/schedule `{publish_at}`: draft, archived or scheduled → scheduled. */
export function schedulePage(ctx: Context, actor: Actor, ref: PageRef, publishAt: string, opts: PageWriteOptions = {}): Promise<Page> {
  return changePageStatus(ctx, actor, ref, 'schedule', { ...opts, publishAt });
}
