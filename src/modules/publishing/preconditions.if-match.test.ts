/**
 * More If-Match cases (preconditions.ts; docs/api.md "ETag and If-Match" (D5)), beside
 * preconditions.test.ts: the
 * forms the module defines (quoted strong tags, lists, `*`), what it refuses (stale, weak,
 * unquoted, another record's tag) and the error it answers with.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { checkIfMatch, entityTag } from './preconditions.js';

const record = { id: '0190b7a2-0000-7000-8000-00000000abcd', version: 3 };
const current = `"${record.id}-3"`;

function refusal(header: string, rec = record): AppError {
  try {
    checkIfMatch(header, rec);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error(`expected 412 for ${JSON.stringify(header)}`);
}

describe('entity tags', () => {
  it('are the quoted id and write counter', () => {
    expect(entityTag(record)).toBe(current);
    expect(entityTag({ id: 'a', version: 1 })).toBe('"a-1"');
    expect(entityTag({ id: record.id, version: 12 })).toBe(`"${record.id}-12"`);
  });
  it('change with every write', () => {
    expect(entityTag({ ...record, version: 4 })).not.toBe(entityTag(record));
  });
});

describe('If-Match passes', () => {
  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['blank', ' \t '],
    ['the current tag', current],
    ['the current tag with spaces around', `   ${current}\t`],
    ['a wildcard', '*'],
    ['a wildcard with spaces', '  *  '],
    ['a wildcard in a list', `"stale-1", *`],
    ['a list holding the current tag last', `"${record.id}-1", "${record.id}-2", ${current}`],
    ['a list holding the current tag first, no spaces', `${current},"${record.id}-2"`],
    ['a list with empty members', `, ${current} ,,`],
  ])('%s', (_what, header) => {
    expect(() => checkIfMatch(header, record)).not.toThrow();
  });
});

describe('If-Match answers 412 PRECONDITION_FAILED', () => {
  it.each([
    ['a stale version', `"${record.id}-2"`],
    ['a newer version', `"${record.id}-4"`],
    ['a version that only starts like the current one', `"${record.id}-30"`],
    ['another record at the same version', '"0190b7a2-0000-7000-8000-00000000ffff-3"'],
    ['a weak tag of the current version (strong comparison)', `W/${current}`],
    ['a weak tag, lower case', `w/${current}`],
    ['the current tag unquoted', `${record.id}-3`],
    ['the current tag single-quoted', `'${record.id}-3'`],
    ['the current tag with inner spaces', `" ${record.id}-3 "`],
    ['the current tag upper-cased', current.toUpperCase()],
    ['a list of stale tags', `"${record.id}-1", "${record.id}-2"`],
    ['a weak wildcard', 'W/*'],
    ['a quoted wildcard', '"*"'],
  ])('%s', (_what, header) => {
    const err = refusal(header);
    expect(err.code).toBe('PRECONDITION_FAILED');
    expect(err.status).toBe(412);
    expect(err.errors).toBeNull();
    // The message names the current tag so that the client can reload.
    expect(err.message).toBe(`If-Match does not match the current version (ETag ${current}); reload and retry`);
  });

  it('goes stale as soon as the record is written again', () => {
    const tag = entityTag(record);
    expect(() => checkIfMatch(tag, record)).not.toThrow();
    const written = { ...record, version: record.version + 1 };
    expect(refusal(tag, written).message).toContain(entityTag(written));
    expect(() => checkIfMatch(`${tag}, ${entityTag(written)}`, written)).not.toThrow();
  });
});
