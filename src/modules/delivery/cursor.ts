/**
 * Keyset cursors (api.md "Pagination", DECISIONS.md D44). A cursor is
 * `base64url(JSON {v, i, b}) "." base64url(HMAC-SHA256)`: `v` is the sort value of the last row
 * returned, `i` its id, `b` a hash of what the cursor is bound to (content type, sort, filters,
 * locale, key environment; not `fields` or `limit`, which may change between pages). The MAC key
 * is derived from the installation secret for this purpose only, so a cursor is worthless
 * elsewhere (e.g. as a preview token). A cursor that does not verify, or that belongs to another
 * query, answers 400 at `query.cursor`.
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

/** The position a cursor resumes after. */
export interface CursorPosition {
  value: SortValue;
  id: string;
}

export const MAX_CURSOR_LENGTH = 2048;

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
  const payload = Buffer.from(JSON.stringify({ v: position.value, i: position.id, b: bindingHash(binding) })).toString('base64url');
  return `${payload}.${mac(secret, payload).toString('base64url')}`;
}

/** Verifies `cursor` for `binding` and returns its position; throws 400 at `query.cursor`. */
export function decodeCursor(secret: Uint8Array, binding: CursorBinding, cursor: string): CursorPosition {
  const bad = () => invalid('query.cursor', 'is not a valid cursor for this query; pass meta.next_cursor back unchanged with the same type, sort, filters and locale');
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
  const p = parsed as { v?: unknown; i?: unknown; b?: unknown };
  const v = p.v;
  const valueOk = v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
  if (!valueOk || typeof p.i !== 'string' || p.b !== bindingHash(binding)) throw bad();
  return { value: v as SortValue, id: p.i };
}
