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
 * Edits made in Quire (docs/cli.md "Importing a Contentful space export"; issue 23): an import
 * applies what changed in the export since the last import and never reverts editors' work with
 * content the export already had. An entry changed in Quire since its last import (a newer version
 * than its newest `import` version, or another slug) whose planned content and status are what
 * that import version recorded is left alone entirely, whatever the edit (content, state, slug),
 * and the report warns that Quire's edits were kept (keptInQuire); when the export's content or
 * state for it changed, the export wins as for any changed entry. This is decided per batch with
 * one query (which of the batch's stored entries have a newest version that is not an import
 * version) and, for the edited ones only, a second (their newest import versions). An entry
 * without an import version (history from before versions existed, docs/api.md "History" (D72))
 * keeps the older rule: a published entry with pending changes whose published version already
 * holds the export's content is left as it is (liveHoldsPlan).
 *
 * Links: entries are written targets first (dependency order). An entry whose targets do not
 * exist yet (a cycle, or a self-link) is created without those links and completed in a second
 * pass, then published; when those targets are sure to be created later in the run, both passes
 * are decided at once and written together (writeEntries). Batches hold planned entries read back from the export (operations.ts
 * keeps ids and links only), so memory does not grow with the export's content. An entry the API
 * refuses (e.g. a published entry lacking a required value) is reported in `failures` and the
 * import goes on.
 *
 * Modules: entry-planning.ts (write order, state actions, the content a write sends),
 * entry-checks.ts (the bulk path's checks), entry-bulk-write.ts (its multi-row writes); this one
 * runs the batches and the entries the bulk path does not cover.
 */
import type { Context } from '../../../context.js';
import { withTransaction } from '../../../db/transaction.js';
import { AppError } from '../../../errors.js';
import { iso } from '../../../lib/time.js';
import type { Actor } from '../../auth/permissions.js';
import type { ContentType } from '../../content-types/model.js';
import { findContentTypeBySlug } from '../../content-types/repository.js';
import { createEntry, updateEntry } from '../../entries/operations.js';
import type { Entry } from '../../entries/model.js';
import { changeEntryStatus, getEntryVersion } from '../../entries/publishing.js';
import { findEntriesByIds, findEntry, findEntryTypeSlugs } from '../../entries/repository.js';
import { findMediaByIds, upsertMedia, type MediaRecord } from '../../media/repository.js';
import { recordEvents, type EventInput } from '../../events/record.js';
import { presentItem } from '../../publishing/core.js';
import { findWorkspaceById } from '../../workspaces/repository.js';
import type { PlannedAsset, PlannedEntry } from './content-mapping.js';
import { chunks } from './entry-bulk-write.js';
import { Segment } from './entry-checks.js';
import { ENTRY_TABLES } from '../../publishing/repository.js';
import { changedSinceImport, lastImportVersions, plannerEntryCount, refreshImportStatistics, upsertMediaRecords } from '../repository.js';
import {
  ACTION_PAST,
  contentInput,
  dependencyOrder,
  sameAsLastImport,
  sameContent,
  stateAction,
  type EntrySummary,
  type UniqueValueCounts,
} from './entry-planning.js';
import { countStates, targetStatus, zeroCounts, type ChangedAs, type StateCounts, type TargetStatus } from './states.js';

export { dependencyOrder, stateAction, type EntrySummary } from './entry-planning.js';

export interface ProgressEvent {
  /** `read`: bytes of the export file; `plan`: entries planned; the others: items written. */
  phase: 'read' | 'plan' | 'assets' | 'entries' | 'links' | 'pages';
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

const MEDIA_COMPARED = [
  'remote_url',
  'storage_key',
  'mime_type',
  'width',
  'height',
  'alt_text',
  'title',
  'description',
  'filename',
  'original_name',
  'size',
  'deleted_at',
] as const;

/**
 * Creates or refreshes one media record per planned asset; unchanged records are not touched.
 * Per batch, the events first (see insertNewEntries), then the new records in multi-row
 * statements and the changed ones one by one.
 */
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
      const created: MediaRecord[] = [];
      const updated: MediaRecord[] = [];
      const events: EventInput[] = [];
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
          title: a.title,
          description: a.description,
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
        (current ? updated : created).push(wanted);
        events.push({ workspaceId: actor.workspaceId, type: current ? 'media.updated' : 'media.created', itemKind: 'media', itemId: wanted.id });
      }
      await recordEvents(db, now, events);
      await upsertMediaRecords(db, created);
      for (const m of updated) await upsertMedia(db, m);
      counts.created += created.length;
      counts.updated += updated.length;
    });
    done += batch.length;
    onProgress?.({ phase: 'assets', done, total: assets.length });
  }
  return counts;
}

/**
 * True when the import has nothing to do for a published entry with pending changes: the export
 * wants it published and its published version already holds the planned slug, data and
 * translations. Its working copy then holds edits made in Quire since; writing the export's
 * content back and publishing it again would change the live entry's publication (a new
 * published_at and published_version) for content production already reads, so an unchanged
 * export keeps those edits and publishes nothing (issue 23).
 */
async function liveHoldsPlan(tx: Context, actor: Actor, e: PlannedEntry, slug: string, shown: Entry, want: TargetStatus): Promise<boolean> {
  if (want !== 'published' || shown.status !== 'published' || !shown.has_pending_changes || shown.published_version === null) return false;
  const { entry: live } = await getEntryVersion(tx, actor, e.typeSlug, { id: shown.id }, shown.published_version);
  return sameContent(live, e, slug);
}

function failureMessage(err: AppError): string {
  const details = err.errors?.map((e) => `${e.path}: ${e.message}`).join('; ');
  return details ? `${err.message}: ${details}` : err.message;
}

export interface WriteEntriesInput {
  /** Every entry to write, in export order. */
  entries: readonly EntrySummary[];
  /** The full plan of an entry (read again from the export when its batch is written). */
  load(entry: EntrySummary): PlannedEntry;
  /** Final slug of each planned entry id (assignSlugs). */
  slugs: ReadonlyMap<string, string>;
  /** Content type slug → content type id. */
  typeIds: ReadonlyMap<string, string>;
  /** Content type slug → names of its relation and relation_list fields. */
  relationFields: ReadonlyMap<string, ReadonlySet<string>>;
  batchSize: number;
  /** `--changed-as`: what entries with unpublished changes become (default published). */
  changedAs?: ChangedAs;
  /**
   * How many entries of the export hold each unique value (counted while planning). Without it,
   * an entry that holds a unique value is never presumed (see writeEntries).
   */
  uniqueValues?: UniqueValueCounts;
  onProgress?: ProgressListener;
}

/** Entries written before PostgreSQL's statistics are refreshed the first time (see writeEntries). */
const STATS_STEP = 1000;

/**
 * Creates, updates and publishes, unpublishes or archives entries as planned, in dependency order
 * and batches of `batchSize` per transaction (the module comment has the rules).
 *
 * New entries, the bulk of a first import, take a bulk path: each is checked in memory exactly as
 * createEntry and the state change would check it (slug rules, values, links, unique values, slug
 * collisions, required values before publishing), against what the database held when the run of
 * new entries began plus the entries accepted since; the accepted ones are then written with a
 * few multi-row statements (rows in their final state, translations, published copies, versions
 * with action `import`, change events and webhook deliveries). The stored result is what the
 * operations write one by one. The second pass of a new entry that pass 1 created without some
 * links (a link cycle) is written in bulk too, as updateEntry and the state action would write
 * it; most such entries skip that pass: when each target it links but that is not stored yet is
 * sure to be created later in the run (presumed: Segment.willBeCreated, checked once per batch
 * for the batch's targets), its second pass is decided with its first and both are written at
 * once, as they would have been stored (versions, events and counts the same). Everything else (an entry stored before whose content or state changes, an entry id seen
 * twice, anything unusual) goes through the entry operations one at a time, after the pending
 * bulk writes.
 */
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
  const changedAs = input.changedAs ?? 'published';
  const fail = (e: { id: string; cfId: string; typeSlug: string }, err: AppError) => {
    if (failed.has(e.id)) return;
    failed.add(e.id);
    counts.failed += 1;
    failures.push({ entry: e.cfId, type: e.typeSlug, message: failureMessage(err) });
  };

  // Which planned entries exist already (a previous run): their links can be written at once.
  // `present` maps each to its content type slug, which link checks need.
  const present = new Map<string, string>();
  for (const ids of chunks(
    ordered.map((e) => e.id),
    500,
  )) {
    for (const [id, type] of await findEntryTypeSlugs(ctx.db, actor.workspaceId, ids)) present.set(id, type);
  }

  // Entries by id (to read a later link target early) and the ids the export holds more than once.
  const byId = new Map<string, EntrySummary>();
  const repeated = new Set<string>();
  for (const e of input.entries) {
    if (byId.has(e.id)) repeated.add(e.id);
    else byId.set(e.id, e);
  }
  // Link targets not written yet, once checked: presumed (sure to be created later: id → content
  // type slug) or not. An entry leaves both when its own turn comes.
  const presumed = new Map<string, string>();
  const doubtful = new Set<string>();

  const ws = await findWorkspaceById(ctx.db, actor.workspaceId);
  if (!ws) throw new Error('the workspace vanished during the import');
  const types = new Map<string, ContentType>();
  for (const slug of input.typeIds.keys()) {
    const ct = await findContentTypeBySlug(ctx.db, actor.workspaceId, slug);
    if (ct) types.set(slug, ct);
  }

  /**
   * Writes one entry through the entry operations. Before the final pass, links to entries that
   * do not exist yet are left out and the entry is neither updated further nor published: returns
   * true (completed in pass 2).
   */
  const writeOne = async (tx: Context, e: PlannedEntry, final: boolean): Promise<boolean> => {
    const slug = input.slugs.get(e.id)!;
    const relationFields = input.relationFields.get(e.typeSlug) ?? new Set<string>();
    const missing = new Set(final ? [] : e.references.filter((id) => !present.has(id)));
    const stored = await findEntry(tx.db, input.typeIds.get(e.typeSlug)!, { id: e.id });
    const shown = stored ? presentItem(stored, tx.clock()) : null;
    if (shown && !missing.size && (await liveHoldsPlan(tx, actor, e, slug, shown, targetStatus(e.state, changedAs)))) {
      warnings.push(`entry '${e.cfId}' (${e.typeSlug}) has unpublished changes made in Quire; the export holds what is published, so they are kept`);
      return false;
    }
    let status = shown?.status ?? null;
    // A published entry whose working copy the import changed must be published again (D70).
    let pending = shown?.has_pending_changes ?? false;
    if (!stored) {
      await createEntry(tx, actor, e.typeSlug, { id: e.id, ...contentInput(e, slug, relationFields, missing) }, { action: 'import' });
      present.set(e.id, e.typeSlug);
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
    const want = targetStatus(e.state, changedAs);
    const action = stateAction(status, pending, want);
    if (action) {
      await changeEntryStatus(tx, actor, e.typeSlug, { id: e.id }, action, { action: 'import' });
      counts[ACTION_PAST[action]] += 1;
      touched.add(e.id);
    } else if (want === 'draft' && status === 'archived') {
      warnings.push(`entry '${e.cfId}' (${e.typeSlug}) is a draft in the export but archived in Quire, which has no way back to draft; it stays archived`);
    }
    return false;
  };

  /**
   * Checks the link targets of `plans` (one batch of pass 1) that are neither stored nor in the
   * batch before the entry linking them, and not checked yet: each is read from the export and
   * becomes presumed or doubtful.
   */
  const checkTargets = async (tx: Context, plans: readonly PlannedEntry[]): Promise<void> => {
    const place = new Map(plans.map((p, i) => [p.id, i]));
    const ids = new Set<string>();
    plans.forEach((p, i) => {
      for (const id of p.references) {
        if (present.has(id) || presumed.has(id) || doubtful.has(id) || failed.has(id) || (place.get(id) ?? plans.length) < i || !byId.has(id)) continue;
        ids.add(id);
      }
    });
    if (ids.size === 0) return;
    const targets = [...ids].map((id) => input.load(byId.get(id)!));
    const checker = new Segment(tx, actor, ws, present, new Map(), deferredNew);
    await checker.prepare(targets, input.slugs, types);
    for (const t of targets) {
      const sure = await checker.willBeCreated(t, {
        slug: input.slugs.get(t.id)!,
        ct: types.get(t.typeSlug),
        single: !repeated.has(t.id),
        typeOf: (id) => byId.get(id)?.typeSlug,
        uniqueCount: (field, value) => input.uniqueValues?.count(t.typeSlug, field, value) ?? 0,
      });
      if (sure) presumed.set(t.id, t.typeSlug);
      else doubtful.add(t.id);
    }
  };

  /**
   * The entries of a batch the import leaves alone (module comment): stored ones changed in Quire
   * since their newest `import` version, which holds what the export plans for them now. An id
   * the export holds twice is not among them (its first plan may be written in this run).
   */
  const keptInQuire = async (tx: Context, plans: readonly PlannedEntry[], stored: ReadonlyMap<string, Entry>): Promise<Set<string>> => {
    const kept = new Set<string>();
    if (stored.size === 0) return kept;
    const changed = await changedSinceImport(tx.db, ENTRY_TABLES, [...stored.values()]);
    const edited = plans.filter((p) => {
      const s = stored.get(p.id);
      return s && !repeated.has(p.id) && s.content_type_id === types.get(p.typeSlug)?.id && (changed.has(p.id) || s.slug !== input.slugs.get(p.id));
    });
    if (edited.length === 0) return kept;
    const records = await lastImportVersions(
      tx.db,
      ENTRY_TABLES,
      edited.map((p) => p.id),
    );
    for (const p of edited) {
      const record = records.get(p.id);
      if (record && sameAsLastImport(record, p, targetStatus(p.state, changedAs))) kept.add(p.id);
    }
    return kept;
  };

  /**
   * Writes one batch in one transaction: runs of new entries through the bulk path (a segment),
   * anything else through writeOne. Returns the entries left for pass 2.
   */
  const writeBatch = async (batch: readonly EntrySummary[], final: boolean): Promise<EntrySummary[]> => {
    const deferred: EntrySummary[] = [];
    const plans = batch.map((e) => input.load(e));
    await withTransaction(ctx.db, async (db) => {
      const tx = { ...ctx, db };
      // The stored rows of the batch, read once; an entry written through the operations is read again.
      const stored = new Map(
        (
          await findEntriesByIds(
            db,
            plans.map((p) => p.id),
          )
        ).map((e) => [e.id, e]),
      );
      if (!final) await checkTargets(tx, plans);
      const kept = await keptInQuire(tx, plans, stored);
      let next = 0;
      while (next < plans.length) {
        const segment = new Segment(tx, actor, ws, present, stored, deferredNew);
        await segment.prepare(plans.slice(next), input.slugs, types);
        for (; next < plans.length; next++) {
          const e = plans[next];
          if (kept.has(e.id)) {
            settled(e, false);
            warnings.push(
              `entry '${e.cfId}' (${e.typeSlug}) was edited in Quire since the last import, which the export has not changed since; Quire's edits are kept`,
            );
            continue;
          }
          const outcome = await segment.decide(e, final, {
            slug: input.slugs.get(e.id)!,
            relationFields: input.relationFields.get(e.typeSlug) ?? new Set<string>(),
            ct: types.get(e.typeSlug),
            want: targetStatus(e.state, changedAs),
            presumed,
          });
          if (outcome === 'slow') break;
          settled(e, outcome instanceof AppError);
          if (outcome === 'deferred') deferred.push(batch[next]);
          else if (outcome === 'unchanged') {
            const warning = segment.warningFor(e, changedAs);
            if (warning) warnings.push(warning);
          } else if (outcome instanceof AppError) fail(e, outcome);
          else {
            if (outcome.kind === 'created') counts.created += 1;
            touched.add(e.id);
            if (outcome.action) counts[ACTION_PAST[outcome.action]] += 1;
            if (outcome.refusal) fail(e, outcome.refusal);
            if (outcome.deferred) deferred.push(batch[next]);
          }
        }
        await segment.flush();
        if (next < plans.length) {
          // The entry the bulk path does not cover, through the operations.
          const e = plans[next];
          try {
            if (await writeOne(tx, e, final)) deferred.push(batch[next]);
            settled(e, false);
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            fail(e, err);
            settled(e, true);
          }
          stored.delete(e.id);
          for (const row of await findEntriesByIds(db, [e.id])) stored.set(row.id, row);
          next += 1;
        }
      }
    });
    return deferred;
  };

  /**
   * Entry `e` had its turn in pass 1: it leaves the presumed and doubtful targets. A presumed one
   * that failed (only a concurrent write can cause it) is named in a warning: entries were
   * written with links to it.
   */
  const settled = (e: PlannedEntry, refused: boolean) => {
    if (refused && presumed.has(e.id))
      warnings.push(`entry '${e.cfId}' (${e.typeSlug}) could not be created after entries linking it were written with their links to it`);
    presumed.delete(e.id);
    doubtful.delete(e.id);
  };

  // New entries the bulk path created without some links (pass 2 completes them, also in bulk).
  const deferredNew = new Set<string>();
  const deferred: EntrySummary[] = [];
  // PostgreSQL plans the batches' lookups by its statistics of the tables, which an import
  // outgrows: they are refreshed between batches whenever the entries created since they last
  // counted the table reach that count (at least STATS_STEP; refreshImportStatistics).
  let counted = await plannerEntryCount(ctx.db);
  let createdThen = 0;
  const keepStatistics = async () => {
    const written = counts.created - createdThen;
    if (counted === null || written < Math.max(STATS_STEP, counted)) return;
    await refreshImportStatistics(ctx.db);
    counted = (await plannerEntryCount(ctx.db)) ?? 0;
    createdThen = counts.created;
  };
  let done = 0;
  for (const batch of chunks(ordered, input.batchSize)) {
    deferred.push(...(await writeBatch(batch, false)));
    done += batch.length;
    input.onProgress?.({ phase: 'entries', done, total: ordered.length });
    await keepStatistics();
  }

  let linked = 0;
  for (const batch of chunks(deferred, input.batchSize)) {
    const again = await writeBatch(batch, true);
    if (again.length) throw new Error('an entry was deferred in the final pass');
    linked += batch.length;
    input.onProgress?.({ phase: 'links', done: linked, total: deferred.length });
    await keepStatistics();
  }

  counts.unchanged = ordered.filter((e) => !touched.has(e.id) && !failed.has(e.id)).length;
  return { counts, failures, warnings };
}
