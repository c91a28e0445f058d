/**
 * Bounds on the shape of JSON documents, checked on the raw text before it is parsed, so a hostile
 * body (a value nested 100,000 deep, an array of a million numbers) is refused in one linear pass
 * without building the value, and nothing downstream (validation, stableStringify, the idempotency
 * fingerprint, SQLite's JSON functions, whose own limit is 1,000 levels) ever sees one.
 *
 * MAX_JSON_DEPTH (200) leaves room for the deepest legitimate body: a page of 10 block levels
 * (2 JSON levels each: the block and its `children`) holding rich text of 64 node levels (2 each)
 * under a few wrapper objects is about 155 levels. MAX_JSON_ARRAY (10,000) is above every array
 * the API accepts (1,000 blocks per page, reorder lists of at most 1,000 ids). A `json` field
 * value may nest at most MAX_JSON_VALUE_DEPTH levels, checked by entry validation, so imported
 * content is bounded too.
 */

/** Deepest nesting of objects and arrays in a request body. */
export const MAX_JSON_DEPTH = 200;
/** Most elements in any one array of a request body. */
export const MAX_JSON_ARRAY = 10_000;
/** Deepest nesting inside one `json` field value (checked on the parsed value). */
export const MAX_JSON_VALUE_DEPTH = 64;

/** What a document broke, for a 400 naming the limit. */
export interface JsonShapeViolation {
  limit: 'depth' | 'array';
  message: string;
}

/**
 * Scans JSON text for nesting deeper than `maxDepth` or an array longer than `maxArray`, in one
 * pass over the characters (strings skipped, escapes honoured). Malformed text is not reported:
 * the parser that runs next refuses it with its own message. Returns null when within bounds.
 */
export function checkJsonShape(text: string, maxDepth = MAX_JSON_DEPTH, maxArray = MAX_JSON_ARRAY): JsonShapeViolation | null {
  // counts[d] is the number of commas seen in the array open at depth d (-1 for an object).
  const counts: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote, one not escaped by an odd run of backslashes (each
      // run is counted once, so the scan stays linear).
      for (let from = i + 1; ;) {
        const q = text.indexOf('"', from);
        if (q < 0) return null;
        let slashes = 0;
        for (let b = q - 1; b > i && text.charCodeAt(b) === 0x5c; b--) slashes++;
        if (slashes % 2 === 0) {
          i = q;
          break;
        }
        from = q + 1;
      }
    } else if (c === 0x7b || c === 0x5b) {
      if (counts.length >= maxDepth) return { limit: 'depth', message: `nests objects and arrays deeper than ${maxDepth} levels (the limit of a JSON body)` };
      counts.push(c === 0x5b ? 0 : -1);
    } else if (c === 0x7d || c === 0x5d) counts.pop();
    else if (c === 0x2c && counts.length > 0) {
      const top = counts.length - 1;
      if (counts[top] >= 0 && ++counts[top] >= maxArray) {
        return { limit: 'array', message: `holds an array of more than ${maxArray} elements (the limit of a JSON body)` };
      }
    }
  }
  return null;
}

/** Nesting depth of a parsed JSON value (a scalar is 0, `[]` and `{}` are 1), iteratively. */
export function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    const depth = d + 1;
    if (depth > max) max = depth;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth]);
  }
  return max;
}
