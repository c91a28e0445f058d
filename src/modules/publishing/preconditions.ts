/**
 * Optimistic locking for entries and pages (docs/api.md "ETag and If-Match" (D5)). Every write
 * bumps the record's
 * `version`; its entity tag is `"<id>-<version>"`. A write sent with `If-Match` that lists no
 * current tag answers 412 PRECONDITION_FAILED and changes nothing: operations call checkIfMatch
 * inside their transaction, after reading the row they are about to change.
 *
 * `If-Match: *` matches any existing record. Comparison is strong (RFC 9110 §13.1.1): a weak tag
 * (`W/"…"`) never matches.
 */
import { AppError } from '../../errors.js';

export interface Versioned {
  id: string;
  version: number;
}

/** The quoted entity tag of a record, for the `ETag` header. */
export function entityTag(record: Versioned): string {
  return `"${record.id}-${record.version}"`;
}

/**
 * Throws 412 PRECONDITION_FAILED unless `ifMatch` (the raw header value; undefined when absent)
 * matches `current`. An absent or empty header always passes.
 */
export function checkIfMatch(ifMatch: string | undefined, current: Versioned): void {
  if (ifMatch === undefined || ifMatch.trim() === '') return;
  const tags = ifMatch
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  if (tags.includes('*')) return;
  const tag = entityTag(current);
  if (tags.includes(tag)) return;
  throw new AppError('PRECONDITION_FAILED', `If-Match does not match the current version (ETag ${tag}); reload and retry`);
}
