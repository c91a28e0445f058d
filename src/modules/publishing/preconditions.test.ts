import { describe, expect, it } from 'vitest';
import { checkIfMatch, entityTag } from './preconditions.js';

const record = { id: '0190b7a2-0000-7000-8000-000000000001', version: 3 };
const tag = `"${record.id}-3"`;

describe('If-Match (D5)', () => {
  it('tags a record by id and write counter', () => {
    expect(entityTag(record)).toBe(tag);
  });
  it.each([undefined, '', '  ', tag, '*', `"other-1", ${tag}`, ` ${tag} `])('passes %j', (header) => {
    expect(() => checkIfMatch(header, record)).not.toThrow();
  });
  it.each([`"${record.id}-2"`, `W/${tag}`, record.id, '"x", "y"'])('answers 412 for %j', (header) => {
    try {
      checkIfMatch(header, record);
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      expect((err as Error).message).toContain(tag);
    }
  });
});
