/**
 * Reading values out of delivered `data` without casts: entry and block `data` are JSON objects
 * whose shape depends on the content model, so each field is checked where it is read. Each helper
 * answers null (or an empty list) when the value is missing or of another shape, so a renamed or
 * retyped field degrades to "not shown", never to a crash.
 */

export type Fields = Readonly<Record<string, unknown>>;

/** True for a plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `data` of an entry, block or translation: an object, or a JSON-encoded object (D1). */
export function parseData(value: unknown): Fields {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      return isRecord(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isRecord(value) ? value : {};
}

export function text(fields: Fields, name: string): string | null {
  const v = fields[name];
  return typeof v === 'string' && v !== '' ? v : null;
}

export function integer(fields: Fields, name: string): number | null {
  const v = fields[name];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function strings(fields: Fields, name: string): string[] {
  const v = fields[name];
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
}

export function record(fields: Fields, name: string): Fields | null {
  const v = fields[name];
  return isRecord(v) ? v : null;
}

/** A list of objects (e.g. the `data` array of a list answer); other items are skipped. */
export function records(value: unknown): Fields[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

/** An http(s) or mailto URL, or a site-relative path; anything else (javascript:, data:) is null. */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  try {
    const url = new URL(value);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}
