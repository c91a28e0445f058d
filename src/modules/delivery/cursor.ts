/**
 * Keyset cursors (docs/api.md "Pagination" (D44)). A cursor is
 * `base64url(JSON {v, i, b}) "." base64url(HMAC-SHA256)`: `v` is the sort value of the last row
 * returned, `i` its id, `b` a hash of what the cursor is bound to (content type, sort, filters,
 * locale, key environment; not `fields` or `limit`, which may change between pages). The MAC key
 * is derived from the installation secret for this purpose only, so a cursor is worthless
 * elsewhere (e.g. as a preview token). A cursor that does not verify, or that belongs to another
 * query, answers 400 at `query.cursor`.
 *
 * A sortable text field has no length limit of its own, so a sort value can be longer than a URL
 * should carry. When the value's JSON exceeds MAX_CURSOR_VALUE_BYTES the cursor carries the row id
 * only (`r: 1`) and the next page resumes after that row's current sort value, read in the same
 * statement (see keysetCondition); every cursor handed out stays under MAX_CURSOR_LENGTH.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { invalid } from '../../errors.js';
import { stableStringify } from '../../lib/json.js';
import type { SortValue } from './model.js';

/** What a cursor is valid for. */
export interface CursorBinding {
  contentTypeId: string;
  sort: string;
  filters: string;
  locale: string | null;
  environment: string;
}

/**
 * The position a cursor resumes after: the sort value and id of the last row returned. With
 * `byRow`, the value was too long to carry and is read from row `id` when the next page runs.
 */
export interface CursorPosition {
  value: SortValue;
  id: string;
  byRow?: boolean;
}

export const MAX_CURSOR_LENGTH = 2048;
/** Sort values whose JSON is longer than this (UTF-8 bytes) are resumed by row, not carried. */
export const MAX_CURSOR_VALUE_BYTES = 1024;

/** The cursor MAC key: derived per call (one HMAC, microseconds), so nothing is kept in memory. */
function macKey(secret: Uint8Array): Buffer {
  return createHmac('sha256', secret).update('quire:delivery-cursor:v1').digest();
}

function bindingHash(binding: CursorBinding): string {
  return createHash('sha256').update(stableStringify(binding)).digest('base64url').slice(0, 22);
}

function mac(secret: Uint8Array, payload: string): Buffer {
  return createHmac('sha256', macKey(secret)).update(payload).digest();
}

/** The opaque cursor that resumes after `position` for the query `binding` describes. */
export function encodeCursor(secret: Uint8Array, binding: CursorBinding, position: CursorPosition): string {
  const value = JSON.stringify(position.value);
  const body =
    position.byRow || Buffer.byteLength(value) > MAX_CURSOR_VALUE_BYTES
      ? { r: 1, i: position.id, b: bindingHash(binding) }
      : { v: position.value, i: position.id, b: bindingHash(binding) };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** Verifies `cursor` for `binding` and returns its position; throws 400 at `query.cursor`. */
export function decodeCursor(secret: Uint8Array, binding: CursorBinding, cursor: string): CursorPosition {
  const bad = () =>
    invalid('query.cursor', 'is not a valid cursor for this query; pass meta.next_cursor back unchanged with the same type, sort, filters and locale');
  const dot = cursor.indexOf('.');
  if (dot <= 0 || cursor.length > MAX_CURSOR_LENGTH) throw bad();
  const payload = cursor.slice(0, dot);
  const given = Buffer.from(cursor.slice(dot + 1), 'base64url');
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  // A verified MAC proves we wrote the payload, not that this version of the code reads it.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad();
  const p = parsed as { v?: unknown; i?: unknown; b?: unknown; r?: unknown };
  if (p.r === 1) {
    if (typeof p.i !== 'string' || p.b !== bindingHash(binding)) throw bad();
    return { value: null, id: p.i, byRow: true };
  }
  const v = p.v;
  const valueOk = v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
  if (!valueOk || typeof p.i !== 'string' || p.b !== bindingHash(binding)) throw bad();
  return { value: v as SortValue, id: p.i };
}
