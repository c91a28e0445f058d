/**
 * Entry state changes and history (docs/api.md "States and scheduling", "States and
 * scheduling" (D20–D23), "Working copies, publishing changes and history" (D70, D71), "History"
 * (D72)) through the publishing core of src/modules/publishing/core.ts, which pages share.
 * This file holds only what is an entry's own: how its working copy is read as a snapshot, copied
 * to its published copy (`published_data` + published_entry_translations, what production keys
 * read) and checked for required fields.
 *
 * - publish, unpublish, archive, schedule: scope `content:publish`. `publish` is allowed from
 *   `published` when the entry has pending changes (D71). publish and schedule check required
 *   fields on the working copy (400 VALIDATION_FAILED with paths `data.<field>`); schedule needs
 *   `publish_at` in the future.
 * - versions: list and read with any management key; restore with `content:write` (D72).
 */
import type { Context } from '../../context.js';
import type { Db } from '../../db/types.js';
import { withTransaction } from '../../db/transaction.js';
import { authorize, authorizeItem } from '../access/authorize.js';
import type { Actor } from '../auth/permissions.js';
import type { ContentType } from '../content-types/model.js';
import { applyVerb, itemVersion, itemVersions, parseVersionNumber, presentItem, type VersionListMeta, type VersionListQuery } from '../publishing/core.js';
import { ENTRY_TABLES, type VersionAction, type VersionRecord } from '../publishing/repository.js';
import { parsePublishAt, type Verb } from '../publishing/states.js';
import type { Entry } from './model.js';
import { entryNotFound, requireEntryType, updateEntry, type WriteOptions } from './operations.js';
import { findEntry, findEntryForUpdate, type EntryRef } from './repository.js';
import { entrySpec } from './spec.js';

export interface StateChangeOptions extends WriteOptions {
  /** Required for `schedule`: ISO 8601 time in the future. */
  publishAt?: string;
  /** The version's action instead of the verb (`import` for the importer). */
  action?: VersionAction;
}

/**
 * Applies `verb` to one entry inside the caller's transaction. `publishAt` must already be
 * checked (parsePublishAt). Throws 404, 412, 409 INVALID_STATE_TRANSITION or 400.
 */
export async function applyEntryVerb(db: Db, now: Date, actor: Actor, ct: ContentType, ref: EntryRef, verb: Verb, opts: StateChangeOptions): Promise<Entry> {
  const stored = await findEntryForUpdate(db, ct.id, ref);
  if (!stored) throw entryNotFound(ct, ref);
  // Publishing, unpublishing, archiving and scheduling are all the role's `publish` (D120).
  authorizeItem(actor, { resource: 'entries', action: 'publish', contentType: ct.slug, createdBy: stored.created_by });
  await applyVerb(db, entrySpec(ct), stored, actor, now, verb, opts);
  const updated = await findEntry(db, ct.id, { id: stored.id });
  if (!updated) throw new Error('entry vanished after update');
  return updated;
}

/** Shared body of the four single-entry actions. Returns the entry after the change. */
export async function changeEntryStatus(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  ref: EntryRef,
  verb: Verb,
  opts: StateChangeOptions = {},
): Promise<Entry> {
  authorize(actor, 'content:publish');
  const now = ctx.clock();
  const publishAt = verb === 'schedule' ? parsePublishAt(opts.publishAt, now) : undefined;
  return withTransaction(ctx.db, async (db) => {
    const ct = await requireEntryType({ ...ctx, db }, actor, typeSlug);
    return applyEntryVerb(db, now, actor, ct, ref, verb, { ...opts, publishAt });
  });
}

/** PATCH …/publish: draft, scheduled, archived, or published with pending changes → published. */
export function publishEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, opts: StateChangeOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'publish', opts);
}

/** PATCH …/unpublish: published or scheduled → draft (the working copy stays). */
export function unpublishEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, opts: WriteOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'unpublish', opts);
}

/** PATCH …/archive: draft, scheduled or published → archived (the working copy stays). */
export function archiveEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, opts: WriteOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'archive', opts);
}

/** PATCH …/schedule `{publish_at}`: draft, archived or scheduled → scheduled. */
export function scheduleEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef, publishAt: string, opts: WriteOptions = {}): Promise<Entry> {
  return changeEntryStatus(ctx, actor, typeSlug, ref, 'schedule', { ...opts, publishAt });
}

async function requireEntry(ctx: Context, actor: Actor, typeSlug: string, ref: EntryRef): Promise<{ ct: ContentType; entry: Entry }> {
  const ct = await requireEntryType(ctx, actor, typeSlug);
  const entry = await findEntry(ctx.db, ct.id, ref);
  if (!entry) throw entryNotFound(ct, ref);
  return { ct, entry };
}

/** GET …/entries/{entry_slug}/versions: the entry's history, newest first, without snapshots; offset or cursor pages (itemVersions). */
export async function listEntryVersions(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  ref: EntryRef,
  q: VersionListQuery = {},
): Promise<{ items: VersionRecord[]; meta: VersionListMeta }> {
  const { entry } = await requireEntry(ctx, actor, typeSlug, ref);
  return itemVersions(ctx.db, ctx.secret, ENTRY_TABLES, 'entry', entry.id, q);
}

/**
 * GET …/entries/{entry_slug}/versions/{n}: the entry as version `n` holds it: the snapshot's data
 * and translations on the entry's current attributes, with the version's status, time and author
 * as `status`, `updated_at` and `updated_by`. 404 for an unknown version.
 */
export async function getEntryVersion(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  ref: EntryRef,
  rawVersion: string | number,
): Promise<{ entry: Entry; version: VersionRecord }> {
  const n = parseVersionNumber(rawVersion);
  const { ct, entry } = await requireEntry(ctx, actor, typeSlug, ref);
  const { snapshot, ...version } = await itemVersion(ctx.db, entrySpec(ct), entry.id, n, `entry '${entry.slug}'`);
  const current = presentItem(entry, ctx.clock());
  return {
    entry: {
      ...current,
      status: version.status as Entry['status'],
      data: snapshot.data,
      translations: snapshot.translations.map((t) => ({ ...t, entry_id: entry.id })),
      updated_at: version.created_at,
      updated_by: version.created_by,
    },
    version,
  };
}

/**
 * POST …/entries/{entry_slug}/versions/{n}/restore: the working copy becomes version `n`'s
 * content, validated like a PUT, recorded as a new version with action `restore`. The status
 * stays, so a published entry then has pending changes (D72). Scope `content:write`.
 */
export async function restoreEntryVersion(
  ctx: Context,
  actor: Actor,
  typeSlug: string,
  ref: EntryRef,
  rawVersion: string | number,
  opts: WriteOptions = {},
): Promise<Entry> {
  const n = parseVersionNumber(rawVersion);
  return updateEntry(
    ctx,
    actor,
    typeSlug,
    ref,
    async (db, ct, stored) => {
      const { snapshot } = await itemVersion(db, entrySpec(ct), stored.id, n, `entry '${stored.slug}'`);
      return { data: snapshot.data, translations: snapshot.translations.map((t) => ({ locale: t.locale, data: t.data })) };
    },
    { ...opts, action: 'restore' },
  );
}
