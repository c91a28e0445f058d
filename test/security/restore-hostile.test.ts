/**
 * Restore treats an export as hostile input (issue 23, finding 1; docs/cli.md "What a restore
 * refuses"), on SQLite and PostgreSQL: a media id that walks out of the export, a storage key of
 * another workspace, symbolic links, references to another workspace's records (releases and
 * their items among them), ids of the wrong kind and oversized files. Each case is an export an attacker could hand an operator, with the
 * manifest's hashes made true, so only the restore's own rules stand in the way.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, dialects, type TestEnv } from '../helpers.js';
import {
  expectRefused,
  freshCopy,
  makeExport,
  otherWorkspace,
  readManifest,
  readTable,
  rehash,
  restore,
  rowsOf,
  storageFiles,
  writeManifest,
  writeTable,
  type Row,
} from './restore-fixtures.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restore-hostile-'));
const base = path.join(tmp, 'base');
const SECRET = 'SECRET-installation-secret-and-password-hashes';

beforeAll(async () => {
  await makeExport(base);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let n = 0;
/** A fresh copy of the base export (new uuids) in its own folder, with a secret file beside it. */
async function copy(): Promise<{ dir: string; secret: string }> {
  n += 1;
  const caseDir = path.join(tmp, `case-${n}`);
  const dir = path.join(caseDir, 'export');
  await freshCopy(base, dir);
  const secret = path.join(caseDir, 'quire.db');
  fs.writeFileSync(secret, SECRET);
  return { dir, secret };
}

function holdsSecret(files: Map<string, Buffer>): string[] {
  return [...files].filter(([, b]) => b.includes(SECRET)).map(([k]) => k);
}

describe.each(dialects())('a hostile export on %s', (dialect) => {
  let env: TestEnv;
  let other: Awaited<ReturnType<typeof otherWorkspace>>;
  let otherRows: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    other = await otherWorkspace(env);
    otherRows = await rowsOf(env, other.id);
  }, 60_000);
  afterAll(async () => {
    // Whatever a case did, the other workspace is as it was, rows and file.
    expect(await rowsOf(env, other.id)).toBe(otherRows);
    expect(storageFiles(env).get(other.key)!.equals(other.bytes)).toBe(true);
    await env?.close();
  });

  it('refuses a media id that walks out of the export (../../quire.db): the file beside the export is neither read nor served', async () => {
    const { dir } = await copy();
    const media = readTable(dir, 'media');
    const wsId = readManifest(dir).workspace.id as string;
    const carrier = randomUUID();
    // Row 1 reads <export>/media/../../quire.db into a key; row 2, a well-formed record, points at that key.
    const key = `${wsId}/${carrier}.png`;
    const leak = { ...media[0], id: '../../quire.db', storage_key: key, filename: `${carrier}.png` };
    const serve = { ...media[0], id: carrier, storage_key: key, filename: `${carrier}.png` };
    await writeTable(dir, 'media', [...media, leak, serve]);
    const before = storageFiles(env);
    const run = await restore(env, dir, `leak-${dialect}`);
    expectRefused(run, /media\.ndjson line \d+: id "\.\.\/\.\.\/quire\.db" is not a uuid/);
    expect(holdsSecret(storageFiles(env))).toEqual([]);
    expect([...storageFiles(env).keys()]).toEqual([...before.keys()]);
    expect((await env.app.inject({ method: 'GET', url: `/media/files/${key}` })).statusCode).toBe(404);
  });

  it('derives storage keys itself: a storage_key naming another workspace image leaves that image as it was', async () => {
    const { dir } = await copy();
    const media = readTable(dir, 'media');
    const stored = media.find((m) => m.original_name === 'red.png')!;
    await writeTable(
      dir,
      'media',
      media.map((m) => (m.id === stored.id ? { ...m, storage_key: other.key } : m)),
    );
    const run = await restore(env, dir, `key-${dialect}`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const wsId = run.json().workspace.id as string;
    expect(storageFiles(env).get(other.key)!.equals(other.bytes)).toBe(true);
    const row = await env.ctx.db.kysely
      .selectFrom('media')
      .select(['storage_key', 'workspace_id'])
      .where('id', '=', String(stored.id))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ storage_key: `${wsId}/${String(stored.id)}.png`, workspace_id: wsId });
    expect(storageFiles(env).has(row.storage_key!)).toBe(true);
    for (const key of storageFiles(env).keys()) expect([other.id, ...(await workspaceIds(env))]).toContain(key.split('/')[0]);
  });

  it('refuses symbolic links: a media file, the media folder or manifest.json pointing outside the export', async () => {
    // A media file that is a link to the secret, the manifest recording the secret's hash.
    const a = await copy();
    const name = Object.keys(readManifest(a.dir).files).find((f) => f.startsWith('media/'))!;
    fs.rmSync(path.join(a.dir, name));
    fs.symlinkSync(a.secret, path.join(a.dir, name));
    await rehash(a.dir, name);
    expectRefused(await restore(env, a.dir, `link-${dialect}`), /is a symbolic link|outside the export/);
    // The media folder a link to a folder outside holding the same name.
    const b = await copy();
    const outside = path.join(path.dirname(b.dir), 'elsewhere');
    fs.mkdirSync(outside);
    const mediaName = Object.keys(readManifest(b.dir).files).find((f) => f.startsWith('media/'))!;
    fs.writeFileSync(path.join(outside, mediaName.slice('media/'.length)), SECRET);
    fs.rmSync(path.join(b.dir, 'media'), { recursive: true });
    fs.symlinkSync(outside, path.join(b.dir, 'media'));
    await rehash(b.dir, mediaName);
    expectRefused(await restore(env, b.dir, `linkdir-${dialect}`), /outside the export/);
    // manifest.json itself a link.
    const c = await copy();
    const real = path.join(path.dirname(c.dir), 'manifest.json');
    fs.renameSync(path.join(c.dir, 'manifest.json'), real);
    fs.symlinkSync(real, path.join(c.dir, 'manifest.json'));
    expectRefused(await restore(env, c.dir, `linkman-${dialect}`), /'manifest\.json' is a symbolic link/);
    expect(holdsSecret(storageFiles(env))).toEqual([]);
    for (const slug of [`link-${dialect}`, `linkdir-${dialect}`, `linkman-${dialect}`])
      expect(await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', slug).executeTakeFirst()).toBeUndefined();
  });

  it("refuses a field, an entry or a block under another workspace's content type, and versions of another workspace's entry", async () => {
    const cases: [string, (dir: string) => Promise<void>, RegExp][] = [
      [
        'fields',
        async (dir) => {
          const fields = readTable(dir, 'fields');
          await writeTable(dir, 'fields', [...fields, { ...fields[0], id: randomUUID(), content_type_id: other.typeId, name: 'injected' }]);
        },
        /fields\.ndjson line \d+: content_type_id \S+ names no content type of this export/,
      ],
      [
        'entries',
        async (dir) => {
          const entries = readTable(dir, 'entries');
          await writeTable(dir, 'entries', [...entries, { ...entries[0], id: randomUUID(), slug: 'injected', content_type_id: other.typeId }]);
        },
        /entries\.ndjson line \d+: content_type_id \S+ names no content type of this export/,
      ],
      [
        'blocks',
        async (dir) => {
          const blocks = readTable(dir, 'blocks');
          await writeTable(dir, 'blocks', [...blocks, { ...blocks[0], id: randomUUID(), block_type_id: other.typeId }]);
        },
        /blocks\.ndjson line \d+: block_type_id \S+ names no content type of this export/,
      ],
    ];
    for (const [table, mutate, message] of cases) {
      const { dir } = await copy();
      await mutate(dir);
      expectRefused(await restore(env, dir, `cross-${table}-${dialect}`), message);
    }
    // A uuid of the wrong kind: the other workspace's media id as the entry of a version.
    const otherEntry = other.mediaId;
    const { dir } = await copy();
    const versions = readTable(dir, 'entry_versions');
    await writeTable(dir, 'entry_versions', [...versions, { ...versions[0], entry_id: otherEntry }]);
    expectRefused(await restore(env, dir, `cross-versions-${dialect}`), /entry_versions\.ndjson line \d+: entry_id \S+ names no entry of this export/);
    const injected = await env.ctx.db.kysely
      .selectFrom('fields')
      .select('id')
      .where('content_type_id', '=', other.typeId)
      .where('name', '=', 'injected')
      .execute();
    expect(injected).toEqual([]);
  });

  it("refuses releases that are not the export's own: items of another workspace's entry or release, versions of a release not in the export", async () => {
    type Change = (dir: string) => Promise<void>;
    /** Adds a copy of the first row of `file`, changed. */
    const addRow =
      (file: string, change: (row: any, dir: string) => Row): Change =>
      async (dir) => {
        const rows = readTable(dir, file);
        await writeTable(dir, file, [...rows, change(rows[0], dir)]);
      };
    /** Changes the first row of `file`. */
    const setFirst =
      (file: string, change: (row: any, dir: string) => Row): Change =>
      async (dir) => {
        const [row, ...rest] = readTable(dir, file);
        await writeTable(dir, file, [change(row, dir), ...rest]);
      };
    const cases: [string, Change, RegExp][] = [
      [
        'item-entry',
        addRow('release_items', (r) => ({ ...r, kind: 'entry', item_id: other.entryId })),
        /release_items\.ndjson line \d+: item_id \S+ names no entry of this export/,
      ],
      // An entry of the export named as a page: the kind decides which records an item may name.
      [
        'item-kind',
        addRow('release_items', (r, dir) => ({ ...r, kind: 'page', item_id: readTable(dir, 'entries')[0].id })),
        /release_items\.ndjson line \d+: item_id \S+ names no page of this export/,
      ],
      [
        'item-release',
        setFirst('release_items', (r) => ({ ...r, release_id: other.releaseId })),
        /release_items\.ndjson line 1: release_id \S+ names no release of this export/,
      ],
      [
        'version-release',
        setFirst('entry_versions', (r) => ({ ...r, release_id: other.releaseId })),
        /entry_versions\.ndjson line 1: release_id \S+ names no release of this export/,
      ],
      [
        'version-unknown-release',
        setFirst('page_versions', (r) => ({ ...r, release_id: randomUUID() })),
        /page_versions\.ndjson line 1: release_id \S+ names no release of this export/,
      ],
      ['release-id', setFirst('releases', (r) => ({ ...r, id: 'not-a-uuid' })), /releases\.ndjson line 1: id "not-a-uuid" is not a uuid/],
      ['item-release-id', setFirst('release_items', (r) => ({ ...r, release_id: '../x' })), /release_items\.ndjson line 1: release_id "\.\.\/x" is not a uuid/],
      ['version-release-id', setFirst('entry_versions', (r) => ({ ...r, release_id: 42 })), /entry_versions\.ndjson line 1: release_id 42 is not a uuid/],
      [
        'release-status',
        setFirst('releases', (r) => ({ ...r, status: 'live' })),
        /releases\.ndjson line 1: status "live" is not one of open, scheduled, published, failed/,
      ],
      ['item-kind-word', setFirst('release_items', (r) => ({ ...r, kind: 'user' })), /release_items\.ndjson line 1: kind "user" is not one of entry, page/],
      [
        'item-version',
        setFirst('release_items', (r) => ({ ...r, base_version: '1; DROP TABLE entries' })),
        /release_items\.ndjson line 1: base_version .* is not an integer/,
      ],
      [
        'item-snapshot',
        async (dir) => {
          const rows = readTable(dir, 'release_items');
          const i = rows.findIndex((r) => r.action === 'publish');
          rows[i] = { ...rows[i], snapshot: 'not a release version' };
          await writeTable(dir, 'release_items', rows);
        },
        /release_items\.ndjson line \d+: a publish item's snapshot must be an object/,
      ],
    ];
    for (const [name, change, message] of cases) {
      const { dir } = await copy();
      await change(dir);
      const slug = `rel-${name}-${dialect}`;
      expectRefused(await restore(env, dir, slug), message);
      expect(await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', slug).executeTakeFirst()).toBeUndefined();
    }
    // The other workspace's release kept its one item (afterAll compares all of its rows).
    const items = await env.ctx.db.kysely.selectFrom('release_items').select('item_id').where('release_id', '=', other.releaseId).execute();
    expect(items).toEqual([{ item_id: other.entryId }]);
  });

  it('refuses ids that are not of the kind they claim', async () => {
    const cases: [string, (rows: any[]) => any[], RegExp][] = [
      ['entries', (rows) => [{ ...rows[0], id: 'not-a-uuid' }, ...rows.slice(1)], /entries\.ndjson line 1: id "not-a-uuid" is not a uuid/],
      ['content_types', (rows) => [{ ...rows[0], id: '/etc/passwd' }, ...rows.slice(1)], /content_types\.ndjson line 1: id "\/etc\/passwd" is not a uuid/],
      ['blocks', (rows) => [{ ...rows[0], parent_id: '../x' }, ...rows.slice(1)], /blocks\.ndjson line 1: parent_id "\.\.\/x" is not a uuid/],
      ['entry_translations', (rows) => [{ ...rows[0], id: 'abc' }, ...rows.slice(1)], /entry_translations\.ndjson line 1: id "abc" is not a positive integer/],
      ['entries', (rows) => [{ ...rows[0], created_by: '1; DROP TABLE users' }, ...rows.slice(1)], /entries\.ndjson line 1: created_by .* is not a user id/],
      ['media', (rows) => [{ ...rows[0], folder: '../../other' }, ...rows.slice(1)], /media\.ndjson line 1: folder "\.\.\/\.\.\/other" is not a media folder/],
      ['media', (rows) => rows.map((r) => ({ ...r, filename: 'x.png' })), /media\.ndjson line 1: filename "x\.png" is not the stored name/],
      ['entries', (rows) => [{ ...rows[0], 'workspace_id") --': 1 }, ...rows.slice(1)], /is not a column name/],
      ['webhooks', (rows) => rows.map((r) => ({ ...r, url: 'http://x/\u001b[2J\nquire: ok' })), /webhooks\.ndjson line 1: url "http:\/\/x\/\\u001b\[2J\\n/],
      [
        'workspace',
        (rows) => [{ ...rows[0], preview_url_template: 'javascript:alert(document.cookie)//{slug}' }],
        /workspace\.ndjson line 1: preview_url_template must be an http\(s\) URL/,
      ],
      // Field names reach SQL (JSON paths, index expressions): only the API's names are taken.
      ['fields', (rows) => [{ ...rows[0], name: "x') OR 1=1 --", filterable: 1 }, ...rows.slice(1)], /fields\.ndjson line 1\.name must match/],
      ['fields', (rows) => [{ ...rows[0], field_type: 'sql' }, ...rows.slice(1)], /fields\.ndjson line 1\.field_type must be one of/],
      // A name with a newline cannot forge a second line on the operator's terminal.
      ['entries', (rows) => [{ ...rows[0], 'x\nquire: restored fine': 1 }, ...rows.slice(1)], /'x\\u000aquire: restored fine' is not a column name/],
    ];
    for (const [table, mutate, message] of cases) {
      const { dir } = await copy();
      await writeTable(dir, table, mutate(readTable(dir, table)));
      expectRefused(await restore(env, dir, `kind-${dialect}`), message);
    }
    // The manifest may name only files an export holds.
    for (const name of ['../quire.db', 'media/../../quire.db', '/etc/passwd', 'media/not-a-uuid', 'extra.ndjson']) {
      const { dir } = await copy();
      const manifest = readManifest(dir);
      manifest.files[name] = { bytes: 1, sha256: '0'.repeat(64) };
      writeManifest(dir, manifest);
      expectRefused(await restore(env, dir, `name-${dialect}`), /lists '.+', which is not part of a Quire export/);
    }
  });

  it('bounds sizes before reading: a media file over MEDIA_MAX_BYTES, declared or real, and an oversized manifest', async () => {
    const small = await createTestEnv(dialect, { config: { mediaMaxBytes: 1024 } });
    try {
      const a = await copy();
      const name = Object.keys(readManifest(a.dir).files).find((f) => f.startsWith('media/'))!;
      const manifest = readManifest(a.dir);
      manifest.files[name].bytes = 5 * 1024 * 1024 * 1024;
      writeManifest(a.dir, manifest);
      expectRefused(await restore(small, a.dir, 'big'), /'media\/\S+' is 5120 MiB by the manifest, more than the limit of 1024 bytes \(MEDIA_MAX_BYTES\)/);
      // A real file over the limit (a PNG with trailing bytes), its size and hash recorded truly.
      const b = await copy();
      const bigName = Object.keys(readManifest(b.dir).files).find((f) => f.startsWith('media/'))!;
      fs.appendFileSync(path.join(b.dir, ...bigName.split('/')), Buffer.alloc(4096));
      await rehash(b.dir, bigName);
      expectRefused(await restore(small, b.dir, 'big'), /more than the limit of 1024 bytes/);
      // manifest.json over 32 MiB (sparse: its size is checked before a byte is read).
      const c = await copy();
      fs.truncateSync(path.join(c.dir, 'manifest.json'), 33 * 1024 * 1024);
      expectRefused(await restore(small, c.dir, 'big'), /'manifest\.json' is 33 MiB, more than the limit of 32 MiB/);
      expect(await small.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', 'big').executeTakeFirst()).toBeUndefined();
    } finally {
      await small.close();
    }
  });

  it('refuses a media file whose bytes are not the type its record claims (an HTML page as image/png)', async () => {
    const { dir } = await copy();
    const name = Object.keys(readManifest(dir).files).find((f) => f.startsWith('media/'))!;
    fs.writeFileSync(path.join(dir, ...name.split('/')), '<html><script>alert(document.cookie)</script></html>');
    await rehash(dir, name);
    expectRefused(await restore(env, dir, `html-${dialect}`), /'media\/\S+' is not a file Quire stores/);
    expect([...storageFiles(env).values()].some((b) => b.includes('<script>'))).toBe(false);
  });
});

async function workspaceIds(env: TestEnv): Promise<string[]> {
  return (await env.ctx.db.kysely.selectFrom('workspaces').select('id').execute()).map((w) => w.id);
}
