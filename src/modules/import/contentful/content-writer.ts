/**
 * Writes planned assets and entries (content-mapping.ts) in batches, each batch in one
 * transaction (issue 2 item 10). Entries go through the entries operations (createEntry,
 * updateEntry, changeEntryStatus), so they are validated exactly like API writes; media records go
 * through the media repository. Every version written has action `import` (D72).
 *
 * States (issue 12 item 1, states.ts): a draft stays a draft (and a published entry that the
 * export has as a draft is unpublished), an archived entry is archived, a published one is
 * published, and one with unpublished changes follows `changedAs`.
 *
 * Idempotence: every planned record is compared with the stored one and written only when it
 * differs (slug, data, translations, publication), so a second import of the same export
 * changes nothing: same versions, same updated_at.
 *
 * Links: entries are written targets first (dependency order). An entry whose targets do not
 * exist yet (a cycle, or a self-link) is created without those links and completed in a second
 * pass, then published. An entry the API refuses (e.g. a published entry lacking a required
 * value) is reported in `failures` and the import goes on.
 */
import type { Context } from '../../../context.js';
import { withTransaction } from '../../../db/transaction.js';
import { AppError } from '../../../errors.js';
import { stableStringify } from '../../../lib/json.js';
import { iso } from '../../../lib/time.js';
import type { Actor } from '../../auth/permissions.js';
import type { Entry, EntryData } from '../../entries/model.js';
import { createEntry, updateEntry } from '../../entries/operations.js';
import { changeEntryStatus } from '../../entries/publishing.js';
import { findEntry, findEntryTypeSlugs } from '../../entries/repository.js';
import { findMediaByIds, upsertMedia, type MediaRecord } from '../../media/repository.js';
import { recordMediaEvent } from '../../events/record.js';
import { presentItem } from '../../publishing/core.js';
import type { PlannedAsset, PlannedEntry } from './content-mapping.js';
import { countStates, targetStatus, zeroCounts, type ChangedAs, type StateCounts, type TargetStatus } from './states.js';

export interface ProgressEvent {
  phase: 'assets' | 'entries' | 'links' | 'pages';
  done: number;
  total: number;
}
export type ProgressListener = (event: ProgressEvent) => void;

export interface AssetCounts {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
}

export interface EntryCounts {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Publish, unpublish and archive actions of this run. */
  published: number;
  unpublished: number;
  archived: number;
  failed: number;
  /** The export's entries by publishing state (states.ts). */
  states: StateCounts;
}

export interface EntryFailure {
  /** Contentful entry id. */
  entry: string;
  type: string;
  message: string;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const MEDIA_COMPARED = ['remote_url', 'storage_key', 'mime_type', 'width', 'height', 'alt_text', 'filename', 'original_name', 'size', 'deleted_at'] as const;

/** Creates or refreshes one media record per planned asset; unchanged records are not touched. */
export async function writeAssets(
  ctx: Context,
  actor: Actor,
  assets: readonly PlannedAsset[],
  batchSize: number,
  onProgress?: ProgressListener,
): Promise<AssetCounts> {
  const counts: AssetCounts = { total: assets.length, created: 0, updated: 0, unchanged: 0 };
  let done = 0;
  for (const batch of chunks(assets, batchSize)) {
    await withTransaction(ctx.db, async (db) => {
      const stored = await findMediaByIds(
        db,
        actor.workspaceId,
        batch.map((a) => a.id),
      );
      const now = iso(ctx.clock());
      for (const a of batch) {
        const current = stored.get(a.id);
        const wanted: MediaRecord = {
          id: a.id,
          workspace_id: actor.workspaceId,
          storage_key: null,
          remote_url: a.url,
          mime_type: a.mime_type,
          width: a.width,
          height: a.height,
          alt_text: a.alt_text,
          focal_x: current?.focal_x ?? null,
          focal_y: current?.focal_y ?? null,
          filename: a.filename,
          original_name: a.original_name,
          folder: current?.folder ?? null,
          size: a.size,
          uploaded_by: current?.uploaded_by ?? actor.userId,
          created_at: current?.created_at ?? now,
          updated_at: now,
          deleted_at: null,
        };
        if (current && MEDIA_COMPARED.every((k) => current[k] === wanted[k])) {
          counts.unchanged += 1;
          continue;
        }
        await upsertMedia(db, wanted);
        await recordMediaEvent(db, now, actor.workspaceId, wanted.id, current ? 'updated' : 'created');
        if (current) counts.updated += 1;
        else counts.created += 1;
      }
    });
    done += batch.length;
    onProgress?.({ phase: 'assets', done, total: assets.length });
  }
  return counts;
}

/**
 * Entries ordered so that link targets come before the entries linking to them (depth-first,
 * iterative; a cycle is cut where it closes, and the second pass completes it).
 */
export function dependencyOrder(entries: readonly PlannedEntry[]): PlannedEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const state = new Map<string, 'open' | 'done'>();
  const out: PlannedEntry[] = [];
  for (const root of entries) {
    if (state.has(root.id)) continue;
    const stack: { entry: PlannedEntry; next: number }[] = [{ entry: root, next: 0 }];
    state.set(root.id, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1];
      const ref = top.entry.references[top.next++];
      if (ref === undefined) {
        stack.pop();
        state.set(top.entry.id, 'done');
        out.push(top.entry);
        continue;
      }
      const target = byId.get(ref);
      if (target && !state.has(ref)) {
        state.set(ref, 'open');
        stack.push({ entry: target, next: 0 });
      }
    }
  }
  return out;
}

function translationsOf(entry: Entry): Record<string, string> {
  return Object.fromEntries(entry.translations.map((t) => [t.locale, stableStringify(t.data)]));
}

/** True when the stored entry already holds the planned slug, data and translations. */
function sameContent(stored: Entry, planned: PlannedEntry, slug: string): boolean {
  if (stored.slug !== slug || stableStringify(stored.data) !== stableStringify(planned.data)) return false;
  const have = translationsOf(stored);
  const want = Object.fromEntries(Object.entries(planned.translations).map(([l, d]) => [l, stableStringify(d)]));
  return stableStringify(have) === stableStringify(want);
}

/** Removes the values of relation fields that point at any of `missing`. */
function withoutLinks(data: EntryData, relationFields: ReadonlySet<string>, missing: ReadonlySet<string>): EntryData {
  const out: EntryData = {};
  for (const [k, v] of Object.entries(data)) {
    const linksMissing = relationFields.has(k) && (Array.isArray(v) ? v.some((id) => missing.has(id as string)) : missing.has(v as string));
    if (!linksMissing) out[k] = v;
  }
  return out;
}

function contentInput(planned: PlannedEntry, slug: string, relationFields: ReadonlySet<string>, missing: ReadonlySet<string>) {
  const strip = (d: EntryData) => (missing.size ? withoutLinks(d, relationFields, missing) : d);
  return {
    slug,
    data: strip(planned.data),
    translations: Object.entries(planned.translations).map(([locale, data]) => ({ locale, data: strip(data) })),
  };
}

function failureMessage(err: AppError): string {
  const details = err.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
  return details ? `${err.message}: ${details}` : err.message;
}

export interface WriteEntriesInput {
  entries: readonly PlannedEntry[];
  /** Final slug of each planned entry id (assignSlugs). */
  slugs: ReadonlyMap<string, string>;
  /** Content type slug → content type id. */
  typeIds: ReadonlyMap<string, string>;
  /** Content type slug → names of its relation and relation_list fields. */
  relationFields: ReadonlyMap<string, ReadonlySet<string>>;
  batchSize: number;
  /** `--changed-as`: what entries with unpublished changes become (default published). */
  changedAs?: ChangedAs;
  onProgress?: ProgressListener;
}

const PAST = { publish: 'published', unpublish: 'unpublished', archive: 'archived' } as const;

/** The state action that brings an item of stored `status` to `want`, or null (nothing, or nothing possible). */
export function stateAction(status: string | null, pending: boolean, want: TargetStatus): 'publish' | 'unpublish' | 'archive' | null {
  if (want === 'published') return status !== 'published' || pending ? 'publish' : null;
  if (want === 'archived') return status !== 'archived' ? 'archive' : null;
  // A draft in the export: a published item is taken down (an entry unpublished in Contentful
  // since the last import). A schedule set in Quire is Quire's own plan and stays.
  return status === 'published' ? 'unpublish' : null;
}

/** Creates, updates and publishes, unpublishes or archives entries as planned. */
export async function writeEntries(
  ctx: Context,
  actor: Actor,
  input: WriteEntriesInput,
): Promise<{ counts: EntryCounts; failures: EntryFailure[]; warnings: string[] }> {
  const ordered = dependencyOrder(input.entries);
  const counts: EntryCounts = { ...zeroCounts(ordered.length), states: countStates(ordered.map((e) => e.state)) };
  const failures: EntryFailure[] = [];
  const warnings: string[] = [];
  const touched = new Set<string>();
  const failed = new Set<string>();
  const fail = (e: PlannedEntry, err: AppError) => {
    if (failed.has(e.id)) return;
    failed.add(e.id);
    counts.failed += 1;
    failures.push({ entry: e.cfId, type: e.typeSlug, message: failureMessage(err) });
  };

  // Which planned entries exist already (a previous run): their links can be written at once.
  const present = new Set<string>();
  for (const ids of chunks(
    ordered.map((e) => e.id),
    500,
  )) {
    for (const id of (await findEntryTypeSlugs(ctx.db, actor.workspaceId, ids)).keys()) present.add(id);
  }

  /**
   * Writes one entry. Before the final pass, links to entries that do not exist yet are left out
   * and the entry is neither updated further nor published: returns true (completed in pass 2).
   */
  const writeOne = async (tx: Context, e: PlannedEntry, final: boolean): Promise<boolean> => {
    const slug = input.slugs.get(e.id)!;
    const relationFields = input.relationFields.get(e.typeSlug) ?? new Set<string>();
    const missing = new Set(final ? [] : e.references.filter((id) => !present.has(id)));
    const stored = await findEntry(tx.db, input.typeIds.get(e.typeSlug)!, { id: e.id });
    const shown = stored ? presentItem(stored, tx.clock()) : null;
    let status = shown?.status ?? null;
    // A published entry whose working copy the import changed must be published again (D70).
    let pending = shown?.has_pending_changes ?? false;
    if (!stored) {
      await createEntry(tx, actor, e.typeSlug, { id: e.id, ...contentInput(e, slug, relationFields, missing) }, { action: 'import' });
      present.add(e.id);
      touched.add(e.id);
      counts.created += 1;
      status = 'draft';
    } else if (!missing.size && !sameContent(stored, e, slug)) {
      const updated = await updateEntry(tx, actor, e.typeSlug, { id: e.id }, contentInput(e, slug, relationFields, missing), { action: 'import' });
      pending = updated.has_pending_changes;
      if (!touched.has(e.id)) counts.updated += 1;
      touched.add(e.id);
    }
    if (missing.size) return true;
    const want = targetStatus(e.state, input.changedAs ?? 'published');
    const action = stateAction(status, pending, want);
    if (action) {
      await changeEntryStatus(tx, actor, e.typeSlug, { id: e.id }, action, { action: 'import' });
      counts[PAST[action]] += 1;
      touched.add(e.id);
    } else if (want === 'draft' && status === 'archived') {
      warnings.push(`entry '${e.cfId}' (${e.typeSlug}) is a draft in the export but archived in Quire, which has no way back to draft; it stays archived`);
    }
    return false;
  };

  const deferred: PlannedEntry[] = [];
  let done = 0;
  for (const batch of chunks(ordered, input.batchSize)) {
    await withTransaction(ctx.db, async (db) => {
      const tx = { ...ctx, db };
      for (const e of batch) {
        try {
          if (await writeOne(tx, e, false)) deferred.push(e);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          fail(e, err);
        }
      }
    });
    done += batch.length;
    input.onProgress?.({ phase: 'entries', done, total: ordered.length });
  }

  let linked = 0;
  for (const batch of chunks(deferred, input.batchSize)) {
    await withTransaction(ctx.db, async (db) => {
      const tx = { ...ctx, db };
      for (const e of batch) {
        try {
          await writeOne(tx, e, true);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          fail(e, err);
        }
      }
    });
    linked += batch.length;
    input.onProgress?.({ phase: 'links', done: linked, total: deferred.length });
  }

  counts.unchanged = ordered.filter((e) => !touched.has(e.id) && !failed.has(e.id)).length;
  return { counts, failures, warnings };
}
