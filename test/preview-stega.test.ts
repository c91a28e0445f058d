/**
 * Stega and source maps on the preview-token route (GET /api/v1/public/preview; D140, D46;
 * docs/visual-editing.md), SQLite and PostgreSQL, on the demo content: an entry token's working
 * copy read by a preview key with `stega=true` carries each text value's origin in the locale it
 * is stored in (default `data`, each translation), cleans to the plain answer, and leaves ids,
 * dates and select values byte-identical; `source_maps=true` maps the same strings. A production
 * key asking is refused before the token is read; a page token's answer stays plain (its page is
 * traced by GET /pages/{slug}).
 */
import { vercelStegaClean, vercelStegaDecode } from '@vercel/stega';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoContent } from './graphql-fixtures.js';
import { call, createTestEnv, dialects, expectError, type TestEnv } from './helpers.js';

describe.each(dialects())('GET /public/preview with stega on %s', (dialect) => {
  let env: TestEnv;
  let keys: { management: string; delivery: string; preview: string };
  let entryToken = '';
  let pageToken = '';
  let postId = '';

  const mint = async (body: Record<string, string>) => {
    const res = await call(env.app, 'POST', '/api/v1/manage/preview-tokens', { key: keys.management, body });
    expect(res.status).toBe(201);
    return res.body.data.token as string;
  };
  const preview = (token: string, query: string, key = keys.preview) =>
    call(env.app, 'GET', `/api/v1/public/preview?token=${encodeURIComponent(token)}${query}`, { key });

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const seeded = await seedDemoContent(env.ctx);
    keys = seeded.keys;
    postId = seeded.postIds.get('welcome-to-quire')!;
    entryToken = await mint({ entry_id: postId });
    const home = await call(env.app, 'GET', '/api/v1/public/pages/home', { key: keys.delivery });
    pageToken = await mint({ page_id: home.body.data.page.id });
  });
  afterAll(async () => env?.close());

  it('an entry token’s working copy carries each text value’s origin, in the locale it is stored in', async () => {
    const plain = await preview(entryToken, '');
    const traced = await preview(entryToken, '&stega=true');
    expect(traced.status).toBe(200);
    const data = JSON.parse(traced.body.data.entry.data);
    const plainData = JSON.parse(plain.body.data.entry.data);
    expect(vercelStegaDecode(data.title)).toMatchObject({
      origin: 'quire',
      kind: 'entry',
      id: postId,
      content_type: 'post',
      field: 'title',
      locale: 'en',
      href: expect.stringMatching(/\/studio\/[^/]+\/content\/post\/welcome-to-quire\?field=title&locale=en$/),
    });
    // Rich text by text node; references, dates and select values byte-identical.
    const firstText = JSON.stringify(data.body).match(/"value":"([^"]+)"/)?.[1] ?? '';
    expect(vercelStegaDecode(JSON.parse(`"${firstText}"`))).toMatchObject({ field: 'body', locale: 'en' });
    expect(data.author).toBe(plainData.author);
    expect(data.published_on).toBe(plainData.published_on);
    expect(data.tags).toEqual(plainData.tags);
    expect(vercelStegaClean(data)).toEqual(plainData);

    const de = traced.body.data.entry.translations.findIndex((t: { locale: string }) => t.locale === 'de');
    const deData = JSON.parse(traced.body.data.entry.translations[de].data);
    expect(vercelStegaDecode(deData.title)).toMatchObject({ field: 'title', locale: 'de', href: expect.stringContaining('locale=de') });
    expect(traced.body.data.translations[de].data).toBe(traced.body.data.entry.translations[de].data);
    expect(vercelStegaClean(traced.body.data)).toEqual(plain.body.data);
    expect(traced.body.meta).toBeNull();
    // Without the switch nothing is encoded.
    expect(vercelStegaDecode(plainData.title)).toBeUndefined();
  });

  it('source_maps=true maps the same strings by their JSONPath, the translations at both places', async () => {
    const res = await preview(entryToken, '&source_maps=true');
    expect(res.status).toBe(200);
    const { mappings } = res.body.meta.source_map;
    const mapping = { kind: 'entry', id: postId, content_type: 'post', field: 'title' };
    expect(mappings['$.entry.data.title']).toEqual({ ...mapping, locale: 'en' });
    const de = res.body.data.entry.translations.findIndex((t: { locale: string }) => t.locale === 'de');
    expect(mappings[`$.entry.translations[${de}].data.title`]).toEqual({ ...mapping, locale: 'de' });
    expect(mappings[`$.translations[${de}].data.title`]).toEqual({ ...mapping, locale: 'de' });
    expect(mappings['$.entry.data.author']).toBeUndefined();
    // No stega asked: the strings are plain.
    expect(vercelStegaDecode(JSON.parse(res.body.data.entry.data).title)).toBeUndefined();
  });

  it('a production key asking is refused before the token is read; a page token’s answer stays plain', async () => {
    const production = expectError(await preview('not-a-token', '&stega=true', keys.delivery), 400, 'VALIDATION_FAILED');
    expect(production.errors[0].path).toBe('query.stega');
    const map = expectError(await preview(entryToken, '&source_maps=true', keys.delivery), 400, 'VALIDATION_FAILED');
    expect(map.errors[0].path).toBe('query.source_maps');
    // The production key still reads the working copy plainly.
    expect((await preview(entryToken, '', keys.delivery)).status).toBe(200);
    // A page token's answer stays plain (its page is traced by GET /pages/{slug}).
    const page = await preview(pageToken, '&stega=true&source_maps=true');
    expect(page.status).toBe(200);
    expect(page.body.data).toEqual((await preview(pageToken, '')).body.data);
    expect(page.body.meta).toBeNull();
  });
});
