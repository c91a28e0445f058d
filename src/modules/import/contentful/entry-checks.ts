/**
 * The checks of the import's bulk path (content-writer.ts): a new entry, or the second pass of
 * one created without some links (a link cycle), is checked in memory exactly as createEntry,
 * updateEntry and the state action would check it (slug rules, values, links, unique values,
 * slug collisions, required values before publishing), against facts read once per run of such
 * entries (a Segment) plus what the entries accepted since claim. Accepted entries are written by
 * entry-bulk-write.ts when the segment is flushed.
 */
import { sql } from 'kysely';
import type { Context } from '../../../context.js';
import { isMissingIndexError, tableIndexedBy } from '../../../db/catalog.js';
import { comparableValue, dataFieldSql, uniqueIndexName } from '../../../db/dialect.js';
import type { Db } from '../../../db/types.js';
import { AppError, invalid, validationError, type ErrorDetail } from '../../../errors.js';
import { stableStringify } from '../../../lib/json.js';
import { iso } from '../../../lib/time.js';
import type { Actor } from '../../auth/permissions.js';
import type { ContentType, Field } from '../../content-types/model.js';
import { slugProblem, validateLocalizedValues, type LocalizedValues } from '../../entries/content.js';
import type { Entry, EntryData } from '../../entries/model.js';
import { findEntryTypeSlugs, findLiveMediaTypes, uniqueValueTaken } from '../../entries/repository.js';
import { fieldValue, mediaReferenceError, missingRequired, type DataReference } from '../../entries/validation.js';
import { presentItem } from '../../publishing/core.js';
import type { Workspace } from '../../workspaces/repository.js';
import type { PlannedEntry } from './content-mapping.js';
import { chunks, insertNewEntries, writeCompletions, type Completion, type EntryValues, type NewEntry } from './entry-bulk-write.js';
import { contentInput, sameContent, stateAction, type ContentInput } from './entry-planning.js';
import { targetStatus, type ChangedAs, type TargetStatus } from './states.js';

/** What the bulk path decided for a new entry or a completion: accepted, written at flush. */
export interface Accepted {
  kind: 'created' | 'completed';
  /** The state action taken (publish, archive), if any. */
  action: 'publish' | 'archive' | null;
  /** Links left out for pass 2: the entry stays a draft for now. */
  deferred: boolean;
  /** Why publishing it was refused (it stays a draft). */
  refusal: AppError | null;
}

export type Outcome = 'slow' | 'deferred' | 'unchanged' | AppError | Accepted;

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
export class Segment {
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
    // Media of the new entries and of the second passes of entries created without some links.
    const linking = plans.filter((p) => !this.stored.has(p.id) || this.deferredNew.has(p.id));
    const media = [...new Set(linking.flatMap((p) => mediaIdsOf(p, types.get(p.typeSlug))))];
    for (const part of chunks(media, 500)) {
      for (const [id, mime] of await findLiveMediaTypes(db, this.actor.workspaceId, part)) this.liveMedia.set(id, mime);
    }
    for (const id of media) this.mediaAsked.add(id);
  }

  /** The bulk path's decision for planned entry `e` (see writeEntries). */
  async decide(
    e: PlannedEntry,
    final: boolean,
    facts: {
      slug: string;
      relationFields: ReadonlySet<string>;
      ct: ContentType | undefined;
      want: TargetStatus;
      /** Entries not written yet that are sure to be created later in the run (willBeCreated): id → content type slug. */
      presumed?: ReadonlyMap<string, string>;
    },
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
      const once = facts.presumed ? await this.completeAtOnce(e, entry, missing, facts.presumed, want) : null;
      if (once) return once;
      this.deferredNew.add(e.id);
      return { kind: 'created', action: null, deferred: true, refusal: null };
    }
    return settle('created', entry, ct, want);
  }

  /**
   * The second pass of new entry `entry` (accepted without the links to `missing`), decided now
   * when every missing target is presumed: sure to be created later in the run, so the second
   * pass would find it. Runs that pass's checks (complete) on the full content, with the presumed
   * entries counted as present; on success `entry.completion` holds the outcome and the entry is
   * written once, as both passes would leave it (entry-bulk-write.ts). Null, and the entry waits
   * for the second pass, when that pass would fail or differ in what it stores or reports: a
   * target not presumed, a check failing (the failure is reported in the second pass's order), a
   * refused publish, a locale only the full content has (its translation record would come later).
   */
  private async completeAtOnce(
    e: PlannedEntry,
    entry: NewEntry,
    missing: ReadonlySet<string>,
    presumed: ReadonlyMap<string, string>,
    want: TargetStatus,
  ): Promise<Accepted | null> {
    for (const id of missing) if (!presumed.has(id)) return null;
    const values = await this.checkContent(entry.ct, contentInput(e, entry.slug, new Set(), new Set()), presumed);
    if (values instanceof AppError) return null;
    const full = { data: values.data, translations: values.translations ?? [] };
    const locales = new Set(entry.values.translations.map((t) => t.locale));
    if (full.translations.length !== locales.size || full.translations.some((t) => !locales.has(t.locale))) return null;
    for (const field of entry.ct.fields) {
      if (field.is_unique && stableStringify(fieldValue(full.data, field.name) ?? null) !== stableStringify(fieldValue(entry.values.data, field.name) ?? null))
        return null;
    }
    const item = { status: 'draft' as NewEntry['status'], values: full };
    const settled = settle('created', item, entry.ct, want);
    if (settled.refusal) return null;
    entry.completion = { values: full, status: item.status, changed: !sameFields(entry.values, full) };
    return settled;
  }

  /**
   * True when planned entry `p`, not written yet, is sure to be created by its own decision later
   * in the run, whatever is decided before it: every check that decision runs (decide) passes on
   * its full content, which covers the content without links it may be written with, against
   * facts no other entry of the export can change: its slug is free (slugs are unique among the
   * export's entries), each unique value it holds is held by no other entry of the export
   * (`uniqueCount` 1) nor stored, each link points at an entry of an accepted type, each media
   * asset exists and is of an accepted kind. prepare() must have read the facts for `p` first
   * (on a Segment that accepts nothing). Only a concurrent write (another user taking its slug
   * or a unique value meanwhile) can still make its creation fail.
   */
  async willBeCreated(
    p: PlannedEntry,
    facts: {
      slug: string;
      ct: ContentType | undefined;
      /** The id appears once in the export. */
      single: boolean;
      /** The planned content type slug of an entry of the export. */
      typeOf: (id: string) => string | undefined;
      uniqueCount: (field: Field, value: unknown) => number;
    },
  ): Promise<boolean> {
    const { slug, ct } = facts;
    if (!facts.single || !ct || ct.is_block || this.stored.has(p.id) || this.present.has(p.id)) return false;
    if (slugProblem(slug) || this.slugOwners.has(`${ct.id}\u0000${slug}`)) return false;
    const { values, errors, references } = this.validate(ct, contentInput(p, slug, new Set(), new Set()));
    if (errors.length) return false;
    for (const ref of references) {
      if (ref.kind === 'media') {
        if (!this.mediaAsked.has(ref.id) || mediaReferenceError(ref, this.liveMedia.get(ref.id))) return false;
        continue;
      }
      // A target that is neither stored nor created by then is left out of the write: no error.
      const type = this.present.get(ref.id) ?? facts.typeOf(ref.id);
      if (type !== undefined && ref.allowedTypes.length && !ref.allowedTypes.includes(type)) return false;
    }
    for (const field of ct.fields) {
      if (!field.is_unique) continue;
      const value = fieldValue(values.data, field.name);
      if (value === undefined || value === null) continue;
      if (facts.uniqueCount(field, value) !== 1 || (await this.valueTaken(ct, field, value))) return false;
    }
    return true;
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
  private async checkContent(ct: ContentType, content: ContentInput, presumed?: ReadonlyMap<string, string>): Promise<AppError | LocalizedValues> {
    const problem = slugProblem(content.slug);
    if (problem) return invalid('body.slug', problem);
    const { values, errors, references } = this.validate(ct, content);
    if (errors.length) return validationError(errors);
    const refErrors = await this.checkReferences(references, presumed);
    if (refErrors.length) return validationError(refErrors);
    return values;
  }

  /** The values of a write's content as prepareContent checks them (required fields are checked at publish), with the problems and references found. */
  private validate(ct: ContentType, content: ContentInput): { values: LocalizedValues; errors: ErrorDetail[]; references: DataReference[] } {
    const errors: ErrorDetail[] = [];
    const references: DataReference[] = [];
    const patterns = this.tx.db.memo.fieldPatterns;
    const values = validateLocalizedValues(this.ws, ct.fields, content, 'body', { requireRequired: false, patterns }, errors, references);
    return { values, errors, references };
  }

  /** The warning writeOne gives an unchanged entry: a draft in the export that Quire keeps archived. */
  warningFor(e: PlannedEntry, changedAs: ChangedAs): string | null {
    const stored = this.stored.get(e.id);
    if (!stored || targetStatus(e.state, changedAs) !== 'draft' || presentItem(stored, this.now).status !== 'archived') return null;
    return `entry '${e.cfId}' (${e.typeSlug}) is a draft in the export but archived in Quire, which has no way back to draft; it stays archived`;
  }

  /**
   * checkReferences (entries/validation.ts) over what the run knows: planned entries present (and
   * `presumed`, entries sure to be created later, as present), live media.
   */
  private async checkReferences(references: readonly DataReference[], presumed?: ReadonlyMap<string, string>): Promise<ErrorDetail[]> {
    const unknownMedia = references.filter((r) => r.kind === 'media' && !this.mediaAsked.has(r.id)).map((r) => r.id);
    if (unknownMedia.length) {
      for (const [id, mime] of await findLiveMediaTypes(this.tx.db, this.actor.workspaceId, [...new Set(unknownMedia)])) this.liveMedia.set(id, mime);
      for (const id of unknownMedia) this.mediaAsked.add(id);
    }
    const unknownEntries = [...new Set(references.filter((r) => r.kind === 'relation' && !this.present.has(r.id) && !presumed?.has(r.id)).map((r) => r.id))];
    // Links to entries outside the import: as checkReferences reads them.
    const outside = unknownEntries.length ? await findEntryTypeSlugs(this.tx.db, this.actor.workspaceId, unknownEntries) : new Map<string, string>();
    const errors: ErrorDetail[] = [];
    for (const ref of references) {
      if (ref.kind === 'media') {
        const error = mediaReferenceError(ref, this.liveMedia.get(ref.id));
        if (error) errors.push(error);
        continue;
      }
      const type = this.present.get(ref.id) ?? presumed?.get(ref.id) ?? outside.get(ref.id);
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
    const stamp = { workspaceId: this.actor.workspaceId, userId: this.actor.userId, now: iso(this.now) };
    const created = this.accepted;
    const completed = this.completions;
    this.accepted = [];
    this.completions = [];
    await insertNewEntries(this.tx.db, stamp, created);
    await writeCompletions(this.tx.db, stamp, completed);
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
  const from = tableIndexedBy(db, 'entries', uniqueIndexName(field.id));
  try {
    const res = await sql`select 1 as hit from ${from} where content_type_id = ${sql.lit(ct.id)} and ${expr} in (${list}) limit 1`.execute(db.kysely);
    return res.rows.length > 0;
  } catch (err) {
    if (isMissingIndexError(db, err)) return true;
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

/**
 * True when `full` holds no more than `part` does: the same locales and, in data and each
 * translation, as many fields. Meant for `part` checked from the same plan as `full` with some
 * relation fields left out (every other field checks to the same value), where equal counts
 * mean equal content (entryContentKey), without serializing either.
 */
function sameFields(part: EntryValues, full: EntryValues): boolean {
  const count = (d: EntryData) => Object.keys(d).length;
  if (count(part.data) !== count(full.data) || part.translations.length !== full.translations.length) return false;
  const fields = new Map(part.translations.map((t) => [t.locale, count(t.data)]));
  return full.translations.every((t) => fields.get(t.locale) === count(t.data));
}
