/**
 * Parsing of the JSON-encoded `data` strings of the wire (docs/api.md "Wire format": entries,
 * entry translations, blocks and block translations carry `data` as a JSON string). A value that
 * is already an object is kept, so the client keeps working if a server sends objects.
 */
import { QuireError } from './errors.js';

/** `value` as an object: a JSON string parsed, an object kept, anything else (null, '') empty. */
export function parseData<T = Record<string, unknown>>(value: unknown): T {
  if (typeof value === 'string') {
    if (value === '') return {} as T;
    try {
      return JSON.parse(value) as T;
    } catch (err) {
      throw new QuireError({ code: 'INVALID_RESPONSE', status: 200, message: 'An item’s data is not valid JSON', cause: err });
    }
  }
  if (value !== null && typeof value === 'object') return value as T;
  return {} as T;
}

/** A record with its `data` parsed. */
export function withData<R extends { data?: unknown }, D>(record: R): Omit<R, 'data'> & { data: D } {
  return { ...record, data: parseData<D>(record.data) };
}

/** A management entry (or preview entry): `data` and each translation's `data` parsed. */
export function parseEntry<R extends { data: unknown; translations: { data: unknown }[] }>(record: R) {
  return { ...record, data: parseData(record.data), translations: record.translations.map((t) => withData(t)) };
}

interface WireBlock {
  data: unknown;
  children?: WireBlock[];
}

/** A block tree with every block's `data` parsed, children included. */
export function parseBlocks<B extends WireBlock>(blocks: readonly B[]): unknown[] {
  return blocks.map((b) => ({ ...b, data: parseData(b.data), children: parseBlocks(b.children ?? []) }));
}
