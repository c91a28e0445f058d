/**
 * More cases for the publication state machine (states.ts; docs/api.md "States and scheduling"
 * (D20, D21), "Working copies, publishing changes and history" (D71)), beside
 * states.test.ts: the full verb × status × kind × pending matrix with the exact refusal message,
 * the columns each allowed transition writes, and the effective status of scheduled items.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import {
  applyTransition,
  canTransition,
  effectiveStatus,
  isDue,
  isStatus,
  isVerb,
  newDraftColumns,
  parsePublishAt,
  STATUSES,
  transition,
  transitionRefusal,
  VERBS,
  writeGoesLive,
  type ItemKind,
  type Publication,
  type Status,
  type Verb,
} from './states.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');
const LATER = '2026-12-24T18:00:00.000Z';
const KINDS: ItemKind[] = ['entry', 'page'];

/** D20, written out independently of the module's table. */
const D20: Record<Verb, { from: Status[]; to: Status; past: string }> = {
  publish: { from: ['draft', 'scheduled', 'archived'], to: 'published', past: 'published' },
  unpublish: { from: ['published', 'scheduled'], to: 'draft', past: 'unpublished' },
  archive: { from: ['draft', 'scheduled', 'published'], to: 'archived', past: 'archived' },
  schedule: { from: ['draft', 'archived', 'scheduled'], to: 'scheduled', past: 'scheduled' },
};

/** Runs `fn`, expects a thrown AppError and returns it. */
function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected an error');
}

const row = (status: string, extra: Partial<Publication> = {}): Publication => ({ status, publish_at: null, published_at: null, ...extra });

describe('statuses and verbs', () => {
  it('are exactly the four of D20', () => {
    expect([...STATUSES].sort()).toEqual(['archived', 'draft', 'published', 'scheduled']);
    expect([...VERBS].sort()).toEqual(['archive', 'publish', 'schedule', 'unpublish']);
  });
  it('are recognized, and nothing else is', () => {
    for (const s of STATUSES) expect(isStatus(s)).toBe(true);
    for (const v of VERBS) expect(isVerb(v)).toBe(true);
    for (const x of ['', 'Draft', 'PUBLISHED', 'deleted', 'publish', ' draft']) expect(isStatus(x)).toBe(false);
    for (const x of ['', 'Publish', 'delete', 'published', 'restore', 'toString']) expect(isVerb(x)).toBe(false);
  });
});

describe('D20 transitions, every verb × status × kind × pending', () => {
  const cases = VERBS.flatMap((verb) =>
    STATUSES.flatMap((from) => KINDS.flatMap((kind) => [false, true].map((pending) => [verb, from, kind, pending] as const))),
  );

  it.each(cases)('%s from %s (%s, pending %s)', (verb, from, kind, pending) => {
    // D71: the only door pending changes open is publish from published.
    const allowed = D20[verb].from.includes(from) || (verb === 'publish' && from === 'published' && pending);
    expect(canTransition(verb, from, pending)).toBe(allowed);
    if (allowed) {
      expect(transition(kind, verb, from, pending)).toBe(D20[verb].to);
      return;
    }
    const err = thrown(() => transition(kind, verb, from, pending));
    expect(err.message).toBe(`${kind} cannot be ${D20[verb].past} from status '${from}'`);
    expect(err.code).toBe('INVALID_STATE_TRANSITION');
    expect(err.status).toBe(409);
    expect(err.errors).toBeNull();
    expect(transitionRefusal(kind, verb, from)).toBe(err.message);
  });

  it('refuses exactly these five combinations without pending changes', () => {
    const refused = VERBS.flatMap((v) => STATUSES.filter((s) => !canTransition(v, s)).map((s) => `${v}<-${s}`)).sort();
    expect(refused).toEqual(['archive<-archived', 'publish<-published', 'schedule<-published', 'unpublish<-archived', 'unpublish<-draft'].sort());
  });

  it('uses the verb in its past participle in the message', () => {
    expect(transitionRefusal('entry', 'publish', 'published')).toBe("entry cannot be published from status 'published'");
    expect(transitionRefusal('page', 'unpublish', 'draft')).toBe("page cannot be unpublished from status 'draft'");
    expect(transitionRefusal('entry', 'archive', 'archived')).toBe("entry cannot be archived from status 'archived'");
    expect(transitionRefusal('page', 'schedule', 'published')).toBe("page cannot be scheduled from status 'published'");
  });

  it.each(['', 'deleted', 'Published', 'DRAFT'])('refuses every verb from an unknown status %j, naming it', (from) => {
    for (const verb of VERBS) {
      expect(canTransition(verb, from, true)).toBe(false);
      expect(thrown(() => transition('entry', verb, from, true)).message).toBe(`entry cannot be ${D20[verb].past} from status '${from}'`);
    }
  });

  it('publish from published: allowed with pending changes (D71), refused without (default pending = false)', () => {
    expect(canTransition('publish', 'published')).toBe(false);
    expect(canTransition('publish', 'published', false)).toBe(false);
    expect(canTransition('publish', 'published', true)).toBe(true);
    for (const kind of KINDS) {
      expect(transition(kind, 'publish', 'published', true)).toBe('published');
      expect(thrown(() => transition(kind, 'publish', 'published')).message).toBe(`${kind} cannot be published from status 'published'`);
    }
  });
});

describe('applyTransition: the columns each allowed transition writes', () => {
  const published = row('published', { published_at: '2026-01-01T00:00:00.000Z' });
  const scheduled = row('scheduled', { publish_at: '2026-12-01T00:00:00.000Z' });
  const archived = row('archived', { published_at: '2026-02-01T00:00:00.000Z' });
  const draft = row('draft');
  const rows: Record<Status, Publication> = { draft, scheduled, published, archived };

  it.each(STATUSES.filter((s) => D20.publish.from.includes(s)))('publish from %s: published now, nothing scheduled', (from) => {
    expect(applyTransition('entry', 'publish', rows[from], NOW)).toEqual({ status: 'published', published_at: NOW.toISOString(), publish_at: null });
  });

  it('publish from published with pending changes sets published_at again', () => {
    expect(applyTransition('page', 'publish', published, NOW, undefined, true)).toEqual({
      status: 'published',
      published_at: NOW.toISOString(),
      publish_at: null,
    });
  });

  it.each(['published', 'scheduled'] as const)('unpublish from %s: back to draft, both times cleared', (from) => {
    expect(applyTransition('page', 'unpublish', rows[from], NOW)).toEqual({ status: 'draft', published_at: null, publish_at: null });
  });

  it.each(['draft', 'scheduled', 'published'] as const)('archive from %s: schedule cancelled, last publication kept', (from) => {
    expect(applyTransition('entry', 'archive', rows[from], NOW)).toEqual({ status: 'archived', published_at: rows[from].published_at, publish_at: null });
  });

  it.each(['draft', 'archived', 'scheduled'] as const)('schedule from %s: publish_at set, published_at cleared', (from) => {
    expect(applyTransition('entry', 'schedule', rows[from], NOW, LATER)).toEqual({ status: 'scheduled', published_at: null, publish_at: LATER });
  });

  it('schedule without a time answers 400 at body.publish_at', () => {
    const err = thrown(() => applyTransition('entry', 'schedule', draft, NOW));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(err.errors).toEqual([{ path: 'body.publish_at', message: 'is required' }]);
  });

  it('checks the transition before the time: a refused schedule is 409 even without publish_at', () => {
    const err = thrown(() => applyTransition('page', 'schedule', published, NOW));
    expect(err.code).toBe('INVALID_STATE_TRANSITION');
    expect(err.message).toBe("page cannot be scheduled from status 'published'");
  });

  it('refuses what transition refuses, with the same message, and leaves the row alone', () => {
    const before = { ...published };
    expect(thrown(() => applyTransition('entry', 'publish', published, NOW)).message).toBe("entry cannot be published from status 'published'");
    expect(thrown(() => applyTransition('entry', 'unpublish', draft, NOW)).message).toBe("entry cannot be unpublished from status 'draft'");
    expect(thrown(() => applyTransition('page', 'archive', archived, NOW)).message).toBe("page cannot be archived from status 'archived'");
    expect(thrown(() => applyTransition('page', 'unpublish', archived, NOW)).message).toBe("page cannot be unpublished from status 'archived'");
    expect(published).toEqual(before);
  });
});

describe('effective status of scheduled items (D21)', () => {
  const at = '2026-11-21T10:00:00.000Z';
  const scheduled = { id: 'x', status: 'scheduled', publish_at: at, published_at: null, extra: 42 };

  it('is published from publish_at on (inclusive), with published_at = publish_at and publish_at cleared', () => {
    const due = effectiveStatus(scheduled, NOW);
    expect(due).toEqual({ id: 'x', status: 'published', published_at: at, publish_at: null, extra: 42 });
    // A new object: the stored row is not changed.
    expect(due).not.toBe(scheduled);
    expect(scheduled.status).toBe('scheduled');
    expect(effectiveStatus(scheduled, new Date(NOW.getTime() + 86_400_000))).toEqual(due);
  });

  it('stays scheduled (the same object) one millisecond before', () => {
    const before = new Date(NOW.getTime() - 1);
    expect(isDue(scheduled, before)).toBe(false);
    expect(effectiveStatus(scheduled, before)).toBe(scheduled);
  });

  it('accepts `now` as a Date or as an ISO string, with the same result', () => {
    for (const now of [NOW, NOW.toISOString()]) {
      expect(isDue(scheduled, now)).toBe(true);
      expect(effectiveStatus(scheduled, now).status).toBe('published');
    }
    expect(isDue(scheduled, '2026-11-21T09:59:59.999Z')).toBe(false);
  });

  it('concerns scheduled items only: other statuses come back unchanged whatever publish_at says', () => {
    for (const status of ['draft', 'published', 'archived']) {
      const r = row(status, { publish_at: '2000-01-01T00:00:00.000Z', published_at: status === 'draft' ? null : '1999-01-01T00:00:00.000Z' });
      expect(isDue(r, NOW)).toBe(false);
      expect(effectiveStatus(r, NOW)).toBe(r);
    }
  });

  it('a scheduled row without publish_at is never due', () => {
    const r = row('scheduled');
    expect(isDue(r, NOW)).toBe(false);
    expect(effectiveStatus(r, new Date('2999-01-01T00:00:00.000Z'))).toBe(r);
  });

  it('a due item then follows the rules of a published one', () => {
    const due = effectiveStatus(row('scheduled', { publish_at: '2026-11-20T00:00:00.000Z' }), NOW);
    expect(canTransition('schedule', due.status)).toBe(false);
    expect(canTransition('unpublish', due.status)).toBe(true);
    expect(thrown(() => transition('entry', 'publish', due.status)).message).toBe("entry cannot be published from status 'published'");
    expect(applyTransition('entry', 'archive', due, NOW)).toEqual({ status: 'archived', published_at: '2026-11-20T00:00:00.000Z', publish_at: null });
  });
});

describe('new items and live writes', () => {
  it('start as drafts with version 1 and nothing published', () => {
    expect(newDraftColumns('2026-11-21T10:00:00.000Z', 7)).toEqual({
      status: 'draft',
      publish_at: null,
      published_at: null,
      version: 1,
      created_at: '2026-11-21T10:00:00.000Z',
      updated_at: '2026-11-21T10:00:00.000Z',
      created_by: 7,
      updated_by: 7,
      published_by: null,
      published_version: null,
      latest_version: 1,
      has_pending_changes: false,
    });
  });

  it('only writes to scheduled items go live without another request', () => {
    expect(STATUSES.filter((status) => writeGoesLive({ status }))).toEqual(['scheduled']);
  });
});

describe('parsePublishAt boundaries', () => {
  it('refuses exactly now and accepts one millisecond later', () => {
    expect(() => parsePublishAt(NOW.toISOString(), NOW)).toThrow();
    expect(parsePublishAt('2026-11-21T10:00:00.001Z', NOW)).toBe('2026-11-21T10:00:00.001Z');
  });
  it('normalizes offsets, minutes-only times and sub-millisecond digits to ISO UTC with milliseconds', () => {
    expect(parsePublishAt('2026-11-21T11:30+01:00', NOW)).toBe('2026-11-21T10:30:00.000Z');
    expect(parsePublishAt('2026-11-22T00:00:00.123456Z', NOW)).toBe('2026-11-22T00:00:00.123Z');
  });
  it.each([null, '', 'now', '2026-11-22', '2026-11-22T10:00:00', 1_800_000_000_000, '2026-11-31T10:00:00.000Z', '2027-02-29T10:00:00.000Z'])(
    'refuses %j with 400 at the given path',
    (value) => {
      const err = thrown(() => parsePublishAt(value, NOW, 'body.items.0.publish_at'));
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.errors?.[0].path).toBe('body.items.0.publish_at');
    },
  );
});
