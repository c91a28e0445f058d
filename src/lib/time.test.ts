import { describe, expect, it } from 'vitest';
import { parseDatetime } from './time.js';

describe('parseDatetime', () => {
  it('keeps the offset the author wrote and fills in seconds and milliseconds', () => {
    expect(parseDatetime('2026-11-21T10:00+02:00')).toEqual({ text: '2026-11-21T10:00:00.000+02:00', instant: '2026-11-21T08:00:00.000Z' });
    expect(parseDatetime('2026-11-21T10:00:30.5-0530')).toEqual({ text: '2026-11-21T10:00:30.500-05:30', instant: '2026-11-21T15:30:30.500Z' });
    expect(parseDatetime('2026-11-21T08:21:30.175Z')).toEqual({ text: '2026-11-21T08:21:30.175Z', instant: '2026-11-21T08:21:30.175Z' });
  });

  it('writes a zero offset as Z and drops fractions of a millisecond', () => {
    expect(parseDatetime('2026-11-21T10:00:00+00:00')?.text).toBe('2026-11-21T10:00:00.000Z');
    expect(parseDatetime('2026-11-21T10:00:00-00:00')?.text).toBe('2026-11-21T10:00:00.000Z');
    expect(parseDatetime('2026-11-21T10:00:00.123999+01:00')).toEqual({ text: '2026-11-21T10:00:00.123+01:00', instant: '2026-11-21T09:00:00.123Z' });
  });

  it('gives the UTC instant across a day, month and year boundary', () => {
    expect(parseDatetime('2027-01-01T01:30+03:00')?.instant).toBe('2026-12-31T22:30:00.000Z');
    expect(parseDatetime('2026-12-31T22:00-05:00')?.instant).toBe('2027-01-01T03:00:00.000Z');
    expect(parseDatetime('0001-01-01T00:00:00Z')?.instant).toBe('0001-01-01T00:00:00.000Z');
    expect(parseDatetime('0099-03-01T12:00+01:00')?.instant).toBe('0099-03-01T11:00:00.000Z');
    expect(parseDatetime('9999-12-31T23:59:59.999Z')?.instant).toBe('9999-12-31T23:59:59.999Z');
  });

  it('refuses values without a zone, impossible fields and instants outside years 0001-9999', () => {
    for (const bad of [
      '2026-11-21T10:00',
      '2026-11-21',
      '2026-11-31T10:00Z',
      '2026-11-21T24:00Z',
      '2026-11-21T10:60Z',
      '2026-11-21T10:00:60Z',
      '2026-11-21T10:00+24:00',
      '2026-11-21T10:00+02:60',
      '2026-11-21 10:00Z',
      '0000-06-01T00:00Z',
      '0001-01-01T00:30+01:00',
      '9999-12-31T23:30-01:00',
      ' 2026-11-21T10:00Z',
      20261121,
      null,
    ])
      expect(parseDatetime(bad), String(bad)).toBeNull();
  });

  it('reads a canonical text back to itself', () => {
    for (const v of ['2026-11-21T10:00+02:00', '2026-03-29T02:30:00.001-09:30', '2026-11-21T08:00Z']) {
      const once = parseDatetime(v)!;
      expect(parseDatetime(once.text)).toEqual(once);
      expect(parseDatetime(once.instant)).toEqual({ text: once.instant, instant: once.instant });
    }
  });
});
