import { describe, expect, it } from 'vitest';
import { applyTransition, canTransition, effectiveStatus, isDue, parsePublishAt, transition, writeGoesLive, STATUSES, VERBS } from './states.js';

const NOW = new Date('2026-11-21T10:00:00.000Z');

describe('the state machine (D20, D71)', () => {
  // verb → the statuses it is allowed from (without pending changes).
  const allowed: Record<string, string[]> = {
    publish: ['draft', 'scheduled', 'archived'],
    unpublish: ['published', 'scheduled'],
    archive: ['draft', 'scheduled', 'published'],
    schedule: ['draft', 'archived', 'scheduled'],
  };
  const to: Record<string, string> = { publish: 'published', unpublish: 'draft', archive: 'archived', schedule: 'scheduled' };
  const past: Record<string, string> = { publish: 'published', unpublish: 'unpublished', archive: 'archived', schedule: 'scheduled' };

  it.each(VERBS.flatMap((verb) => STATUSES.map((from) => [verb, from] as const)))('%s from %s', (verb, from) => {
    if (allowed[verb].includes(from)) {
      expect(canTransition(verb, from)).toBe(true);
      expect(transition('entry', verb, from)).toBe(to[verb]);
    } else {
      expect(canTransition(verb, from)).toBe(false);
      for (const kind of ['entry', 'page'] as const) {
        expect(() => transition(kind, verb, from)).toThrow(`${kind} cannot be ${past[verb]} from status '${from}'`);
      }
    }
  });

  it('allows publish from published only with pending changes (D71)', () => {
    expect(canTransition('publish', 'published', true)).toBe(true);
    expect(transition('page', 'publish', 'published', true)).toBe('published');
    expect(() => transition('entry', 'publish', 'published', false)).toThrow("entry cannot be published from status 'published'");
    // Pending changes open no other door.
    expect(canTransition('schedule', 'published', true)).toBe(false);
    expect(canTransition('unpublish', 'draft', true)).toBe(false);
  });

  it('refuses with 409 INVALID_STATE_TRANSITION', () => {
    try {
      transition('entry', 'archive', 'archived');
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ status: 409, code: 'INVALID_STATE_TRANSITION' });
    }
  });

  it('applies the columns of each transition', () => {
    const draft = { status: 'draft', publish_at: null, published_at: null };
    expect(applyTransition('entry', 'publish', draft, NOW)).toEqual({ status: 'published', published_at: NOW.toISOString(), publish_at: null });
    const live = { status: 'published', publish_at: null, published_at: '2026-01-01T00:00:00.000Z' };
    // Publishing changes sets published_at again.
    expect(applyTransition('entry', 'publish', live, NOW, undefined, true)).toEqual({ status: 'published', published_at: NOW.toISOString(), publish_at: null });
    expect(applyTransition('page', 'unpublish', live, NOW)).toEqual({ status: 'draft', published_at: null, publish_at: null });
    expect(applyTransition('entry', 'schedule', draft, NOW, '2026-12-01T00:00:00.000Z')).toEqual({
      status: 'scheduled',
      published_at: null,
      publish_at: '2026-12-01T00:00:00.000Z',
    });
  });
});

describe('due scheduled items (D21)', () => {
  const scheduled = { status: 'scheduled', publish_at: '2026-11-21T10:00:00.000Z', published_at: null };
  it('are due from publish_at on, and read as published then', () => {
    expect(isDue(scheduled, new Date(NOW.getTime() - 1))).toBe(false);
    expect(isDue(scheduled, NOW)).toBe(true);
    expect(isDue({ ...scheduled, status: 'draft' }, NOW)).toBe(false);
    expect(effectiveStatus(scheduled, NOW)).toEqual({ status: 'published', published_at: '2026-11-21T10:00:00.000Z', publish_at: null });
    expect(effectiveStatus(scheduled, new Date(NOW.getTime() - 1))).toBe(scheduled);
  });
  it('need complete content on every write, since they go live without another request', () => {
    expect(writeGoesLive({ status: 'scheduled' })).toBe(true);
    for (const status of ['draft', 'published', 'archived']) expect(writeGoesLive({ status })).toBe(false);
  });
});

describe('parsePublishAt', () => {
  it('takes an ISO time in the future and normalizes it to UTC', () => {
    expect(parsePublishAt('2026-11-21T12:00:00+01:00', NOW)).toBe('2026-11-21T11:00:00.000Z');
    expect(parsePublishAt('2026-11-22T00:00:00Z', NOW)).toBe('2026-11-22T00:00:00.000Z');
  });
  it.each([
    [undefined, 'is required'],
    ['tomorrow', 'body.publish_at'],
    ['2026-11-21T09:59:59.000Z', 'must be in the future'],
    ['2026-11-21T12:00:00+02:00', 'must be in the future'],
    [42, 'body.publish_at'],
  ])('refuses %s', (value, text) => {
    try {
      parsePublishAt(value, NOW);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(JSON.stringify((err as { errors: unknown }).errors)).toContain(text);
    }
  });
});
