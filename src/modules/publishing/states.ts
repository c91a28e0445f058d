/**
 * The publication state machine shared by entries and pages (docs/api.md "States and scheduling" (D20, D21)).
 *
 * Stored statuses: `draft`, `scheduled`, `published`, `archived`.
 *
 * | verb       | allowed from                 | to        | columns                                              |
 * |------------|------------------------------|-----------|------------------------------------------------------|
 * | publish    | draft, scheduled, archived   | published | published_at = now, publish_at = null                |
 * | unpublish  | published, scheduled         | draft     | published_at = null, publish_at = null               |
 * | archive    | draft, scheduled, published  | archived  | publish_at = null (nothing is pending any more)      |
 * | schedule   | draft, archived, scheduled   | scheduled | publish_at = the (future) time, published_at = null  |
 *
 * Anything else is 409 INVALID_STATE_TRANSITION with the message
 * `<entry|page> cannot be <verb>ed from status '<status>'`. D71 adds one row: `publish` is
 * allowed from `published` when the item has pending changes (its working copy differs from its
 * published version); the new snapshot replaces the live one and `published_at` is set again.
 *
 * D21: a `scheduled` item whose `publish_at` has passed IS published, whether or not the
 * publishing job has rewritten its row yet. Every read and every transition goes through
 * effectiveStatus(), so clients never see a due item as unpublished; the job persists the same
 * result (status `published`, `published_at` = `publish_at`, `publish_at` cleared).
 */
import { AppError, invalid } from '../../errors.js';
import { iso, parseTimestamp } from '../../lib/time.js';

export const STATUSES = ['draft', 'scheduled', 'published', 'archived'] as const;
export type Status = (typeof STATUSES)[number];

export const VERBS = ['publish', 'unpublish', 'archive', 'schedule'] as const;
export type Verb = (typeof VERBS)[number];

/** What is being moved; it names the item in the error message. */
export type ItemKind = 'entry' | 'page';

const RULES: Record<Verb, { from: readonly Status[]; to: Status; past: string }> = {
  publish: { from: ['draft', 'scheduled', 'archived'], to: 'published', past: 'published' },
  unpublish: { from: ['published', 'scheduled'], to: 'draft', past: 'unpublished' },
  archive: { from: ['draft', 'scheduled', 'published'], to: 'archived', past: 'archived' },
  schedule: { from: ['draft', 'archived', 'scheduled'], to: 'scheduled', past: 'scheduled' },
};

export function isStatus(value: string): value is Status {
  return (STATUSES as readonly string[]).includes(value);
}

export function isVerb(value: string): value is Verb {
  return (VERBS as readonly string[]).includes(value);
}

/** True when `verb` may be applied to an item in status `from` (D20), with pending changes or not (D71). */
export function canTransition(verb: Verb, from: string, pending = false): boolean {
  if (verb === 'publish' && from === 'published' && pending) return true;
  return (RULES[verb].from as readonly string[]).includes(from);
}

/** The message of a refused transition: `entry cannot be published from status 'published'`. */
export function transitionRefusal(kind: ItemKind, verb: Verb, from: string): string {
  return `${kind} cannot be ${RULES[verb].past} from status '${from}'`;
}

/**
 * The status `verb` leads to from `from`; throws 409 INVALID_STATE_TRANSITION when D20 does not
 * allow it. Pass the effective status (see effectiveStatus), not the stored one.
 */
export function transition(kind: ItemKind, verb: Verb, from: string, pending = false): Status {
  if (!canTransition(verb, from, pending)) throw new AppError('INVALID_STATE_TRANSITION', transitionRefusal(kind, verb, from));
  return RULES[verb].to;
}

/** The publication columns of an entry or page row. */
export interface Publication {
  status: string;
  publish_at: string | null;
  published_at: string | null;
}

/** True for a scheduled item whose time has come (D21). */
export function isDue(row: Publication, now: Date | string): boolean {
  const at = typeof now === 'string' ? now : iso(now);
  return row.status === 'scheduled' && row.publish_at !== null && row.publish_at <= at;
}

/**
 * The row as clients must see it at `now` (D21): a due scheduled item becomes `published` with
 * `published_at` = `publish_at` and `publish_at` cleared. Other rows come back unchanged (the same
 * object). The publishing job writes exactly this result to the database.
 */
export function effectiveStatus<T extends Publication>(row: T, now: Date | string): T {
  if (!isDue(row, now)) return row;
  return { ...row, status: 'published', published_at: row.publish_at, publish_at: null };
}

/**
 * The publication, version and attribution columns of an item that has just been created or
 * duplicated (docs/api.md "States and scheduling": both start as `draft`; D26), written at `now`
 * for user `userId`.
 */
export function newDraftColumns(now: string, userId: number) {
  return {
    status: 'draft' as const,
    publish_at: null,
    published_at: null,
    version: 1,
    created_at: now,
    updated_at: now,
    created_by: userId,
    updated_by: userId,
    published_by: null,
    published_version: null,
    latest_version: 1,
    has_pending_changes: false,
  };
}

/**
 * True when a write to an item in this (effective) status goes live without another request:
 * only scheduled content, at its time (D71: it is published as its working copy is then). Such
 * writes must satisfy `required` fields (D22). A published item's working copy may lack them
 * until it is published again (D70, D71); drafts and archived items may lack them too.
 */
export function writeGoesLive(row: Pick<Publication, 'status'>): boolean {
  return row.status === 'scheduled';
}

/**
 * Applies `verb` to an item's (effective) publication columns and returns the new ones.
 * Throws 409 INVALID_STATE_TRANSITION when not allowed. `publishAt` is required for schedule
 * (check it first with parsePublishAt).
 */
export function applyTransition(kind: ItemKind, verb: Verb, current: Publication, now: Date, publishAt?: string, pending = false): Publication {
  const to = transition(kind, verb, current.status, pending);
  switch (verb) {
    case 'publish':
      return { status: to, published_at: iso(now), publish_at: null };
    case 'unpublish':
      return { status: to, published_at: null, publish_at: null };
    case 'archive':
      // Archiving a scheduled item cancels its schedule; the last publication time stays as history.
      return { status: to, published_at: current.published_at, publish_at: null };
    case 'schedule':
      if (!publishAt) throw invalid('body.publish_at', 'is required');
      return { status: to, published_at: null, publish_at: publishAt };
  }
}

/**
 * Checks a schedule time (D20: must be in the future) and returns it normalized to ISO UTC with
 * milliseconds (D3). Throws 400 VALIDATION_FAILED at `path`.
 */
export function parsePublishAt(value: unknown, now: Date, path = 'body.publish_at'): string {
  if (value === undefined || value === null || value === '') throw invalid(path, 'is required');
  const date = parseTimestamp(value);
  if (!date) throw invalid(path, 'must be an ISO 8601 timestamp with a time zone, e.g. 2030-01-01T10:00:00.000Z');
  if (date.getTime() <= now.getTime()) throw invalid(path, 'must be in the future');
  return iso(date);
}
