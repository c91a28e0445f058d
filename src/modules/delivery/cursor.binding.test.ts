/**
 * More cases for delivery cursors (cursor.ts; docs/api.md "Pagination" (D44)), beside
 * cursor.test.ts: round trips of every kind of sort value, the binding to content type, sort,
 * filters, locale and environment (and not to the order of the binding's keys), foreign and
 * tampered cursors, and cursors whose MAC verifies but whose content is not a position.
 */
import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { stableStringify } from '../../lib/json.js';
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH, type CursorBinding, type CursorPosition } from './cursor.js';

const secret = new Uint8Array(32).map((_, i) => i * 7 + 1);
const binding: CursorBinding = {
  contentTypeId: '0190b7a2-0000-7000-8000-000000000001',
  sort: 'rating:desc',
  filters: '[["rating","gte",4]]',
  locale: 'de',
  environment: 'production',
};
const position: CursorPosition = { value: 4.5, id: '0190b7a2-0000-7000-8000-0000000000aa' };

function refused(fn: () => unknown): void {
  let error: unknown;
  try {
    fn();
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(AppError);
  const e = error as AppError;
  expect(e.code).toBe('VALIDATION_FAILED');
  expect(e.status).toBe(400);
  expect(e.errors).toHaveLength(1);
  expect(e.errors![0].path).toBe('query.cursor');
  expect(e.errors![0].message).toContain('is not a valid cursor for this query');
}

/**
 * A payload signed as the module signs it (the construction its header documents), so that the
 * checks after the MAC can be reached: what a cursor must hold even when its signature is right.
 */
function signed(payloadJson: string, key = secret): string {
  const payload = Buffer.from(payloadJson).toString('base64url');
  const macKey = createHmac('sha256', key).update('quire:delivery-cursor:v1').digest();
  return `${payload}.${createHmac('sha256', macKey).update(payload).digest('base64url')}`;
}
const hashOf = (b: CursorBinding) => createHash('sha256').update(stableStringify(b)).digest('base64url').slice(0, 22);

describe('round trips', () => {
  it.each<[string, CursorPosition['value']]>([
    ['null (no value: sorted last or first)', null],
    ['zero', 0],
    ['a negative decimal', -12.75],
    ['a large integer', 9_007_199_254_740_991],
    ['a tiny number', 5e-324],
    ['false', false],
    ['true', true],
    ['an empty string', ''],
    ['a timestamp', '2026-11-21T10:00:00.000Z'],
    ['text with quotes, dots and unicode', 'a "quoted" v.1 — Grüße 日本 🎉'],
    ['text with a newline and a NUL', 'line\nnext\u0000end'],
  ])('%s', (_what, value) => {
    const cursor = encodeCursor(secret, binding, { value, id: position.id });
    expect(decodeCursor(secret, binding, cursor)).toEqual({ value, id: position.id });
  });

  it('keeps any id as given', () => {
    for (const id of ['', 'x', 'ID.with.dots', 'ü'.repeat(50)]) {
      expect(decodeCursor(secret, binding, encodeCursor(secret, binding, { value: 1, id }))).toEqual({ value: 1, id });
    }
  });

  it('is URL-safe: one dot between two base64url parts', () => {
    const cursor = encodeCursor(secret, binding, { value: 'a/b+c=d?e&f', id: position.id });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
  });

  it('is deterministic for the same query and position', () => {
    expect(encodeCursor(secret, binding, position)).toBe(encodeCursor(secret, { ...binding }, { ...position }));
  });

  it('does not depend on the order of the binding keys', () => {
    const reordered: CursorBinding = {
      environment: 'production',
      locale: 'de',
      filters: binding.filters,
      sort: binding.sort,
      contentTypeId: binding.contentTypeId,
    };
    expect(decodeCursor(secret, reordered, encodeCursor(secret, binding, position))).toEqual(position);
  });

  it('round-trips a long text sort value: every cursor the API hands out must be accepted back', () => {
    // A sortable text field has no length limit of its own; its value is the cursor's sort value.
    for (const value of ['t'.repeat(1500), '題'.repeat(600)]) {
      const cursor = encodeCursor(secret, binding, { value, id: position.id });
      let decoded: CursorPosition | 'refused';
      try {
        decoded = decodeCursor(secret, binding, cursor);
      } catch {
        decoded = 'refused';
      }
      // Too long to carry: the cursor resumes by row (keysetCondition reads the value back).
      const roundTrips = decoded !== 'refused' && decoded.byRow === true && decoded.id === position.id && cursor.length <= MAX_CURSOR_LENGTH;
      expect({ valueLength: value.length, cursorLength: cursor.length, roundTrips }).toEqual({
        valueLength: value.length,
        cursorLength: cursor.length,
        roundTrips: true,
      });
    }
  });
});

describe('bound to the query (D44)', () => {
  const cursor = encodeCursor(secret, binding, position);

  it.each<[string, Partial<CursorBinding>]>([
    ['another content type', { contentTypeId: '0190b7a2-0000-7000-8000-000000000002' }],
    ['another sort field', { sort: 'title:desc' }],
    ['the other direction', { sort: 'rating:asc' }],
    ['other filter values', { filters: '[["rating","gte",5]]' }],
    ['another filter operator', { filters: '[["rating","gt",4]]' }],
    ['no filters', { filters: '[]' }],
    ['no filters, as empty text (the pages binding)', { filters: '' }],
    ['another locale', { locale: 'fr' }],
    ['no locale', { locale: null }],
    ['the default locale named explicitly', { locale: 'en' }],
    ['the preview environment', { environment: 'preview' }],
  ])('%s is refused', (_what, change) => {
    refused(() => decodeCursor(secret, { ...binding, ...change }, cursor));
  });

  it('a pages cursor is refused for entries and the other way round', () => {
    const pages: CursorBinding = {
      contentTypeId: 'pages:0190b7a2-0000-7000-8000-0000000000ff',
      sort: 'position:asc',
      filters: '',
      locale: null,
      environment: 'production',
    };
    const entries: CursorBinding = { ...pages, contentTypeId: binding.contentTypeId };
    refused(() => decodeCursor(secret, entries, encodeCursor(secret, pages, position)));
    refused(() => decodeCursor(secret, pages, encodeCursor(secret, entries, position)));
  });

  it('`fields` and `limit` are not part of the binding: the same binding decodes', () => {
    expect(decodeCursor(secret, { ...binding }, cursor)).toEqual(position);
  });
});

describe('foreign and tampered cursors', () => {
  const cursor = encodeCursor(secret, binding, position);
  const [payload, sig] = cursor.split('.');

  it('another installation’s secret', () => {
    const other = new Uint8Array(secret);
    other[0] ^= 1;
    refused(() => decodeCursor(other, binding, cursor));
    refused(() => decodeCursor(secret, binding, encodeCursor(other, binding, position)));
  });

  it('a token signed with the installation secret directly, not the cursor key', () => {
    const direct = `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    refused(() => decodeCursor(secret, binding, direct));
  });

  it('every single-character change of the payload', () => {
    for (let i = 0; i < payload.length; i++) {
      const c = payload[i] === 'A' ? 'B' : 'A';
      refused(() => decodeCursor(secret, binding, `${payload.slice(0, i)}${c}${payload.slice(i + 1)}.${sig}`));
    }
  });

  it('a changed, shortened, lengthened or missing signature', () => {
    refused(() => decodeCursor(secret, binding, `${payload}.${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`));
    refused(() => decodeCursor(secret, binding, `${payload}.${sig.slice(0, -4)}`));
    refused(() => decodeCursor(secret, binding, `${payload}.${sig}AAAA`));
    refused(() => decodeCursor(secret, binding, `${payload}.`));
    refused(() => decodeCursor(secret, binding, payload));
  });

  it('a forged position under the original signature', () => {
    const forged = (p: object) => `${Buffer.from(JSON.stringify(p)).toString('base64url')}.${sig}`;
    const original = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    refused(() => decodeCursor(secret, binding, forged({ ...original, v: 0 })));
    refused(() => decodeCursor(secret, binding, forged({ ...original, i: 'another-id' })));
    refused(() => decodeCursor(secret, binding, forged({ ...original, b: hashOf({ ...binding, environment: 'preview' }) })));
  });

  it('the cursor of another query and position spliced together', () => {
    const other = encodeCursor(secret, { ...binding, environment: 'preview' }, { value: 1, id: 'x' });
    refused(() => decodeCursor(secret, binding, `${payload}.${other.split('.')[1]}`));
    refused(() => decodeCursor(secret, binding, `${other.split('.')[0]}.${sig}`));
  });

  it.each([
    '',
    '.',
    '..',
    'abc',
    '.abc',
    'a.b',
    `.${sig}`,
    `${payload}.${sig}.x`,
    ' ',
    `${payload} .${sig}`,
    '%2E',
    'x'.repeat(MAX_CURSOR_LENGTH + 1),
    `${'x'.repeat(MAX_CURSOR_LENGTH)}.${sig}`,
  ])('garbage %#', (junk) => refused(() => decodeCursor(secret, binding, junk)));
});

describe('a verified MAC is not enough: the content must be a position for this query', () => {
  const b = hashOf(binding);

  it('the construction this suite signs with is the module’s (control)', () => {
    expect(decodeCursor(secret, binding, signed(JSON.stringify({ v: 3, i: 'id', b })))).toEqual({ value: 3, id: 'id' });
    expect(signed(JSON.stringify({ v: position.value, i: position.id, b }))).toBe(encodeCursor(secret, binding, position));
  });

  it.each([
    ['not JSON', '{v:1'],
    ['JSON but not an object', '[1,"id"]'],
    ['JSON null', 'null'],
    ['an object value', JSON.stringify({ v: { a: 1 }, i: 'id', b })],
    ['an array value', JSON.stringify({ v: [1], i: 'id', b })],
    ['a missing value', JSON.stringify({ i: 'id', b })],
    ['a numeric id', JSON.stringify({ v: 1, i: 7, b })],
    ['a missing id', JSON.stringify({ v: 1, b })],
    ['a missing binding', JSON.stringify({ v: 1, i: 'id' })],
    ['the binding of another query', JSON.stringify({ v: 1, i: 'id', b: hashOf({ ...binding, locale: null }) })],
  ])('%s', (_what, json) => {
    refused(() => decodeCursor(secret, binding, signed(json)));
  });

  it('a non-finite number (1e999 parses as Infinity)', () => {
    refused(() => decodeCursor(secret, binding, signed(`{"v":1e999,"i":"id","b":"${b}"}`)));
    refused(() => decodeCursor(secret, binding, signed(`{"v":-1e999,"i":"id","b":"${b}"}`)));
  });
});
