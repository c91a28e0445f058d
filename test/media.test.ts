/**
 * The media library over HTTP (issue 4 items 1, 2, 4; docs/api.md "Media (management)";
 * docs/media.md "Uploading"
 * (D50), "URLs" (D51), "Storage" (D52)):
 * upload (types from bytes, dimensions, limits, X-Workspace-ID, validation, cleanup), list,
 * get, update (folder moves), delete and delivery metadata. Every suite runs on each dialect
 * with each storage backend (a local folder; a real S3-compatible server on 127.0.0.1).
 */
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { filesUnder, jpeg, mp4, multipart, pdf, png, startS3, storedKeys, upload, webm, type Part, type S3Server } from './media-fixtures.js';
import { memberWithPassword, signedIn } from './studio-helpers.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const cases = dialects().flatMap((d) => (['local', 's3'] as const).map((s) => [d, s] as const));

describe.each(cases)('media library on %s with %s storage', (dialect, driver) => {
  let env: TestEnv;
  let s3: S3Server | null = null;
  let key: string;
  let delivery: string;
  let wsId: string;
  let userId: number;
  let other: { key: string; delivery: string; wsId: string };

  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    env = await createTestEnv(dialect, { config: s3?.config ?? {} });
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    delivery = s.keys.delivery;
    wsId = s.workspace.id;
    userId = s.user.id;
    const o = await seedWorkspace(env.ctx);
    other = { key: o.keys.management, delivery: o.keys.delivery, wsId: o.workspace.id };
  });
  afterAll(async () => {
    await env?.close();
    await s3?.close();
    if (env) await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  const file = (data: Buffer, filename = 'photo.png', contentType = 'image/png'): Part => ({ name: 'file', filename, data, contentType });
  const send = (parts: Part[], opts: { k?: string; ws?: string | null; headers?: Record<string, string> } = {}) =>
    upload(env.app, { key: opts.k ?? key, workspaceId: opts.ws === null ? undefined : (opts.ws ?? wsId), parts, headers: opts.headers });
  const keys = () => storedKeys(env.config, s3);
  const rowCount = async () =>
    Number(
      (
        await env.ctx.db.kysely
          .selectFrom('media')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const spooled = () => filesUnder(path.join(env.config.dataDir, 'tmp'));

  it('uploads an image: type and size from the bytes, generated filename, absolute url, stored file', async () => {
    const res = await send([
      file(await png(640, 480), 'My Photo (1).PNG', 'application/pdf'),
      { name: 'alt_text', value: 'A blue square' },
      { name: 'folder', value: 'blog/2024' },
      { name: 'focal_x', value: '0.25' },
      { name: 'focal_y', value: '0.75' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Success', meta: null });
    const m = res.body.data;
    expect(m).toMatchObject({
      workspace_id: wsId,
      mime_type: 'image/png',
      width: 640,
      height: 480,
      alt_text: 'A blue square',
      focal_x: 0.25,
      focal_y: 0.75,
      original_name: 'My Photo (1).PNG',
      folder: 'blog/2024',
      uploaded_by: userId,
    });
    expect(m.filename).toBe(`${m.id}.png`);
    expect(m.url).toBe(`http://quire.test/media/files/${wsId}/blog/2024/${m.id}.png`);
    expect(m.size).toBe((await png(640, 480)).length);
    expect(m.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(await keys()).toContain(`${wsId}/blog/2024/${m.id}.png`);
    const row = await env.ctx.db.kysely.selectFrom('media').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(row.storage_key).toBe(`${wsId}/blog/2024/${m.id}.png`);
    expect(await spooled()).toEqual([]);
  });

  it('honours Idempotency-Key on uploads: same file replays (new boundary), another file answers 422', async () => {
    const idem = randomUUID();
    const image = await png(32, 32, '#aa0000');
    const before = await rowCount();
    const first = await send([file(image, 'a.png'), { name: 'alt_text', value: 'Red' }], { headers: { 'idempotency-key': idem } });
    expect(first.status).toBe(201);
    // multipart() draws a new boundary per call, as a retrying client would.
    const again = await send([file(image, 'a.png'), { name: 'alt_text', value: 'Red' }], { headers: { 'idempotency-key': idem } });
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    const other = await send([file(await png(32, 32, '#00aa00'), 'a.png'), { name: 'alt_text', value: 'Red' }], { headers: { 'idempotency-key': idem } });
    expectError(other, 422, 'IDEMPOTENCY_KEY_REUSED');
    const otherAlt = await send([file(image, 'a.png'), { name: 'alt_text', value: 'Green' }], { headers: { 'idempotency-key': idem } });
    expectError(otherAlt, 422, 'IDEMPOTENCY_KEY_REUSED');
    const badKey = expectError(await send([file(image, 'b.png')], { headers: { 'idempotency-key': 'upload-1' } }), 400, 'VALIDATION_FAILED');
    expect(badKey.errors[0].path).toBe('headers.idempotency-key');
    expect(await rowCount()).toBe(before + 1);
    expect(await spooled()).toEqual([]);
  });

  it('measures JPEGs after EXIF orientation, videos from their container, PDFs without a size', async () => {
    const rotated = await send([file(await jpeg(300, 200, 6), 'portrait.jpg', 'image/jpeg')]);
    expect(rotated.body.data).toMatchObject({ mime_type: 'image/jpeg', width: 200, height: 300 });
    expect(rotated.body.data.filename).toMatch(/\.jpg$/);

    const video = await send([file(mp4({ width: 1280, height: 720, moovLast: true }), 'clip.mp4', 'video/mp4')]);
    expect(video.status).toBe(201);
    expect(video.body.data).toMatchObject({ mime_type: 'video/mp4', width: 1280, height: 720 });
    expect(video.body.data.filename).toMatch(/\.mp4$/);

    const web = await send([file(webm({ width: 854, height: 480 }), 'clip.webm', 'video/webm')]);
    expect(web.body.data).toMatchObject({ mime_type: 'video/webm', width: 854, height: 480 });

    const silent = await send([file(mp4({ width: 0, height: 0, audioOnly: true, brand: 'mp42' }), 'no-size.mp4')]);
    expect(silent.body.data).toMatchObject({ mime_type: 'video/mp4', width: null, height: null });

    const doc = await send([file(pdf(), 'report.pdf', 'application/pdf'), { name: 'alt_text', value: 'Annual report' }]);
    expect(doc.status).toBe(201);
    expect(doc.body.data).toMatchObject({ mime_type: 'application/pdf', width: null, height: null, alt_text: 'Annual report', folder: null });
    expect(doc.body.data.url).toBe(`http://quire.test/media/files/${wsId}/${doc.body.data.id}.pdf`);
  });

  it('judges the type by the bytes, not the name or the claimed type: 415 for anything else', async () => {
    const cases: [Buffer, string, string][] = [
      [Buffer.from('just some text, no image'), 'photo.png', 'image/png'],
      [Buffer.from('<!doctype html><html><script>alert(1)</script></html>'), 'page.jpg', 'image/jpeg'],
      [Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00' + 'x'.repeat(100), 'latin1'), 'archive.pdf', 'application/pdf'],
      [Buffer.from('#!/bin/sh\nrm -rf /\n'), 'run.mp4', 'video/mp4'],
      [Buffer.from('BM' + '\0'.repeat(60), 'latin1'), 'image.bmp', 'image/bmp'],
    ];
    const before = await keys();
    for (const [data, name, claimed] of cases) {
      const res = await send([file(data, name, claimed)]);
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await keys()).toEqual(before);
    expect(await spooled()).toEqual([]);
  });

  it('sanitizes SVG before storing it, and refuses SVG it cannot make safe', async () => {
    const dirty = `<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" onload="alert(1)"><script>alert(2)</script><rect width="10" height="10" fill="red"/><a href="javascript:alert(3)"><text>hi</text></a><foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject></svg>`;
    const res = await send([file(Buffer.from(dirty), 'logo.svg', 'image/svg+xml')]);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ mime_type: 'image/svg+xml', width: 120, height: 80 });
    const served = await env.app.inject({ method: 'GET', url: new URL(res.body.data.url).pathname });
    expect(served.headers['content-type']).toBe('image/svg+xml');
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    expect(served.body).toContain('<rect');
    expect(served.body).not.toMatch(/script|onload|javascript:|foreignObject/i);
    expect(res.body.data.size).toBe(Buffer.byteLength(served.body));

    const entities = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>`;
    expectError(await send([file(Buffer.from(entities), 'bomb.svg', 'image/svg+xml')]), 415, 'UNSUPPORTED_MEDIA_TYPE');
    const broken = `<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>`;
    expectError(await send([file(Buffer.from(broken), 'broken.svg', 'image/svg+xml')]), 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('answers 413 for a file over 10 MB and keeps no file and no row; exactly 10 MB is accepted', async () => {
    const before = { keys: await keys(), rows: await rowCount() };
    const tooBig = pdf(10 * 1024 * 1024 + 1);
    const res = await send([file(tooBig, 'big.pdf', 'application/pdf'), { name: 'alt_text', value: 'x' }]);
    const body = expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(body.message).toContain('10 MB');
    expect(await keys()).toEqual(before.keys);
    expect(await rowCount()).toBe(before.rows);
    expect(await spooled()).toEqual([]);

    const exact = await send([file(pdf(10 * 1024 * 1024), 'exact.pdf', 'application/pdf')]);
    expect(exact.status).toBe(201);
    expect(exact.body.data.size).toBe(10 * 1024 * 1024);
  });

  it('answers 413 from the declared length before reading a body far over the limit', async () => {
    const res = await env.app.inject({
      method: 'POST',
      url: `${M}/media/upload`,
      headers: { 'x-api-key': key, 'x-workspace-id': wsId, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(50 * 1024 * 1024) },
      payload: '--x--\r\n',
    });
    expect(res.statusCode).toBe(413);
    expect(JSON.parse(res.body).code).toBe('PAYLOAD_TOO_LARGE');
  });

  it("takes the workspace from the key; X-Workspace-ID, when sent, must be the key's (400 malformed, 403 another workspace)", async () => {
    const parts = [file(await png(8, 8))];
    const bad = expectError(await send(parts, { ws: 'not-a-uuid' }), 400, 'VALIDATION_FAILED');
    expect(bad.errors).toEqual([{ path: 'headers.x-workspace-id', message: 'must be a workspace id (uuid)' }]);
    expect(expectError(await send(parts, { ws: other.wsId }), 403, 'FORBIDDEN').message).toMatch(/another workspace/);
    expect(await spooled()).toEqual([]);
    const absent = await send(parts, { ws: null });
    expect(absent.status, JSON.stringify(absent.body)).toBe(201);
    const id = (absent.body as { data: { id: string; workspace_id: string } }).data.id;
    expect((absent.body as { data: { workspace_id: string } }).data.workspace_id).toBe(wsId);
    const get = await call(env.app, 'GET', `${M}/media/${id}`, { key });
    expect(get.status).toBe(200);
    // Deleting needs no header either.
    expect((await call(env.app, 'DELETE', `${M}/media/${id}`, { key })).status).toBe(200);
    expect((await call(env.app, 'GET', `${M}/media/${id}`, { key })).status).toBe(404);
  });

  it("a Studio session uploads into its workspace: the one X-Workspace-ID names, or the person's only one without it", async () => {
    const s = await seedWorkspace(env.ctx);
    const member = await memberWithPassword(env.ctx, s.workspace.slug, 'editor');
    const browser = await signedIn(env.app, member.email);
    const image = await png(8, 8);
    const sessionUpload = (workspace?: string) => {
      const { payload, contentType } = multipart([{ name: 'file', filename: 's.png', data: image, contentType: 'image/png' }]);
      const headers: Record<string, string> = { cookie: `quire_session=${browser.cookie}`, 'x-csrf-token': browser.csrf!, 'content-type': contentType };
      if (workspace) headers['x-workspace-id'] = workspace;
      return env.app.inject({ method: 'POST', url: `${M}/media/upload`, headers, payload, remoteAddress: browser.address });
    };
    const plain = await sessionUpload();
    expect(plain.statusCode, plain.body).toBe(201);
    expect(JSON.parse(plain.body).data.workspace_id).toBe(s.workspace.id);
    expect((await sessionUpload(s.workspace.id)).statusCode).toBe(201);
    // A workspace the person does not belong to.
    expect(JSON.parse((await sessionUpload(other.wsId)).body).code).toBe('FORBIDDEN');
  });

  it('needs media:write (403) and a management key (401)', async () => {
    const s = await seedWorkspace(env.ctx);
    const noMedia = await createApiKey(env.ctx, s.workspace.id, s.user.id, { keyClass: 'management', scopes: ['content:write'] });
    const res = expectError(await send([file(await png(8, 8))], { k: noMedia.key, ws: s.workspace.id }), 403, 'FORBIDDEN');
    expect(res.message).toContain('media:write');
    expectError(await send([file(await png(8, 8))], { k: delivery }), 401, 'UNAUTHORIZED');
  });

  it('validates the form: folder (D52), focal point, unknown, repeated and missing parts', async () => {
    const img = await png(8, 8);
    const before = { keys: await keys(), rows: await rowCount() };
    for (const folder of ['../etc', '/abs', 'a//b', 'a/', '..', 'a/../b', '%2e%2e%2f', 'Caps', 'sp ace', 'a\\b', 'ü', 'a/./b', 'x'.repeat(65)]) {
      const res = expectError(await send([file(img), { name: 'folder', value: folder }]), 400, 'VALIDATION_FAILED');
      expect(res.errors[0].path).toBe('body.folder');
    }
    // The file part first, the bad field after it: still nothing stored.
    const late = expectError(await send([file(img), { name: 'focal_x', value: '1.5' }, { name: 'focal_y', value: 'abc' }]), 400, 'VALIDATION_FAILED');
    expect(late.errors.map((e: { path: string }) => e.path)).toEqual(['body.focal_x', 'body.focal_y']);
    const lone = expectError(await send([file(img), { name: 'focal_x', value: '0.5' }]), 400, 'VALIDATION_FAILED');
    expect(lone.errors[0].path).toBe('body.focal_y');
    const unknown = expectError(await send([file(img), { name: 'caption', value: 'x' }]), 400, 'VALIDATION_FAILED');
    expect(unknown.errors[0]).toEqual({ path: 'body.caption', message: 'is not a known part' });
    const twice = expectError(await send([{ name: 'alt_text', value: 'a' }, { name: 'alt_text', value: 'b' }, file(img)]), 400, 'VALIDATION_FAILED');
    expect(twice.errors[0].path).toBe('body.alt_text');
    expectError(await send([file(img), { name: 'file', filename: 'b.png', data: img }]), 400, 'VALIDATION_FAILED');
    const missing = expectError(await send([{ name: 'alt_text', value: 'a' }]), 400, 'VALIDATION_FAILED');
    expect(missing.errors[0]).toEqual({ path: 'body.file', message: 'is required' });
    expectError(await send([{ name: 'file', value: 'not a file' }]), 400, 'VALIDATION_FAILED');
    expectError(await send([file(Buffer.alloc(0))]), 400, 'VALIDATION_FAILED');
    expectError(await send([{ name: 'photo', filename: 'a.png', data: img }]), 400, 'VALIDATION_FAILED');
    const longAlt = expectError(await send([file(img), { name: 'alt_text', value: 'a'.repeat(1001) }]), 400, 'VALIDATION_FAILED');
    expect(longAlt.errors[0].path).toBe('body.alt_text');
    expect(await keys()).toEqual(before.keys);
    expect(await rowCount()).toBe(before.rows);
    expect(await spooled()).toEqual([]);
  });

  it('answers 415 for a JSON body and 400 for broken multipart', async () => {
    const json = await call(env.app, 'POST', `${M}/media/upload`, { key, body: { file: 'x' }, headers: { 'x-workspace-id': wsId } });
    expectError(json, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const broken = await env.app.inject({
      method: 'POST',
      url: `${M}/media/upload`,
      headers: { 'x-api-key': key, 'x-workspace-id': wsId, 'content-type': 'multipart/form-data; boundary=abc' },
      payload: '--abc\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\n\x89PNG\r\n\x1a\n truncated',
    });
    expect(broken.statusCode).toBe(400);
    expect(JSON.parse(broken.body).code).toBe('VALIDATION_FAILED');
    expect(await spooled()).toEqual([]);
  });

  it('cleans up an upload the client abandons halfway (over a real socket)', async () => {
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (env.app.server.address() as net.AddressInfo).port;
    const before = { keys: await keys(), rows: await rowCount() };
    const sock = net.connect(port, '127.0.0.1');
    await new Promise((r) => sock.once('connect', r));
    sock.write(
      `POST ${M}/media/upload HTTP/1.1\r\nHost: quire.test\r\nX-API-Key: ${key}\r\nX-Workspace-ID: ${wsId}\r\n` +
        'Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 5000000\r\n\r\n' +
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-1.4\n',
    );
    sock.write(Buffer.alloc(300_000, 0x20));
    for (let i = 0; i < 50 && (await spooled()).length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await spooled()).toHaveLength(1);
    sock.destroy();
    for (let i = 0; i < 100 && (await spooled()).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await spooled()).toEqual([]);
    expect(await keys()).toEqual(before.keys);
    expect(await rowCount()).toBe(before.rows);
  });

  it('leaves no file and no row when the database refuses the record', async () => {
    const trigger =
      dialect === 'sqlite'
        ? [sql`CREATE TRIGGER media_refuse BEFORE INSERT ON media WHEN NEW.alt_text = 'refuse' BEGIN SELECT RAISE(ABORT, 'refused'); END`]
        : [
            sql`CREATE FUNCTION media_refuse() RETURNS trigger AS $$ BEGIN IF NEW.alt_text = 'refuse' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
            sql`CREATE TRIGGER media_refuse BEFORE INSERT ON media FOR EACH ROW EXECUTE FUNCTION media_refuse()`,
          ];
    for (const s of trigger) await s.execute(env.ctx.db.kysely);
    try {
      const before = { keys: await keys(), rows: await rowCount() };
      const res = await send([file(await png(16, 16)), { name: 'alt_text', value: 'refuse' }]);
      expectError(res, 500, 'INTERNAL_ERROR');
      expect(await keys()).toEqual(before.keys);
      expect(await rowCount()).toBe(before.rows);
      expect(await spooled()).toEqual([]);
    } finally {
      await sql`DROP TRIGGER media_refuse${sql.raw(dialect === 'postgres' ? ' ON media' : '')}`.execute(env.ctx.db.kysely);
      if (dialect === 'postgres') await sql`DROP FUNCTION media_refuse()`.execute(env.ctx.db.kysely);
    }
  });

  describe('managing', () => {
    let ids: string[] = [];
    beforeAll(async () => {
      ids = [];
      for (const [folder, name] of [
        ['gallery', 'a.png'],
        ['gallery', 'b.png'],
        ['docs', 'c.pdf'],
        ['', 'd.png'],
      ] as const) {
        const data = name.endsWith('.pdf') ? pdf() : await png(20, 10);
        const res = await send([file(data, name), ...(folder ? [{ name: 'folder', value: folder }] : [])]);
        ids.push(res.body.data.id);
      }
    });

    it('lists newest first with pagination meta, and filters by folder and type', async () => {
      const all = await call(env.app, 'GET', `${M}/media?limit=2`, { key });
      expect(all.status).toBe(200);
      expect(all.body.data).toHaveLength(2);
      expect(all.body.data[0].id).toBe(ids[3]);
      expect(all.body.meta).toMatchObject({ current_page: 1, page_size: 2 });
      expect(all.body.meta.total_data).toBeGreaterThanOrEqual(4);
      const gallery = await call(env.app, 'GET', `${M}/media?folder=gallery`, { key });
      expect(gallery.body.data.map((m: { id: string }) => m.id)).toEqual([ids[1], ids[0]]);
      expect(gallery.body.meta).toMatchObject({ total_data: 2, total_pages: 1 });
      const docs = await call(env.app, 'GET', `${M}/media?type=pdf&folder=docs`, { key });
      expect(docs.body.data.map((m: { id: string }) => m.id)).toEqual([ids[2]]);
      const root = await call(env.app, 'GET', `${M}/media?folder=`, { key });
      expect(root.body.data.every((m: { folder: string | null }) => m.folder === null)).toBe(true);
      expect(root.body.data.map((m: { id: string }) => m.id)).toContain(ids[3]);
      expectError(await call(env.app, 'GET', `${M}/media?folder=../x`, { key }), 400, 'VALIDATION_FAILED');
      expectError(await call(env.app, 'GET', `${M}/media?limit=101`, { key }), 400, 'VALIDATION_FAILED');
      expectError(await call(env.app, 'GET', `${M}/media?page=1001`, { key }), 400, 'PAGE_TOO_DEEP');
      expectError(await call(env.app, 'GET', `${M}/media?sort=x`, { key }), 400, 'VALIDATION_FAILED');
      const others = await call(env.app, 'GET', `${M}/media`, { key: other.key });
      expect(others.body.data).toEqual([]);
    });

    it('gets one asset of the key workspace; 404 for another workspace, unknown or malformed ids', async () => {
      const one = await call(env.app, 'GET', `${M}/media/${ids[0]}`, { key });
      expect(one.body.data).toMatchObject({ id: ids[0], folder: 'gallery', original_name: 'a.png', width: 20, height: 10, size: expect.any(Number) });
      expectError(await call(env.app, 'GET', `${M}/media/${ids[0]}`, { key: other.key }), 404, 'NOT_FOUND');
      expectError(await call(env.app, 'GET', `${M}/media/0190a0a0-0000-7000-8000-000000000000`, { key }), 404, 'NOT_FOUND');
      expectError(await call(env.app, 'GET', `${M}/media/nope`, { key }), 404, 'NOT_FOUND');
      expectError(await call(env.app, 'GET', `${M}/media/${ids[0]}`, { key, headers: { 'x-workspace-id': other.wsId } }), 403, 'FORBIDDEN');
    });

    it('updates alt text and focal point; validates the body', async () => {
      const res = await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key, body: { alt_text: 'New alt', focal_x: 0.1, focal_y: 0.9 } });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ id: ids[0], alt_text: 'New alt', focal_x: 0.1, focal_y: 0.9, folder: 'gallery' });
      expect(res.body.data.updated_at >= res.body.data.created_at).toBe(true);
      const cleared = await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key, body: { alt_text: null, focal_x: null, focal_y: null } });
      expect(cleared.body.data).toMatchObject({ alt_text: null, focal_x: null, focal_y: null });
      const empty = await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key, body: {} });
      expect(empty.body.data).toEqual(cleared.body.data);
      const bad = expectError(await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key, body: { caption: 'x' } }), 400, 'VALIDATION_FAILED');
      expect(bad.errors).toEqual([{ path: 'body.caption', message: 'is not a known key' }]);
      expectError(await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key, body: { focal_x: 2, focal_y: 0 } }), 400, 'VALIDATION_FAILED');
      expectError(await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key, body: { focal_x: 0.5 } }), 400, 'VALIDATION_FAILED');
      expectError(await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key, body: { folder: '../../etc' } }), 400, 'VALIDATION_FAILED');
      expectError(await call(env.app, 'PUT', `${M}/media/${ids[0]}`, { key: other.key, body: { alt_text: 'x' } }), 404, 'NOT_FOUND');
    });

    it('moves the file with the folder: new url and key, old url gone, same bytes', async () => {
      const before = (await call(env.app, 'GET', `${M}/media/${ids[1]}`, { key })).body.data;
      const oldPath = new URL(before.url).pathname;
      const original = await env.app.inject({ method: 'GET', url: oldPath });
      expect(original.statusCode).toBe(200);
      const res = await call(env.app, 'PUT', `${M}/media/${ids[1]}`, { key, body: { folder: 'archive/2023', alt_text: 'moved' } });
      expect(res.status).toBe(200);
      const moved = res.body.data;
      expect(moved).toMatchObject({ folder: 'archive/2023', alt_text: 'moved', filename: before.filename });
      expect(moved.url).toBe(`http://quire.test/media/files/${wsId}/archive/2023/${before.filename}`);
      const stored = await keys();
      expect(stored).toContain(`${wsId}/archive/2023/${before.filename}`);
      expect(stored).not.toContain(`${wsId}/gallery/${before.filename}`);
      expect((await env.app.inject({ method: 'GET', url: oldPath })).statusCode).toBe(404);
      const now = await env.app.inject({ method: 'GET', url: new URL(moved.url).pathname });
      expect(now.statusCode).toBe(200);
      expect(now.rawPayload.equals(original.rawPayload)).toBe(true);
      // To the root and back.
      const root = await call(env.app, 'PUT', `${M}/media/${ids[1]}`, { key, body: { folder: null } });
      expect(root.body.data.url).toBe(`http://quire.test/media/files/${wsId}/${before.filename}`);
      expect(await env.ctx.storage.backend().exists(`${wsId}/${before.filename}`)).toBe(true);
    });

    it('keeps row and file together when the file move fails', async () => {
      const m = (await call(env.app, 'GET', `${M}/media/${ids[3]}`, { key })).body.data;
      // The file vanishes behind Quire's back: the move fails, the row must not change.
      await env.ctx.storage.backend().delete(`${wsId}/${m.filename}`);
      const res = await call(env.app, 'PUT', `${M}/media/${ids[3]}`, { key, body: { folder: 'elsewhere' } });
      expect(res.status).toBe(500);
      const after = (await call(env.app, 'GET', `${M}/media/${ids[3]}`, { key })).body.data;
      expect(after).toMatchObject({ folder: null, url: m.url });
    });

    it("deletes: X-Workspace-ID optional but the key's when sent, record soft-deleted, file removed, then 404 everywhere", async () => {
      const m = (await call(env.app, 'GET', `${M}/media/${ids[2]}`, { key })).body.data;
      const storageKey = `${wsId}/docs/${m.filename}`;
      expect(await keys()).toContain(storageKey);
      const bad = expectError(await call(env.app, 'DELETE', `${M}/media/${ids[2]}`, { key, headers: { 'x-workspace-id': 'nope' } }), 400, 'VALIDATION_FAILED');
      expect(bad.errors[0].path).toBe('headers.x-workspace-id');
      expectError(await call(env.app, 'DELETE', `${M}/media/${ids[2]}`, { key, headers: { 'x-workspace-id': other.wsId } }), 403, 'FORBIDDEN');
      expectError(await call(env.app, 'DELETE', `${M}/media/${ids[2]}`, { key: other.key, headers: { 'x-workspace-id': other.wsId } }), 404, 'NOT_FOUND');
      const res = await call(env.app, 'DELETE', `${M}/media/${ids[2]}`, { key, headers: { 'x-workspace-id': wsId } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Success', data: null, meta: null });
      expect(await keys()).not.toContain(storageKey);
      const row = await env.ctx.db.kysely.selectFrom('media').select(['deleted_at']).where('id', '=', ids[2]).executeTakeFirstOrThrow();
      expect(row.deleted_at).toMatch(/Z$/);
      expectError(await call(env.app, 'GET', `${M}/media/${ids[2]}`, { key }), 404, 'NOT_FOUND');
      expectError(await call(env.app, 'GET', `${P}/media/${ids[2]}`, { key: delivery }), 404, 'NOT_FOUND');
      expect((await env.app.inject({ method: 'GET', url: new URL(m.url).pathname })).statusCode).toBe(404);
      expectError(await call(env.app, 'DELETE', `${M}/media/${ids[2]}`, { key, headers: { 'x-workspace-id': wsId } }), 404, 'NOT_FOUND');
      const list = await call(env.app, 'GET', `${M}/media?folder=docs`, { key });
      expect(list.body.data).toEqual([]);
    });

    it('resolves media and media_list fields of delivered entries to the same delivery object (D41)', async () => {
      const ct = await call(env.app, 'POST', `${M}/content-types`, {
        key,
        body: {
          name: 'Gallery page',
          fields: [
            { name: 'title', field_type: 'text' },
            { name: 'cover', field_type: 'media' },
            { name: 'photos', field_type: 'media_list' },
          ],
        },
      });
      expect(ct.status).toBe(201);
      const entry = await call(env.app, 'POST', `${M}/content-types/gallery-page/entries`, {
        key,
        body: { slug: 'home', data: { title: 'Home', cover: ids[0], photos: [ids[0], ids[3]] } },
      });
      expect(entry.status).toBe(201);
      expect((await call(env.app, 'PATCH', `${M}/content-types/gallery-page/entries/home/publish`, { key })).status).toBe(200);
      const meta = (await call(env.app, 'GET', `${P}/media/${ids[0]}`, { key: delivery })).body.data;
      const res = await call(env.app, 'GET', `${P}/entries/home?type=gallery-page`, { key: delivery });
      expect(res.status).toBe(200);
      const data = JSON.parse(res.body.data.entry.data);
      expect(data.cover).toEqual(meta);
      expect(data.photos[0]).toEqual(meta);
      expect(data.photos[1].id).toBe(ids[3]);
    });

    it('delivers metadata to delivery keys of the same workspace only', async () => {
      const res = await call(env.app, 'GET', `${P}/media/${ids[0]}`, { key: delivery });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data).sort()).toEqual([
        'alt_text',
        'description',
        'focal_x',
        'focal_y',
        'height',
        'id',
        'mime_type',
        'title',
        'url',
        'width',
      ]);
      expect(res.body.data).toMatchObject({ id: ids[0], mime_type: 'image/png', width: 20, height: 10 });
      expect(res.body.data.url).toMatch(/^http:\/\/quire\.test\/media\/files\//);
      expectError(await call(env.app, 'GET', `${P}/media/${ids[0]}`, { key: other.delivery }), 404, 'NOT_FOUND');
      expectError(await call(env.app, 'GET', `${P}/media/${ids[0]}`, { key }), 401, 'UNAUTHORIZED');
      expectError(await call(env.app, 'GET', `${P}/media/${ids[0]}`), 401, 'UNAUTHORIZED');
    });
  });
});
