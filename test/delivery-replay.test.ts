/**
 * Replay of repeated delivery answers (src/http/delivery-replay.ts, docs/scaling.md "Repeated
 * requests"): a GET repeating one the cache answered is answered again by the first hook, with the
 * very status, headers and body the full path gives, and never once that answer stopped being true
 * (a write, a revoked or expired key, a scheduled publication due) or for a request that differs in
 * what the answer depends on (key, URL, Accept, Accept-Encoding, Origin, If-None-Match).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '../src/modules/auth/operations.js';
import { createWorld, M, P, type DeliveryWorld } from './delivery-fixtures.js';
import { call, createTestEnv, dialects, expectError, type Res, type TestEnv } from './helpers.js';

const T0 = Date.parse('2026-11-29T10:00:00.000Z');
const LIST = `${P}/entries?type=post&locale=de&limit=20`;
const GQL = `${P}/graphql?query=${encodeURIComponent('{ postCollection(first: 20, locale: "de") { nodes { sys { slug } title } } }')}`;

/** Headers a replay must repeat: all of them but the request's own id and the date. */
function comparable(res: Res): Record<string, unknown> {
  const { 'x-request-id': _id, date: _date, ...rest } = res.headers as Record<string, unknown>;
  return rest;
}

describe.each(dialects())('delivery replay on %s', (dialect) => {
  let env: TestEnv;
  let world: DeliveryWorld;
  let now = T0;
  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => new Date(now), config: { corsDeliveryOrigins: ['https://site.example'] } });
    world = await createWorld(env.ctx, env.app, [
      { name: 'Post', slug: 'post', display_field: 'title', fields: [{ name: 'title', field_type: 'text', localizable: true }] },
    ]);
    // Long enough that br and gzip apply (bodies over 1 KB are compressed).
    for (let i = 0; i < 12; i++) {
      await world.insertEntry({
        type: 'post',
        slug: `post-${i}`,
        data: { title: `Post ${i} ${'x'.repeat(80)}` },
        translations: { de: { title: `Beitrag ${i}` } },
      });
    }
  });
  afterAll(async () => env?.close());

  const replayed = () => env.app.deliveryReplay.replayed;
  const get = (url: string, headers: Record<string, string> = {}, key = world.keys.delivery) => call(env.app, 'GET', url, { key, headers });

  /** MISS, then HIT by the full path, then the same answer replayed; returns the replayed one. */
  async function expectReplayed(url: string, headers: Record<string, string> = {}, key?: string): Promise<Res> {
    const full = await get(url, headers, key);
    if (full.headers['x-cache'] !== 'HIT') {
      expect(full.headers['x-cache'], `${full.status} ${JSON.stringify(full.body)}`).toBe('MISS');
      const hit = await get(url, headers, key);
      expect(hit.headers['x-cache']).toBe('HIT');
      return expectReplayed(url, headers, key);
    }
    const before = replayed();
    const again = await get(url, headers, key);
    expect(replayed()).toBe(before + 1);
    expect(again.status).toBe(full.status);
    expect(comparable(again)).toEqual(comparable(full));
    expect(again.body).toEqual(full.body);
    expect(again.headers['x-request-id']).not.toBe(full.headers['x-request-id']);
    return again;
  }

  it('answers a repeated REST and GraphQL GET with the headers and body of the full path', async () => {
    const res = await expectReplayed(LIST);
    expect(res.body.data).toHaveLength(12);
    const gql = await expectReplayed(GQL);
    expect(gql.body.data.postCollection.nodes).toContainEqual({ sys: { slug: 'post-0' }, title: 'Beitrag 0' });
  });

  it('keeps requests apart by what their answer depends on: coding, media type, origin, key', async () => {
    const br = await expectReplayed(LIST, { 'accept-encoding': 'br' });
    expect(br.headers['content-encoding']).toBe('br');
    const gzip = await expectReplayed(LIST, { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const plain = await expectReplayed(LIST);
    expect(plain.headers['content-encoding']).toBeUndefined();

    const graphqlResponse = await expectReplayed(GQL, { accept: 'application/graphql-response+json' });
    expect(graphqlResponse.headers['content-type']).toMatch(/^application\/graphql-response\+json/);
    expect((await expectReplayed(GQL, { accept: 'application/json' })).headers['content-type']).toMatch(/^application\/json/);

    const listed = await expectReplayed(LIST, { origin: 'https://site.example' });
    expect(listed.headers['access-control-allow-origin']).toBe('https://site.example');
    const other = await expectReplayed(LIST, { origin: 'https://elsewhere.example' });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    // Another key of the same rights shares the cached answer, not the replay of the first key
    // (made first: a new key changes the workspace's revision, so the answers after it are new).
    const second = (await createApiKey(env.ctx, world.workspaceId, world.userId, { keyClass: 'delivery', environment: 'production' })).key;
    await expectReplayed(LIST);
    const before = replayed();
    expect((await get(LIST, {}, second)).headers['x-cache']).toBe('HIT');
    expect(replayed()).toBe(before);
    await expectReplayed(LIST, {}, second);
  });

  it('leaves conditional requests and HEAD to the full path', async () => {
    const res = await expectReplayed(LIST);
    const before = replayed();
    const conditional = await get(LIST, { 'if-none-match': String(res.headers.etag) });
    expect(conditional.status).toBe(304);
    const head = await env.app.inject({ method: 'HEAD', url: LIST, headers: { 'x-api-key': world.keys.delivery } });
    expect(head.statusCode).toBe(200);
    expect(replayed()).toBe(before);
  });

  it('never replays an answer a write has made stale, on this instance or another', async () => {
    await expectReplayed(LIST);
    const put = await call(env.app, 'PUT', `${M}/content-types/post/entries/post-0`, {
      key: world.keys.management,
      body: { data: { title: 'Post 0' }, translations: { de: { data: { title: 'Neu' } } } },
    });
    expect(put.status).toBe(200);
    // A working-copy save changes nothing production keys read: still replayed.
    await expectReplayed(LIST);
    expect((await call(env.app, 'PATCH', `${M}/content-types/post/entries/post-0/publish`, { key: world.keys.management })).status).toBe(200);
    const before = replayed();
    const fresh = await get(LIST);
    expect(replayed()).toBe(before);
    expect(fresh.headers['x-cache']).toBe('MISS');
    expect(JSON.parse(fresh.body.data.find((e: { slug: string }) => e.slug === 'post-0').data).title).toBe('Neu');
  });

  it('stops at once for a revoked or expired key', async () => {
    const created = await createApiKey(env.ctx, world.workspaceId, world.userId, { keyClass: 'delivery', environment: 'production', expiresInMs: 60_000 });
    await expectReplayed(LIST, {}, created.key);
    now += 61_000;
    expectError(await get(LIST, {}, created.key), 401, 'UNAUTHORIZED');

    const revoked = await createApiKey(env.ctx, world.workspaceId, world.userId, { keyClass: 'delivery', environment: 'production' });
    await expectReplayed(LIST, {}, revoked.key);
    await revokeApiKey(env.ctx, revoked.id);
    const before = replayed();
    expectError(await get(LIST, {}, revoked.key), 401, 'UNAUTHORIZED');
    expect(replayed()).toBe(before);
  });

  it('stops when a scheduled publication falls due', async () => {
    const at = new Date(now + 120_000).toISOString();
    await world.insertEntry({ type: 'post', slug: 'later', status: 'scheduled', publish_at: at, data: { title: 'Later' } });
    // The insert bypassed the operations, so the first read is computed under the new revision.
    const url = `${LIST}&fields=title`;
    const res = await expectReplayed(url);
    expect(res.body.data.map((e: { slug: string }) => e.slug)).not.toContain('later');
    now += 121_000;
    const before = replayed();
    const due = await get(url);
    expect(replayed()).toBe(before);
    expect(due.body.data.map((e: { slug: string }) => e.slug)).toContain('later');
  });
});

describe('delivery replay with per-key rate limits', () => {
  it('replays nothing, so every request is counted', async () => {
    const env = await createTestEnv('sqlite', { config: { rateLimitDelivery: 100 } });
    try {
      const world = await createWorld(env.ctx, env.app, [{ name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] }]);
      const remaining: unknown[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await call(env.app, 'GET', `${P}/entries?type=post`, { key: world.keys.delivery });
        remaining.push(res.headers['x-ratelimit-remaining']);
      }
      expect(remaining).toEqual(['99', '98', '97', '96']);
      expect(env.app.deliveryReplay.replayed).toBe(0);
    } finally {
      await env.close();
    }
  });
});
