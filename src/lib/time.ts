/**
 * Time helpers. Timestamps are ISO 8601 UTC with milliseconds (DECISIONS.md D3), stored as text
 * in both dialects so that string order is time order and one query path serves both.
 */

/** Current time as `2026-11-21T10:00:00.000Z`. A clock can be injected for tests. */
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export function iso(date: Date): string {
  return date.toISOString();
}

/** True when year/month/day (month 1-12) name a day that exists, e.g. not 2026-11-31 or 2027-02-29. */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * Parses an ISO 8601 timestamp with an explicit zone; returns null when it is not one. Days that
 * do not exist (2026-11-31), hour 24, minute or second 60 and zone offsets past 23:59 are refused
 * rather than rolled over as `Date` would.
 */
export function parseTimestamp(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  const m = TIMESTAMP.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s, oh, om] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  if (!isCalendarDate(y, mo, d) || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Parses a duration like `90s`, `12h`, `30d` into milliseconds (CLI `--expires-in`, D61).
 * Returns null when the text is not such a duration.
 */
export function parseDuration(text: string): number | null {
  const m = /^(\d{1,6})([smhd])$/.exec(text.trim());
  if (!m) return null;
  const unit = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as 's' | 'm' | 'h' | 'd'];
  return Number(m[1]) * unit;
}
