import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../src/modules/auth/operations.js';
import { mintPreviewToken } from '../src/modules/preview/operations.js';
import { newId } from '../src/lib/ids.js';
import { call, createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';
import { createWorld, doc, M, P, type DeliveryWorld } from './delivery-fixtures.js';

const TYPES = [
  {
    name: 'Post',
    slug: 'post',
    fields: [
      { name: 'title', field_type: 'text', localizable: true },
      { name: 'body', field_type: 'rich_text', localizable: true },
    ],
  },
  { name: 'Memo', slug: 'memo', fields: [{ name: 'note', field_type: 'text' }] },
];

describe.each(dialects())('preview tokens on %s', (dialect) => {
  let env: TestEnv;
  let w: DeliveryWorld;
  let other: DeliveryWorld;
  let now = new Date('2026-06-01T12:00:00.000Z');
  let draftId: string;
  const mint = (entryId: unknown, key = w.keys.management) => call(env.app, 'POST', `${M}/preview-tokens`, { key, body: { entry_id: entryId } });
  const preview = (token: string, key = w.keys.delivery) => call(env.app, 'GET', `${P}/preview?token=${encodeURIComponent(token)}`, { key });

  beforeAll(async () => {
    env = await createTestEnv(dialect, { clock: () => now });
    w = await createWorld(env.ctx, env.app, TYPES);
    other = await createWorld(env.ctx, env.app, TYPES);
    draftId = await w.insertEntry({
      type: 'post',
      slug: 'draft',
      status: 'draft',
      data: { title: 'Draft', body: doc('Hi') },
      translations: { de: { title: 'Entwurf' }, fr: { title: 'Brouillon' } },
    });
  });
  afterAll(async () => env?.close());

  it('mints a token valid for 48 hours (content:write, 201)', async () => {
    const res = await mint(draftId);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ token: expect.any(String), expires_at: '2026-06-03T12:00:00.000Z' });
    expect(res.body.meta).toBeNull();
  });

  it('validates the request: scope, key class, body, entry', async () => {
    const publisher = await createApiKey(env.ctx, w.workspaceId, w.userId, { keyClass: 'management', scopes: ['content:publish'] });
    const b = expectError(await mint(draftId, publisher.key), 403, 'FORBIDDEN');
    expect(b.message).toMatch(/content:write/);
    expectError(await mint(draftId, w.keys.delivery), 401, 'UNAUTHORIZED');
    expectError(await mint('not-a-uuid'), 400, 'VALIDATION_FAILED');
    const extra = expectError(
      await call(env.app, 'POST', `${M}/preview-tokens`, { key: w.keys.management, body: { entry_id: draftId, ttl: 5 } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(extra.errors[0].path).toBe('body.ttl');
    expectError(await call(env.app, 'POST', `${M}/preview-tokens`, { key: w.keys.management, body: {} }), 400, 'VALIDATION_FAILED');
    expectError(await mint(newId()), 404, 'NOT_FOUND');
    // An entry of another workspace is not found either.
    expectError(await mint(draftId, other.keys.management), 404, 'NOT_FOUND');
  });

  it('GET /preview returns the entry in any status with its translations (management shape)', async () => {
    const { token } = (await mint(draftId)).body.data;
    for (const key of [w.keys.delivery, w.keys.preview]) {
      const res = await preview(token, key);
      expect(res.status).toBe(200);
      const { entry, translations } = res.body.data;
      expect(entry).toMatchObject({
        id: draftId,
        slug: 'draft',
        status: 'draft',
        workspace_id: w.workspaceId,
        content_type_id: w.types.post,
        published_at: null,
      });
      expect(JSON.parse(entry.data)).toEqual({ title: 'Draft', body: doc('Hi') });
      expect(translations.map((t: any) => t.locale)).toEqual(['de', 'fr']);
      expect(translations[0]).toMatchObject({ entry_id: draftId, locale: 'de', id: expect.any(Number) });
      expect(JSON.parse(translations[0].data)).toEqual({ title: 'Entwurf' });
      expect(entry.translations).toEqual(translations);
    }
  });

  it('the CLI operation mints the same kind of token', async () => {
    const scheduled = await w.insertEntry({ type: 'post', slug: 'due', status: 'scheduled', publish_at: '2026-05-01T00:00:00.000Z', data: { title: 'Due' } });
    const minted = await mintPreviewToken(env.ctx, w.workspaceId, scheduled);
    expect(minted.expires_at).toBe('2026-06-03T12:00:00.000Z');
    const res = await preview(minted.token);
    // A due scheduled entry reads as published (D21).
    expect(res.body.data.entry).toMatchObject({ status: 'published', published_at: '2026-05-01T00:00:00.000Z', publish_at: null });
    await expect(mintPreviewToken(env.ctx, other.workspaceId, scheduled)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('rejects missing, tampered and expired tokens; needs a delivery key of the same workspace', async () => {
    const { token } = (await mint(draftId)).body.data;
    expectError(await call(env.app, 'GET', `${P}/preview?token=${token}`), 401, 'UNAUTHORIZED');
    expectError(await preview(token, w.keys.management), 401, 'UNAUTHORIZED');
    expectError(await call(env.app, 'GET', `${P}/preview`, { key: w.keys.delivery }), 400, 'VALIDATION_FAILED');
    expectError(await call(env.app, 'GET', `${P}/preview?token=${token}&entry=1`, { key: w.keys.delivery }), 400, 'VALIDATION_FAILED');
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600 * 24 * 365 })).toString('base64url');
    expectError(await preview(`${h}.${forged}.${s}`), 401, 'UNAUTHORIZED');
    expectError(await preview(`${h}.${p}.${s.slice(0, -3)}abc`), 401, 'UNAUTHORIZED');
    expectError(await preview('garbage'), 401, 'UNAUTHORIZED');
    // An unsigned token ("alg": "none") is refused.
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    expectError(await preview(none), 401, 'UNAUTHORIZED');
    // A token of another workspace answers 404: it reveals nothing.
    expectError(await preview(token, other.keys.delivery), 404, 'NOT_FOUND');

    const start = now;
    try {
      now = new Date(start.getTime() + 48 * 3600_000 - 1000);
      expect((await preview(token)).status).toBe(200);
      now = new Date(start.getTime() + 48 * 3600_000 + 1000);
      const b = expectError(await preview(token), 401, 'UNAUTHORIZED');
      expect(b.message).toMatch(/expired/);
    } finally {
      now = start;
    }
  });

  it('honours the key whitelist and answers 404 once the entry is gone', async () => {
    const memoOnly = await w.deliveryKey({ contentTypes: ['memo'] });
    const { token } = (await mint(draftId)).body.data;
    expectError(await preview(token, memoOnly), 403, 'FORBIDDEN');
    const gone = await w.insertEntry({ type: 'post', slug: 'gone', status: 'draft', data: { title: 'Gone' } });
    const goneToken = (await mint(gone)).body.data.token;
    await env.ctx.db.kysely.deleteFrom('entries').where('id', '=', gone).execute();
    expectError(await preview(goneToken), 404, 'NOT_FOUND');
  });

  describe('tokens naming a page (the Studio live preview of pages)', () => {
    const mintPage = (pageId: unknown, key = w.keys.management) => call(env.app, 'POST', `${M}/preview-tokens`, { key, body: { page_id: pageId } });
    let pageId: string;

    beforeAll(async () => {
      const created = await call(env.app, 'POST', `${M}/pages`, {
        key: w.keys.management,
        body: { slug: 'landing', seo: { title: 'Landing' }, seo_translations: { de: { title: 'Startseite' } }, blocks: [] },
      });
      expect(created.status).toBe(201);
      pageId = created.body.data.id;
    });

    it('mints for a page of the workspace; refuses both ids at once, unknown pages and other workspaces', async () => {
      const res = await mintPage(pageId);
      expect(res.status).toBe(201);
      expect(res.body.data.expires_at).toBe('2026-06-03T12:00:00.000Z');
      expectError(
        await call(env.app, 'POST', `${M}/preview-tokens`, { key: w.keys.management, body: { page_id: pageId, entry_id: draftId } }),
        400,
        'VALIDATION_FAILED',
      );
      expectError(await mintPage('nope'), 400, 'VALIDATION_FAILED');
      expectError(await mintPage(newId()), 404, 'NOT_FOUND');
      expectError(await mintPage(pageId, other.keys.management), 404, 'NOT_FOUND');
      // An entry id is not a page id, and the other way round.
      expectError(await mintPage(draftId), 404, 'NOT_FOUND');
      expectError(await mint(pageId), 404, 'NOT_FOUND');
      await expect(mintPreviewToken(env.ctx, w.workspaceId, pageId, 'page')).resolves.toMatchObject({ token: expect.any(String) });
    });

    it('GET /preview answers the page working copy (draft, then pending changes) in the management shape', async () => {
      const { token } = (await mintPage(pageId)).body.data;
      const first = await preview(token);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('private, no-store');
      expect(first.body.data.page).toMatchObject({ id: pageId, slug: 'landing', status: 'draft', seo: { title: 'Landing' } });
      expect(first.body.data.blocks).toEqual([]);
      expect(first.body.data.seo_translations).toMatchObject([{ locale: 'de', seo: { title: 'Startseite' } }]);
      expect(first.body.data).not.toHaveProperty('entry');

      expect((await call(env.app, 'PATCH', `${M}/pages/landing/publish`, { key: w.keys.management })).status).toBe(200);
      const put = await call(env.app, 'PUT', `${M}/pages/landing`, { key: w.keys.management, body: { seo: { title: 'Landing, edited' }, blocks: [] } });
      expect(put.status).toBe(200);
      const second = await preview(token, w.keys.preview);
      expect(second.body.data.page).toMatchObject({ status: 'published', has_pending_changes: true, seo: { title: 'Landing, edited' } });
      // The production key still reads the published version through the delivery API.
      const live = await call(env.app, 'GET', `${P}/pages/landing`, { key: w.keys.delivery });
      expect(live.body.data.page.seo.title).toBe('Landing');
    });

    it('a page token of another workspace answers 404, a deleted page 404, a forged kind 401', async () => {
      const { token } = (await mintPage(pageId)).body.data;
      expectError(await preview(token, other.keys.delivery), 404, 'NOT_FOUND');
      const [h, p, s] = token.split('.');
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      const forged = Buffer.from(JSON.stringify({ ...claims, kind: 'entry' })).toString('base64url');
      expectError(await preview(`${h}.${forged}.${s}`), 401, 'UNAUTHORIZED');
      const gone = await call(env.app, 'POST', `${M}/pages`, { key: w.keys.management, body: { slug: 'gone-page' } });
      const goneToken = (await mintPage(gone.body.data.id)).body.data.token;
      expect((await call(env.app, 'DELETE', `${M}/pages/gone-page`, { key: w.keys.management })).status).toBe(200);
      expectError(await preview(goneToken), 404, 'NOT_FOUND');
    });
  });
});
