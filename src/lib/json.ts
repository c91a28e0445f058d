/**
 * JSON helpers for values stored as JSON: SQLite hands back text, PostgreSQL (jsonb) an object.
 */

/** Returns the parsed value of a stored JSON column whatever the driver returned. */
export function fromJsonColumn<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') {
    try {
      return JSON.parse(value) as T;
    } catch {
      return fallback;
    }
  }
  return value as T;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A shallow copy of `value` with its keys in code-point order (JSON.stringify keeps insertion order). */
function sortedKeys(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = value[key];
  return out;
}

/**
 * JSON.stringify with the keys of every object sorted (code-point order, at every level), so equal
 * values give equal text whatever order they were built or stored in: hashes and ETags, and every
 * `data` string on the wire, which is then byte-identical on SQLite (text kept as written) and
 * PostgreSQL (jsonb keeps keys in its own order). `undefined` at the top gives 'null'.
 */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isPlainObject(v) ? sortedKeys(v) : v)) ?? 'null';
}

/**
 * Like stableStringify, but the outermost object keeps its own key order: a delivered `data`
 * object is built in its content type's field order (a rich-text field's `_html` and `_text` in
 * its place), which is the same on every database; the objects inside it (rich-text documents,
 * JSON values) come from storage and are sorted.
 */
export function projectedStringify(value: unknown): string {
  let root = true;
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      // The first call is for the value itself; every later one is for something inside it.
      if (root) {
        root = false;
        return v;
      }
      return isPlainObject(v) ? sortedKeys(v) : v;
    }) ?? 'null'
  );
}
