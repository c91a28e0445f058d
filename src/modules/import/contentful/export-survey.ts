/**
 * The survey of a Contentful export file (issue 12 item 4): one read of the file, in chunks of a
 * megabyte, that keeps the locales and content types, checks the values of other keys
 * (editorInterfaces, tags, webhooks, roles …), and of each entry and asset keeps only its id,
 * its content type id and the byte range it occupies in the file (an ItemIndex), from which
 * export-source.ts reads it back when a later step needs it.
 *
 * Two walks build the same Survey. The quick scan follows only the top-level structure (the
 * object, its keys, the items of its arrays), each value parsed from its own bytes with
 * JSON.parse. A file that breaks JSON's grammar is refused there; a file that is JSON but not
 * shaped as an export is walked again by a streaming JSON tokenizer (@streamparser/json), which
 * reports it with the rules of parseExport (export.ts): one 400 VALIDATION_FAILED, at most 20
 * details `file.<path>`, before anything is written.
 */
import fs from 'node:fs';
import { Tokenizer, TokenType, type ParsedTokenInfo } from '@streamparser/json';
import { AppError, invalid, validationError, type ErrorDetail } from '../../../errors.js';
import { checkExportItem, EXPORT_LISTS, type CfContentType, type CfLocale, type ExportList } from './export.js';

/** Byte ranges and ids of one list's items, in file order. */
export class ItemIndex {
  readonly ids: string[] = [];
  readonly types: string[] = [];
  readonly start: number[] = [];
  readonly end: number[] = [];
}

/** Progress of the streaming read: bytes read of the file's size. */
export type ReadProgress = (done: number, total: number) => void;

/** Bytes read from the file at a time. */
const READ_CHUNK = 1 << 20;

/** Throws the 400 for a file that is missing or cannot be read. */
export function cannotRead(file: string, err: unknown): never {
  const code = (err as NodeJS.ErrnoException).code;
  throw invalid('file', code === 'ENOENT' ? `'${file}' does not exist` : `'${file}' cannot be read (${code ?? 'error'})`);
}

/** What the importer keeps of a surveyed file: the small lists, and an index of the large ones. */
export interface Survey {
  locales: CfLocale[];
  contentTypes: CfContentType[];
  entries: ItemIndex;
  assets: ItemIndex;
}

const LISTS = new Set<string>(EXPORT_LISTS);

/**
 * What a survey builds, whichever way it walks the file: the kept locales and content types,
 * the index of entries and assets, and the problems of each list (in parseExport's order).
 */
class SurveyRecorder {
  readonly errors = new Map<ExportList, ErrorDetail[]>(EXPORT_LISTS.map((k) => [k, []]));
  readonly seen = new Set<string>();
  out: Survey = { locales: [], contentTypes: [], entries: new ItemIndex(), assets: new ItemIndex() };
  private readonly intern = new Map<string, string>();

  add(name: ExportList, detail: ErrorDetail): void {
    const bucket = this.errors.get(name)!;
    if (bucket.length < 20) bucket.push(detail);
  }

  /** List `name` starts again (a repeated key replaces the earlier list, as JSON.parse does). */
  restart(name: ExportList): void {
    this.errors.set(name, []);
    if (name === 'locales') this.out.locales = [];
    else if (name === 'contentTypes') this.out.contentTypes = [];
    else if (name === 'entries') this.out.entries = new ItemIndex();
    else this.out.assets = new ItemIndex();
  }

  /** Object item `index` of `name`, the JSON `text` of bytes [start, end): checked and recorded. */
  record(name: ExportList, index: number, text: string, start: number, end: number): void {
    const value = JSON.parse(text) as Record<string, unknown>;
    const path = `file.${name}.${index}`;
    const problems: ErrorDetail[] = [];
    checkExportItem(name, value, path, problems);
    for (const p of problems) this.add(name, p);
    if (problems.length) return;
    const out = this.out;
    if (name === 'locales') out.locales.push(value as unknown as CfLocale);
    else if (name === 'contentTypes') out.contentTypes.push(value as unknown as CfContentType);
    else {
      const target = name === 'entries' ? out.entries : out.assets;
      const sys = value.sys as Record<string, unknown>;
      target.ids.push(sys.id as string);
      if (name === 'entries') {
        const type = ((sys.contentType as Record<string, unknown>).sys as Record<string, unknown>).id as string;
        target.types.push(this.intern.get(type) ?? (this.intern.set(type, type), type));
      }
      target.start.push(start);
      target.end.push(end);
    }
  }

  /** The survey, or the 400 listing its problems (at most 20). */
  finish(): Survey {
    const all = EXPORT_LISTS.flatMap((k) => this.errors.get(k)!);
    if (this.out.locales.length === 0 && this.errors.get('locales')!.length === 0) all.push({ path: 'file.locales', message: 'must list at least one locale' });
    if (all.length) throw validationError(all.slice(0, 20));
    return this.out;
  }
}

/** Reads the file in chunks of READ_CHUNK bytes, handing each to `take` with its offset (until it answers false); reports progress. */
async function readChunks(
  fd: number,
  file: string,
  size: number,
  onProgress: ReadProgress | undefined,
  take: (bytes: Buffer, at: number) => boolean,
): Promise<void> {
  let position = 0;
  for (;;) {
    // A fresh buffer per chunk: an item spanning chunks keeps the earlier ones until it closes.
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    let n: number;
    try {
      n = fs.readSync(fd, chunk, 0, READ_CHUNK, position);
    } catch (err) {
      cannotRead(file, err);
    }
    if (n === 0 || !take(n === READ_CHUNK ? chunk : chunk.subarray(0, n), position)) return;
    position += n;
    onProgress?.(position, size);
    // Let timers (the progress bar) run between chunks.
    if ((position / READ_CHUNK) % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The chunks read since offset `from`, to cut an item's bytes from. */
class HeldBytes {
  private chunks: { start: number; bytes: Buffer }[] = [];

  /** Adds a chunk, dropping those that end before `keepFrom` (-1: keep none but this one). */
  push(bytes: Buffer, at: number, keepFrom: number): void {
    this.chunks = keepFrom >= 0 ? this.chunks.filter((c) => c.start + c.bytes.length > keepFrom) : [];
    this.chunks.push({ start: at, bytes });
  }

  /** The UTF-8 text of bytes [start, end). */
  text(start: number, end: number): string {
    const parts = this.chunks.filter((c) => c.start < end && c.start + c.bytes.length > start);
    const slices = parts.map((c) => c.bytes.subarray(Math.max(0, start - c.start), Math.min(c.bytes.length, end - c.start)));
    return (slices.length === 1 ? slices[0] : Buffer.concat(slices)).toString('utf8');
  }
}

/**
 * Surveys the file (see openExportFile): a well-formed export takes the quick scan; anything it
 * does not expect (malformed JSON, a list that is no array, an item that is no object, a list
 * given twice, a file that is no object) is walked again by the tokenizer, which reports it as
 * it always did.
 */
export async function survey(fd: number, file: string, size: number, onProgress?: ReadProgress): Promise<Survey> {
  const quick = await scanSurvey(fd, file, size, onProgress);
  // The tokenizer checks tokens, not the grammar between them (it takes `[1,]`): what the quick
  // scan found not to be JSON is refused here.
  if (quick === 'not-json') throw notValidJson(file);
  return quick ? quick.finish() : (await tokenSurvey(fd, file, size, onProgress)).finish();
}

const notValidJson = (file: string) => invalid('file', `'${file}' is not valid JSON`);

const enum Byte {
  Tab = 0x09,
  Newline = 0x0a,
  Return = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Comma = 0x2c,
  Colon = 0x3a,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}

const isSpace = (b: number) => b === Byte.Space || b === Byte.Newline || b === Byte.Return || b === Byte.Tab;

/**
 * The quick survey: one pass over the bytes that follows only the top-level structure (the
 * object, its keys, the items of its arrays), finding where each value ends by its brackets
 * and strings (a multi-byte UTF-8 character holds no ASCII byte), and parsing each value from
 * its own bytes (JSON.parse), which checks its syntax: items of the importer's lists are
 * recorded, the values of other keys only checked. `'not-json'` when the bytes break JSON's
 * grammar after the opening brace (a trailing comma, a missing colon, a file cut short, bytes
 * after the object); null when the file is otherwise not an object whose importer's lists are
 * arrays of objects, given once (the tokenizer then says what is wrong with it).
 */
async function scanSurvey(fd: number, file: string, size: number, onProgress?: ReadProgress): Promise<SurveyRecorder | 'not-json' | null> {
  const rec = new SurveyRecorder();
  const held = new HeldBytes();
  // Where the walk is: before the object, at a key, before its colon, before its value, after
  // it, inside an array value (before an item, before an item or its end, after an item), done.
  type Mode = 'start' | 'firstKey' | 'key' | 'colon' | 'value' | 'afterValue' | 'firstItem' | 'item' | 'afterItem' | 'end';
  let mode = 'start' as Mode;
  let failed = false;
  // Set with `failed` when what failed is the JSON itself, not the shape of an export.
  let notJson = false;
  const malformed = () => {
    failed = true;
    notJson = true;
  };
  let key = '';
  // The list being read (null: another key's array); its item count.
  let list: ExportList | null = null;
  let item = -1;
  // The value being scanned: its first byte's offset (-1: none), its kind and nesting, strings.
  let valueStart = -1;
  let kind = 'nested' as 'nested' | 'string' | 'bare' | 'key';
  let depth = 0;
  let inString = false;
  let escaped = false;

  /** The value [valueStart, end) is complete: parsed and, in one of the importer's lists, recorded. */
  const ended = (end: number): boolean => {
    const text = held.text(valueStart, end);
    const start = valueStart;
    valueStart = -1;
    try {
      if (kind === 'key') {
        key = JSON.parse(text) as string;
        mode = 'colon';
      } else if (mode === 'value') {
        JSON.parse(text);
        mode = 'afterValue';
      } else {
        item += 1;
        if (list === null) JSON.parse(text);
        else if (kind === 'nested' && text.charCodeAt(0) === Byte.OpenBrace) rec.record(list, item, text, start, end);
        else return false;
        mode = 'afterItem';
      }
    } catch {
      notJson = true;
      return false;
    }
    return true;
  };

  /**
   * Scans `bytes` (at file offset `at`) from index `i` inside the open value: the index after
   * its last byte once it ends (-2: it ended malformed), -1 when the chunk ends first.
   */
  const scanValue = (bytes: Buffer, at: number, i: number): number => {
    const n = bytes.length;
    for (; i < n; i++) {
      const b = bytes[i];
      if (kind === 'bare') {
        if (b === Byte.Comma || b === Byte.CloseBracket || b === Byte.CloseBrace || isSpace(b)) return ended(at + i) ? i : -2;
      } else if (inString) {
        if (escaped) escaped = false;
        else if (b === Byte.Backslash) escaped = true;
        else if (b === Byte.Quote) {
          inString = false;
          if (kind !== 'nested') return ended(at + i + 1) ? i + 1 : -2;
        }
      } else if (b === Byte.Quote) inString = true;
      else if (b === Byte.OpenBrace || b === Byte.OpenBracket) depth++;
      else if ((b === Byte.CloseBrace || b === Byte.CloseBracket) && --depth === 0) return ended(at + i + 1) ? i + 1 : -2;
    }
    return -1;
  };

  /** A value (or key) starts at byte `b` of offset `offset`. */
  const begin = (b: number, offset: number, asKey: boolean) => {
    valueStart = offset;
    inString = false;
    escaped = false;
    depth = 0;
    if (asKey) {
      kind = 'key';
      inString = true;
    } else if (b === Byte.OpenBrace || b === Byte.OpenBracket) {
      kind = 'nested';
      depth = 1;
    } else if (b === Byte.Quote) {
      kind = 'string';
      inString = true;
    } else kind = 'bare';
  };

  /** Walks one chunk; false once the file is known not to be what the quick scan reads. */
  const take = (bytes: Buffer, at: number): boolean => {
    walk(bytes, at);
    return !failed;
  };
  const walk = (bytes: Buffer, at: number) => {
    held.push(bytes, at, valueStart);
    let i = 0;
    const n = bytes.length;
    while (i < n) {
      if (valueStart >= 0) {
        const next = scanValue(bytes, at, i);
        if (next === -2) {
          failed = true;
          return;
        }
        if (next === -1) return;
        i = next;
        continue;
      }
      const b = bytes[i];
      if (isSpace(b)) {
        i++;
        continue;
      }
      switch (mode) {
        case 'start':
          if (b !== Byte.OpenBrace) failed = true;
          mode = 'firstKey';
          break;
        case 'firstKey':
        case 'key':
          if (b === Byte.CloseBrace && mode === 'firstKey') mode = 'end';
          else if (b === Byte.Quote) begin(b, at + i, true);
          else malformed();
          break;
        case 'colon':
          if (b === Byte.Colon) mode = 'value';
          else malformed();
          break;
        case 'value':
          if (b === Byte.OpenBracket) {
            list = LISTS.has(key) ? (key as ExportList) : null;
            if (list !== null && rec.seen.has(list)) failed = true;
            if (list !== null) rec.seen.add(list);
            item = -1;
            mode = 'firstItem';
          } else if (LISTS.has(key)) failed = true;
          else begin(b, at + i, false);
          break;
        case 'afterValue':
        case 'afterItem': {
          // A comma goes on to the next key or item; the object's or array's bracket closes it.
          const [next, close, closed] =
            mode === 'afterValue' ? (['key', Byte.CloseBrace, 'end'] as const) : (['item', Byte.CloseBracket, 'afterValue'] as const);
          if (b === Byte.Comma) mode = next;
          else if (b === close) mode = closed;
          else malformed();
          break;
        }
        case 'firstItem':
        case 'item':
          if (b === Byte.CloseBracket && mode === 'firstItem') mode = 'afterValue';
          else if (b === Byte.CloseBracket || b === Byte.Comma || b === Byte.CloseBrace || b === Byte.Colon) malformed();
          else begin(b, at + i, false);
          break;
        case 'end':
          malformed();
          break;
      }
      if (failed) return;
      // A value that began here is scanned from its next byte.
      i++;
    }
  };

  await readChunks(fd, file, size, onProgress, take);
  if (failed) return notJson ? 'not-json' : null;
  // Ended before its object did (an empty file is left to the tokenizer's message, the same).
  if (mode !== 'end' || valueStart >= 0) return mode === 'start' ? null : 'not-json';
  return rec;
}

/**
 * The survey by the streaming tokenizer (@streamparser/json), which checks the JSON and gives
 * each token's byte offset; an item of a top-level list is then parsed from its own bytes
 * (JSON.parse of a few kilobytes, much faster than assembling it token by token), and items of
 * lists the importer does not read are not parsed at all. It reports every malformed file the
 * way parseExport does.
 */
async function tokenSurvey(fd: number, file: string, size: number, onProgress?: ReadProgress): Promise<SurveyRecorder> {
  const tokenizer = new Tokenizer();
  const rec = new SurveyRecorder();
  const held = new HeldBytes();

  // Token bookkeeping: depth 1 is inside the top-level object, 2 inside one of its values.
  let depth = 0;
  let first = true;
  let ended = false;
  let expectKey = false;
  let key: string | null = null;
  // The list whose array is being read (null: another key, or a value that is no array).
  let list: ExportList | null = null;
  let inList = false;
  let item = -1;
  let itemStart = -1;

  tokenizer.onToken = (t: ParsedTokenInfo) => {
    if (ended) throw new Error('data after the end of the document');
    if (first) {
      first = false;
      if (t.token !== TokenType.LEFT_BRACE) throw invalid('file', 'must be a JSON object (a Contentful space export)');
    }
    const opens = t.token === TokenType.LEFT_BRACE || t.token === TokenType.LEFT_BRACKET;
    const closes = t.token === TokenType.RIGHT_BRACE || t.token === TokenType.RIGHT_BRACKET;
    if (depth === 1) {
      if (expectKey && t.token === TokenType.STRING) {
        key = t.value as string;
        expectKey = false;
      } else if (t.token === TokenType.COMMA) expectKey = true;
      else if (t.token !== TokenType.COLON && !closes && key !== null) {
        // The value of `key` starts here; a repeated list key replaces the earlier list (as JSON.parse does).
        list = null;
        inList = false;
        if (LISTS.has(key)) {
          list = key as ExportList;
          if (rec.seen.has(list)) rec.restart(list);
          rec.seen.add(list);
          if (t.token === TokenType.LEFT_BRACKET) inList = true;
          else rec.add(list, { path: `file.${list}`, message: 'must be an array' });
          item = -1;
        }
        key = null;
      }
    } else if (depth === 2 && list !== null && inList && !closes && t.token !== TokenType.COMMA) {
      // An item of a list the importer reads starts: an object is parsed when it closes.
      item += 1;
      if (opens) itemStart = t.offset;
      else rec.add(list, { path: `file.${list}.${item}`, message: 'must be an object' });
    }
    if (opens) depth++;
    if (closes) {
      depth--;
      if (depth === 2 && list !== null && inList && itemStart >= 0) {
        if (t.token === TokenType.RIGHT_BRACE) rec.record(list, item, held.text(itemStart, t.offset + 1), itemStart, t.offset + 1);
        else rec.add(list, { path: `file.${list}.${item}`, message: 'must be an object' });
        itemStart = -1;
      }
      if (depth === 0) ended = true;
    }
    if (depth === 1 && t.token === TokenType.LEFT_BRACE) expectKey = true;
  };

  const notJson = () => notValidJson(file);
  try {
    await readChunks(fd, file, size, onProgress, (bytes, at) => {
      held.push(bytes, at, itemStart);
      tokenizer.write(bytes);
      return true;
    });
    if (first) throw notJson();
    tokenizer.end();
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw notJson();
  }
  if (!ended) throw notJson();
  return rec;
}
