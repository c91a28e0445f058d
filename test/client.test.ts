/**
 * The TypeScript client (packages/client) against a live server on a real socket, both
 * databases: lists and cursor iteration, entries by slug with parsed data, typed errors carrying
 * code, status and trace id, uploads from a Blob and from a Node.js stream, preview tokens,
 * management writes with If-Match, and automatic retries that reuse one Idempotency-Key.
 */
import fs from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, QuireError, type QuireClient } from '../packages/client/src/index.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';
import { png } from './media-fixtures.js';

describe.each(dialects())('TypeScript client on %s', (dialect) => {
  let env: TestEnv;
  let url: string;
  let ws: Awaited<ReturnType<typeof seedWorkspace>>;
  let admin: QuireClient;
  let delivery: QuireClient;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    ws = await seedWorkspace(env.ctx);
    admin = createClient({ url, apiKey: ws.keys.management, workspaceId: ws.workspace.id });
    delivery = createClient({ url, apiKey: ws.keys.delivery });
    await admin.manage.contentTypes.create({
      name: 'Post',
      slug: 'post',
      display_field: 'title',
      fields: [
        { name: 'title', field_type: 'text', required: true, localizable: true },
        { name: 'rank', field_type: 'integer', sortable: true, filterable: true },
        { name: 'author', field_type: 'relation', options: ['author'] },
      ],
    });
    await admin.manage.contentTypes.create({ name: 'Author', slug: 'author', fields: [{ name: 'name', field_type: 'text' }] });
    const ada = await admin.manage.entries.create('author', { slug: 'ada', data: { name: 'Ada' } });
    await admin.manage.entries.publish('author', 'ada');
    for (let i = 1; i <= 7; i++) {
      await admin.manage.entries.create('post', {
        slug: `post-${i}`,
        data: { title: `Post ${i}`, rank: i, author: ada.id },
        translations: { de: { data: { title: `Beitrag ${i}` } } },
      });
      await admin.manage.entries.publish('post', `post-${i}`);
    }
  });
  afterAll(async () => env?.close());

  it('lists entries with data parsed into objects and relations resolved', async () => {
    const page = await delivery.entries.list('post', { limit: 3, sort: 'rank:asc' });
    expect(page.items.map((e) => e.data.title)).toEqual(['Post 1', 'Post 2', 'Post 3']);
    expect(page.items[0].data.author).toMatchObject({ slug: 'ada', type: 'author', name: 'Ada' });
    expect(page.meta.page_size).toBe(3);
    expect(typeof page.nextCursor).toBe('string');
  });

  it('iterates every entry across cursor pages, filters and locales applied', async () => {
    const titles: string[] = [];
    for await (const post of delivery.entries.iterate('post', { limit: 2, sort: 'rank:desc', locale: 'de', filter: { rank: { gte: 2 } } })) {
      titles.push(post.data.title as string);
    }
    expect(titles).toEqual(['Beitrag 7', 'Beitrag 6', 'Beitrag 5', 'Beitrag 4', 'Beitrag 3', 'Beitrag 2']);
  });

  it('gets one entry by slug, with fallback and locale', async () => {
    const post = await delivery.entries.get('post-3', { type: 'post', locale: 'de' });
    expect(post).toMatchObject({ slug: 'post-3', is_fallback: false, locale_requested: 'de', data: { title: 'Beitrag 3', rank: 3 } });
  });

  it('throws QuireError with code, status, traceId and details', async () => {
    const missing = await delivery.entries.get('nope', { type: 'post' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(QuireError);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404, details: null });
    expect((missing as QuireError).traceId).toMatch(/^req_/);
    const invalid = (await delivery.entries.list('post', { limit: 500 }).catch((e: unknown) => e)) as QuireError;
    expect(invalid).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
    expect(invalid.details?.[0]?.path).toBe('query.limit');
    const unauthorized = (await createClient({ url, apiKey: 'svc_live_wrong' })
      .schema()
      .catch((e: unknown) => e)) as QuireError;
    expect(unauthorized).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  });

  it('gets a page with its block tree, the data of every block parsed', async () => {
    await admin.manage.contentTypes.create({
      name: 'Hero',
      slug: 'hero',
      is_block: true,
      fields: [{ name: 'heading', field_type: 'text', localizable: true }],
    });
    await admin.manage.pages.create({
      slug: 'home',
      seo: { title: 'Home' },
      blocks: [
        {
          type: 'hero',
          data: { heading: 'Welcome' },
          translations: { de: { data: { heading: 'Willkommen' } } },
          children: [{ type: 'hero', data: { heading: 'Inner' } }],
        },
      ],
    });
    await admin.manage.pages.publish('home');
    const home = await delivery.pages.get('home', { locale: 'de' });
    expect(home.blocks[0]).toMatchObject({ type: 'hero', data: { heading: 'Willkommen' }, children: [{ data: { heading: 'Inner' } }] });
    expect(home.block_translations[0].data).toEqual({ heading: 'Willkommen' });
    expect((await delivery.pages.list()).items.map((p) => p.slug)).toEqual(['home']);
    const managed = await admin.manage.pages.get('home');
    expect(managed.blocks[0].data).toEqual({ heading: 'Welcome' });
    expect(managed.etag).toBeTruthy();
  });

  it('writes a page read back unchanged, then changes its SEO alone with patch', async () => {
    const read = await admin.manage.pages.get('home');
    const versions = (await admin.manage.pages.versions.list('home')).items.length;
    const written = await admin.manage.pages.update(
      'home',
      { seo: read.page.seo, seo_translations: read.seo_translations, blocks: read.blocks },
      { ifMatch: read.etag },
    );
    expect(written).toMatchObject({ slug: 'home', status: 'published', has_pending_changes: false });
    expect(written.etag).toBeTruthy();
    expect((await admin.manage.pages.versions.list('home')).items).toHaveLength(versions);
    const patched = await admin.manage.pages.patch('home', { seo: { description: 'Start here' } }, { ifMatch: written.etag });
    expect(patched.seo).toMatchObject({ title: 'Home', description: 'Start here' });
    expect(patched.has_pending_changes).toBe(true);
    const after = await admin.manage.pages.get('home');
    expect(after.blocks.map((b) => [b.id, b.children.map((c) => c.id)])).toEqual(read.blocks.map((b) => [b.id, b.children.map((c) => c.id)]));
    expect(after.blocks[0].children[0].data).toEqual({ heading: 'Inner' });
    const refused = (await admin.manage.pages.patch('home', { blocks: [] } as never).catch((e: unknown) => e)) as QuireError;
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', status: 400 });
  });

  it('reads the schema, content types and locales', async () => {
    expect((await delivery.contentTypes.list()).map((c) => c.slug).sort()).toEqual(['author', 'hero', 'post']);
    expect((await delivery.contentTypes.get('post')).fields.map((f) => f.name)).toEqual(['title', 'rank', 'author']);
    expect(await delivery.locales()).toEqual({ default: 'en', locales: ['en', 'de'] });
  });

  it('writes with If-Match: a stale ETag answers 412 PRECONDITION_FAILED and changes nothing', async () => {
    const entry = await admin.manage.entries.get('post', 'post-1');
    expect(entry.data).toMatchObject({ title: 'Post 1' });
    expect(entry.translations[0].data).toEqual({ title: 'Beitrag 1' });
    const updated = await admin.manage.entries.update('post', 'post-1', { data: { ...entry.data, title: 'Post one' } }, { ifMatch: entry.etag });
    expect(updated.has_pending_changes).toBe(true);
    const stale = (await admin.manage.entries
      .update('post', 'post-1', { data: { title: 'Lost' } }, { ifMatch: entry.etag })
      .catch((e: unknown) => e)) as QuireError;
    expect(stale).toMatchObject({ code: 'PRECONDITION_FAILED', status: 412 });
    expect((await admin.manage.entries.get('post', 'post-1')).data.title).toBe('Post one');
    const versions = await admin.manage.entries.versions.list('post', 'post-1');
    expect(versions.items[0].action).toBe('update');
  });

  it('reads a draft through a preview token', async () => {
    const draft = await admin.manage.entries.create('post', { slug: 'draft-1', data: { title: 'Secret draft' } });
    const { token } = await admin.manage.previewToken(draft.id);
    const preview = await delivery.preview(token);
    expect(preview).toMatchObject({ slug: 'draft-1', status: 'draft', data: { title: 'Secret draft' } });
    const expired = (await delivery.preview(`${token}x`).catch((e: unknown) => e)) as QuireError;
    expect(expired).toBeInstanceOf(QuireError);
    expect(expired.status).toBeGreaterThanOrEqual(400);
    expect(await delivery.previewItem(token)).toMatchObject({ kind: 'entry', entry: { slug: 'draft-1', data: { title: 'Secret draft' } } });
  });

  it('reads a page working copy through a page preview token', async () => {
    await admin.manage.pages.create({ slug: 'preview-me', seo: { title: 'Draft page' }, blocks: [{ type: 'hero', data: { heading: 'Hi' } }] });
    const { token } = await admin.manage.pagePreviewToken((await admin.manage.pages.get('preview-me')).page.id);
    const item = await delivery.previewItem(token);
    if (item.kind !== 'page') throw new Error(`expected a page, got ${item.kind}`);
    expect(item.page.page).toMatchObject({ slug: 'preview-me', status: 'draft', seo: { title: 'Draft page' } });
    expect(item.page.blocks[0]).toMatchObject({ type: 'hero', data: { heading: 'Hi' } });
    expect(item.page).not.toHaveProperty('etag');
    await expect(delivery.preview(token)).rejects.toThrow(/names a page/);
  });

  it('uploads and deletes with a key alone: the key names the workspace', async () => {
    const keyOnly = createClient({ url, apiKey: ws.keys.management });
    const asset = await keyOnly.manage.media.upload(new Blob([new Uint8Array(await png(8, 8))]), { filename: 'key.png' });
    expect(asset).toMatchObject({ workspace_id: ws.workspace.id, width: 8 });
    await keyOnly.manage.media.delete(asset.id);
    expect(((await keyOnly.manage.media.get(asset.id).catch((e: unknown) => e)) as QuireError).status).toBe(404);
  });

  it('uploads from a Blob and from a Node.js stream', async () => {
    const fromBlob = await admin.manage.media.upload(new Blob([new Uint8Array(await png(40, 30))]), { filename: 'blob.png', altText: 'A blob' });
    expect(fromBlob).toMatchObject({ mime_type: 'image/png', width: 40, height: 30, alt_text: 'A blob', original_name: 'blob.png' });
    const file = path.join(os.tmpdir(), `quire-client-${process.pid}-${dialect}.png`);
    await fs.writeFile(file, await png(20, 10));
    try {
      const fromStream = await admin.manage.media.upload(createReadStream(file), { folder: 'streams' });
      expect(fromStream).toMatchObject({ width: 20, height: 10, folder: 'streams', original_name: path.basename(file) });
      expect(await delivery.media.get(fromStream.id)).toMatchObject({ id: fromStream.id, width: 20 });
    } finally {
      await fs.rm(file, { force: true });
    }
  });
});

describe('TypeScript client retries', () => {
  let env: TestEnv;
  let proxy: http.Server;
  let proxyUrl: string;
  let ws: Awaited<ReturnType<typeof seedWorkspace>>;
  const seen: { method: string; key: string | undefined; status: number }[] = [];
  /** How the proxy answers the next requests before passing them on: 'drop' closes the socket. */
  const script: ('drop' | '503' | '429')[] = [];

  beforeAll(async () => {
    env = await createTestEnv('sqlite');
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    const target = (env.app.server.address() as net.AddressInfo).port;
    ws = await seedWorkspace(env.ctx);
    // A stub in front of the server that fails on command, then forwards.
    proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const step = script.shift();
        const key = req.headers['idempotency-key'] as string | undefined;
        if (step === 'drop') {
          seen.push({ method: req.method!, key, status: 0 });
          req.socket.destroy();
          return;
        }
        if (step === '503' || step === '429') {
          seen.push({ method: req.method!, key, status: Number(step) });
          res.writeHead(Number(step), { 'content-type': 'application/json', 'retry-after': '0' });
          res.end(
            JSON.stringify({
              success: false,
              message: 'busy',
              code: step === '503' ? 'SERVICE_UNAVAILABLE' : 'RATE_LIMITED',
              data: null,
              errors: null,
              meta: null,
              traceId: 'req_stub',
            }),
          );
          return;
        }
        const fwd = http.request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers: req.headers }, (up) => {
          seen.push({ method: req.method!, key, status: up.statusCode ?? 0 });
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        fwd.end(Buffer.concat(chunks));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => proxy?.close(r));
    await env?.close();
  });

  it('resends a write after a dropped connection and a 503 with the same Idempotency-Key; the write happens once', async () => {
    const client = createClient({ url: proxyUrl, apiKey: ws.keys.management, retryDelayMs: 10 });
    seen.length = 0;
    script.push('drop', '503');
    const ct = await client.manage.contentTypes.create({ name: 'Retry', slug: 'retry' });
    expect(ct.slug).toBe('retry');
    expect(seen.map((s) => s.status)).toEqual([0, 503, 201]);
    expect(new Set(seen.map((s) => s.key)).size).toBe(1);
    expect(seen[0].key).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.manage.contentTypes.list()).items.filter((c) => c.slug === 'retry')).toHaveLength(1);
  });

  it('replays the stored answer when the first attempt was applied but its answer lost', async () => {
    const client = createClient({ url: proxyUrl, apiKey: ws.keys.management, retryDelayMs: 10 });
    const key = crypto.randomUUID();
    const first = await client.manage.contentTypes.create({ name: 'Once', slug: 'once' }, { idempotencyKey: key });
    const again = await client.http.request<{ id: string }>('POST', '/api/v1/manage/content-types', {
      body: { name: 'Once', slug: 'once' },
      idempotencyKey: key,
    });
    expect(again.replayed).toBe(true);
    expect(again.data.id).toBe(first.id);
  });

  it('gives up after its retries with the last error, and never resends a write without a key', async () => {
    const client = createClient({ url: proxyUrl, apiKey: ws.keys.management, retryDelayMs: 1, retries: 1 });
    script.push('429', '429', '429');
    const err = (await client.manage.contentTypes.list().catch((e: unknown) => e)) as QuireError;
    expect(err).toMatchObject({ code: 'RATE_LIMITED', status: 429, traceId: 'req_stub' });
    script.length = 0;
    seen.length = 0;
    script.push('503');
    const noKey = (await client.http
      .request('POST', '/api/v1/manage/content-types', { body: { name: 'X' }, idempotencyKey: false })
      .catch((e: unknown) => e)) as QuireError;
    expect(noKey.status).toBe(503);
    expect(seen).toHaveLength(1);
    script.length = 0;
  });
});
