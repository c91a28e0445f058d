/**
 * The delivery cache is keyed by what an answer depends on (src/http/delivery-cache.ts
 * deliveryCacheKey): the same query spelt in another parameter order is the same entry, and
 * keys of one workspace with the same perspective, scopes and whitelist share entries; another
 * whitelist or perspective does not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorld, M, P, type DeliveryWorld } from './delivery-fixtures.js';
import { call, createTestEnv, dialects, type TestEnv } from './helpers.js';

describe.each(dialects())('delivery cache keys on %s', (dialect) => {
  let env: TestEnv;
  let world: DeliveryWorld;
  // Made before any request: creating a key may move the workspace's revision.
  let sameRights: string, postsAndNotes: string, notesAndPosts: string, otherPreview: string, notesOnly: string;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    world = await createWorld(env.ctx, env.app, [
      { name: 'Post', slug: 'post', display_field: 'title', fields: [{ name: 'title', field_type: 'text', localizable: true }] },
      { name: 'Note', slug: 'note', display_field: 'title', fields: [{ name: 'title', field_type: 'text' }] },
    ]);
    const made = await call(env.app, 'POST', `${M}/content-types/post/entries`, { key: world.keys.management, body: { slug: 'one', data: { title: 'One' } } });
    expect(made.status).toBe(201);
    expect((await call(env.app, 'PATCH', `${M}/content-types/post/entries/one/publish`, { key: world.keys.management })).status).toBe(200);
    sameRights = await world.deliveryKey({});
    postsAndNotes = await world.deliveryKey({ contentTypes: ['post', 'note'] });
    notesAndPosts = await world.deliveryKey({ contentTypes: ['note', 'post'] });
    otherPreview = await world.deliveryKey({ environment: 'preview' });
    notesOnly = await world.deliveryKey({ contentTypes: ['note'] });
  });
  afterAll(async () => env?.close());

  const get = (url: string, key: string) => call(env.app, 'GET', `${P}${url}`, { key });

  it('serves ?a&b and ?b&a from one entry', async () => {
    const first = await get('/entries?type=post&locale=de&limit=5', world.keys.delivery);
    expect(first.status).toBe(200);
    expect(first.headers['x-cache']).toBe('MISS');
    const reordered = await get('/entries?limit=5&locale=de&type=post', world.keys.delivery);
    expect(reordered.headers['x-cache']).toBe('HIT');
    expect(reordered.body).toEqual(first.body);
    // Other arguments are another entry.
    expect((await get('/entries?type=post&locale=en&limit=5', world.keys.delivery)).headers['x-cache']).toBe('MISS');
  });

  it('shares answers between keys with the same perspective and whitelist, not across them', async () => {
    const url = '/entries?type=post&locale=en';
    const first = await get(url, world.keys.delivery);
    expect(first.headers['x-cache']).toBe('MISS');
    const shared = await get(url, sameRights);
    expect(shared.headers['x-cache']).toBe('HIT');
    expect(shared.body).toEqual(first.body);

    // A whitelist, in either order, is one identity of its own.
    expect((await get(url, postsAndNotes)).headers['x-cache']).toBe('MISS');
    expect((await get(url, notesAndPosts)).headers['x-cache']).toBe('HIT');

    // The working perspective reads other rows.
    expect((await get(url, world.keys.preview)).headers['x-cache']).toBe('MISS');
    expect((await get(url, otherPreview)).headers['x-cache']).toBe('HIT');
  });

  it('keeps a whitelisted key from reading what its whitelist excludes, even when cached for another key', async () => {
    const url = '/entries?type=post&locale=de';
    expect((await get(url, world.keys.delivery)).status).toBe(200);
    expect((await get(url, world.keys.delivery)).headers['x-cache']).toBe('HIT');
    const refused = await get(url, notesOnly);
    expect(refused.status).toBe(403);
    expect(refused.headers['x-cache']).toBeUndefined();
  });
});
