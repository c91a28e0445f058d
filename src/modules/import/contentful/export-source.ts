/**
 * Where the importer reads a Contentful export from, with memory that does not grow with the
 * file (issue 12 item 4): an ExportSource gives the small parts (locales, content types) as
 * values, and entries and assets one at a time, in file order or by position.
 *
 * A file is read once by a survey (export-survey.ts): the locales and content types are kept,
 * and of each entry and asset only its id, its content type id and the byte range it occupies
 * in the file. Later steps read an entry again from its byte range (one `pread` and JSON.parse
 * of a few kilobytes), so the planning, writing and page steps can visit entries in any order
 * (links point forward and backward) without the file in memory. The file must not change during
 * the import.
 *
 * The shape is checked while streaming, with the rules of parseExport (export.ts): a wrong or
 * truncated file answers one 400 VALIDATION_FAILED before anything is written.
 *
 * An export already in memory (tests, callers of importContentful with `export`) is wrapped by
 * memorySource and takes the same code path.
 */
import fs from 'node:fs';
import type { EntryCatalog } from './page-mapping.js';
import type { CfAsset, CfContentType, CfEntry, CfLocale, ContentfulExport } from './export.js';
import { cannotRead, survey, type ItemIndex, type ReadProgress } from './export-survey.js';

export type { ReadProgress } from './export-survey.js';

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
