/**
 * Where the importer reads a Contentful export from, with memory that does not grow with the
 * file (issue 12 item 4): an ExportSource gives the small parts (locales, content types) as
 * values, and entries and assets one at a time, in file order or by position.
 *
 * A file is read once, following only its top-level structure (the object, its keys, the items
 * of its arrays), each value parsed from its own bytes: the locales and content types are kept,
 * the values of other keys (editorInterfaces, tags, webhooks, roles …) only checked, and of each
 * entry and asset only its id, its content type id and the byte range it occupies in the file are
 * kept. A file that is not a well-formed object is read again by a streaming JSON tokenizer
 * (@streamparser/json), which says what is wrong with it. Later
 * steps read an entry again from its byte range (one `pread` and JSON.parse of a few kilobytes),
 * so the planning, writing and page steps can visit entries in any order (links point forward and
 * backward) without the file in memory.
 * The file must not change during the import.
 *
 * The shape is checked while streaming, with the rules of parseExport (export.ts): a wrong or
 * truncated file answers one 400 VALIDATION_FAILED before anything is written.
 *
 * An export already in memory (tests, callers of importContentful with `export`) is wrapped by
 * memorySource and takes the same code path.
 */
import fs from 'node:fs';
import { Tokenizer, TokenType, type ParsedTokenInfo } from '@streamparser/json';
import { AppError, invalid, validationError, type ErrorDetail } from '../../../errors.js';
import type { EntryCatalog } from './page-mapping.js';
import {
  checkExportItem,
  EXPORT_LISTS,
  type CfAsset,
  type CfContentType,
  type CfEntry,
  type CfLocale,
  type ContentfulExport,
  type ExportList,
} from './export.js';

/** An export to import: its small parts in memory, entries and assets read on demand. */
export interface ExportSource {
  readonly locales: CfLocale[];
  readonly contentTypes: CfContentType[];
  readonly entryCount: number;
  readonly assetCount: number;
  /** Contentful id of entry `i` (0-based, file order). */
  entryId(i: number): string;
  /** Contentful content type id of entry `i`. */
  entryTypeId(i: number): string;
  /** Entry `i` (its `fields` defaulting to `{}`). */
  entry(i: number): CfEntry;
  /** Entries in file order, those for which `want(i)` holds (default all), with their positions. */
  entries(want?: (i: number) => boolean): Iterable<[number, CfEntry]>;
  /** Contentful id of asset `i`. */
  assetId(i: number): string;
  asset(i: number): CfAsset;
  /** Assets in file order, with their positions. */
  assets(): Iterable<[number, CfAsset]>;
  /** Releases the file (a no-op for memory sources). */
  close(): void;
}

const withFields = <T extends { fields?: unknown }>(x: T): T & { fields: NonNullable<T['fields']> | Record<string, never> } => ({
  ...x,
  fields: x.fields ?? {},
});

/** An ExportSource over an export held in memory. */
export function memorySource(exp: ContentfulExport): ExportSource {
  return {
    locales: exp.locales,
    contentTypes: exp.contentTypes,
    entryCount: exp.entries.length,
    assetCount: exp.assets.length,
    entryId: (i) => exp.entries[i].sys.id,
    entryTypeId: (i) => exp.entries[i].sys.contentType.sys.id,
    entry: (i) => withFields(exp.entries[i]),
    *entries(want) {
      for (let i = 0; i < exp.entries.length; i++) if (!want || want(i)) yield [i, withFields(exp.entries[i])];
    },
    assetId: (i) => exp.assets[i].sys.id,
    asset: (i) => withFields(exp.assets[i]),
    *assets() {
      for (let i = 0; i < exp.assets.length; i++) yield [i, withFields(exp.assets[i])];
    },
    close: () => {},
  };
}

/** Byte ranges and ids of one list's items, in file order. */
class ItemIndex {
  readonly ids: string[] = [];
  readonly types: string[] = [];
  readonly start: number[] = [];
  readonly end: number[] = [];
}

/** Progress of the streaming read: bytes read of the file's size. */
export type ReadProgress = (done: number, total: number) => void;

const READ_CHUNK = 1 << 20;
/** Largest span read at once when entries are visited in file order. */
const BLOCK = 8 << 20;

/** The ExportSource of a surveyed file: items are read back from their byte ranges. */
class FileSource implements ExportSource {
  private buffer: Buffer = Buffer.alloc(1 << 16);
  constructor(
    private readonly fd: number,
    readonly locales: CfLocale[],
    readonly contentTypes: CfContentType[],
    private readonly entryIndex: ItemIndex,
    private readonly assetIndex: ItemIndex,
  ) {}

  get entryCount() {
    return this.entryIndex.ids.length;
  }
  get assetCount() {
    return this.assetIndex.ids.length;
  }
  entryId(i: number) {
    return this.entryIndex.ids[i];
  }
  entryTypeId(i: number) {
    return this.entryIndex.types[i];
  }
  assetId(i: number) {
    return this.assetIndex.ids[i];
  }

  /** Reads bytes [start, end) of the file into `into` (grown when too small); returns the buffer holding them. */
  private bytes(start: number, end: number, into: Buffer): Buffer {
    const length = end - start;
    const buffer = into.length < length ? Buffer.alloc(Math.max(length, into.length * 2)) : into;
    let done = 0;
    while (done < length) {
      const n = fs.readSync(this.fd, buffer, done, length - done, start + done);
      if (n === 0) throw new Error('the export file became shorter during the import');
      done += n;
    }
    return buffer;
  }

  /** The text of bytes [start, end) of the file. */
  private read(start: number, end: number): string {
    this.buffer = this.bytes(start, end, this.buffer);
    return this.buffer.toString('utf8', 0, end - start);
  }

  private item<T extends { fields?: unknown }>(index: ItemIndex, i: number): T {
    return withFields(JSON.parse(this.read(index.start[i], index.end[i])) as T);
  }

  entry(i: number): CfEntry {
    return this.item<CfEntry>(this.entryIndex, i);
  }
  asset(i: number): CfAsset {
    return this.item<CfAsset>(this.assetIndex, i);
  }

  /** Items in file order, reading spans of up to BLOCK bytes at once. */
  private *inOrder<T extends { fields?: unknown }>(index: ItemIndex, want?: (i: number) => boolean): Iterable<[number, T]> {
    const count = index.ids.length;
    let block: Buffer = Buffer.alloc(0);
    let i = 0;
    while (i < count) {
      if (want && !want(i)) {
        i++;
        continue;
      }
      // One read for the wanted items that follow within BLOCK bytes.
      const first = i;
      let last = i;
      while (last + 1 < count && index.end[last + 1] - index.start[first] <= BLOCK) last++;
      // Each walk has its own buffer: random reads (entry, asset) between its items reuse another.
      block = this.bytes(index.start[first], index.end[last], block);
      const text = block;
      for (let k = first; k <= last; k++) {
        if (want && !want(k)) continue;
        const value = JSON.parse(text.toString('utf8', index.start[k] - index.start[first], index.end[k] - index.start[first])) as T;
        yield [k, withFields(value)];
      }
      i = last + 1;
    }
  }

  entries(want?: (i: number) => boolean): Iterable<[number, CfEntry]> {
    return this.inOrder<CfEntry>(this.entryIndex, want);
  }
  assets(): Iterable<[number, CfAsset]> {
    return this.inOrder<CfAsset>(this.assetIndex);
  }
  close() {
    fs.closeSync(this.fd);
  }
}

function cannotRead(file: string, err: unknown): never {
  const code = (err as NodeJS.ErrnoException).code;
  throw invalid('file', code === 'ENOENT' ? `'${file}' does not exist` : `'${file}' cannot be read (${code ?? 'error'})`);
}

/**
 * Opens an export file: streams it once (see the module comment), checks its shape and returns
 * a source reading entries and assets back from the file. Throws 400 VALIDATION_FAILED for a
 * missing, unreadable or non-JSON file and for a malformed export (details `file.<path>`, at
 * most 20, in the order parseExport gives them).
 */
export async function openExportFile(file: string, onProgress?: ReadProgress): Promise<ExportSource> {
  let fd: number;
  let size: number;
  try {
    fd = fs.openSync(file, 'r');
    size = fs.fstatSync(fd).size;
  } catch (err) {
    cannotRead(file, err);
  }
  try {
    const surveyed = await survey(fd, file, size, onProgress);
    return new FileSource(fd, surveyed.locales, surveyed.contentTypes, surveyed.entries, surveyed.assets);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
}

interface Survey {
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
async function survey(fd: number, file: string, size: number, onProgress?: ReadProgress): Promise<Survey> {
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

/** Reads a whole export into memory (small files: tests, tools); the importer uses openExportFile. */
export async function readExportFile(file: string): Promise<ContentfulExport> {
  const source = await openExportFile(file);
  try {
    return {
      locales: source.locales,
      contentTypes: source.contentTypes,
      entries: [...source.entries()].map(([, e]) => e),
      assets: [...source.assets()].map(([, a]) => a),
    };
  } finally {
    source.close();
  }
}

/** An EntryCatalog (page-mapping.ts) over a source, plus the position of an entry by Contentful id. */
export function entryCatalog(source: ExportSource): EntryCatalog & { indexOf(cfId: string): number | undefined } {
  // The last entry of an id wins, as when an export is read into a map.
  const last = new Map<string, number>();
  for (let i = 0; i < source.entryCount; i++) last.set(source.entryId(i), i);
  return {
    contentTypes: source.contentTypes,
    count: source.entryCount,
    idAt: (i) => source.entryId(i),
    typeAt: (i) => source.entryTypeId(i),
    indexOf: (cfId) => last.get(cfId),
    typeOf: (cfId) => {
      const i = last.get(cfId);
      return i === undefined ? undefined : source.entryTypeId(i);
    },
    get: (cfId) => {
      const i = last.get(cfId);
      return i === undefined ? undefined : source.entry(i);
    },
    ofType: (typeId) => ({
      *[Symbol.iterator]() {
        for (const [, e] of source.entries((i) => source.entryTypeId(i) === typeId)) yield e;
      },
    }),
  };
}
