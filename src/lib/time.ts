/**
 * Time helpers. Timestamps are ISO 8601 UTC with milliseconds (docs/api.md "Wire format" (D3)),
 * stored as text
 * in both dialects so that string order is time order and one query path serves both. Values of
 * `datetime` fields keep the offset their author wrote (parseDatetime) and are compared by the
 * instant they name.
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
 * A value of a `datetime` field (issue 12 item 2): the time the author wrote, with its offset,
 * and the instant it names.
 * - `text`: the canonical form stored and delivered, `YYYY-MM-DDTHH:MM:SS.sss±HH:MM`: the
 *   author's date, time and offset, seconds and milliseconds filled in (fractions of a
 *   millisecond dropped), the offset written with a colon, `Z` for a zero offset.
 * - `instant`: the same moment in UTC, `YYYY-MM-DDTHH:MM:SS.sssZ`, the form datetimes are compared
 *   in (filters, sorts, cursors, uniqueness); src/db/dialect.ts computes the same text in SQL.
 */
export interface DatetimeValue {
  text: string;
  instant: string;
}

const DATETIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/** The first and last instants a datetime may name: years 0001 to 9999 in UTC, which both databases read. */
const FIRST_INSTANT = -62_135_596_800_000; // 0001-01-01T00:00:00.000Z
const LAST_INSTANT = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * Reads an ISO 8601 date-time with an explicit zone (`Z`, `±HH:MM` or `±HHMM`; seconds and
 * fractions optional) as a datetime field value; null when it is not one. Refused like
 * parseTimestamp: days that do not exist, hour 24, minute or second 60, offsets past 23:59; and
 * year 0000, or an instant outside the years 0001–9999 in UTC.
 *
 * ### Examples
 * parseDatetime('2026-11-21T10:00+02:00') → { text: '2026-11-21T10:00:00.000+02:00', instant: '2026-11-21T08:00:00.000Z' }
 */
export function parseDatetime(value: unknown): DatetimeValue | null {
  if (typeof value !== 'string') return null;
  const m = DATETIME.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map((x) => (x === undefined ? 0 : Number(x)));
  const ms = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const sign = m[8] === '-' ? -1 : 1;
  const [oh, om] = [Number(m[9] ?? 0), Number(m[10] ?? 0)];
  if (y < 1 || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return null;
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  const wall = new Date(0);
  wall.setUTCFullYear(y, mo - 1, d);
  if (wall.getUTCFullYear() !== y || wall.getUTCMonth() !== mo - 1 || wall.getUTCDate() !== d) return null;
  wall.setUTCHours(h, mi, s, ms);
  const offsetMinutes = sign * (oh * 60 + om);
  const instant = wall.getTime() - offsetMinutes * 60_000;
  if (instant < FIRST_INSTANT || instant > LAST_INSTANT) return null;
  const zone = offsetMinutes === 0 ? 'Z' : `${sign < 0 ? '-' : '+'}${pad(oh)}:${pad(om)}`;
  const text = `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}.${pad(ms, 3)}${zone}`;
  return { text, instant: new Date(instant).toISOString() };
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
