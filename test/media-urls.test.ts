/**
 * Media URLs are computed when read, never stored (issue 12 item 3; D51; docs/media.md "URLs"):
 * an asset uploaded through a server at one PUBLIC_URL is answered by a server built with another
 * PUBLIC_URL (or with MEDIA_PUBLIC_URL, a CDN base) on the same database and storage with that
 * server's URL, everywhere a media object appears: management GET /media/{id} and the list,
 * delivery GET /media/{id}, media and media_list fields of entries, rich-text HTML, media inside
 * page blocks, sync items. The file is served at the path of each URL, transforms included. A
 * remote asset (imported by URL) keeps its remote URL under every configuration. On each dialect
 * with each storage backend.
 */
import fsp from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { closeContext, createContext, type Context } from '../src/context.js';
import { call, createTestEnv, dialects, insertMediaRow, seedWorkspace, type TestEnv } from './helpers.js';
import { png, startS3, upload, type S3Server } from './media-fixtures.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';
const cases = dialects().flatMap((d) => (['local', 's3'] as const).map((s) => [d, s] as const));
const REMOTE = 'https://images.ctfassets.net/space/abc123/def456/remote-photo.jpg';

/** Another server on the same database and storage: the same config but `changes`. */
async function otherServer(env: TestEnv, changes: Partial<Config>): Promise<{ ctx: Context; app: FastifyInstance }> {
  const ctx = await createContext(Object.freeze({ ...env.config, ...changes }), env.ctx.db, { log: pino({ level: 'silent' }) });
  const app = await buildApp(ctx, { logger: false });
  await app.ready();
  return { ctx, app };
}

describe.each(cases)('media URLs computed on read on %s with %s storage', (dialect, driver) => {
  let env: TestEnv;
  let s3: S3Server | null = null;
  let servers: { ctx: Context; app: FastifyInstance }[] = [];
  let keys: { management: string; delivery: string };
  let wsId: string;
  let assetId: string;
  let storageKey: string;
  let remoteId: string;

  beforeAll(async () => {
    if (driver === 's3') s3 = await startS3();
    env = await createTestEnv(dialect, { config: s3?.config ?? {} });
    const s = await seedWorkspace(env.ctx);
    keys = s.keys;
    wsId = s.workspace.id;
    const up = await upload(env.app, {
      key: keys.management,
      workspaceId: wsId,
      parts: [
        { name: 'file', filename: 'cover.png', data: await png(320, 200), contentType: 'image/png' },
        { name: 'folder', value: 'press' },
      ],
    });
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    assetId = up.body.data.id;
    storageKey = `${wsId}/press/${up.body.data.filename}`;
    expect(up.body.data.url).toBe(`http://quire.test/media/files/${storageKey}`);
    remoteId = await insertMediaRow(env.ctx, wsId, s.user.id, { storage_key: null, remote_url: REMOTE, mime_type: 'image/jpeg' });

    const manage = (method: 'POST' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key: keys.management, body });
    const asset = (nodeType: string) => ({ nodeType, data: { target: { sys: { id: assetId, type: 'Link', linkType: 'Asset' } } }, content: [] });
    const types = [
      {
        name: 'Post',
        slug: 'post',
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'cover', field_type: 'media' },
          { name: 'gallery', field_type: 'media_list' },
          { name: 'body', field_type: 'rich_text' },
        ],
      },
      { name: 'Hero', slug: 'hero', is_block: true, fields: [{ name: 'image', field_type: 'media' }] },
    ];
    for (const t of types) expect((await manage('POST', '/content-types', t)).status).toBe(201);
    const entry = await manage('POST', '/content-types/post/entries', {
      slug: 'hello',
      data: {
        title: 'Hello',
        cover: assetId,
        gallery: [remoteId, assetId],
        body: { nodeType: 'document', data: {}, content: [asset('embedded-asset-block')] },
      },
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    expect((await manage('PATCH', '/content-types/post/entries/hello/publish')).status).toBe(200);
    const page = await manage('POST', '/pages', { slug: 'home', seo: { title: 'Home' }, blocks: [{ type: 'hero', data: { image: assetId } }] });
    expect(page.status, JSON.stringify(page.body)).toBe(201);
    expect((await manage('PATCH', '/pages/home/publish')).status).toBe(200);
  });
  afterAll(async () => {
    for (const s of servers) {
      await s.app.close();
      await closeContext(s.ctx);
    }
    servers = [];
    await env?.close();
    await s3?.close();
    if (env) await fsp.rm(env.config.dataDir, { recursive: true, force: true });
  });

  /** Every media URL the app answers with for the asset (and the remote asset), by where it appears. */
  async function urlsOf(app: FastifyInstance): Promise<Record<string, unknown>> {
    const get = async (url: string, key: string) => {
      const res = await call(app, 'GET', url, { key });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      return res.body.data;
    };
    const list = await get(`${M}/media`, keys.management);
    const entry = await get(`${P}/entries/hello?type=post&fields=cover,gallery,body_html`, keys.delivery);
    const entries = await get(`${P}/entries?type=post`, keys.delivery);
    const page = await get(`${P}/pages/home`, keys.delivery);
    const sync = await get(`${P}/sync?initial=true`, keys.delivery);
    const syncItem = (id: string) => sync.find((i: { sys: { id: string } }) => i.sys.id === id);
    // Delivered `data` is a JSON string (the wire keeps stored JSON as text).
    const entryData = JSON.parse(entry.entry.data);
    return {
      management: (await get(`${M}/media/${assetId}`, keys.management)).url,
      managementList: list.find((m: { id: string }) => m.id === assetId).url,
      delivery: (await get(`${P}/media/${assetId}`, keys.delivery)).url,
      entryCover: entryData.cover.url,
      entryGallery: entryData.gallery.map((m: { url: string }) => m.url),
      entryHtmlSrc: /<img src="([^"]+)"/.exec(entryData.body_html)?.[1],
      listCover: JSON.parse(entries[0].data).cover.url,
      pageBlock: JSON.parse(page.blocks[0].data).image.url,
      syncMedia: syncItem(assetId).url,
      syncRemote: syncItem(remoteId).url,
      managementRemote: (await get(`${M}/media/${remoteId}`, keys.management)).url,
    };
  }

  const expected = (url: string) => ({
    management: url,
    managementList: url,
    delivery: url,
    entryCover: url,
    entryGallery: [REMOTE, url],
    entryHtmlSrc: url,
    listCover: url,
    pageBlock: url,
    syncMedia: url,
    syncRemote: REMOTE,
    managementRemote: REMOTE,
  });

  it('answers with the URL of the PUBLIC_URL the asset was uploaded under on that server', async () => {
    expect(await urlsOf(env.app)).toEqual(expected(`http://quire.test/media/files/${storageKey}`));
  });

  it('answers with its own PUBLIC_URL on a server built with another one, and serves the file and transforms there', async () => {
    const other = await otherServer(env, { publicUrl: 'https://cms.example.org' });
    servers.push(other);
    const url = `https://cms.example.org/media/files/${storageKey}`;
    expect(await urlsOf(other.app)).toEqual(expected(url));
    const original = await other.app.inject({ method: 'GET', url: new URL(url).pathname });
    expect(original.statusCode).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    // A transform URL is the media URL with parameters: it follows the computed URL.
    const small = await other.app.inject({ method: 'GET', url: `${new URL(url).pathname}?w=64&fm=webp` });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-type']).toBe('image/webp');
    // The first server is unaffected: URLs are per server, nothing was rewritten in the database.
    expect((await urlsOf(env.app)).delivery).toBe(`http://quire.test/media/files/${storageKey}`);
  });

  it('answers with MEDIA_PUBLIC_URL (a CDN in front of /media/files) when it is set; the path after it is the storage key', async () => {
    const cdn = await otherServer(env, { publicUrl: 'https://cms.example.org', mediaPublicUrl: 'https://cdn.example.net/quire-media' });
    servers.push(cdn);
    const url = `https://cdn.example.net/quire-media/${storageKey}`;
    expect(await urlsOf(cdn.app)).toEqual(expected(url));
    // The CDN's origin is the server's /media/files route: the same key, query string passed on.
    const pulled = await cdn.app.inject({ method: 'GET', url: `/media/files/${storageKey}?w=64` });
    expect(pulled.statusCode).toBe(200);
  });

  it('keeps the URL correct after a folder move made through another server', async () => {
    const other = await otherServer(env, { publicUrl: 'https://cms.example.org' });
    servers.push(other);
    const moved = await call(other.app, 'PUT', `${M}/media/${assetId}`, { key: keys.management, body: { folder: 'archive' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    storageKey = `${wsId}/archive/${moved.body.data.filename}`;
    expect(moved.body.data.url).toBe(`https://cms.example.org/media/files/${storageKey}`);
    expect(await urlsOf(env.app)).toEqual(expected(`http://quire.test/media/files/${storageKey}`));
    expect((await env.app.inject({ method: 'GET', url: `/media/files/${storageKey}` })).statusCode).toBe(200);
  });
});

describe('MEDIA_PUBLIC_URL', () => {
  const load = (value: string | undefined) => loadConfig({ PUBLIC_URL: 'https://cms.example.org/', MEDIA_PUBLIC_URL: value });

  it('is null when unset, and kept without trailing slashes', () => {
    expect(load(undefined).mediaPublicUrl).toBeNull();
    expect(load('').mediaPublicUrl).toBeNull();
    expect(load('https://cdn.example.net/media//').mediaPublicUrl).toBe('https://cdn.example.net/media');
  });

  it('refuses anything but an absolute http(s) URL without query or fragment, naming the variable', () => {
    for (const bad of ['cdn.example.net', '/media', 'ftp://cdn.example.net', 'https://cdn.example.net/?v=1', 'https://cdn.example.net/#x']) {
      expect(() => load(bad), bad).toThrow(ConfigError);
      expect(() => load(bad), bad).toThrow(/MEDIA_PUBLIC_URL/);
    }
  });
});
