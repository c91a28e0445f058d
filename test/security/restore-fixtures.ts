/**
 * Fixtures of the hostile-restore suites (test/security/restore-*.test.ts): a real export of the
 * demo workspace with an uploaded image, a webhook and releases (one published, one open), helpers that rewrite its files the way an attacker would
 * (keeping the manifest's hashes true, so only the restore's own rules can refuse them), a
 * re-identification that gives a copy of the export fresh uuids (so one database takes many
 * restores), and views of what a restore may have touched (storage files, another workspace's rows).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { systemActor } from '../../src/modules/auth/permissions.js';
import { seedDemo } from '../../src/modules/demo/seed.js';
import { createWebhook } from '../../src/modules/webhooks/operations.js';
import { hashFile } from '../../src/modules/export/files.js';
import { cli, type CliRun } from '../cli-helpers.js';
import { call, createTestEnv, seedWorkspace, type TestEnv } from '../helpers.js';
import { png, upload } from '../media-fixtures.js';

export type Row = Record<string, unknown>;

/**
 * Exports the demo workspace of a new SQLite installation into `dir`, with one uploaded image, a
 * webhook, a published release (versions naming it) and an open one (a publish item and an
 * unpublish item).
 */
export async function makeExport(dir: string): Promise<void> {
  const env = await createTestEnv('sqlite', { config: { demo: true, webhookAllowPrivate: true } });
  try {
    const demo = await seedDemo(env.ctx);
    if (!demo) throw new Error('demo not seeded');
    const res = await upload(env.app, {
      key: demo.keys.management,
      workspaceId: demo.workspace.id,
      parts: [{ name: 'file', filename: 'red.png', data: await png(8, 6, '#ff0000'), contentType: 'image/png' }],
    });
    expect(res.status).toBe(201);
    await createWebhook(env.ctx, systemActor(demo.workspace.id, demo.user.id), { url: 'http://127.0.0.1:9/hook', events: ['entry.published'] });
    const req = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const r = await call(env.app, method, `/api/v1/manage${url}`, { key: demo.keys.management, body });
      expect(r.status, `${method} ${url}`).toBeLessThan(300);
      return r.body.data;
    };
    const entryId = async (type: string, slug: string) => (await req('GET', `/content-types/${type}/entries/${slug}`)).id as string;
    const published = (await req('POST', '/releases', { title: 'Published' })).id;
    await req('POST', `/releases/${published}/items`, { kind: 'entry', id: await entryId('post', 'one-entry-many-languages'), action: 'publish' });
    await req('POST', `/releases/${published}/items`, { kind: 'page', id: (await req('GET', '/pages/about')).page.id, action: 'publish' });
    await req('POST', `/releases/${published}/publish`);
    const open = (await req('POST', '/releases', { title: 'Open' })).id;
    await req('POST', `/releases/${open}/items`, { kind: 'entry', id: await entryId('author', 'mara-lindqvist'), action: 'publish' });
    await req('POST', `/releases/${open}/items`, { kind: 'entry', id: await entryId('post', 'welcome-to-quire'), action: 'unpublish' });
    const run = await cli(['export', '--workspace', 'demo', '--out', dir], { context: env.ctx });
    expect(run.code).toBe(0);
  } finally {
    await env.close();
  }
}

export function readTable(dir: string, file: string): Row[] {
  const text = fs.readFileSync(path.join(dir, `${file}.ndjson`), 'utf8');
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Row);
}

export function readManifest(dir: string): any {
  return JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
}

export function writeManifest(dir: string, manifest: unknown): void {
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
}

/** Records `name`'s current size and hash in the manifest (as an attacker writing the export would). */
export async function rehash(dir: string, name: string, file = path.join(dir, ...name.split('/'))): Promise<void> {
  const manifest = readManifest(dir);
  manifest.files[name] = await hashFile(file);
  writeManifest(dir, manifest);
}

/** Writes a table file (raw lines or rows) and records it in the manifest. */
export async function writeTable(dir: string, file: string, rows: (Row | string)[]): Promise<void> {
  const text = rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');
  fs.writeFileSync(path.join(dir, `${file}.ndjson`), text ? `${text}\n` : '');
  await rehash(dir, `${file}.ndjson`);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/**
 * Copies the export `from` to `to` with every uuid replaced by a fresh one (consistently across
 * files, media file names included) and the manifest's hashes updated: a restore of the copy
 * collides with nothing an earlier restore wrote.
 */
export async function freshCopy(from: string, to: string): Promise<void> {
  const map = new Map<string, string>();
  const swap = (text: string) =>
    text.replace(UUID, (u) => {
      if (!map.has(u)) map.set(u, randomUUID());
      return map.get(u)!;
    });
  fs.mkdirSync(path.join(to, 'media'), { recursive: true });
  const manifest = readManifest(from);
  const files: Record<string, unknown> = {};
  for (const name of Object.keys(manifest.files)) {
    const target = swap(name);
    const src = path.join(from, ...name.split('/'));
    const dest = path.join(to, ...target.split('/'));
    if (name.startsWith('media/')) fs.copyFileSync(src, dest);
    else fs.writeFileSync(dest, swap(fs.readFileSync(src, 'utf8')));
    files[target] = await hashFile(dest);
  }
  manifest.workspace.id = swap(manifest.workspace.id);
  writeManifest(to, { ...manifest, files });
}

/** Every file of a directory tree: path relative to it → bytes (symbolic links not followed). */
export function treeFiles(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string, prefix: string) => {
    if (!fs.existsSync(d)) return;
    for (const ent of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, ent.name);
      if (ent.isDirectory()) walk(full, `${prefix}${ent.name}/`);
      else if (ent.isFile()) out.set(`${prefix}${ent.name}`, fs.readFileSync(full));
    }
  };
  walk(dir, '');
  return out;
}

/** The files of an environment's local media storage, by storage key. */
export function storageFiles(env: TestEnv): Map<string, Buffer> {
  return treeFiles(path.join(env.config.dataDir, 'media'));
}

/** Another workspace in the target installation with an image (its key and bytes), an entry and an open release of its own. */
export async function otherWorkspace(
  env: TestEnv,
): Promise<{ id: string; typeId: string; mediaId: string; key: string; bytes: Buffer; entryId: string; releaseId: string }> {
  const s = await seedWorkspace(env.ctx);
  const type = await env.app.inject({
    method: 'POST',
    url: '/api/v1/manage/content-types',
    headers: { 'x-api-key': s.keys.management, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Secret', slug: 'secret', fields: [{ name: 'body', field_type: 'text' }] }),
  });
  expect(type.statusCode).toBe(201);
  const bytes = await png(8, 6, '#0000ff');
  const res = await upload(env.app, {
    key: s.keys.management,
    workspaceId: s.workspace.id,
    parts: [{ name: 'file', filename: 'blue.png', data: bytes, contentType: 'image/png' }],
  });
  expect(res.status).toBe(201);
  const media = await env.ctx.db.kysely.selectFrom('media').select(['id', 'storage_key']).where('workspace_id', '=', s.workspace.id).executeTakeFirstOrThrow();
  const req = async (url: string, body: unknown) => {
    const r = await call(env.app, 'POST', `/api/v1/manage${url}`, { key: s.keys.management, body });
    expect(r.status, url).toBeLessThan(300);
    return r.body.data;
  };
  const entryId = (await req('/content-types/secret/entries', { slug: 'hidden', data: { body: 'secret text' } })).id as string;
  const releaseId = (await req('/releases', { title: 'Secret release' })).id as string;
  await req(`/releases/${releaseId}/items`, { kind: 'entry', id: entryId, action: 'publish' });
  return {
    id: s.workspace.id,
    typeId: JSON.parse(type.body).data.id,
    mediaId: media.id,
    key: media.storage_key!,
    bytes: storageFiles(env).get(media.storage_key!)!,
    entryId,
    releaseId,
  };
}

/** Everything of workspace `id` a restore must never change: its rows of every table that has them. */
export async function rowsOf(env: TestEnv, id: string): Promise<string> {
  const db = env.ctx.db.kysely;
  const types = await db.selectFrom('content_types').selectAll().where('workspace_id', '=', id).orderBy('id').execute();
  const fields = await db
    .selectFrom('fields')
    .selectAll()
    .where(
      'content_type_id',
      'in',
      types.map((t) => t.id),
    )
    .orderBy('id')
    .execute();
  const entries = await db.selectFrom('entries').selectAll().where('workspace_id', '=', id).orderBy('id').execute();
  const media = await db.selectFrom('media').selectAll().where('workspace_id', '=', id).orderBy('id').execute();
  const ws = await db.selectFrom('workspaces').select(['id', 'slug', 'name', 'locales']).where('id', '=', id).execute();
  const releases = await db.selectFrom('releases').selectAll().where('workspace_id', '=', id).orderBy('id').execute();
  const ofWorkspace = db.selectFrom('releases').select('id').where('workspace_id', '=', id);
  const items = await db.selectFrom('release_items').selectAll().where('release_id', 'in', ofWorkspace).orderBy('release_id').orderBy('item_id').execute();
  return JSON.stringify({ ws, types, fields, entries, media, releases, items });
}

/** `quire import quire <source> --workspace <slug>` in-process on `env`. */
export function restore(env: TestEnv, source: string, slug: string): Promise<CliRun> {
  return cli(['import', 'quire', source, '--workspace', slug, '--json'], { context: env.ctx });
}

/** Asserts a refusal: exit code 1 and exactly one line on stderr, no stack, nothing on stdout. */
export function expectRefused(run: CliRun, message: RegExp): void {
  expect(run.stdout).toBe('');
  expect(run.stderr).toMatch(/^quire: [^\n]+\n$/);
  expect(run.stderr).toMatch(message);
  expect(run.code).toBe(1);
}

/**
 * A ustar header as tar writes it, with the size field (12 bytes: octal digits and a NUL, or
 * anything hostile) and the type flag given raw, and a correct checksum.
 */
export function tarHeader(name: string, sizeField: string, type = '0'): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 'utf8');
  h.write('0000644\0', 100, 'ascii');
  h.write('0000000\0', 108, 'ascii');
  h.write('0000000\0', 116, 'ascii');
  h.write(sizeField, 124, 'ascii');
  h.write('00000000000\0', 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return h;
}
