/**
 * The publishing core's steps (columns.ts; docs/api.md "States and scheduling" (D20, D21),
 * "Working copies, publishing changes and history" (D70, D71), "History" (D72)): the columns,
 * history write and published-copy move of a create, a content write and each state change,
 * from every state a row can be in.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { afterStep, applyColumnRules, contentWriteStep, createStep, DUE_PUBLISH_RULES, dueStep, verbStep, type PublicationState } from './columns.js';
import { canTransition, newDraftColumns, STATUSES, VERBS, type Status } from './states.js';

const NOW = new Date('2026-11-29T04:00:00.000Z');
const AT = NOW.toISOString();
const LATER = '2030-01-01T10:00:00.000Z';

function row(status: Status, extra: Partial<PublicationState> = {}): PublicationState {
  const live = status === 'published';
  return {
    status,
    publish_at: status === 'scheduled' ? LATER : null,
    published_at: live || status === 'archived' ? '2026-01-01T00:00:00.000Z' : null,
    published_by: live ? 3 : null,
    published_version: live ? 4 : null,
    latest_version: 5,
    version: 9,
    has_pending_changes: false,
    ...extra,
  };
}

describe('createStep', () => {
  it('is a draft with its working copy as version 1 and no published copy', () => {
    expect(createStep(AT, 7)).toEqual({ columns: newDraftColumns(AT, 7), history: { kind: 'append', version: 1, status: 'draft' }, published: 'keep' });
  });
});

describe('contentWriteStep', () => {
  const write = (r: PublicationState, changed: boolean, coalesce = false, newest = r.latest_version, matchesPublished = !changed && !r.has_pending_changes) =>
    contentWriteStep(r, { changed, coalesce, newest, matchesPublished, now: AT, userId: 7 });

  it('an unchanged content writes no version; the ETag counter and attribution move', () => {
    for (const status of STATUSES) {
      const step = write(row(status), false);
      expect(step).toEqual({
        columns: { version: 10, updated_at: AT, updated_by: 7, latest_version: 5, has_pending_changes: false },
        history: null,
        published: 'keep',
      });
    }
  });

  it('a changed content appends the newest version + 1 with the row status; a published item then has pending changes, a scheduled one refreshes its published copy', () => {
    const expected: Record<Status, { pending: boolean; published: 'keep' | 'copy' }> = {
      draft: { pending: false, published: 'keep' },
      scheduled: { pending: false, published: 'copy' },
      published: { pending: true, published: 'keep' },
      archived: { pending: false, published: 'keep' },
    };
    for (const status of STATUSES) {
      const step = write(row(status), true);
      expect(step.history).toEqual({ kind: 'append', version: 6, status });
      expect(step.columns).toEqual({ version: 10, updated_at: AT, updated_by: 7, latest_version: 6, has_pending_changes: expected[status].pending });
      expect(step.published).toBe(expected[status].published);
    }
  });

  it('numbers the new version after the newest in the history, and keeps pending changes', () => {
    expect(write(row('draft'), true, false, 0).columns.latest_version).toBe(1);
    expect(write(row('published', { has_pending_changes: true }), false).columns.has_pending_changes).toBe(true);
  });

  it('a published item has pending changes exactly when its working copy differs from the published version, whatever the flag said before', () => {
    const pending = (r: PublicationState, changed: boolean, matches: boolean) =>
      write(r, changed, false, r.latest_version, matches).columns.has_pending_changes;
    // Typed back, or the published version restored: a change that ends on the published content.
    expect(pending(row('published', { has_pending_changes: true }), true, true)).toBe(false);
    expect(pending(row('published', { has_pending_changes: true }), false, true)).toBe(false);
    expect(pending(row('published'), true, false)).toBe(true);
    // A stale flag is corrected by any write.
    expect(pending(row('published'), false, false)).toBe(true);
    for (const status of STATUSES.filter((s) => s !== 'published')) expect(pending(row(status, { has_pending_changes: true }), true, false)).toBe(false);
  });

  it('a coalesced write replaces the newest version and keeps latest_version', () => {
    const step = write(row('draft'), true, true);
    expect(step.history).toEqual({ kind: 'replace', version: 5, status: 'draft' });
    expect(step.columns.latest_version).toBe(5);
  });
});

describe('verbStep', () => {
  /** What the core's applyVerb stored before the steps were pure functions, written out. */
  function expected(verb: (typeof VERBS)[number], r: PublicationState) {
    const live = verb === 'publish' || verb === 'schedule';
    const to = { publish: 'published', unpublish: 'draft', archive: 'archived', schedule: 'scheduled' }[verb] as Status;
    return {
      columns: {
        status: to,
        published_at: verb === 'publish' ? AT : verb === 'archive' ? r.published_at : null,
        publish_at: verb === 'schedule' ? LATER : null,
        published_by: live ? 7 : null,
        published_version: verb === 'publish' ? 6 : null,
        latest_version: 6,
        has_pending_changes: false,
        version: 10,
        updated_at: AT,
        updated_by: 7,
      },
      history: { kind: 'copy', version: 6, status: to },
      published: live ? 'copy' : 'drop',
    };
  }

  it('gives every allowed transition its columns, version and published copy, and refuses the others with 409', () => {
    for (const verb of VERBS) {
      for (const status of STATUSES) {
        for (const pending of [false, true]) {
          const r = row(status, { has_pending_changes: pending });
          const run = () => verbStep('entry', verb, r, NOW, 7, LATER);
          if (!canTransition(verb, status, pending)) {
            expect(run).toThrow(AppError);
            expect(run).toThrow(`entry cannot be`);
            continue;
          }
          const step = run();
          expect(step).toEqual(expected(verb, r));
          // The columns are written in this order (the SET of the single-item path).
          expect(Object.keys(step.columns)).toEqual(Object.keys(expected(verb, r).columns));
        }
      }
    }
  });

  it('publishes a published item with pending changes again (D71)', () => {
    const step = verbStep('page', 'publish', row('published', { has_pending_changes: true }), NOW, 7);
    expect(step.columns).toMatchObject({ status: 'published', published_at: AT, published_version: 6, has_pending_changes: false });
    expect(() => verbStep('page', 'publish', row('published'), NOW, 7)).toThrow("page cannot be published from status 'published'");
  });

  it('needs a schedule time', () => {
    expect(() => verbStep('entry', 'schedule', row('draft'), NOW, 7)).toThrow(AppError);
  });
});

describe('afterStep', () => {
  it('folds create, a content write and a publish as the importer does', () => {
    const created = createStep(AT, 7);
    const afterWrite = afterStep(
      created.columns,
      contentWriteStep(created.columns, { changed: true, coalesce: false, newest: 1, matchesPublished: false, now: AT, userId: 7 }),
    );
    const published = afterStep(afterWrite, verbStep('entry', 'publish', afterWrite, NOW, 7));
    expect(published).toEqual({
      ...newDraftColumns(AT, 7),
      status: 'published',
      published_at: AT,
      published_by: 7,
      published_version: 3,
      latest_version: 3,
      version: 3,
    });
  });
});

describe('dueStep', () => {
  it('publishes a due scheduled row at its publish_at, as version latest + 1, keeping the ETag and the published copy', () => {
    const r = row('scheduled', { has_pending_changes: true });
    expect(dueStep(r)).toEqual({
      columns: { status: 'published', published_at: LATER, publish_at: null, published_version: 6, latest_version: 6, has_pending_changes: false },
      history: { kind: 'copy', version: 6, status: 'published' },
      published: 'keep',
    });
    expect(afterStep(r, dueStep(r)).version).toBe(r.version);
  });

  it('reads every rule from the row before the write, as an UPDATE does', () => {
    // published_at takes the old publish_at although publish_at is cleared by the same step.
    const r = row('scheduled', { publish_at: '2027-03-04T05:06:07.000Z', latest_version: 41 });
    const c = applyColumnRules<Record<keyof typeof DUE_PUBLISH_RULES, unknown>>(DUE_PUBLISH_RULES, r);
    expect(c).toMatchObject({ published_at: '2027-03-04T05:06:07.000Z', publish_at: null, latest_version: 42, published_version: 42 });
  });
});
