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
 * pass, then published. Batches hold planned entries read back from the export (operations.ts
 * keeps ids and links only), so memory does not grow with the export's content. An entry the API refuses (e.g. a published entry lacking a required
 * value) is reported in `failures` and the import goes on.
 */
import { sql } from 'kysely';
import type { Context } from '../../../context.js';
import { comparableValue, dataFieldSql, uniqueIndexName } from '../../../db/dialect.js';
import { withTransaction } from '../../../db/transaction.js';
import { AppError, invalid, validationError, type ErrorDetail } from '../../../errors.js';
import { stableStringify } from '../../../lib/json.js';
import { iso } from '../../../lib/time.js';
import type { Actor } from '../../auth/permissions.js';
import type { ContentType, Field } from '../../content-types/model.js';
import { findContentTypeBySlug } from '../../content-types/repository.js';
import { slugProblem, validateLocalizedValues, type LocalizedValues } from '../../entries/content.js';
import type { Entry, EntryData } from '../../entries/model.js';
import { createEntry, updateEntry } from '../../entries/operations.js';
import { changeEntryStatus } from '../../entries/publishing.js';
import {
  findEntriesByIds,
  findEntry,
  findEntryTypeSlugs,
  findLiveMediaTypes,
  loadTranslations,
  lockContentType,
  maxPosition,
  uniqueValueTaken,
} from '../../entries/repository.js';
import { entryContentKey, entrySnapshotOf } from '../../entries/snapshot.js';
import { fieldValue, mediaReferenceError, missingRequired, type DataReference } from '../../entries/validation.js';
import { findMediaByIds, upsertMedia, type MediaRecord } from '../../media/repository.js';
import { recordEvents, recordMediaEvent, type EventInput } from '../../events/record.js';
import { presentItem } from '../../publishing/core.js';
import { copyLatestVersion, ENTRY_TABLES } from '../../publishing/repository.js';
import type { Db } from '../../../db/types.js';
import { findWorkspaceById, type Workspace } from '../../workspaces/repository.js';
import type { PlannedAsset, PlannedEntry } from './content-mapping.js';
import { countStates, targetStatus, zeroCounts, type CfState, type ChangedAs, type StateCounts, type TargetStatus } from './states.js';

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

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
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

/** What the writer keeps of a planned entry between reading it and writing it (no values). */
export interface EntrySummary {
  id: string;
  cfId: string;
  typeSlug: string;
  state: CfState;
  /** Ids of the entries it links in relation fields. */
  references: readonly string[];
}

/**
 * Entries ordered so that link targets come before the entries linking to them (depth-first,
 * iterative; a cycle is cut where it closes, and the second pass completes it).
 */
export function dependencyOrder<T extends { id: string; references: readonly string[] }>(entries: readonly T[]): T[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const state = new Map<string, 'open' | 'done'>();
  const out: T[] = [];
  for (const root of entries) {
    if (state.has(root.id)) continue;
    const stack: { entry: T; next: number }[] = [{ entry: root, next: 0 }];
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

/** A new entry accepted by the bulk path, written when its segment is flushed. */
interface NewEntry {
  id: string;
  ct: ContentType;
  slug: string;
  values: { data: EntryData; translations: { locale: string; data: EntryData }[] };
  /** Its status after the import's state action (draft when there is none or it was refused). */
  status: 'draft' | 'published' | 'archived';
}

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
 * it. Everything else (an entry stored before whose content or state changes, an entry id seen
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
      counts[PAST[action]] += 1;
      touched.add(e.id);
    } else if (want === 'draft' && status === 'archived') {
      warnings.push(`entry '${e.cfId}' (${e.typeSlug}) is a draft in the export but archived in Quire, which has no way back to draft; it stays archived`);
    }
    return false;
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
      let next = 0;
      while (next < plans.length) {
        const segment = new Segment(tx, actor, ws, present, stored, deferredNew);
        await segment.prepare(plans.slice(next), input.slugs, types);
        for (; next < plans.length; next++) {
          const e = plans[next];
          const outcome = await segment.decide(e, final, {
            slug: input.slugs.get(e.id)!,
            relationFields: input.relationFields.get(e.typeSlug) ?? new Set<string>(),
            ct: types.get(e.typeSlug),
            want: targetStatus(e.state, changedAs),
          });
          if (outcome === 'slow') break;
          if (outcome === 'deferred') deferred.push(batch[next]);
          else if (outcome === 'unchanged') {
            const warning = segment.warningFor(e, changedAs);
            if (warning) warnings.push(warning);
          } else if (outcome instanceof AppError) fail(e, outcome);
          else {
            if (outcome.kind === 'created') counts.created += 1;
            touched.add(e.id);
            if (outcome.action) counts[PAST[outcome.action]] += 1;
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
          } catch (err) {
            if (!(err instanceof AppError)) throw err;
            fail(e, err);
          }
          stored.delete(e.id);
          for (const row of await findEntriesByIds(db, [e.id])) stored.set(row.id, row);
          next += 1;
        }
      }
    });
    return deferred;
  };

  // New entries the bulk path created without some links (pass 2 completes them, also in bulk).
  const deferredNew = new Set<string>();
  const deferred: EntrySummary[] = [];
  let done = 0;
  for (const batch of chunks(ordered, input.batchSize)) {
    deferred.push(...(await writeBatch(batch, false)));
    done += batch.length;
    input.onProgress?.({ phase: 'entries', done, total: ordered.length });
  }

  let linked = 0;
  for (const batch of chunks(deferred, input.batchSize)) {
    const again = await writeBatch(batch, true);
    if (again.length) throw new Error('an entry was deferred in the final pass');
    linked += batch.length;
    input.onProgress?.({ phase: 'links', done: linked, total: deferred.length });
  }

  counts.unchanged = ordered.filter((e) => !touched.has(e.id) && !failed.has(e.id)).length;
  return { counts, failures, warnings };
}

/** What the bulk path decided for a new entry or a completion: accepted, written at flush. */
interface Accepted {
  kind: 'created' | 'completed';
  /** The state action taken (publish, archive), if any. */
  action: 'publish' | 'archive' | null;
  /** Links left out for pass 2: the entry stays a draft for now. */
  deferred: boolean;
  /** Why publishing it was refused (it stays a draft). */
  refusal: AppError | null;
}

type Outcome = 'slow' | 'deferred' | 'unchanged' | AppError | Accepted;

/** A new entry created without some links in pass 1 and now written in full (updateEntry, then its state action). */
interface Completion {
  stored: Entry;
  ct: ContentType;
  values: { data: EntryData; translations: { locale: string; data: EntryData }[] };
  status: 'draft' | 'published' | 'archived';
}

/**
 * The state action a draft just written takes towards `want` (changeEntryStatus's checks: publish
 * needs the required values, else it is refused and the entry stays a draft); sets `item.status`.
 */
function settle(kind: Accepted['kind'], item: { status: NewEntry['status']; values: { data: EntryData } }, ct: ContentType, want: TargetStatus): Accepted {
  const action = stateAction('draft', false, want);
  if (action === 'publish') {
    const lacking = missingRequired(ct.fields, item.values.data, 'data');
    if (lacking.length) return { kind, action: null, deferred: false, refusal: validationError(lacking) };
    item.status = 'published';
  } else if (action === 'archive') item.status = 'archived';
  return { kind, action: action === 'unpublish' ? null : action, deferred: false, refusal: null };
}

/** One value of a unique field, as the database compares it (a datetime by its instant). */
const uniqueKey = (ctId: string, field: Pick<Field, 'name' | 'field_type'>, value: unknown) => {
  const v = comparableValue(field.field_type, value);
  return `${ctId}\u0000${field.name}\u0000${typeof v}\u0000${String(v)}`;
};

/**
 * One run of bulk decisions inside a batch's transaction. prepare() reads, in a few queries, what
 * the checks of the coming entries need (stored rows, slugs in use, unique values in use, live
 * media); while no write happens these facts stay true, and decide() adds what each accepted
 * entry claims (id, slug, unique values). flush() writes the accepted entries.
 */
class Segment {
  private slugOwners = new Map<string, string>();
  private uniqueHits = new Set<string>();
  private uniqueAsked = new Set<string>();
  /** Live media asked about: id → MIME type. */
  private liveMedia = new Map<string, string>();
  private mediaAsked = new Set<string>();
  private claimedSlugs = new Set<string>();
  private claimedValues = new Set<string>();
  private accepted: NewEntry[] = [];
  private completions: Completion[] = [];
  private acceptedIds = new Set<string>();
  private readonly now: Date;

  constructor(
    private readonly tx: Context,
    private readonly actor: Actor,
    private readonly ws: Workspace,
    private readonly present: Map<string, string>,
    private readonly stored: Map<string, Entry>,
    private readonly deferredNew: Set<string>,
  ) {
    this.now = tx.clock();
  }

  async prepare(plans: readonly PlannedEntry[], slugs: ReadonlyMap<string, string>, types: ReadonlyMap<string, ContentType>): Promise<void> {
    const db = this.tx.db;
    const fresh = plans.filter((p) => !this.stored.has(p.id));
    const byType = new Map<ContentType, PlannedEntry[]>();
    for (const p of fresh) {
      const ct = types.get(p.typeSlug);
      if (!ct) continue;
      const list = byType.get(ct);
      if (list) list.push(p);
      else byType.set(ct, [p]);
    }
    for (const [ct, list] of byType) {
      for (const part of chunks(list, 500)) {
        const rows = await db.kysely
          .selectFrom('entries')
          .select(['id', 'slug'])
          .where('content_type_id', '=', ct.id)
          .where(
            'slug',
            'in',
            part.map((p) => slugs.get(p.id)!),
          )
          .execute();
        for (const r of rows) this.slugOwners.set(`${ct.id}\u0000${r.slug}`, r.id);
      }
      for (const field of ct.fields.filter((f) => f.is_unique)) {
        const values = [...new Set(list.map((p) => fieldValue(p.data, field.name)).filter((v) => typeof v === 'string' || typeof v === 'number'))];
        for (const v of values) this.uniqueAsked.add(uniqueKey(ct.id, field, v));
        for (const part of chunks(values as (string | number)[], 500)) {
          const hit = await uniqueValuesHit(db, ct, field, part);
          // Any hit (or no answer): the values of this field are checked one by one, exactly as
          // createEntry does.
          if (hit) for (const v of part) this.uniqueHits.add(uniqueKey(ct.id, field, v));
        }
      }
    }
    const media = [...new Set(fresh.flatMap((p) => mediaIdsOf(p, types.get(p.typeSlug))))];
    for (const part of chunks(media, 500)) {
      for (const [id, mime] of await findLiveMediaTypes(db, this.actor.workspaceId, part)) this.liveMedia.set(id, mime);
    }
    for (const id of media) this.mediaAsked.add(id);
  }

  /** The bulk path's decision for planned entry `e` (see writeEntries). */
  async decide(
    e: PlannedEntry,
    final: boolean,
    facts: { slug: string; relationFields: ReadonlySet<string>; ct: ContentType | undefined; want: TargetStatus },
  ): Promise<Outcome> {
    const { slug, relationFields, ct, want } = facts;
    const missing = new Set(final ? [] : e.references.filter((id) => !this.present.has(id)));
    if (this.acceptedIds.has(e.id) || !ct || ct.is_block) return 'slow';
    const stored = this.stored.get(e.id);
    if (stored && stored.content_type_id === ct.id) {
      const shown = presentItem(stored, this.now);
      // A new entry created without some links lacks them, so its content differs: no comparison needed.
      if (!missing.size && this.deferredNew.has(e.id)) return this.complete(e, stored, ct, slug, want);
      if (!missing.size && !sameContent(stored, e, slug)) return 'slow';
      if (missing.size) return 'deferred';
      return stateAction(shown.status, shown.has_pending_changes, want) ? 'slow' : 'unchanged';
    }
    // A new entry: createEntry's checks, in its order.
    const values = await this.checkContent(ct, contentInput(e, slug, relationFields, missing));
    if (values instanceof AppError) return values;
    if (stored) return invalid('id', `an entry with id '${e.id}' already exists`);
    for (const field of ct.fields) {
      if (!field.is_unique) continue;
      const value = fieldValue(values.data, field.name);
      if (value === undefined || value === null) continue;
      if (await this.valueTaken(ct, field, value))
        return new AppError('UNIQUE_VIOLATION', `value of '${field.name}' is already used by another entry of '${ct.slug}'`);
    }
    const slugKey = `${ct.id}\u0000${slug}`;
    if (this.slugOwners.has(slugKey) || this.claimedSlugs.has(slugKey))
      return new AppError('SLUG_TAKEN', `slug '${slug}' is already used by another entry of '${ct.slug}'`);

    // Accepted: it exists from here on for the checks of the entries after it.
    this.claimedSlugs.add(slugKey);
    for (const field of ct.fields) {
      const value = field.is_unique ? fieldValue(values.data, field.name) : undefined;
      if (value !== undefined && value !== null) this.claimedValues.add(uniqueKey(ct.id, field, value));
    }
    this.present.set(e.id, ct.slug);
    this.acceptedIds.add(e.id);
    const entry: NewEntry = { id: e.id, ct, slug, values: { data: values.data, translations: values.translations ?? [] }, status: 'draft' };
    this.accepted.push(entry);
    if (missing.size) {
      this.deferredNew.add(e.id);
      return { kind: 'created', action: null, deferred: true, refusal: null };
    }
    return settle('created', entry, ct, want);
  }

  /**
   * Pass 2 of a new entry that pass 1 created without some links (a draft with one version):
   * updateEntry's checks and then its state action's, in memory. Anything unusual (the row is not
   * as pass 1 wrote it, the slug or a unique value would change) goes through the operations.
   */
  private async complete(e: PlannedEntry, stored: Entry, ct: ContentType, slug: string, want: TargetStatus): Promise<Outcome> {
    const pristine =
      stored.status === 'draft' && stored.version === 1 && stored.latest_version === 1 && !stored.has_pending_changes && stored.publish_at === null;
    if (!pristine || stored.slug !== slug) return 'slow';
    const values = await this.checkContent(ct, contentInput(e, slug, new Set(), new Set()));
    if (values instanceof AppError) return values;
    // Unique values kept as they were need no check: the field's unique index holds them for
    // this entry alone. A changed one is checked by the operations.
    for (const field of ct.fields) {
      if (field.is_unique && stableStringify(fieldValue(values.data, field.name) ?? null) !== stableStringify(fieldValue(stored.data, field.name) ?? null))
        return 'slow';
    }
    this.acceptedIds.add(e.id);
    this.deferredNew.delete(e.id);
    const completion: Completion = { stored, ct, values: { data: values.data, translations: values.translations ?? [] }, status: 'draft' };
    this.completions.push(completion);
    return settle('completed', completion, ct, want);
  }

  /**
   * The checks createEntry and updateEntry run on a write's content before anything entry-wide:
   * the slug rules, the values (prepareContent; required fields are checked at publish), then
   * the links. Returns the cleaned values or the 400 the operation would throw.
   */
  private async checkContent(ct: ContentType, content: ReturnType<typeof contentInput>): Promise<AppError | LocalizedValues> {
    const problem = slugProblem(content.slug);
    if (problem) return invalid('body.slug', problem);
    const errors: ErrorDetail[] = [];
    const references: DataReference[] = [];
    const values = validateLocalizedValues(
      this.ws,
      ct.fields,
      content,
      'body',
      { requireRequired: false, patterns: this.tx.db.memo.fieldPatterns },
      errors,
      references,
    );
    if (errors.length) return validationError(errors);
    const refErrors = await this.checkReferences(references);
    if (refErrors.length) return validationError(refErrors);
    return values;
  }

  /** The warning writeOne gives an unchanged entry: a draft in the export that Quire keeps archived. */
  warningFor(e: PlannedEntry, changedAs: ChangedAs): string | null {
    const stored = this.stored.get(e.id);
    if (!stored || targetStatus(e.state, changedAs) !== 'draft' || presentItem(stored, this.now).status !== 'archived') return null;
    return `entry '${e.cfId}' (${e.typeSlug}) is a draft in the export but archived in Quire, which has no way back to draft; it stays archived`;
  }

  /** checkReferences (entries/validation.ts) over what the run knows: planned entries present, live media. */
  private async checkReferences(references: readonly DataReference[]): Promise<ErrorDetail[]> {
    const unknownMedia = references.filter((r) => r.kind === 'media' && !this.mediaAsked.has(r.id)).map((r) => r.id);
    if (unknownMedia.length) {
      for (const [id, mime] of await findLiveMediaTypes(this.tx.db, this.actor.workspaceId, [...new Set(unknownMedia)])) this.liveMedia.set(id, mime);
      for (const id of unknownMedia) this.mediaAsked.add(id);
    }
    const unknownEntries = [...new Set(references.filter((r) => r.kind === 'relation' && !this.present.has(r.id)).map((r) => r.id))];
    // Links to entries outside the import: as checkReferences reads them.
    const outside = unknownEntries.length ? await findEntryTypeSlugs(this.tx.db, this.actor.workspaceId, unknownEntries) : new Map<string, string>();
    const errors: ErrorDetail[] = [];
    for (const ref of references) {
      if (ref.kind === 'media') {
        const error = mediaReferenceError(ref, this.liveMedia.get(ref.id));
        if (error) errors.push(error);
        continue;
      }
      const type = this.present.get(ref.id) ?? outside.get(ref.id);
      if (type === undefined) errors.push({ path: ref.path, message: `entry '${ref.id}' does not exist in this workspace` });
      else if (ref.allowedTypes.length && !ref.allowedTypes.includes(type)) {
        errors.push({ path: ref.path, message: `entry '${ref.id}' is of content type '${type}'; this field accepts ${ref.allowedTypes.join(', ')}` });
      }
    }
    return errors;
  }

  /** True when another entry of the type holds `value` in unique field `field` (assertUniqueValues). */
  private async valueTaken(ct: ContentType, field: Field, value: unknown): Promise<boolean> {
    const key = uniqueKey(ct.id, field, value);
    if (this.claimedValues.has(key)) return true;
    if (this.uniqueAsked.has(key) && !this.uniqueHits.has(key)) return false;
    return uniqueValueTaken(this.tx.db, ct.id, field, value, null);
  }

  /** Writes the accepted entries (see writeEntries). */
  async flush(): Promise<void> {
    await this.flushNew();
    await this.flushCompletions();
  }

  private async flushNew(): Promise<void> {
    const list = this.accepted;
    if (list.length === 0) return;
    this.accepted = [];
    const db = this.tx.db;
    const now = iso(this.now);
    const userId = this.actor.userId;
    const typesUsed = [...new Map(list.map((e) => [e.ct.id, e.ct])).values()];
    const position = new Map<string, number>();
    for (const ct of typesUsed) {
      await lockContentType(db, ct.id);
      position.set(ct.id, await maxPosition(db, ct.id));
    }
    const rows = list.map((e) => {
      const pos = position.get(e.ct.id)! + 1;
      position.set(e.ct.id, pos);
      const live = e.status === 'published';
      const changed = e.status !== 'draft';
      return {
        id: e.id,
        workspace_id: this.actor.workspaceId,
        content_type_id: e.ct.id,
        slug: e.slug,
        data: JSON.stringify(e.values.data),
        published_data: live ? JSON.stringify(e.values.data) : null,
        position: pos,
        status: e.status,
        publish_at: null,
        published_at: live ? now : null,
        version: changed ? 2 : 1,
        created_at: now,
        updated_at: now,
        created_by: userId,
        updated_by: userId,
        published_by: live ? userId : null,
        published_version: live ? 2 : null,
        latest_version: changed ? 2 : 1,
        has_pending_changes: 0,
      };
    });
    // Both dialects store the pending flag as 0/1 (what insertItemRow writes).
    for (const part of chunks(rows, 200))
      await db.kysely
        .insertInto('entries')
        .values(part as never)
        .execute();
    const translations = list.flatMap((e) =>
      e.values.translations.map((t) => ({ entry_id: e.id, locale: t.locale, data: JSON.stringify(t.data), created_at: now, updated_at: now })),
    );
    for (const part of chunks(translations, 300)) await db.kysely.insertInto('entry_translations').values(part).execute();
    const ids = list.map((e) => e.id);
    const stored = await loadTranslations(db, ids);
    const liveIds = list.filter((e) => e.status === 'published').map((e) => e.id);
    for (const part of chunks(liveIds, 500)) {
      await db.kysely
        .insertInto('published_entry_translations')
        .columns(['entry_id', 'locale', 'id', 'data'])
        .expression(db.kysely.selectFrom('entry_translations').select(['entry_id', 'locale', 'id', 'data']).where('entry_id', 'in', part))
        .execute();
    }
    const versions = list.flatMap((e) => {
      const snapshot = JSON.stringify(entrySnapshotOf({ data: e.values.data, translations: stored.get(e.id) ?? [] }));
      const first = { entry_id: e.id, version: 1, action: 'import', status: 'draft', snapshot, created_at: now, created_by: userId };
      return e.status === 'draft' ? [first] : [first, { ...first, version: 2, status: e.status }];
    });
    for (const part of chunks(versions, 200)) await db.kysely.insertInto('entry_versions').values(part).execute();
    const events: EventInput[] = list.flatMap((e) => {
      const created: EventInput = {
        workspaceId: this.actor.workspaceId,
        type: 'entry.created',
        itemKind: 'entry',
        itemId: e.id,
        slug: e.slug,
        contentType: e.ct.slug,
        status: 'draft',
        version: 1,
      };
      return e.status === 'draft' ? [created] : [created, { ...created, type: `entry.${e.status}` as const, status: e.status, version: 2 }];
    });
    await recordEvents(db, now, events);
  }

  /** Writes the accepted completions: what updateEntry and then the state action store. */
  private async flushCompletions(): Promise<void> {
    const list = this.completions;
    if (list.length === 0) return;
    this.completions = [];
    const db = this.tx.db;
    const now = iso(this.now);
    const userId = this.actor.userId;
    for (const ct of new Map(list.map((c) => [c.ct.id, c.ct])).values()) await lockContentType(db, ct.id);
    // Translations as replaceTranslations leaves them: the others deleted, existing locales
    // rewritten in place (ids kept), new ones inserted in order.
    const rewritten: { entry_id: string; locale: string; data: string }[] = [];
    const added: { entry_id: string; locale: string; data: string; created_at: string; updated_at: string }[] = [];
    const stale: number[] = [];
    for (const c of list) {
      const want = new Set(c.values.translations.map((t) => t.locale));
      const have = new Set(c.stored.translations.map((t) => t.locale));
      for (const t of c.stored.translations) if (!want.has(t.locale)) stale.push(t.id);
      for (const t of c.values.translations) {
        const row = { entry_id: c.stored.id, locale: t.locale, data: JSON.stringify(t.data) };
        if (have.has(t.locale)) rewritten.push(row);
        else added.push({ ...row, created_at: now, updated_at: now });
      }
    }
    for (const part of chunks(stale, 500)) await db.kysely.deleteFrom('entry_translations').where('id', 'in', part).execute();
    await rewriteTranslations(db, rewritten, now);
    for (const part of chunks(added, 300)) await db.kysely.insertInto('entry_translations').values(part).execute();
    const translations = await loadTranslations(
      db,
      list.map((c) => c.stored.id),
    );

    const rows: EntryRowUpdate[] = [];
    const versions: { entry_id: string; version: number; action: string; status: string; snapshot: string; created_at: string; created_by: number }[] = [];
    const copies: { id: string; version: number; status: string }[] = [];
    const events: EventInput[] = [];
    for (const c of list) {
      const id = c.stored.id;
      const snapshot = entrySnapshotOf({ data: c.values.data, translations: translations.get(id) ?? [] });
      const changed = entryContentKey(snapshot) !== entryContentKey(entrySnapshotOf(c.stored));
      const text = JSON.stringify(snapshot);
      let latest = c.stored.latest_version;
      let version = c.stored.version + 1;
      if (changed) {
        latest += 1;
        versions.push({ entry_id: id, version: latest, action: 'import', status: 'draft', snapshot: text, created_at: now, created_by: userId });
      }
      const subject = { workspaceId: this.actor.workspaceId, itemKind: 'entry' as const, itemId: id, slug: c.stored.slug, contentType: c.ct.slug };
      events.push({ ...subject, type: 'entry.updated', status: 'draft', version: latest });
      if (c.status !== 'draft') {
        latest += 1;
        version += 1;
        if (changed) versions.push({ entry_id: id, version: latest, action: 'import', status: c.status, snapshot: text, created_at: now, created_by: userId });
        else copies.push({ id, version: latest, status: c.status });
        events.push({ ...subject, type: `entry.${c.status}`, status: c.status, version: latest });
      }
      const live = c.status === 'published';
      rows.push({
        id,
        data: JSON.stringify(c.values.data),
        published_data: live ? JSON.stringify(c.values.data) : null,
        status: c.status,
        published_at: live ? now : null,
        published_by: live ? userId : null,
        published_version: live ? latest : null,
        latest_version: latest,
        version,
        updated_at: now,
        updated_by: userId,
      });
    }
    await updateEntryRows(db, rows);
    const liveIds = list.filter((c) => c.status === 'published').map((c) => c.stored.id);
    for (const part of chunks(liveIds, 500)) {
      await db.kysely
        .insertInto('published_entry_translations')
        .columns(['entry_id', 'locale', 'id', 'data'])
        .expression(db.kysely.selectFrom('entry_translations').select(['entry_id', 'locale', 'id', 'data']).where('entry_id', 'in', part))
        .execute();
    }
    for (const part of chunks(versions, 200)) await db.kysely.insertInto('entry_versions').values(part).execute();
    for (const c of copies) await copyLatestVersion(db, ENTRY_TABLES, [{ id: c.id, version: c.version, createdBy: userId }], 'import', c.status, now);
    await recordEvents(db, now, events);
  }
}

/** The columns of an entry row a completion writes. */
interface EntryRowUpdate {
  id: string;
  data: string;
  published_data: string | null;
  status: string;
  published_at: string | null;
  published_by: number | null;
  published_version: number | null;
  latest_version: number;
  version: number;
  updated_at: string;
  updated_by: number;
}

/** Updates entry rows: one statement per row on SQLite (in-process), one per 200 rows on PostgreSQL. */
async function updateEntryRows(db: Db, rows: readonly EntryRowUpdate[]): Promise<void> {
  if (db.dialect === 'sqlite') {
    for (const { id, ...set } of rows)
      await db.kysely
        .updateTable('entries')
        .set({ ...set, has_pending_changes: 0 } as never)
        .where('id', '=', id)
        .execute();
    return;
  }
  for (const part of chunks(rows, 200)) {
    const values = sql.join(
      part.map(
        (r) =>
          sql`(${r.id}, ${r.data}, ${r.published_data}, ${r.status}, ${r.published_at}, ${r.published_by}, ${r.published_version}, ${r.latest_version}, ${r.version}, ${r.updated_at}, ${r.updated_by})`,
      ),
    );
    await sql`update entries as e set data = v.data::jsonb, published_data = v.published_data::jsonb, status = v.status,
      published_at = v.published_at, published_by = v.published_by::integer, published_version = v.published_version::integer,
      latest_version = v.latest_version::integer, version = v.version::integer, updated_at = v.updated_at, updated_by = v.updated_by::integer,
      has_pending_changes = 0
      from (values ${values}) as v(id, data, published_data, status, published_at, published_by, published_version, latest_version, version, updated_at, updated_by)
      where e.id = v.id`.execute(db.kysely);
  }
}

/** Rewrites existing translations in place (data, updated_at), as replaceTranslations does. */
async function rewriteTranslations(db: Db, rows: readonly { entry_id: string; locale: string; data: string }[], now: string): Promise<void> {
  if (db.dialect === 'sqlite') {
    for (const r of rows) {
      await db.kysely
        .updateTable('entry_translations')
        .set({ data: r.data, updated_at: now })
        .where('entry_id', '=', r.entry_id)
        .where('locale', '=', r.locale)
        .execute();
    }
    return;
  }
  for (const part of chunks(rows, 300)) {
    const values = sql.join(part.map((r) => sql`(${r.entry_id}, ${r.locale}, ${r.data})`));
    await sql`update entry_translations as t set data = v.data::jsonb, updated_at = ${now}
      from (values ${values}) as v(entry_id, locale, data) where t.entry_id = v.entry_id and t.locale = v.locale`.execute(db.kysely);
  }
}

/**
 * True when some entry of `ct` holds one of `values` in unique field `field` (or when that cannot
 * be told quickly). SQLite's planner reads a long IN list through the type's position index
 * (every entry of the type) rather than the field's partial unique index, so it is named there
 * (INDEXED BY); while that index does not exist (being built) the answer is "maybe".
 */
async function uniqueValuesHit(db: Db, ct: ContentType, field: Field, values: readonly (string | number)[]): Promise<boolean> {
  const expr = dataFieldSql(db.dialect, field.name, field.field_type);
  const list = sql.join(values.map((v) => sql`${comparableValue(field.field_type, v)}`));
  const from = db.dialect === 'sqlite' ? sql`entries indexed by ${sql.id(uniqueIndexName(field.id))}` : sql`entries`;
  try {
    const res = await sql`select 1 as hit from ${from} where content_type_id = ${sql.lit(ct.id)} and ${expr} in (${list}) limit 1`.execute(db.kysely);
    return res.rows.length > 0;
  } catch (err) {
    if (db.dialect === 'sqlite' && /no such index/.test(String((err as Error).message))) return true;
    throw err;
  }
}

/** The media ids a planned entry's media fields name (before checks; for prepare). */
function mediaIdsOf(p: PlannedEntry, ct: ContentType | undefined): string[] {
  if (!ct) return [];
  const fields = ct.fields.filter((f) => f.field_type === 'media' || f.field_type === 'media_list').map((f) => f.name);
  const out: string[] = [];
  for (const data of [p.data, ...Object.values(p.translations)]) {
    for (const name of fields) {
      const v = data[name];
      for (const id of Array.isArray(v) ? v : [v]) if (typeof id === 'string') out.push(id.toLowerCase());
    }
  }
  return out;
}
