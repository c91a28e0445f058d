/**
 * Workspace export and restore (issue 12 item 5; docs/cli.md "Export and restore"): the demo
 * workspace made rich (drafts with pending changes, archived, scheduled and unpublished items,
 * version history, a page with pending changes, media with files, a trashed asset, a webhook, a
 * published release and an open one) is exported on SQLite, restored on PostgreSQL (when
 * DATABASE_URL is set) and back on SQLite;
 * each export is byte-identical to the first, and every delivery answer of each restored
 * workspace is byte-identical to the original's but for next_cursor (signed with the
 * installation's secret) and traceId (one per request). After a restore the open release
 * publishes and the published one reverts, as in the original; exports of format versions 1 to 3
 * (no releases) still restore.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createEntry, updateEntry } from '../src/modules/entries/operations.js';
import { changeEntryStatus } from '../src/modules/entries/publishing.js';
import { changePageStatus } from '../src/modules/pages/publishing.js';
import { updatePage } from '../src/modules/pages/operations.js';
import { seedDemo } from '../src/modules/demo/seed.js';
import { stableStringify } from '../src/lib/json.js';
import { createWebhook } from '../src/modules/webhooks/operations.js';
import { hashFile } from '../src/modules/export/files.js';
import { newId } from '../src/lib/ids.js';
import { deleteMedia } from '../src/modules/media/operations.js';
import { cli } from './cli-helpers.js';
import { call, createTestEnv, expectError, type TestEnv } from './helpers.js';
import { png, upload } from './media-fixtures.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-export-'));
const LOCALES = ['en', 'de'];
const M = '/api/v1/manage';

/**
 * Makes the export in `dir` one of an older format version without releases (versions 1 to 3
 * had none, nor comments, which came with version 5): no release or comment files, and version
 * rows without `release_id` (or, with `keepNull`, with
 * it null, as exports written before this format version by a Quire that had releases did).
 */
async function withoutReleases(dir: string, version: number, keepNull = false): Promise<void> {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  for (const file of ['releases', 'release_items', 'comments']) {
    fs.rmSync(path.join(dir, `${file}.ndjson`));
    delete manifest.files[`${file}.ndjson`];
    delete manifest.counts[file];
  }
  for (const file of ['entry_versions', 'page_versions']) {
    const name = path.join(dir, `${file}.ndjson`);
    const rows = fs
      .readFileSync(name, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .map(({ release_id: _release, ...r }) => (keepNull ? { ...r, release_id: null } : r));
    fs.writeFileSync(name, rows.map((r) => `${stableStringify(r)}\n`).join(''));
    manifest.files[`${file}.ndjson`] = await hashFile(name);
  }
  manifest.version = version;
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
}

/** Every file of an export directory: relative path → bytes. */
function filesOf(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const walk = (d: string, prefix: string) => {
    for (const name of fs.readdirSync(d).sort()) {
      const full = path.join(d, name);
      if (fs.statSync(full).isDirectory()) walk(full, `${prefix}${name}/`);
      else out.set(`${prefix}${name}`, fs.readFileSync(full));
    }
  };
  walk(dir, '');
  return out;
}

function expectSameFiles(a: string, b: string): void {
  const fa = filesOf(a);
  const fb = filesOf(b);
  expect([...fb.keys()]).toEqual([...fa.keys()]);
  for (const [name, bytes] of fa) {
    if (name.startsWith('media/')) expect(fb.get(name)!.equals(bytes), `${name} differs`).toBe(true);
    else expect(fb.get(name)!.toString('utf8'), `${name} differs`).toBe(bytes.toString('utf8'));
  }
}

async function newKey(env: TestEnv, environment: 'production' | 'preview'): Promise<string> {
  const run = await cli(['keys', 'create', '--workspace', 'demo', '--class', 'delivery', '--environment', environment, '--json'], { context: env.ctx });
  expect(run.stderr).toBe('');
  return run.json().key as string;
}

/** Raw bodies of every delivery answer of the demo workspace, by request, for both key kinds. */
async function deliveryAnswers(env: TestEnv): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  const mask = (body: string) => body.replace(/"next_cursor":"[^"]*"/g, '"next_cursor":"…"').replace(/"traceId":"[^"]*"/g, '"traceId":"…"');
  for (const kind of ['production', 'preview'] as const) {
    const key = await newKey(env, kind);
    const get = async (url: string) => {
      const res = await env.app.inject({ method: 'GET', url: `/api/v1/public${url}`, headers: { 'x-api-key': key } });
      answers.set(`${kind} ${url}`, `${res.statusCode} ${mask(res.body)}`);
      return JSON.parse(res.body) as { data: any };
    };
    const schema = await get('/schema');
    const types: string[] = (schema.data.content_types ?? schema.data).filter((t: any) => !t.is_block).map((t: any) => t.slug);
    expect(types.length).toBeGreaterThan(1);
    for (const type of types) {
      for (const locale of LOCALES) {
        const list = await get(`/entries?type=${type}&locale=${locale}&limit=100`);
        for (const e of list.data) await get(`/entries/${e.slug}?type=${type}&locale=${locale}`);
      }
    }
    // Datetimes with their authors' offsets, ordered and filtered by instant.
    if (types.includes('gig')) {
      await get('/entries?type=gig&sort=starts:asc&limit=100');
      await get(`/entries?type=gig&sort=starts:desc&limit=2&filter[starts][lt]=${encodeURIComponent('2026-11-21T10:00:00+01:00')}`);
    }
    for (const locale of LOCALES) {
      const pages = await get(`/pages?locale=${locale}&limit=100`);
      for (const p of pages.data) await get(`/pages/${p.slug}?locale=${locale}`);
    }
    const media = await env.ctx.db.kysely.selectFrom('media').select('id').orderBy('id').execute();
    for (const m of media) await get(`/media/${m.id}`);
  }
  return answers;
}

describe('workspace export and restore', () => {
  const envs: TestEnv[] = [];
  let original: TestEnv;
  let originalAnswers: Map<string, string>;
  const first = path.join(tmp, 'first');
  /** The releases of the original: published (Spring) and open (Autumn), and what they change. */
  const rel = { published: '', open: '', pageSlug: '', titleBefore: '' };
  /** Media the demo seeds itself (ids; how many have files), and the two squares uploaded here. */
  let demoMedia: string[] = [];
  let demoFiles = 0;
  const squares: string[] = [];

  beforeAll(async () => {
    original = await createTestEnv('sqlite', { config: { demo: true, webhookAllowPrivate: true } });
    envs.push(original);
    const demo = await seedDemo(original.ctx);
    if (!demo) throw new Error('demo not seeded');
    const ctx = original.ctx;
    const actor = systemActor(demo.workspace.id, demo.user.id);
    const mgmt = demo.keys.management;
    // Pending changes on a published post, an archived one, a scheduled one, an unpublished one, a new draft.
    await updateEntry(ctx, actor, 'post', { slug: 'welcome-to-quire' }, async (_db, _ct, stored) => ({
      data: { ...stored.data, title: 'Welcome (working copy)' },
    }));
    await changeEntryStatus(ctx, actor, 'post', { slug: 'modeling-content-with-types-and-fields' }, 'archive');
    await changeEntryStatus(ctx, actor, 'post', { slug: 'keys-previews-and-tokens' }, 'unpublish');
    const later = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    await changeEntryStatus(ctx, actor, 'post', { slug: 'keys-previews-and-tokens' }, 'schedule', { publishAt: later });
    await changeEntryStatus(ctx, actor, 'post', { slug: 'scheduling-a-release' }, 'unpublish');
    await createEntry(ctx, actor, 'author', { slug: 'draft-author', data: { name: 'Draft Author' }, translations: { de: { data: { role: 'Entwurf' } } } });
    // A page with pending changes, and one taken offline.
    const pages = await ctx.db.kysely.selectFrom('pages').select('slug').orderBy('position').execute();
    await updatePage(ctx, actor, { slug: pages[0].slug }, { seo: { title: 'Home (working copy)' } });
    await changePageStatus(ctx, actor, { slug: pages[pages.length - 1].slug }, 'unpublish');
    // Media with files, one of them in the trash, and a webhook.
    const seeded = await ctx.db.kysely.selectFrom('media').select(['id', 'storage_key']).execute();
    demoMedia = seeded.map((m) => m.id);
    demoFiles = seeded.filter((m) => m.storage_key).length;
    for (const [name, color] of [
      ['a.png', '#ff0000'],
      ['b.png', '#00ff00'],
    ]) {
      const res = await upload(original.app, {
        key: mgmt,
        workspaceId: demo.workspace.id,
        parts: [
          { name: 'file', filename: name, data: await png(8, 6, color), contentType: 'image/png' },
          { name: 'title', value: `Square ${name}` },
          { name: 'description', value: `A square in ${color}` },
        ],
      });
      expect(res.status).toBe(201);
      squares.push(res.body.data.id);
    }
    await deleteMedia(ctx, actor, demo.workspace.id, squares[1]);
    await createWebhook(ctx, actor, { url: 'http://127.0.0.1:9/hook', events: ['entry.published'] });
    // Datetime values keep their offsets, in a sortable, filterable and unique field.
    const gig = await call(original.app, 'POST', '/api/v1/manage/content-types', {
      key: mgmt,
      body: { name: 'Gig', slug: 'gig', fields: [{ name: 'starts', field_type: 'datetime', sortable: true, filterable: true, is_unique: true }] },
    });
    expect(gig.status).toBe(201);
    for (const [slug, starts] of [
      ['berlin', '2026-11-21T10:00+02:00'],
      ['utc', '2026-11-21T09:00:00Z'],
      ['kolkata', '2026-11-21T08:00:00.250+05:30'],
    ]) {
      expect((await call(original.app, 'POST', '/api/v1/manage/content-types/gig/entries', { key: mgmt, body: { slug, data: { starts } } })).status).toBe(201);
      expect((await call(original.app, 'PATCH', `/api/v1/manage/content-types/gig/entries/${slug}/publish`, { key: mgmt })).status).toBe(200);
    }
    // Releases: a published one (its versions carry its id, its items what a revert puts back),
    // and an open one with a publish item holding an edited release version and an unpublish item.
    const req = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => {
      const res = await call(original.app, method, `${M}${url}`, { key: mgmt, body });
      expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      return res.body.data;
    };
    const idOf = async (url: string) => (await req('GET', url)).id as string;
    rel.titleBefore = JSON.parse((await req('GET', '/content-types/post/entries/one-entry-many-languages')).data).title;
    rel.published = (await req('POST', '/releases', { title: 'Spring', description: 'what went live' })).id;
    await req('POST', `/releases/${rel.published}/items`, {
      kind: 'entry',
      id: await idOf('/content-types/post/entries/one-entry-many-languages'),
      action: 'publish',
    });
    await req('PUT', `/content-types/post/entries/one-entry-many-languages?release=${rel.published}`, {
      data: { ...JSON.parse((await req('GET', '/content-types/post/entries/one-entry-many-languages')).data), title: 'One entry (Spring)' },
    });
    rel.pageSlug = pages[pages.length - 1].slug;
    await req('POST', `/releases/${rel.published}/items`, { kind: 'page', id: (await req('GET', `/pages/${rel.pageSlug}`)).page.id, action: 'publish' });
    await req('POST', `/releases/${rel.published}/publish`);
    rel.open = (await req('POST', '/releases', { title: 'Autumn' })).id;
    await req('POST', `/releases/${rel.open}/items`, { kind: 'entry', id: await idOf('/content-types/author/entries/mara-lindqvist'), action: 'publish' });
    await req('PUT', `/content-types/author/entries/mara-lindqvist?release=${rel.open}`, {
      data: { ...JSON.parse((await req('GET', '/content-types/author/entries/mara-lindqvist')).data), name: 'Mara L. (Autumn)' },
    });
    await req('POST', `/releases/${rel.open}/items`, { kind: 'entry', id: await idOf('/content-types/post/entries/welcome-to-quire'), action: 'unpublish' });
    originalAnswers = await deliveryAnswers(original);
  });
  afterAll(async () => {
    for (const env of envs) await env.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('exports the workspace to a directory with a deterministic manifest', async () => {
    const run = await cli(['export', '--workspace', 'demo', '--out', first, '--with-users', '--json'], { context: original.ctx });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const manifest = JSON.parse(fs.readFileSync(path.join(first, 'manifest.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'quire-export', version: 5, workspace: { slug: 'demo' }, options: { with_users: true } });
    expect(manifest.counts).toMatchObject({
      entries: 12,
      media: demoMedia.length + 2,
      media_files: demoFiles + 1,
      webhooks: 1,
      members: 1,
      releases: 2,
      release_items: 4,
    });
    // Versions keep the release they came from: the published release's entry and page versions.
    for (const file of ['entry_versions', 'page_versions'])
      expect(fs.readFileSync(path.join(first, `${file}.ndjson`), 'utf8')).toContain(`"release_id":"${rel.published}"`);
    const items = fs.readFileSync(path.join(first, 'release_items.ndjson'), 'utf8');
    expect(items).toContain('Mara L. (Autumn)');
    expect(items).not.toContain('items_revision');
    expect(fs.readFileSync(path.join(first, 'entries.ndjson'), 'utf8')).toContain('2026-11-21T08:00:00.250+05:30');
    expect(manifest.counts.entry_versions).toBeGreaterThan(manifest.counts.entries);
    expect(manifest.counts.blocks).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(first, 'webhooks.ndjson'), 'utf8')).not.toContain('secret');
    // Exporting again gives the same bytes (no time of export in it).
    const again = path.join(tmp, 'again.tar');
    expect((await cli(['export', '--workspace', 'demo', '--out', again, '--with-users'], { context: original.ctx })).code).toBe(0);
    const unpacked = path.join(tmp, 'again');
    const check = await createTestEnv('sqlite');
    envs.push(check);
    const { unpackTo } = await import('../src/modules/export/tar.js');
    await unpackTo(again, unpacked, () => Number.MAX_SAFE_INTEGER);
    expectSameFiles(first, unpacked);
  });

  const targets: ('sqlite' | 'postgres')[] = process.env.DATABASE_URL ? ['postgres', 'sqlite'] : ['sqlite'];
  let source = first;
  for (const [i, dialect] of targets.entries()) {
    it(`restores on ${dialect} (step ${i + 1}): the next export is byte-identical and every delivery answer the same`, async () => {
      const env = await createTestEnv(dialect, { config: { webhookAllowPrivate: true } });
      envs.push(env);
      // Alternate directory and tar sources.
      let from = source;
      if (i % 2 === 0) {
        from = path.join(tmp, `step-${i}.tar`);
        const prev = dialect === 'postgres' || i === 0 ? original : envs[envs.length - 2];
        expect((await cli(['export', '--workspace', 'demo', '--out', from, '--with-users'], { context: prev.ctx })).code).toBe(0);
      }
      // Webhooks as exported, so the next export can be identical (the default disables them: see below).
      const run = await cli(['import', 'quire', from, '--workspace', 'demo', '--webhooks', 'as-exported', '--json'], { context: env.ctx });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const result = run.json();
      expect(result.workspace.created).toBe(true);
      expect(result.webhooks).toHaveLength(1);
      expect(result.webhooks[0].secret).toMatch(/^whsec_/);
      const hook = await env.ctx.db.kysely.selectFrom('webhooks').select('enabled').executeTakeFirstOrThrow();
      expect(Number(hook.enabled)).toBe(1);
      const out = path.join(tmp, `after-${i}`);
      expect((await cli(['export', '--workspace', 'demo', '--out', out, '--with-users'], { context: env.ctx })).code).toBe(0);
      expectSameFiles(first, out);
      const answers = await deliveryAnswers(env);
      expect([...answers.keys()]).toEqual([...originalAnswers.keys()]);
      // Byte for byte: `data` strings are written with sorted keys and block translations in a
      // fixed order, whatever database holds them.
      for (const [request, body] of originalAnswers) expect(answers.get(request), request).toBe(body);
      source = out;
    });
  }

  it('restores releases on each database: the open one then publishes and the published one reverts', async () => {
    for (const dialect of targets) {
      const env = await createTestEnv(dialect);
      envs.push(env);
      const run = await cli(['import', 'quire', first, '--workspace', 'demo', '--json'], { context: env.ctx });
      expect(run.stderr).toBe('');
      expect(run.json().counts).toMatchObject({ releases: 2, release_items: 4 });
      const mgmt = (await cli(['keys', 'create', '--workspace', 'demo', '--class', 'management', '--json'], { context: env.ctx })).json().key as string;
      const delivery = await newKey(env, 'production');
      const req = (method: 'GET' | 'POST', url: string) => call(env.app, method, `${M}${url}`, { key: mgmt });
      const live = (url: string) => call(env.app, 'GET', `/api/v1/public${url}`, { key: delivery });
      const title = async () => JSON.parse((await live('/entries/one-entry-many-languages?type=post')).body.data.entry.data).title;
      const list = (await req('GET', '/releases')).body.data as {
        title: string;
        status: string;
        items_count: number;
        reverted_at: string | null;
        created_by: number | null;
      }[];
      // Authors are the restored member's user id here.
      const member = await env.ctx.db.kysely.selectFrom('users').select('id').where('email', '=', 'demo@quire.local').executeTakeFirstOrThrow();
      expect(list.map((r) => [r.title, r.status, r.items_count, r.reverted_at, r.created_by]).sort()).toEqual([
        ['Autumn', 'open', 2, null, Number(member.id)],
        ['Spring', 'published', 2, null, Number(member.id)],
      ]);
      // The release version came back with its release: the open release reads the edited author.
      const variant = await req('GET', `/content-types/author/entries/mara-lindqvist?release=${rel.open}`);
      expect(JSON.parse(variant.body.data.data).name).toBe('Mara L. (Autumn)');
      const published = await req('POST', `/releases/${rel.open}/publish`);
      expect(published.status, JSON.stringify(published.body)).toBe(200);
      expect(JSON.parse((await live('/entries/mara-lindqvist?type=author')).body.data.entry.data).name).toBe('Mara L. (Autumn)');
      expect((await live('/entries/welcome-to-quire?type=post')).status).toBe(404);
      // The revert puts back what Spring replaced (its items' records came back): the title before, the page offline.
      expect(await title()).toBe('One entry (Spring)');
      expect((await live(`/pages/${rel.pageSlug}`)).status).toBe(200);
      const reverted = await req('POST', `/releases/${rel.published}/revert`);
      expect(reverted.status, JSON.stringify(reverted.body)).toBe(200);
      expect(await title()).toBe(rel.titleBefore);
      expect((await live(`/pages/${rel.pageSlug}`)).status).toBe(404);
    }
    // Without members, release and item authors (foreign keys to users) name no user here: null.
    const noMembers = path.join(tmp, 'no-members');
    fs.cpSync(first, noMembers, { recursive: true });
    fs.rmSync(path.join(noMembers, 'members.ndjson'));
    const manifest = JSON.parse(fs.readFileSync(path.join(noMembers, 'manifest.json'), 'utf8'));
    delete manifest.files['members.ndjson'];
    fs.writeFileSync(path.join(noMembers, 'manifest.json'), JSON.stringify(manifest));
    const env = await createTestEnv('sqlite');
    envs.push(env);
    const run = await cli(['import', 'quire', noMembers, '--workspace', 'demo', '--json'], { context: env.ctx });
    expect(run.stderr).toBe('');
    const db = env.ctx.db.kysely;
    expect(await db.selectFrom('releases').select(['created_by', 'updated_by']).execute()).toEqual([
      { created_by: null, updated_by: null },
      { created_by: null, updated_by: null },
    ]);
    const authors = await db.selectFrom('release_items').select(['created_by', 'updated_by']).execute();
    expect(authors).toHaveLength(4);
    expect(authors.every((a) => a.created_by === null && a.updated_by === null)).toBe(true);
    // Entries keep the numbers (no foreign key): they name users of the exporting installation.
    expect((await db.selectFrom('entries').select('created_by').execute()).every((e) => typeof e.created_by === 'number')).toBe(true);
  });

  it('holds no media URL; a restore under another PUBLIC_URL, of version 1 to 3 exports too (no releases), answers with its own; titles from version 3', async () => {
    const text = fs.readFileSync(path.join(first, 'media.ndjson'), 'utf8');
    expect(text).not.toContain('quire.test');
    const media = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(media.every((r) => !('url' in r) && r.remote_url === null && typeof r.storage_key === 'string')).toBe(true);
    expect(media.filter((r) => squares.includes(String(r.id))).map((r) => r.title)).toEqual(['Square a.png', 'Square b.png']);

    // The same export as version 1 wrote it: each media row with the exporting host's absolute
    // url, plus a remote asset (imported by URL) whose url is all there is of it.
    const REMOTE = 'https://images.ctfassets.net/space/abc123/def456/remote.jpg';
    const v1 = path.join(tmp, 'version-1');
    fs.cpSync(first, v1, { recursive: true });
    await withoutReleases(v1, 1);
    const remote = { ...media[0], id: newId(), storage_key: null, remote_url: REMOTE, filename: 'remote.jpg', original_name: 'remote.jpg', deleted_at: null };
    const rows = [...media, remote].map(({ remote_url, ...r }) => ({
      ...r,
      url: r.storage_key ? `http://old-host.invalid/media/files/${String(r.storage_key)}` : remote_url,
    }));
    fs.writeFileSync(path.join(v1, 'media.ndjson'), rows.map((r) => `${stableStringify(r)}\n`).join(''));
    const manifest = JSON.parse(fs.readFileSync(path.join(v1, 'manifest.json'), 'utf8'));
    manifest.version = 1;
    manifest.counts.media = rows.length;
    manifest.files['media.ndjson'] = await hashFile(path.join(v1, 'media.ndjson'));
    fs.writeFileSync(path.join(v1, 'manifest.json'), JSON.stringify(manifest));
    // Version 2: media rows without title and description (migration 018 came with version 3).
    const v2 = path.join(tmp, 'version-2');
    fs.cpSync(first, v2, { recursive: true });
    await withoutReleases(v2, 2);
    const v2Rows = media.map(({ title: _title, description: _description, ...r }) => r);
    fs.writeFileSync(path.join(v2, 'media.ndjson'), v2Rows.map((r) => `${stableStringify(r)}\n`).join(''));
    const manifest2 = JSON.parse(fs.readFileSync(path.join(v2, 'manifest.json'), 'utf8'));
    manifest2.version = 2;
    manifest2.files['media.ndjson'] = await hashFile(path.join(v2, 'media.ndjson'));
    fs.writeFileSync(path.join(v2, 'manifest.json'), JSON.stringify(manifest2));

    // Version 3: no releases; its version rows as a Quire with releases wrote them before version 4 (release_id null).
    const v3 = path.join(tmp, 'version-3');
    fs.cpSync(first, v3, { recursive: true });
    await withoutReleases(v3, 3, true);

    for (const source of [first, v1, v2, v3]) {
      const env = await createTestEnv('sqlite', { config: { publicUrl: 'https://restored.example' } });
      envs.push(env);
      const run = await cli(['import', 'quire', source, '--workspace', 'demo', '--json'], { context: env.ctx });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const key = (await cli(['keys', 'create', '--workspace', 'demo', '--class', 'management', '--json'], { context: env.ctx })).json().key;
      const list = (await call(env.app, 'GET', '/api/v1/manage/media', { key })).body.data as {
        id: string;
        url: string;
        filename: string;
        title: string | null;
        description: string | null;
      }[];
      const texts = list.filter((m) => squares.includes(m.id)).map((m) => [m.title, m.description]);
      expect(texts).toEqual(source === first || source === v3 ? [['Square a.png', 'A square in #ff0000']] : [[null, null]]);
      expect((await call(env.app, 'GET', `${M}/releases`, { key })).body.data).toHaveLength(source === first ? 2 : 0);
      const stored = await env.ctx.db.kysely.selectFrom('media').select(['id', 'storage_key', 'remote_url']).where('deleted_at', 'is', null).execute();
      expect(list.filter((m) => !demoMedia.includes(m.id))).toHaveLength(source === v1 ? 2 : 1);
      for (const row of stored) {
        const url = list.find((m) => m.id === row.id)?.url;
        if (row.storage_key === null) {
          expect(row.remote_url).toBe(REMOTE);
          expect(url).toBe(REMOTE);
          continue;
        }
        expect(row.remote_url).toBeNull();
        expect(url).toBe(`https://restored.example/media/files/${row.storage_key}`);
        expect((await env.app.inject({ method: 'GET', url: new URL(url!).pathname })).statusCode).toBe(200);
      }
    }
  });

  it('refuses a workspace that holds content, a damaged file and a newer format', async () => {
    const env = envs[envs.length - 1];
    const busy = await cli(['import', 'quire', first, '--workspace', 'demo'], { context: env.ctx });
    expect(busy.code).toBe(1);
    expect(busy.stderr).toMatch(/workspace 'demo' is not empty/);
    const same = await cli(['import', 'quire', first, '--workspace', 'other'], { context: env.ctx });
    expect(same.code).toBe(1);
    expect(same.stderr).toMatch(/already exists in this database \(restore keeps ids\)/);
    expect(await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', 'other').executeTakeFirst()).toBeUndefined();
    // By default a restored webhook is disabled, with a new secret shown once.
    const fresh = await createTestEnv('sqlite');
    envs.push(fresh);
    const restored = await cli(['import', 'quire', first, '--workspace', 'copy'], { context: fresh.ctx });
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(/Webhooks were restored disabled with new signing secrets[^\n]*\n {2}\S+ {2}http:\/\/127\.0\.0\.1:9\/hook {2}whsec_/);
    const hook = await fresh.ctx.db.kysely.selectFrom('webhooks').select(['enabled', 'secret_encrypted']).executeTakeFirstOrThrow();
    expect(Number(hook.enabled)).toBe(0);
    expect(await fresh.ctx.db.kysely.selectFrom('workspaces').select('slug').execute()).toEqual([{ slug: 'copy' }]);
    const damaged = path.join(tmp, 'damaged');
    fs.cpSync(first, damaged, { recursive: true });
    fs.appendFileSync(path.join(damaged, 'entries.ndjson'), '{}\n');
    const bad = await cli(['import', 'quire', damaged, '--workspace', 'fresh'], { context: env.ctx });
    expect(bad.stderr).toMatch(/file 'entries.ndjson' does not match the manifest/);
    const manifest = JSON.parse(fs.readFileSync(path.join(first, 'manifest.json'), 'utf8'));
    fs.writeFileSync(path.join(damaged, 'manifest.json'), JSON.stringify({ ...manifest, version: 6 }));
    const newer = await cli(['import', 'quire', damaged, '--workspace', 'fresh'], { context: env.ctx });
    expect(newer.stderr).toMatch(/version 6 is not supported by this Quire \(it reads versions 1 to 5\)/);
    // An older version's manifest listing a release file was not written by Quire (its rows would be dropped).
    const relabelled = path.join(tmp, 'relabelled');
    fs.cpSync(first, relabelled, { recursive: true });
    fs.writeFileSync(path.join(relabelled, 'manifest.json'), JSON.stringify({ ...manifest, version: 3 }));
    const older = await cli(['import', 'quire', relabelled, '--workspace', 'fresh'], { context: env.ctx });
    expect(older.stderr).toMatch(/lists 'releases\.ndjson', which is not part of a version 3 export/);
    const missing = await cli(['export', '--workspace', 'nope', '--out', path.join(tmp, 'nope')], { context: env.ctx });
    expect(missing.stderr).toMatch(/workspace 'nope' not found/);
    expectError(await call(env.app, 'GET', '/api/v1/public/schema'), 401, 'UNAUTHORIZED');
  });
});
