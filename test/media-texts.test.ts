/**
 * An asset's title and description (issue 12 item 2; docs/media.md "The record"): set by the
 * upload form's `title` and `description` parts and by PUT /media/{id} (null clears), bounded
 * (1,000 and 10,000 characters), returned by the management and delivery shapes and inline where
 * an entry's media field is delivered, and searched by GET /media `search` with the file name and
 * the alt text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';
import { png, upload } from './media-fixtures.js';

const M = '/api/v1/manage';
const P = '/api/v1/public';

describe.each(dialects())('media title and description on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let delivery: string;
  let wsId: string;
  let id: string;
  const send = async (parts: { name: string; value: string }[], filename = 'team.png') =>
    upload(env.app, { key, workspaceId: wsId, parts: [...parts, { name: 'file', filename, data: await png(16, 8), contentType: 'image/png' }] });

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    delivery = s.keys.delivery;
    wsId = s.workspace.id;
  });
  afterAll(async () => env?.close());

  it('takes title and description on upload; without them both are null', async () => {
    const res = await send([
      { name: 'title', value: 'The team' },
      { name: 'description', value: 'All of us on the roof, summer 2026.\nSecond line.' },
      { name: 'alt_text', value: 'Ten people' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ title: 'The team', description: 'All of us on the roof, summer 2026.\nSecond line.', alt_text: 'Ten people' });
    id = res.body.data.id;
    const bare = await send([], 'bare.png');
    expect(bare.status).toBe(201);
    expect(bare.body.data).toMatchObject({ title: null, description: null });
  });

  it('refuses a title over 1,000 or a description over 10,000 characters, with their paths', async () => {
    const res = await send([
      { name: 'title', value: 't'.repeat(1001) },
      { name: 'description', value: 'd'.repeat(10_001) },
    ]);
    expect(expectError(res, 400, 'VALIDATION_FAILED').errors).toEqual([
      { path: 'body.title', message: 'must be at most 1000 characters' },
      { path: 'body.description', message: 'must be at most 10000 characters' },
    ]);
    const longest = await send([
      { name: 'title', value: 't'.repeat(1000) },
      { name: 'description', value: 'ü'.repeat(10_000) },
    ]);
    expect(longest.status).toBe(201);
    expect(longest.body.data.description).toHaveLength(10_000);
    const twice = await send([
      { name: 'title', value: 'a' },
      { name: 'title', value: 'b' },
    ]);
    expect(expectError(twice, 400, 'VALIDATION_FAILED').errors[0]).toEqual({ path: 'body.title', message: 'is given more than once' });
  });

  it('changes them with PUT /media/{id}, clears them with null, and validates them', async () => {
    const res = await call(env.app, 'PUT', `${M}/media/${id}`, { key, body: { title: 'Our team', description: 'Updated' } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ title: 'Our team', description: 'Updated', alt_text: 'Ten people' });
    const get = await call(env.app, 'GET', `${M}/media/${id}`, { key });
    expect(get.body.data).toMatchObject({ title: 'Our team', description: 'Updated' });
    const cleared = await call(env.app, 'PUT', `${M}/media/${id}`, { key, body: { description: null } });
    expect(cleared.body.data).toMatchObject({ title: 'Our team', description: null });
    for (const [name, value] of [
      ['title', 'x'.repeat(1001)],
      ['description', 'x'.repeat(10_001)],
      ['description', 5],
    ] as const) {
      const bad = await call(env.app, 'PUT', `${M}/media/${id}`, { key, body: { [name]: value } });
      expect(expectError(bad, 400, 'VALIDATION_FAILED').errors.map((e: { path: string }) => e.path)).toContain(`body.${name}`);
    }
    expect((await call(env.app, 'PUT', `${M}/media/${id}`, { key, body: { description: 'The whole team, on the roof' } })).status).toBe(200);
  });

  it('delivers them with the asset and inline in an entry', async () => {
    const meta = await call(env.app, 'GET', `${P}/media/${id}`, { key: delivery });
    expect(meta.status).toBe(200);
    expect(meta.body.data).toMatchObject({ id, title: 'Our team', description: 'The whole team, on the roof', alt_text: 'Ten people' });
    expect((await call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'Story', fields: [{ name: 'photo', field_type: 'media' }] } })).status).toBe(
      201,
    );
    expect((await call(env.app, 'POST', `${M}/content-types/story/entries`, { key, body: { slug: 'roof', data: { photo: id } } })).status).toBe(201);
    expect((await call(env.app, 'PATCH', `${M}/content-types/story/entries/roof/publish`, { key })).status).toBe(200);
    const entry = await call(env.app, 'GET', `${P}/entries/roof?type=story`, { key: delivery });
    expect(JSON.parse(entry.body.data.entry.data).photo).toMatchObject({ id, title: 'Our team', description: 'The whole team, on the roof' });
  });

  it('searches the title and the description besides the file name and alt text, ignoring case', async () => {
    const names = async (search: string) => {
      const res = await call(env.app, 'GET', `${M}/media?search=${encodeURIComponent(search)}`, { key });
      expect(res.status).toBe(200);
      return (res.body.data as { original_name: string }[]).map((m) => m.original_name).sort();
    };
    expect(await names('OUR TEAM')).toEqual(['team.png']);
    expect(await names('roof')).toEqual(['team.png']);
    expect(await names('ten people')).toEqual(['team.png']);
    expect(await names('bare')).toEqual(['bare.png']);
    expect(await names('100%')).toEqual([]);
  });
});
