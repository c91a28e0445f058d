/**
 * HTTP caching and compression of delivery answers (docs/front-ends.md "HTTP caching and
 * compression" (D81)): strong ETag, If-None-Match → 304 on the cache's MISS and HIT paths,
 * Cache-Control by key type and DELIVERY_MAX_AGE, Vary, and br/gzip bodies over 1 KB chosen by
 * Accept-Encoding, kept encoded by the delivery cache.
 */
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../src/app.js';
import { negotiateCoding, notModifiedTag } from '../src/http/http-cache.js';
import { createWorld, M, P, type DeliveryWorld } from './delivery-fixtures.js';
import { call, createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';

describe('Accept-Encoding negotiation', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['*', 'br'],
    ['*;q=0.3, gzip;q=0.8', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['identity;q=1, br;q=0.5', 'identity'],
    ['gzip;q=0.5, identity', 'identity'],
    ['deflate, zstd', 'identity'],
    ['x-gzip', 'gzip'],
    ['BR;Q=0.9, GZIP;q=0.8', 'br'],
    ['br;q=2, gzip', 'gzip'],
    ['identity;q=0, *;q=0', 'identity'],
  ])('%j → %s', (header, coding) => {
    expect(negotiateCoding(header)).toBe(coding);
  });
});

describe('If-None-Match evaluation', () => {
  const h = 'abc';
  it.each([
    [undefined, null],
    ['"abc"', '"abc"'],
    ['W/"abc"', '"abc"'],
    ['"x", "abc-gz"', '"abc-gz"'],
    ['"x",W/"abc-br"', '"abc-br"'],
    ['*', '"fallback"'],
    ['"abcd"', null],
    ['"abc-zz"', null],
    ['abc', null],
    ['"x", , "abc"', '"abc"'],
  ])('%j → %j', (header, tag) => {
    expect(notModifiedTag(header, h, '"fallback"')).toBe(tag);
  });
});

const para = (i: number) => `Paragraph ${i} of a post that is long enough to make a list of five posts weigh more than a kilobyte. `.repeat(3);

describe.each(dialects())('delivery HTTP caching and compression on %s', (dialect) => {
  let env: TestEnv;
  let world: DeliveryWorld;
  const extra: FastifyInstance[] = [];
  const LIST = `${P}/entries?type=post&limit=5`;
  const SMALL = `${P}/entries/tiny?type=note`;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    world = await createWorld(env.ctx, env.app, [
      {
        name: 'Post',
        slug: 'post',
        display_field: 'title',
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'body', field_type: 'textarea' },
        ],
      },
      { name: 'Note', slug: 'note', display_field: 'title', fields: [{ name: 'title', field_type: 'text' }] },
    ]);
    for (let i = 0; i < 5; i++) await world.insertEntry({ type: 'post', slug: `post-${i}`, data: { title: `Post ${i}`, body: para(i) } });
    await world.insertEntry({ type: 'note', slug: 'tiny', data: { title: 'Tiny' } });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    for (const app of extra) await app.close();
    await env?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}, key = world.keys.delivery, app = env.app) =>
    app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...headers } });

  it('gives a strong, stable ETag; 304 on If-None-Match on the MISS and the HIT path', async () => {
    const head = await env.app.inject({ method: 'HEAD', url: LIST, headers: { 'x-api-key': world.keys.delivery } });
    expect(head.statusCode).toBe(200);
    const tag = String(head.headers.etag);
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);

    const miss = await get(LIST, { 'if-none-match': tag });
    expect(miss.statusCode).toBe(304);
    expect(miss.headers['x-cache']).toBe('MISS');
    expect(miss.body).toBe('');
    expect(miss.headers.etag).toBe(tag);
    expect(miss.headers['content-type']).toBeUndefined();
    expect(miss.headers['cache-control']).toBe('no-cache');
    expect(miss.headers.vary).toBe('X-API-Key, Accept-Encoding');

    const hit = await get(LIST, { 'if-none-match': `"nope", W/${tag}` });
    expect(hit.statusCode).toBe(304);
    expect(hit.headers['x-cache']).toBe('HIT');
    expect(hit.body).toBe('');
    expect(hit.headers.etag).toBe(tag);

    const full = await get(LIST);
    expect(full.statusCode).toBe(200);
    expect(full.headers['x-cache']).toBe('HIT');
    expect(full.headers.etag).toBe(tag);
    expect(Number(full.headers['content-length'])).toBeGreaterThan(1024);
    expect((await get(LIST, { 'if-none-match': '*' })).statusCode).toBe(304);
    expect((await get(LIST, { 'if-none-match': '"other"' })).statusCode).toBe(200);
  });

  it('changes the ETag after a write', async () => {
    const before = await get(LIST);
    const tag = String(before.headers.etag);
    const put = await call(env.app, 'PUT', `${M}/content-types/post/entries/post-0`, {
      key: world.keys.management,
      body: { data: { title: 'Post 0 changed', body: para(0) } },
    });
    expect(put.status).toBe(200);
    expect((await call(env.app, 'PATCH', `${M}/content-types/post/entries/post-0/publish`, { key: world.keys.management })).status).toBe(200);
    const after = await get(LIST, { 'if-none-match': tag });
    expect(after.statusCode).toBe(200);
    expect(after.headers['x-cache']).toBe('MISS');
    expect(after.headers.etag).not.toBe(tag);
    expect(after.body).toContain('Post 0 changed');
  });

  it('compresses bodies over 1 KB with br or gzip; both decompress to the identity body; q=0 is honoured', async () => {
    const identity = await get(LIST, { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    const tag = String(identity.headers.etag);
    const hash = tag.slice(1, -1);

    const br = await get(LIST, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.etag).toBe(`"${hash}-br"`);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(identity.body);
    expect(br.rawPayload.length).toBeLessThan(identity.rawPayload.length / 2);
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);

    const gzip = await get(LIST, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.etag).toBe(`"${hash}-gz"`);
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toBe(identity.body);

    const none = await get(LIST, { 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(identity.body);

    // Any form of the tag names current content: 304 with the tag the client holds.
    const cross = await get(LIST, { 'accept-encoding': 'gzip', 'if-none-match': `"${hash}-br"` });
    expect(cross.statusCode).toBe(304);
    expect(cross.headers.etag).toBe(`"${hash}-br"`);
    expect(cross.headers['content-encoding']).toBeUndefined();
  });

  it('leaves bodies of 1 KB or less as they are', async () => {
    const res = await get(SMALL, { 'accept-encoding': 'br, gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeLessThanOrEqual(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.headers.vary).toBe('X-API-Key, Accept-Encoding');
  });

  it('serves a cached hit from stored encoded bytes, compressing each coding once', async () => {
    const url = `${LIST}&locale=en`;
    const brotli = vi.spyOn(zlib, 'brotliCompressSync');
    const gzip = vi.spyOn(zlib, 'gzipSync');
    const first = await get(url, { 'accept-encoding': 'br' });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['content-encoding']).toBe('br');
    expect(brotli).toHaveBeenCalledTimes(1);
    const again = await get(url, { 'accept-encoding': 'br' });
    expect(again.headers['x-cache']).toBe('HIT');
    expect(again.headers['content-encoding']).toBe('br');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(brotli).toHaveBeenCalledTimes(1);
    // gzip is made on its first request, then kept too.
    const g1 = await get(url, { 'accept-encoding': 'gzip' });
    const g2 = await get(url, { 'accept-encoding': 'gzip' });
    expect([g1.headers['x-cache'], g2.headers['x-cache']]).toEqual(['HIT', 'HIT']);
    expect(g2.headers['content-encoding']).toBe('gzip');
    expect(g2.rawPayload.equals(g1.rawPayload)).toBe(true);
    expect(gzip).toHaveBeenCalledTimes(1);
    expect(zlib.gunzipSync(g2.rawPayload).toString()).toBe(zlib.brotliDecompressSync(again.rawPayload).toString());
    const plain = await get(url);
    expect(plain.headers['x-cache']).toBe('HIT');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(zlib.gunzipSync(g2.rawPayload).toString());
  });

  it('keeps only the codings asked for: identity bytes are decoded from the stored br when first asked for, then kept', async () => {
    const url = `${LIST}&locale=de`;
    const unbrotli = vi.spyOn(zlib, 'brotliDecompressSync');
    const first = await get(url, { 'accept-encoding': 'br' });
    expect(first.headers['x-cache']).toBe('MISS');
    expect(first.headers['content-encoding']).toBe('br');
    const plain = await get(url);
    expect(plain.headers['x-cache']).toBe('HIT');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).toBe(first.headers.etag!.replace('-br"', '"'));
    expect(unbrotli).toHaveBeenCalledTimes(1);
    expect((await get(url)).body).toBe(plain.body);
    expect(unbrotli).toHaveBeenCalledTimes(1);
    expect(plain.body).toBe((await promisify(zlib.brotliDecompress)(first.rawPayload)).toString());
  });

  it('sets Cache-Control by key type: production no-cache, preview keys private, preview tokens no-store', async () => {
    expect((await get(LIST)).headers['cache-control']).toBe('no-cache');
    const preview = await get(LIST, {}, world.keys.preview);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['cache-control']).toBe('private, no-cache');
    expect(preview.headers.vary).toBe('X-API-Key, Accept-Encoding');

    const entry = await call(env.app, 'GET', `${M}/content-types/post/entries/post-1`, { key: world.keys.management });
    const minted = await call(env.app, 'POST', `${M}/preview-tokens`, { key: world.keys.management, body: { entry_id: entry.body.data.id } });
    expect(minted.status).toBe(201);
    const url = `${P}/preview?token=${encodeURIComponent(minted.body.data.token)}`;
    const token = await get(url);
    expect(token.statusCode).toBe(200);
    expect(token.headers['cache-control']).toBe('private, no-store');
    expect(token.headers['x-cache']).toBeUndefined();
    expect((await get(url, { 'if-none-match': String(token.headers.etag) })).statusCode).toBe(304);

    const missing = await call(env.app, 'GET', `${P}/entries/nope?type=post`, { key: world.keys.delivery });
    expectError(missing, 404, 'NOT_FOUND');
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(missing.headers.etag).toBeUndefined();
  });

  it('answers public, max-age=N with DELIVERY_MAX_AGE (preview keys stay private)', async () => {
    const app = await buildApp({ ...env.ctx, config: { ...env.config, deliveryMaxAge: 120 } }, { logger: false });
    extra.push(app);
    expect((await get(LIST, {}, world.keys.delivery, app)).headers['cache-control']).toBe('public, max-age=120');
    expect((await get(LIST, {}, world.keys.preview, app)).headers['cache-control']).toBe('private, no-cache');
  });

  it('leaves management answers uncompressed and without the delivery headers', async () => {
    const res = await env.app.inject({
      method: 'GET',
      url: `${M}/content-types/post/entries`,
      headers: { 'x-api-key': world.keys.management, 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.length).toBeGreaterThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
  });

  it('sends compressed bodies over a real socket (fetch decompresses them)', async () => {
    const app = await buildApp(env.ctx, { logger: false });
    extra.push(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const expected = (await get(LIST)).json();
    for (const encoding of ['br', 'gzip']) {
      const res = await fetch(base + LIST, { headers: { 'x-api-key': world.keys.delivery, 'accept-encoding': encoding } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(await res.json()).toEqual(expected);
      const again = await fetch(base + LIST, { headers: { 'x-api-key': world.keys.delivery, 'if-none-match': String(res.headers.get('etag')) } });
      expect(again.status).toBe(304);
    }
  });
});
