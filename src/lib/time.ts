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

/** Parses an ISO 8601 timestamp with an explicit zone; returns null when it is not one. */
export function parseTimestamp(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/.test(value)) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
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
