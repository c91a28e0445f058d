/**
 * Property test of restore as hostile input (issue 23, finding 1; fast-check), on SQLite and
 * PostgreSQL: a real export, given fresh ids each run, is damaged by one to three hostile changes
 * (path-walking and absolute ids, storage keys of another workspace, ids of the wrong kind,
 * symbolic links, oversized declared sizes, garbage manifests and lines, odd column names, names
 * outside the export) and handed over as a directory or a tar (intact, cut short, with a byte
 * flipped, an entry declaring a huge size, garbage after it). Whatever the input, the restore
 * either refuses with exactly one error line and exit code 1 (no stack) and leaves nothing
 * behind, or succeeds; and never: a byte of the secret file beside the export in storage, a
 * stored file overwritten, a file stored outside the restored workspace's keys, a row of the
 * other workspace changed, a temporary file left over.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packDirectory } from '../../src/modules/export/tar.js';
import { createTestEnv, dialects, type TestEnv } from '../helpers.js';
import {
  freshCopy,
  makeExport,
  otherWorkspace,
  readManifest,
  readTable,
  rehash,
  restore,
  rowsOf,
  storageFiles,
  tarHeader,
  treeFiles,
  writeManifest,
  writeTable,
  type Row,
} from './restore-fixtures.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restore-property-'));
const base = path.join(tmp, 'base');
const SECRET = 'SECRET-beside-the-export-never-to-be-read';

beforeAll(async () => {
  await makeExport(base);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** What a mutation may point at: the secret beside the export and the other workspace's records. */
interface World {
  dir: string;
  secret: string;
  other: Awaited<ReturnType<typeof otherWorkspace>>;
}

const WALKS = [
  '../../quire.db',
  '../quire.db',
  '..',
  '.',
  '',
  '/etc/passwd',
  'media/../../quire.db',
  '%2e%2e%2fquire.db',
  '..\\..\\quire.db',
  'a/../../b',
  '\u0000',
];
const hostileText = fc.oneof(fc.constantFrom(...WALKS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
/** An id value for a column: another kind's uuid, the other workspace's, a path, anything. */
const idValue = fc.oneof(
  fc.constantFrom('other-type', 'other-media', 'other-entry', 'other-release', 'export-entry', 'export-page', 'export-type', 'random-uuid', 'secret-path'),
  hostileText,
  fc.integer(),
  fc.constant(null),
);
const ID_COLUMNS: [string, string][] = [
  ['media', 'id'],
  ['entries', 'id'],
  ['entries', 'content_type_id'],
  ['fields', 'content_type_id'],
  ['content_types', 'id'],
  ['blocks', 'block_type_id'],
  ['blocks', 'page_id'],
  ['blocks', 'parent_id'],
  ['block_translations', 'block_id'],
  ['entry_versions', 'entry_id'],
  ['entry_translations', 'entry_id'],
  ['entry_translations', 'id'],
  ['published_entry_translations', 'id'],
  ['page_versions', 'page_id'],
  ['page_seo_translations', 'page_id'],
  ['webhooks', 'id'],
  ['workspace', 'id'],
  ['entries', 'created_by'],
  ['releases', 'id'],
  ['release_items', 'release_id'],
  ['release_items', 'item_id'],
  ['entry_versions', 'release_id'],
  ['page_versions', 'release_id'],
];

const mutation = fc.oneof(
  // Changes a restore takes (its own storage key is derived whatever the file says; texts are content).
  {
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      column: fc.constantFrom('alt_text', 'original_name', 'title'),
      value: fc.string({ unit: 'binary', maxLength: 40 }),
    }),
    weight: 2,
  },
  fc.record({ kind: fc.constant('id' as const), at: fc.constantFrom(...ID_COLUMNS), value: idValue, row: fc.nat(20) }),
  fc.record({
    kind: fc.constant('storage_key' as const),
    value: fc.oneof(fc.constantFrom('other-key', '../../quire.db', '/etc/passwd', '_derived/x/y.png'), hostileText),
  }),
  fc.record({
    kind: fc.constant('media_column' as const),
    column: fc.constantFrom('folder', 'filename', 'mime_type', 'remote_url', 'size'),
    value: fc.oneof(hostileText, fc.jsonValue({ maxDepth: 1 })),
  }),
  fc.record({ kind: fc.constant('link_media' as const) }),
  fc.record({ kind: fc.constant('link_media_dir' as const) }),
  fc.record({ kind: fc.constant('link_table' as const), file: fc.constantFrom('manifest.json', 'entries.ndjson', 'workspace.ndjson') }),
  fc.record({ kind: fc.constant('declared' as const), bytes: fc.oneof(fc.constantFrom(2 ** 40, 2 ** 53 - 1, -1, 1.5, 0), fc.nat()), media: fc.boolean() }),
  fc.record({
    kind: fc.constant('manifest_garbage' as const),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? ''),
    ),
  }),
  fc.record({
    kind: fc.constant('manifest_field' as const),
    key: fc.constantFrom('format', 'version', 'workspace', 'files', 'quire_version'),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({ kind: fc.constant('manifest_name' as const), name: fc.oneof(fc.constantFrom(...WALKS.map((w) => `media/${w}`), ...WALKS), hostileText) }),
  fc.record({
    kind: fc.constant('line' as const),
    file: fc.constantFrom('entries', 'media', 'fields', 'blocks', 'workspace', 'releases', 'release_items'),
    text: fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v) ?? ''),
    ),
  }),
  fc.record({ kind: fc.constant('column_name' as const), file: fc.constantFrom('entries', 'media', 'pages', 'releases'), name: fc.string({ maxLength: 20 }) }),
  fc.record({ kind: fc.constant('remove' as const), file: fc.constantFrom('media-file', 'entries.ndjson', 'manifest.json') }),
);

const archive = fc.oneof(
  fc.constant({ kind: 'dir' as const }),
  fc.constant({ kind: 'tar' as const }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.integer({ min: 1, max: 999 }).map((n) => n / 1000) }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.integer({ min: 0, max: 999 }).map((n) => n / 1000), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    kind: fc.constant('huge_entry' as const),
    name: fc.constantFrom('manifest.json', 'entries.ndjson', 'media/0190a0b4-7c2e-7aaa-8bbb-000000000001', '../x'),
  }),
  fc.record({ kind: fc.constant('trailing' as const), bytes: fc.uint8Array({ minLength: 1, maxLength: 2048 }) }),
);

function mediaName(dir: string): string | undefined {
  return Object.keys(readManifest(dir).files ?? {}).find((f) => f.startsWith('media/'));
}

function resolveId(world: World, value: unknown): unknown {
  const first = (file: string) => readTable(world.dir, file)[0]?.id;
  switch (value) {
    case 'other-type':
      return world.other.typeId;
    case 'other-media':
      return world.other.mediaId;
    case 'other-entry':
      return world.other.entryId;
    case 'other-release':
      return world.other.releaseId;
    case 'export-entry':
      return first('entries');
    case 'export-page':
      return first('pages');
    case 'export-type':
      return first('content_types');
    case 'random-uuid':
      return randomUUID();
    case 'secret-path':
      return world.secret;
    default:
      return value;
  }
}

type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;
type Archive = typeof archive extends fc.Arbitrary<infer T> ? T : never;

async function apply(world: World, m: Mutation): Promise<void> {
  const { dir } = world;
  const setRow = async (file: string, index: number, change: (r: Row) => Row) => {
    const rows = readTable(dir, file);
    if (!rows.length) return;
    const i = index % rows.length;
    rows[i] = change(rows[i]);
    await writeTable(dir, file, rows);
  };
  switch (m.kind) {
    case 'id':
      return setRow(m.at[0], m.row, (r) => ({ ...r, [m.at[1]]: resolveId(world, m.value) }));
    case 'storage_key':
      return setRow('media', 0, (r) => ({ ...r, storage_key: m.value === 'other-key' ? world.other.key : m.value }));
    case 'media_column':
      return setRow('media', 0, (r) => ({ ...r, [m.column]: m.value }));
    case 'text':
      return setRow('media', 0, (r) => ({ ...r, [m.column]: m.value }));
    case 'link_media': {
      const name = mediaName(dir);
      if (!name) return;
      fs.rmSync(path.join(dir, name), { force: true });
      fs.symlinkSync(world.secret, path.join(dir, name));
      return rehash(dir, name);
    }
    case 'link_media_dir': {
      const name = mediaName(dir);
      const outside = `${dir}-elsewhere`;
      fs.mkdirSync(outside, { recursive: true });
      if (name) fs.writeFileSync(path.join(outside, name.slice('media/'.length)), SECRET);
      fs.rmSync(path.join(dir, 'media'), { recursive: true, force: true });
      fs.symlinkSync(outside, path.join(dir, 'media'));
      if (name) await rehash(dir, name);
      return;
    }
    case 'link_table': {
      const real = `${dir}-${m.file}`;
      if (!fs.existsSync(path.join(dir, m.file))) return;
      fs.renameSync(path.join(dir, m.file), real);
      fs.symlinkSync(real, path.join(dir, m.file));
      return;
    }
    case 'declared': {
      const manifest = readManifest(dir);
      const name = m.media ? mediaName(dir) : 'entries.ndjson';
      if (name && manifest.files?.[name]) manifest.files[name].bytes = m.bytes;
      return writeManifest(dir, manifest);
    }
    case 'manifest_garbage':
      fs.writeFileSync(path.join(dir, 'manifest.json'), m.bytes);
      return;
    case 'manifest_field': {
      const manifest = readManifest(dir);
      manifest[m.key] = m.value;
      return writeManifest(dir, manifest);
    }
    case 'manifest_name': {
      const manifest = readManifest(dir);
      if (manifest.files) manifest.files[m.name] = { bytes: SECRET.length, sha256: '0'.repeat(64) };
      return writeManifest(dir, manifest);
    }
    case 'line': {
      const rows: (Row | string)[] = readTable(dir, m.file);
      rows.splice(rows.length ? 1 : 0, 0, m.text.replace(/\n/g, ' '));
      return writeTable(dir, m.file, rows);
    }
    case 'column_name':
      return setRow(m.file, 0, (r) => ({ ...r, [m.name]: 1 }));
    case 'remove': {
      const name = m.file === 'media-file' ? mediaName(dir) : m.file;
      if (name) fs.rmSync(path.join(dir, name), { force: true });
      return;
    }
  }
}

/** The source handed to the restore: the directory, or a tar of it changed as `a` says. */
async function sourceOf(dir: string, a: Archive): Promise<string> {
  if (a.kind === 'dir') return dir;
  const tar = `${dir}.tar`;
  let names: string[];
  try {
    names = ['manifest.json', ...Object.keys(readManifest(dir).files ?? {})];
  } catch {
    names = ['manifest.json'];
  }
  // Pack what is there (links followed, as tar -h would); names the directory lacks are left out.
  names = [...new Set(names)].filter(
    (n) => /^[\w./-]+$/.test(n) && !n.split('/').includes('..') && fs.existsSync(path.join(dir, n)) && fs.statSync(path.join(dir, n)).isFile(),
  );
  await packDirectory(dir, names, tar);
  let bytes = fs.readFileSync(tar);
  if (a.kind === 'cut') bytes = bytes.subarray(0, Math.floor(bytes.length * a.at));
  if (a.kind === 'flip' && bytes.length) {
    const i = Math.min(bytes.length - 1, Math.floor(bytes.length * a.at));
    bytes = Buffer.from(bytes);
    bytes[i] = a.byte;
  }
  if (a.kind === 'huge_entry') bytes = Buffer.concat([bytes.subarray(0, bytes.length - 1024), tarHeader(a.name, '77777777777\0'), Buffer.alloc(4096)]);
  if (a.kind === 'trailing') bytes = Buffer.concat([bytes, Buffer.from(a.bytes)]);
  fs.writeFileSync(tar, bytes);
  return tar;
}

describe.each(dialects())('restore of hostile exports (property) on %s', (dialect) => {
  let env: TestEnv;
  let other: Awaited<ReturnType<typeof otherWorkspace>>;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    other = await otherWorkspace(env);
  }, 60_000);
  afterAll(async () => env?.close());

  it('refuses with one line or succeeds, and never reads outside the export nor writes outside the restored workspace', async () => {
    const otherRows = await rowsOf(env, other.id);
    let run = 0;
    const outcomes = { refused: 0, restored: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), archive, async (mutations, a) => {
        run += 1;
        const caseDir = path.join(tmp, `${dialect}-${run}`);
        const dir = path.join(caseDir, 'export');
        await freshCopy(base, dir);
        const secret = path.join(caseDir, 'quire.db');
        fs.writeFileSync(secret, SECRET);
        const world: World = { dir, secret, other };
        for (const m of mutations) {
          try {
            await apply(world, m);
          } catch {
            // A mutation that cannot apply to what an earlier one left (e.g. the manifest is garbage) is skipped.
          }
        }
        const source = await sourceOf(dir, a);
        const before = storageFiles(env);
        const slug = `p${run}`;
        const result = await restore(env, source, slug);
        expect(result.stderr).not.toMatch(/\n\s+at |ERR_/);
        const after = storageFiles(env);
        // Never a byte of the secret beside the export, never a stored file changed.
        expect([...after].filter(([, b]) => b.includes(SECRET)).map(([k]) => k)).toEqual([]);
        for (const [key, bytes] of before) expect(after.get(key)?.equals(bytes), `${key} changed`).toBe(true);
        expect(fs.readFileSync(secret, 'utf8')).toBe(SECRET);
        const leftovers = [...treeFiles(path.join(env.config.dataDir, 'tmp')).keys()];
        expect(leftovers).toEqual([]);
        const ws = await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', slug).executeTakeFirst();
        const added = [...after.keys()].filter((k) => !before.has(k));
        if (result.code === 0) {
          outcomes.restored += 1;
          expect(result.stderr).toBe('');
          // New files only under the restored workspace's own keys.
          for (const key of added) expect(key.startsWith(`${ws!.id}/`), key).toBe(true);
        } else {
          outcomes.refused += 1;
          expect(result.code).toBe(1);
          expect(result.stdout).toBe('');
          expect(result.stderr).toMatch(/^quire: [^\n]+\n$/);
          expect(ws).toBeUndefined();
          expect(added).toEqual([]);
        }
        expect(await rowsOf(env, other.id)).toBe(otherRows);
      }),
      {
        numRuns: 150,
        // Always among the runs: a storage key of the other workspace (restored, under its own key) and a walk out of the export.
        examples: [
          [[{ kind: 'storage_key', value: 'other-key' }], { kind: 'tar' }],
          [[{ kind: 'id', at: ['media', 'id'], value: '../../quire.db', row: 0 }], { kind: 'dir' }],
        ],
      },
    );
    // Both outcomes occur: the property is not only ever refusing.
    expect(outcomes.refused).toBeGreaterThan(0);
    expect(outcomes.restored).toBeGreaterThan(0);
  }, 300_000);
});
