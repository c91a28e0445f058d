/**
 * The Contentful importer on exports read as a stream (issue 12 item 4):
 *
 * - a generated export of about 30 MB imported by the CLI in a child process whose heap is capped
 *   at 64 MB, where parsing the whole file (JSON.parse) aborts; then imported again, changing
 *   nothing;
 * - batch boundaries: links to entries in later batches, a link cycle across batches, with one
 *   entry per batch, from a file and from memory alike, webhook deliveries of the bulk writes'
 *   events, and a second run that changes nothing;
 * - link cycles: the entry created without its link to a later target is written once with its
 *   completion (versions, events and translation records as the second pass leaves them) when
 *   that target is sure to be created, and left to the second pass otherwise, which reports it
 *   when the target fails;
 * - the streaming reader: an export with multi-byte characters reads back equal to JSON.parse,
 *   and malformed files answer the errors of the in-memory checks.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { Tokenizer } from '@streamparser/json';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { syntheticEntries, writeSyntheticExport } from '../bench/contentful-export.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/db/create-db.js';
import { AppError } from '../src/errors.js';
import { derivedId } from '../src/lib/ids.js';
import { fromJsonColumn } from '../src/lib/json.js';
import { parseExport, type ContentfulExport } from '../src/modules/import/contentful/export.js';
import { readExportFile } from '../src/modules/import/contentful/export-source.js';
import { cfState } from '../src/modules/import/contentful/states.js';
import { importContentful, type ProgressEvent } from '../src/modules/import/operations.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createWebhook } from '../src/modules/webhooks/operations.js';
import { cappedNode, externalEnv } from './cli-helpers.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HEAP_MB = 64;
const LARGE = 16_000;

let dir: string;
let large: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-stream-'));
  large = path.join(dir, 'large.json');
  await writeSyntheticExport(large, LARGE);
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs node with a heap of HEAP_MB and `args`; resolves with the exit code and output. */
const capped = (args: string[], env: Record<string, string> = {}) => cappedNode(HEAP_MB, args, env);

describe('a whole-file parse of the large export', () => {
  it(`does not fit a heap of ${HEAP_MB} MB (so the import below must stream)`, async () => {
    expect(fs.statSync(large).size).toBeGreaterThan(25_000_000);
    const parse = await capped(['-e', `JSON.parse(require('fs').readFileSync(${JSON.stringify(large)}, 'utf8'))`]);
    expect(parse.code).not.toBe(0);
  }, 120_000);
});

describe.each(dialects())('streamed Contentful import on %s', (dialect) => {
  let external: Awaited<ReturnType<typeof externalEnv>>;
  beforeAll(async () => {
    external = await externalEnv(dialect);
  }, 120_000);
  afterAll(async () => external?.cleanup());

  const quire = (args: string[]) => capped(['--import', 'tsx', path.join(ROOT, 'test', 'import-child.mjs'), ...args], external.env);

  /** Counts that any write would change: versions, events, and the newest write time. */
  async function writes() {
    const db = await createDb(loadConfig(external.env));
    try {
      const k = db.kysely;
      const [v] = await k
        .selectFrom('entry_versions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .execute();
      const [ev] = await k
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .execute();
      const [e] = await k
        .selectFrom('entries')
        .select((eb) => eb.fn.max('updated_at').as('last'))
        .execute();
      const byStatus = await k
        .selectFrom('entries')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      return { versions: Number(v.n), events: Number(ev.n), last: e.last, byStatus: Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)])) };
    } finally {
      await db.close();
    }
  }

  it(`imports ${LARGE} entries from a 30 MB file with a ${HEAP_MB} MB heap, and a second run changes nothing`, async () => {
    const states = { draft: 0, published: 0, changed: 0, archived: 0 };
    for (const e of syntheticEntries(LARGE)) states[cfState(e.sys)] += 1;

    const first = await quire(['import', 'contentful', large, '--workspace', 'big', '--json']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const report = JSON.parse(first.stdout);
    expect(report.failures).toEqual([]);
    expect(report.entries).toMatchObject({ total: LARGE, created: LARGE, failed: 0, published: states.published + states.changed, archived: states.archived });
    expect(report.entries.states).toEqual(states);
    const after = await writes();
    expect(after.byStatus).toEqual({ published: states.published + states.changed, draft: states.draft, archived: states.archived });

    const again = await quire(['import', 'contentful', large, '--workspace', 'big', '--json']);
    expect(again.code).toBe(0);
    const second = JSON.parse(again.stdout);
    expect(second.entries).toMatchObject({ total: LARGE, created: 0, updated: 0, unchanged: LARGE, published: 0, unpublished: 0, archived: 0, failed: 0 });
    expect(second.assets).toMatchObject({ created: 0, updated: 0 });
    expect(await writes()).toEqual(after);
  }, 600_000);
});

// Batch boundaries: with one entry per batch, every link points into another batch.
const link = (id: string) => ({ sys: { type: 'Link', linkType: 'Entry', id } });
const published = (id: string) => ({ id, contentType: { sys: { id: 'note' } }, version: 4, publishedVersion: 3 });
const note = (id: string, title: string, next: string[], code?: string) => ({
  sys: published(id),
  fields: { title: { 'en-US': title, 'de-DE': `${title} (de)` }, next: { 'en-US': next.map(link) }, ...(code ? { code: { 'en-US': code } } : {}) },
});

// first → last (far ahead), last → nothing; ring1 → ring2 → ring3 → ring1 (a cycle across batches).
const LINKED = [
  note('first', 'First', ['last']),
  note('ring1', 'Ring one', ['ring2']),
  note('middle', 'Middle', ['first', 'last']),
  note('ring2', 'Ring two', ['ring3']),
  note('ring3', 'Ring three', ['ring1']),
  note('last', 'Last ünïcödé ✓', []),
];

function linkedExport(entries = LINKED): ContentfulExport {
  return {
    locales: [{ code: 'en-US', default: true }, { code: 'de-DE' }],
    contentTypes: [
      {
        sys: { id: 'note' },
        name: 'Note',
        displayField: 'title',
        fields: [
          { id: 'title', name: 'Title', type: 'Symbol', localized: true, required: true },
          { id: 'next', name: 'Next', type: 'Array', items: { type: 'Link', linkType: 'Entry', validations: [{ linkContentType: ['note'] }] } },
          { id: 'code', name: 'Code', type: 'Symbol', validations: [{ unique: true }] },
        ],
      },
    ],
    entries: [...entries],
    assets: [],
  } as ContentfulExport;
}

describe.each(dialects())('batch boundaries on %s', (dialect) => {
  let env: TestEnv;
  let file: string;
  beforeAll(async () => {
    // The webhook below points at this machine, which a test may allow.
    env = await createTestEnv(dialect, { config: { webhookAllowPrivate: true } });
    file = path.join(dir, `linked-${dialect}.json`);
    fs.writeFileSync(file, JSON.stringify(linkedExport(), null, 2));
  });
  afterAll(async () => env?.close());

  /** Entries by Contentful id: status, data, translations and version history. */
  async function stored(workspace: string) {
    const k = env.ctx.db.kysely;
    const ws = await k.selectFrom('workspaces').select('id').where('slug', '=', workspace).executeTakeFirstOrThrow();
    const out: Record<string, unknown> = {};
    const cfIds = ['first', 'ring1', 'middle', 'ring2', 'ring3', 'last'];
    // Links as Contentful ids, so that two workspaces compare.
    const quireIds = new Map(cfIds.map((cf) => [derivedId(ws.id, `entry:${cf}`), `entry:${cf}`]));
    const names = (v: unknown): unknown => JSON.parse((typeof v === 'string' ? v : JSON.stringify(v)).replace(/[0-9a-f-]{36}/g, (m) => quireIds.get(m) ?? m));
    for (const cf of cfIds) {
      const id = derivedId(ws.id, `entry:${cf}`);
      const e = await k
        .selectFrom('entries')
        .select(['status', 'data', 'published_data', 'version', 'latest_version', 'published_version'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const versions = await k.selectFrom('entry_versions').select(['version', 'action', 'status']).where('entry_id', '=', id).orderBy('version').execute();
      const tr = await k.selectFrom('entry_translations').select(['locale', 'data']).where('entry_id', '=', id).execute();
      const events = await k.selectFrom('events').select(['type', 'version']).where('item_id', '=', id).orderBy('id').execute();
      out[cf] = {
        status: e.status,
        data: names(e.data),
        published: names(e.published_data),
        version: Number(e.version),
        latest: Number(e.latest_version),
        published_version: Number(e.published_version),
        versions: versions.map((v) => [Number(v.version), v.action, v.status]),
        translations: tr.map((t) => [t.locale, names(t.data)]),
        events: events.map((v) => [v.type, Number(v.version)]),
      };
    }
    return out;
  }

  it('writes links into later batches and completes a cycle across batches, from a file as from memory', async () => {
    const fromFile = await importContentful(env.ctx, { workspace: 'file', file, batchSize: 1 });
    const fromMemory = await importContentful(env.ctx, { workspace: 'memory', export: linkedExport(), batchSize: 1 });
    for (const r of [fromFile, fromMemory]) {
      expect(r.failures).toEqual([]);
      expect(r.entries).toMatchObject({ total: 6, created: 6, published: 6, failed: 0 });
    }
    const a = await stored('file');
    const b = await stored('memory');
    expect(a).toEqual(b);
    const id = (cf: string) => `entry:${cf}`;
    const entries = a as Record<string, { data: { next: string[]; title: string }; status: string; versions: unknown[]; events: unknown[] }>;
    expect(entries.first.data.next).toEqual([id('last')]);
    expect(entries.middle.data.next).toEqual([id('first'), id('last')]);
    expect(entries.last.data.title).toBe('Last ünïcödé ✓');
    for (const e of Object.values(entries)) expect(e.status).toBe('published');
    // The cycle is cut at one entry: created without its link, completed in pass 2, then published.
    const cut = Object.entries(entries).filter(([, e]) => e.versions.length === 3);
    expect(cut).toHaveLength(1);
    expect(['ring1', 'ring2', 'ring3']).toContain(cut[0][0]);
    expect(cut[0][1].versions).toEqual([
      [1, 'import', 'draft'],
      [2, 'import', 'draft'],
      [3, 'import', 'published'],
    ]);
    expect(cut[0][1].events).toEqual([
      ['entry.created', 1],
      ['entry.updated', 2],
      ['entry.published', 3],
    ]);
    for (const [cf, e] of Object.entries(entries)) {
      if (cf === cut[0][0]) continue;
      expect(e.versions).toEqual([
        [1, 'import', 'draft'],
        [2, 'import', 'published'],
      ]);
      expect(e.events).toEqual([
        ['entry.created', 1],
        ['entry.published', 2],
      ]);
    }
  });

  it('enqueues the webhook deliveries of the events it records, as one-by-one writes do', async () => {
    const seeded = await seedWorkspace(env.ctx, { slug: 'hooked', default_locale: 'en-US', locales: ['en-US', 'de-DE'] });
    const hook = await createWebhook(env.ctx, systemActor(seeded.workspace.id, seeded.user.id), {
      url: 'http://127.0.0.1:9/hook',
      events: ['entry.published'],
    });
    const r = await importContentful(env.ctx, { workspace: 'hooked', file, batchSize: 1 });
    expect(r.entries).toMatchObject({ created: 6, published: 6 });
    const k = env.ctx.db.kysely;
    const deliveries = await k.selectFrom('webhook_deliveries').select(['event_id', 'event_type', 'payload']).where('webhook_id', '=', hook.id).execute();
    const published = await k
      .selectFrom('events')
      .select(['id', 'item_id'])
      .where('workspace_id', '=', seeded.workspace.id)
      .where('type', '=', 'entry.published')
      .orderBy('id')
      .execute();
    expect(published).toHaveLength(6);
    expect(deliveries.map((d) => Number(d.event_id)).sort((a, b) => a - b)).toEqual(published.map((e) => Number(e.id)));
    for (const d of deliveries) {
      expect(d.event_type).toBe('entry.published');
      expect(JSON.parse(d.payload)).toMatchObject({
        type: 'entry.published',
        workspace_id: seeded.workspace.id,
        data: { content_type: 'note', status: 'published' },
      });
    }
  });

  it('changes nothing when the file is imported again', async () => {
    const before = await stored('file');
    const again = await importContentful(env.ctx, { workspace: 'file', file, batchSize: 1 });
    expect(again.entries).toMatchObject({ total: 6, created: 0, updated: 0, unchanged: 6, published: 0 });
    expect(await stored('file')).toEqual(before);
  });

  /** Imports `entries` into workspace `slug`, one per batch: the report, the pass-2 progress and the ids. */
  async function importLinked(slug: string, entries: ReturnType<typeof note>[]) {
    const links: ProgressEvent[] = [];
    const report = await importContentful(env.ctx, {
      workspace: slug,
      export: linkedExport(entries),
      batchSize: 1,
      onProgress: (e) => e.phase === 'links' && links.push(e),
    });
    const ws = await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
    return { report, links, id: (cf: string) => derivedId(ws.id, `entry:${cf}`) };
  }

  /** An entry's row, versions (snapshots parsed), translation records and events. */
  async function history(id: string) {
    const k = env.ctx.db.kysely;
    const row = await k.selectFrom('entries').select(['status', 'data', 'version', 'latest_version']).where('id', '=', id).executeTakeFirstOrThrow();
    const versions = await k.selectFrom('entry_versions').select(['version', 'status', 'snapshot']).where('entry_id', '=', id).orderBy('version').execute();
    const translations = await k.selectFrom('entry_translations').select(['id', 'locale']).where('entry_id', '=', id).execute();
    const events = await k.selectFrom('events').select(['type', 'version']).where('item_id', '=', id).orderBy('id').execute();
    type Snapshot = { data: Record<string, unknown>; translations: { id: number; locale: string }[] };
    return {
      status: row.status,
      data: fromJsonColumn<Record<string, unknown>>(row.data, {}),
      version: Number(row.version),
      latest: Number(row.latest_version),
      versions: versions.map((v) => ({
        version: Number(v.version),
        status: v.status,
        snapshot: fromJsonColumn<Snapshot>(v.snapshot, { data: {}, translations: [] }),
      })),
      translations: translations.map((t) => ({ id: Number(t.id), locale: t.locale })),
      events: events.map((e) => [e.type, Number(e.version)]),
    };
  }

  it('writes the entry of a cycle once when the target it waits for is sure to be created, as the two passes leave it', async () => {
    // Written in the order r3, r2, r1: r3 links r1, which comes later.
    const { report, links, id } = await importLinked('ring', [
      note('r1', 'One', ['r2'], 'one'),
      note('r2', 'Two', ['r3'], 'two'),
      note('r3', 'Three', ['r1'], 'three'),
    ]);
    expect(report.failures).toEqual([]);
    expect(report.entries).toMatchObject({ created: 3, published: 3, failed: 0 });
    expect(links).toEqual([]);
    const cut = await history(id('r3'));
    expect(cut).toMatchObject({ status: 'published', data: { next: [id('r1')] }, version: 3, latest: 3 });
    expect(cut.versions.map((v) => [v.version, v.status])).toEqual([
      [1, 'draft'],
      [2, 'draft'],
      [3, 'published'],
    ]);
    // Version 1 is the draft created without the link, version 2 the completed one; one translation record throughout.
    expect(cut.versions[0].snapshot.data.next).toBeUndefined();
    expect(cut.versions[1].snapshot.data.next).toEqual([id('r1')]);
    expect(cut.versions[2].snapshot).toEqual(cut.versions[1].snapshot);
    for (const v of cut.versions) expect(v.snapshot.translations.map((t) => ({ id: t.id, locale: t.locale }))).toEqual(cut.translations);
    expect(cut.events).toEqual([
      ['entry.created', 1],
      ['entry.updated', 2],
      ['entry.published', 3],
    ]);
    for (const cf of ['r1', 'r2']) {
      const e = await history(id(cf));
      expect(e.versions.map((v) => [v.version, v.status])).toEqual([
        [1, 'draft'],
        [2, 'published'],
      ]);
      expect(e.events).toEqual([
        ['entry.created', 1],
        ['entry.published', 2],
      ]);
    }
  });

  it('leaves the entry whose later target fails a draft without the link, reported by the second pass', async () => {
    // Written in the order holder, b, a: b links a, which comes later and fails (its code is holder's).
    const { report, links, id } = await importLinked('broken', [note('holder', 'Holder', [], 'x'), note('a', 'A', ['b'], 'x'), note('b', 'B', ['a'], 'y')]);
    expect(links.at(-1)).toMatchObject({ done: 1, total: 1 });
    expect(report.entries).toMatchObject({ created: 2, published: 1, failed: 2 });
    expect(report.failures.map((f) => f.entry)).toEqual(['a', 'b']);
    expect(report.failures[0].message).toMatch(/already used/);
    expect(report.failures[1].message).toContain(`entry '${id('a')}' does not exist in this workspace`);
    const b = await history(id('b'));
    expect(b).toMatchObject({ status: 'draft', version: 1, latest: 1, events: [['entry.created', 1]] });
    expect(b.data.next).toBeUndefined();
    expect(b.versions.map((v) => [v.version, v.status])).toEqual([[1, 'draft']]);
  });
});

describe('the streaming reader', () => {
  const write = (name: string, text: string) => {
    const f = path.join(dir, name);
    fs.writeFileSync(f, text);
    return f;
  };
  const failure = async (f: string) => {
    try {
      await readExportFile(f);
    } catch (err) {
      expect(err).toBeInstanceOf(AppError);
      return (err as AppError).errors;
    }
    throw new Error('expected a failure');
  };
  const parsed = (text: string) => {
    try {
      parseExport(JSON.parse(text));
    } catch (err) {
      return (err as AppError).errors;
    }
    throw new Error('expected a failure');
  };

  it('reads entries back from their byte ranges equal to JSON.parse, multi-byte characters and escapes included', async () => {
    const exp = linkedExport();
    exp.entries.push({
      sys: { id: 'odd', contentType: { sys: { id: 'note' } } },
      fields: { title: { 'en-US': 'Zwölf Boxkämpfer 🥊 "quoted" \\ back\nslash, 中文' } },
    } as never);
    const text = JSON.stringify({ tags: [], editorInterfaces: [{ sys: { id: 'x' }, controls: [] }], ...exp, webhooks: [] }, null, 1);
    const f = write('unicode.json', text);
    expect(await readExportFile(f)).toEqual(parseExport(JSON.parse(text)));
    // Brackets, quotes and backslashes inside strings (keys too), values of every kind beside the
    // lists, nested arrays in a list the importer skips, no whitespace at all.
    exp.entries.push({
      sys: { id: 'brackets', contentType: { sys: { id: 'note' } } },
      fields: { title: { 'en-US': '{[ "]} \\', 'de-DE': 'ends with a backslash \\' } },
    } as never);
    const dense = JSON.stringify({
      'odd "key" \\ {': [1, [2, [3]], { a: '}' }],
      version: 3,
      flag: true,
      none: null,
      name: 'x]',
      ...exp,
      roles: [[], {}, 'r', -1.5e3],
    });
    expect(await readExportFile(write('dense.json', dense))).toEqual(parseExport(JSON.parse(dense)));
  });

  it('reads what JSON.parse reads, for any values beside and inside the lists (property)', async () => {
    // The quick survey finds each value's end by its brackets and strings: any text (quotes,
    // backslashes, brackets, any Unicode) in entries, any JSON under other keys, any indentation.
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const entry = fc.record({ id: fc.uuid(), title: text, extra: fc.jsonValue({ maxDepth: 3 }) });
    const exportText = fc.record({
      before: fc.dictionary(text, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
      after: fc.dictionary(text, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }),
      entries: fc.array(entry, { maxLength: 6 }),
      indent: fc.constantFrom(0, 1, 2, '\t'),
    });
    let run = 0;
    const tokenizerWrites = vi.spyOn(Tokenizer.prototype, 'write');
    await fc.assert(
      fc.asyncProperty(exportText, async ({ before, after, entries, indent }) => {
        const exp = linkedExport(
          entries.map((e) => ({ sys: { id: e.id, contentType: { sys: { id: 'note' } } }, fields: { title: { 'en-US': e.title } }, extra: e.extra }) as never),
        );
        // Keys of the importer's lists are the export's own; others may be anything.
        const strip = (o: Record<string, unknown>) =>
          Object.fromEntries(Object.entries(o).filter(([k]) => !['locales', 'contentTypes', 'entries', 'assets'].includes(k)));
        const json = JSON.stringify({ ...strip(before), ...exp, ...strip(after) }, null, indent);
        const f = write(`property-${run++}.json`, json);
        tokenizerWrites.mockClear();
        expect(await readExportFile(f)).toEqual(parseExport(JSON.parse(json)));
        // Read by the quick survey: the tokenizer, which it falls back to, never ran.
        expect(tokenizerWrites).not.toHaveBeenCalled();
      }),
      { numRuns: 150 },
    );
    // A file that is JSON but not shaped as an export falls back to the tokenizer, which tells
    // what is wrong; one that is not JSON is refused by the quick scan itself.
    tokenizerWrites.mockClear();
    await expect(readExportFile(write('property-shape.json', '{"locales": [{"code": "en"}], "entries": {}}'))).rejects.toThrow(AppError);
    expect(tokenizerWrites).toHaveBeenCalled();
    tokenizerWrites.mockClear();
    const bad = write('property-bad.json', '{"locales": [{"code": "en"}], "x": [1, nope]}');
    expect(await failure(bad)).toEqual([{ path: 'file', message: `'${bad}' is not valid JSON` }]);
    expect(tokenizerWrites).not.toHaveBeenCalled();
    tokenizerWrites.mockRestore();
  });

  it('answers the in-memory checks’ errors for malformed files', async () => {
    const missing = path.join(dir, 'missing.json');
    expect(await failure(missing)).toEqual([{ path: 'file', message: `'${missing}' does not exist` }]);
    const notJson = write('not.json', '{"locales": [');
    expect(await failure(notJson)).toEqual([{ path: 'file', message: `'${notJson}' is not valid JSON` }]);
    const garbage = write('garbage.json', 'hello');
    expect(await failure(garbage)).toEqual([{ path: 'file', message: `'${garbage}' is not valid JSON` }]);
    const list = write('list.json', '[1, 2]');
    expect(await failure(list)).toEqual([{ path: 'file', message: 'must be a JSON object (a Contentful space export)' }]);
    // Cut inside a list the importer skips, more after the object, trailing commas (which the
    // streaming tokenizer alone would take), a missing colon: not JSON either.
    for (const [name, text] of [
      ['trailing.json', '{"locales": [{"code": "en"}]} {}'],
      ['cut.json', '{"locales": [{"code": "en"}], "roles": [{"a": "b"'],
      ['comma-list.json', '{"locales": [{"code": "en"},]}'],
      ['comma-object.json', '{"locales": [{"code": "en"}],}'],
      ['comma-skipped.json', '{"locales": [{"code": "en"}], "roles": [1,]}'],
      ['comma-value.json', '{"locales": [{"code": "en"}], "space": {"a": 1,}}'],
      ['colon.json', '{"locales" [{"code": "en"}]}'],
    ]) {
      const f = write(name, text);
      expect(await failure(f)).toEqual([{ path: 'file', message: `'${f}' is not valid JSON` }]);
    }
    for (const text of [
      '{"locales": [], "entries": {}}',
      '{"locales": [{"code": ""}, 3], "contentTypes": [{"sys": {}, "fields": [{"id": 1}]}], "entries": [{"sys": {"id": "a"}, "fields": []}], "assets": [{}]}',
      '{"entries": [], "locales": [{"code": "en"}], "locales": []}',
    ]) {
      expect(await failure(write('shape.json', text))).toEqual(parsed(text));
    }
  });
});
