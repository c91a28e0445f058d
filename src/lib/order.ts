/**
 * The complete-order rule of every reorder endpoint (fields, entries, pages, blocks; docs/api.md
 * "Rules Quire decided" (D34)): the client sends the whole list, so a reorder can never silently
 * drop or duplicate an
 * item when its view of the list is stale.
 */
import { validationError, type ErrorDetail } from '../errors.js';

/**
 * Checks that `order` lists every id of `ids` exactly once and nothing else. Throws one 400
 * VALIDATION_FAILED at `path` naming each id listed twice, each unknown id and the missing ones;
 * returns nothing when the order is complete.
 */
export function assertCompleteOrder(order: readonly string[], ids: readonly string[], path: string): void {
  const expected = new Set(ids);
  const seen = new Set<string>();
  const errors: ErrorDetail[] = [];
  for (const id of order) {
    if (seen.has(id)) errors.push({ path, message: `id '${id}' is listed twice` });
    else if (!expected.has(id)) errors.push({ path, message: `id '${id}' is not in this list` });
    seen.add(id);
  }
  const missing = ids.filter((id) => !seen.has(id));
  if (missing.length) errors.push({ path, message: `the complete list is required; missing ${missing.join(', ')}` });
  if (errors.length) throw validationError(errors);
}
