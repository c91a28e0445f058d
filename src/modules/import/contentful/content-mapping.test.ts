import { describe, expect, it } from 'vitest';
import { isZonelessDate, toIsoDatetime } from './content-mapping.js';

describe('toIsoDatetime', () => {
  it("keeps the export's offset, in Quire's canonical form", () => {
    expect(toIsoDatetime('2026-11-21T10:00+02:00')).toBe('2026-11-21T10:00:00.000+02:00');
    expect(toIsoDatetime(' 2026-11-21T10:00:30.25-03:30 ')).toBe('2026-11-21T10:00:30.250-03:30');
    expect(toIsoDatetime('2026-11-21T08:00:00.000Z')).toBe('2026-11-21T08:00:00.000Z');
  });

  it('reads a value without a zone as UTC, its time as written', () => {
    expect(toIsoDatetime('2026-11-21T10:00')).toBe('2026-11-21T10:00:00.000Z');
    expect(toIsoDatetime('2026-11-21T10:00:05.5')).toBe('2026-11-21T10:00:05.500Z');
    expect(toIsoDatetime('2026-11-21')).toBe('2026-11-21T00:00:00.000Z');
  });

  it('gives nothing for what is not a date-time', () => {
    for (const bad of ['2026-11-31T10:00', 'tomorrow', '2026-11-21T25:00Z', 20261121, null]) expect(toIsoDatetime(bad), String(bad)).toBeUndefined();
  });
});

describe('isZonelessDate', () => {
  it('tells the values toIsoDatetime reads as UTC', () => {
    expect(['2026-11-21', '2026-11-21T10:00', ' 2026-11-21T10:00:00.123 '].every(isZonelessDate)).toBe(true);
    expect(['2026-11-21T10:00Z', '2026-11-21T10:00+02:00', 'x', 5].some(isZonelessDate)).toBe(false);
  });
});
