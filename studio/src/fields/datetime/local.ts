/**
 * Conversions between a stored datetime and the date-time picker's wall clock
 * "YYYY-MM-DD HH:mm:ss". A stored value keeps the time and offset its author wrote, in the
 * canonical form `YYYY-MM-DDTHH:MM:SS.sss±HH:MM` (`Z` for UTC; docs/api.md "Datetime values"):
 * the picker shows that time as written, and an edit keeps its offset. A value picked into an
 * empty field takes the browser's offset at that date and time.
 */
import dayjs from 'dayjs';

const STORED = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::(\d{2}))?(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})$/;
const WALL = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(?::(\d{2}))?/;

/** The time as written, "YYYY-MM-DD HH:mm:ss"; null for no or an unreadable value. */
export function wallClock(value: string | null | undefined): string | null {
  const m = value ? STORED.exec(value) : null;
  return m ? `${m[1]} ${m[2]}:${m[3] ?? '00'}` : null;
}

/** The offset as written, `Z` or `±HH:MM`; null for no or an unreadable value. */
export function offsetOf(value: string | null | undefined): string | null {
  const m = value ? STORED.exec(value) : null;
  if (!m) return null;
  const zone = m[4].replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  return zone === '+00:00' || zone === '-00:00' ? 'Z' : zone;
}

/**
 * The picker's wall clock as a stored value with `offset` (the edited value's, so it is kept), or
 * with none the browser's offset at that date and time; null for no or an unreadable time.
 */
export function withOffset(local: string | null | undefined, offset: string | null): string | null {
  const m = local ? WALL.exec(local) : null;
  if (!m) return null;
  const wall = `${m[1]}T${m[2]}:${m[3] ?? '00'}`;
  const zone = offset ?? dayjs(wall).format('Z');
  return `${wall}.000${zone === '+00:00' ? 'Z' : zone}`;
}

/** How the label names a value's offset: `UTC` or `UTC+02:00`. */
export function offsetLabel(offset: string): string {
  return offset === 'Z' ? 'UTC' : `UTC${offset}`;
}

/** A stored value as lists show it: "2026-11-21 10:00 UTC+02:00"; null when unreadable. */
export function formatStored(value: string | null | undefined): string | null {
  const wall = wallClock(value);
  const offset = offsetOf(value);
  return wall && offset ? `${wall.slice(0, 16)} ${offsetLabel(offset)}` : null;
}

/** The browser's IANA time zone, shown beside the label of an empty date-time field. */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}
