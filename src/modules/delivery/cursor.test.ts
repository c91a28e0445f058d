import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, MAX_CURSOR_LENGTH, type CursorBinding } from './cursor.js';

const secret = new Uint8Array(32).fill(7);
const binding: CursorBinding = { contentTypeId: 'ct-1', sort: 'views:desc', filters: '[["views","gte",3]]', locale: 'de', environment: 'production' };

function refused(fn: () => unknown): void {
  try {
    fn();
    expect.unreachable();
  } catch (err) {
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(JSON.stringify((err as { errors: unknown }).errors)).toContain('query.cursor');
  }
}

describe('delivery cursors (D44)', () => {
  it.each([null, 'text', 42, -1.5, true])('round-trips a position with value %j', (value) => {
    const cursor = encodeCursor(secret, binding, { value, id: 'id-9' });
    expect(decodeCursor(secret, binding, cursor)).toEqual({ value, id: 'id-9' });
  });

  it.each(Object.keys(binding) as (keyof CursorBinding)[])('is bound to the query: another %s is refused', (key) => {
    const cursor = encodeCursor(secret, binding, { value: 1, id: 'a' });
    const other = { ...binding, [key]: key === 'locale' ? null : `${String(binding[key])}x` };
    refused(() => decodeCursor(secret, other, cursor));
  });

  it('refuses a cursor signed with another secret, a tampered payload or signature, and garbage', () => {
    const cursor = encodeCursor(secret, binding, { value: 1, id: 'a' });
    refused(() => decodeCursor(new Uint8Array(32).fill(8), binding, cursor));
    const [payload, sig] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: 'b' })).toString('base64url');
    refused(() => decodeCursor(secret, binding, `${forged}.${sig}`));
    refused(() => decodeCursor(secret, binding, `${payload}.${sig.slice(0, -2)}AA`));
    for (const junk of ['', '.', 'abc', `.${sig}`, 'x'.repeat(MAX_CURSOR_LENGTH + 1)]) refused(() => decodeCursor(secret, binding, junk));
  });
});
