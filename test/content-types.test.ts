import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataFieldSql } from '../src/db/dialect.js';
import { createApiKey, createMember } from '../src/modules/auth/operations.js';
import { newId } from '../src/lib/ids.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('content types and fields on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let wsId: string;
  let wsSlug: string;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    wsId = s.workspace.id;
    wsSlug = s.workspace.slug;
  });
  afterAll(async () => env?.close());

  const post = (url: string, body: unknown, k = key) => call(env.app, 'POST', M + url, { key: k, body });

  it('creates a content type with fields, derives the slug and returns it', async () => {
    const res = await post('/content-types', {
      name: 'Blog Post',
      description: 'Articles',
      display_field: 'title',
      fields: [
        { name: 'title', field_type: 'text', required: true, localizable: true, sortable: true },
        { name: 'category', field_type: 'select', options: '["news","guides"]', filterable: true },
        { name: 'body', field_type: 'rich_text', localizable: true },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, message: 'Success', meta: null });
    const ct = res.body.data;
    expect(ct).toMatchObject({ slug: 'blog-post', name: 'Blog Post', is_block: false, orderable: false, display_field: 'title', workspace_id: wsId });
    expect(ct.fields.map((f: any) => f.name)).toEqual(['title', 'category', 'body']);
    expect(ct.fields[1].options).toBe('["news","guides"]');
    expect(ct.fields[0]).toMatchObject({ required: true, localizable: true, sortable: true, filterable: false, is_unique: false, sort_order: 0 });
  });

  it('refuses a used slug with 409 SLUG_TAKEN', async () => {
    expectError(await post('/content-types', { name: 'Blog Post' }), 409, 'SLUG_TAKEN');
  });

  it('validates the body: unknown keys, bad field types, missing select options', async () => {
    const a = expectError(await post('/content-types', { name: 'X', color: 'red' }), 400, 'VALIDATION_FAILED');
    expect(a.errors).toEqual([{ path: 'body.color', message: 'is not a known key' }]);
    const b = expectError(
      await post('/content-types', {
        name: 'Y',
        fields: [
          { name: 'a', field_type: 'colour' },
          { name: 'b', field_type: 'select' },
        ],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(b.errors.map((e: any) => e.path)).toEqual(['body.fields.0.field_type', 'body.fields.1.options']);
    const c = expectError(await post('/content-types', { name: 'Z', display_field: 'nope' }), 400, 'VALIDATION_FAILED');
    expect(c.errors[0].path).toBe('body.display_field');
    expectError(await post('/content-types', { name: 'Bad', slug: 'Not A Slug' }), 400, 'VALIDATION_FAILED');
    expectError(await post('/content-types', { name: 'Q', fields: [{ name: 'Bad-Name', field_type: 'text' }] }), 400, 'VALIDATION_FAILED');
    expectError(await post('/content-types', { name: 'R', fields: [{ name: 'body', field_type: 'rich_text', sortable: true }] }), 400, 'VALIDATION_FAILED');
  });

  it('answers malformed JSON, wrong content type and oversized bodies in the envelope', async () => {
    const bad = await call(env.app, 'POST', `${M}/content-types`, { key, raw: '{"name": ', headers: { 'content-type': 'application/json' } });
    expectError(bad, 400, 'VALIDATION_FAILED');
    const text = await call(env.app, 'POST', `${M}/content-types`, { key, raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const big = await call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'x', description: 'y'.repeat(1_100_000) } });
    expectError(big, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('lists with pagination meta and the is_block filter', async () => {
    await post('/content-types', { name: 'Hero', is_block: true, fields: [{ name: 'headline', field_type: 'text' }] });
    await post('/content-types', { name: 'Author', fields: [{ name: 'name', field_type: 'text' }] });
    const all = await call(env.app, 'GET', `${M}/content-types?limit=2`, { key });
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(2);
    expect(all.body.meta).toMatchObject({ total_data: 3, current_page: 1, page_size: 2, total_pages: 2 });
    const blocks = await call(env.app, 'GET', `${M}/content-types?is_block=true`, { key });
    expect(blocks.body.data.map((c: any) => c.slug)).toEqual(['hero']);
    const nonBlocks = await call(env.app, 'GET', `${M}/content-types?is_block=false`, { key });
    expect(nonBlocks.body.data.map((c: any) => c.slug).sort()).toEqual(['author', 'blog-post']);
    expectError(await call(env.app, 'GET', `${M}/content-types?limit=101`, { key }), 400, 'VALIDATION_FAILED');
    expectError(await call(env.app, 'GET', `${M}/content-types?page=1001`, { key }), 400, 'PAGE_TOO_DEEP');
    expectError(await call(env.app, 'GET', `${M}/content-types?is_block=maybe`, { key }), 400, 'VALIDATION_FAILED');
  });

  it('gets one by slug, 404 for an unknown one', async () => {
    const res = await call(env.app, 'GET', `${M}/content-types/hero`, { key });
    expect(res.body.data).toMatchObject({ slug: 'hero', is_block: true });
    expectError(await call(env.app, 'GET', `${M}/content-types/missing`, { key }), 404, 'NOT_FOUND');
  });

  it('PATCH accepts only name, description, icon, display_field, orderable', async () => {
    const res = await call(env.app, 'PATCH', `${M}/content-types/author`, {
      key,
      body: { name: 'Writer', icon: 'user', orderable: true, display_field: 'name' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Writer', icon: 'user', orderable: true, display_field: 'name', slug: 'author' });
    const blk = expectError(await call(env.app, 'PATCH', `${M}/content-types/author`, { key, body: { is_block: true } }), 400, 'VALIDATION_FAILED');
    expect(blk.errors[0].path).toBe('body.is_block');
    expectError(await call(env.app, 'PATCH', `${M}/content-types/author`, { key, body: { slug: 'x' } }), 400, 'VALIDATION_FAILED');
  });

  it('manages fields: create, list, patch label/flags, reorder, impacts', async () => {
    const created = await post('/content-types/author/fields', { name: 'bio', field_type: 'textarea', label: 'Biography', localizable: true });
    expect(created.status).toBe(201);
    expect(created.body.data).toBeNull();
    await post('/content-types/author/fields', { name: 'age', field_type: 'integer', validation: { min: 0, max: 150 } });
    expectError(await post('/content-types/author/fields', { name: 'age', field_type: 'integer' }), 400, 'VALIDATION_FAILED');
    expectError(await post('/content-types/author/fields', { name: 'x', field_type: 'text', validation: '{"pattern":"("}' }), 400, 'VALIDATION_FAILED');
    expectError(await post('/content-types/author/fields', { name: 'y', field_type: 'text', validation: { maxx: 1 } }), 400, 'VALIDATION_FAILED');

    const list = await call(env.app, 'GET', `${M}/content-types/author/fields`, { key });
    expect(list.body.data.map((f: any) => f.name)).toEqual(['name', 'bio', 'age']);
    const [name, bio, age] = list.body.data;
    expect(age.validation).toBe('{"min":0,"max":150}');

    const patched = await call(env.app, 'PATCH', `${M}/content-types/author/fields/${bio.id}`, { key, body: { label: 'About' } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toBeNull();
    expectError(await call(env.app, 'PATCH', `${M}/content-types/author/fields/${bio.id}`, { key, body: { required: true } }), 400, 'VALIDATION_FAILED');
    expectError(await call(env.app, 'PATCH', `${M}/content-types/author/fields/${bio.id}`, { key, body: { name: 'x' } }), 400, 'VALIDATION_FAILED');
    expectError(await call(env.app, 'PATCH', `${M}/content-types/author/fields/${newId()}`, { key, body: { label: 'x' } }), 404, 'NOT_FOUND');

    const reorder = await call(env.app, 'PATCH', `${M}/content-types/author/fields/reorder`, { key, body: { order: [age.id, name.id, bio.id] } });
    expect(reorder.status).toBe(200);
    const after = await call(env.app, 'GET', `${M}/content-types/author/fields`, { key });
    expect(after.body.data.map((f: any) => [f.name, f.label, f.sort_order])).toEqual([
      ['age', 'age', 0],
      ['name', 'name', 1],
      ['bio', 'About', 2],
    ]);
    expectError(
      await call(env.app, 'PATCH', `${M}/content-types/author/fields/reorder`, { key, body: { order: [age.id, name.id] } }),
      400,
      'VALIDATION_FAILED',
    );
    expectError(
      await call(env.app, 'PATCH', `${M}/content-types/author/fields/reorder`, { key, body: { order: [age.id, name.id, bio.id, bio.id] } }),
      400,
      'VALIDATION_FAILED',
    );

    // Impact reports count entries (and translations) holding a value for the field.
    const ct = (await call(env.app, 'GET', `${M}/content-types/author`, { key })).body.data;
    const now = new Date().toISOString();
    for (const [i, data] of [{ name: 'A', bio: 'x' }, { name: 'B', bio: null }, { name: 'C' }].entries()) {
      const id = newId();
      await env.ctx.db.kysely
        .insertInto('entries')
        .values({
          id,
          workspace_id: wsId,
          content_type_id: ct.id,
          slug: `a-${i}`,
          status: 'draft',
          data: JSON.stringify(data),
          position: i,
          version: 1,
          created_at: now,
          updated_at: now,
          created_by: null,
          updated_by: null,
          publish_at: null,
          published_at: null,
        })
        .execute();
      if (i === 0)
        await env.ctx.db.kysely
          .insertInto('entry_translations')
          .values({ entry_id: id, locale: 'de', data: JSON.stringify({ bio: 'y' }), created_at: now, updated_at: now })
          .execute();
    }
    const del = await call(env.app, 'GET', `${M}/content-types/author/fields/${bio.id}/deletion-impact`, { key });
    expect(del.body.data).toEqual({ affected_entries: 1, field_name: 'bio', field_type: 'textarea' });
    const loc = await call(env.app, 'GET', `${M}/content-types/author/fields/${bio.id}/localization-impact`, { key });
    expect(loc.body.data).toEqual({ affected_entries: 1, field_name: 'bio', localizable: true, locales: [{ locale: 'de', count: 1 }] });

    // A content type holding entries cannot be deleted.
    expectError(await call(env.app, 'DELETE', `${M}/content-types/author`, { key }), 409, 'CONTENT_TYPE_NOT_EMPTY');
  });

  it('reports block usage and refuses to delete a block type in use', async () => {
    const hero = (await call(env.app, 'GET', `${M}/content-types/hero`, { key })).body.data;
    const empty = await call(env.app, 'GET', `${M}/content-types/hero/block-usage`, { key });
    expect(empty.body.data).toEqual({ count: 0, is_block: true, pages: [] });
    const now = new Date().toISOString();
    for (const slug of ['home', 'about']) {
      const pageId = newId();
      await env.ctx.db.kysely
        .insertInto('pages')
        .values({
          id: pageId,
          workspace_id: wsId,
          slug,
          status: 'draft',
          position: 0,
          seo: '{}',
          version: 1,
          created_at: now,
          updated_at: now,
          created_by: null,
          updated_by: null,
          publish_at: null,
          published_at: null,
        })
        .execute();
      for (let i = 0; i < (slug === 'home' ? 2 : 1); i++) {
        await env.ctx.db.kysely
          .insertInto('blocks')
          .values({ id: newId(), page_id: pageId, block_type_id: hero.id, parent_id: null, position: i, data: '{}', created_at: now, updated_at: now })
          .execute();
      }
    }
    const used = await call(env.app, 'GET', `${M}/content-types/hero/block-usage`, { key });
    expect(used.body.data).toEqual({
      count: 3,
      is_block: true,
      pages: [
        { slug: 'about', status: 'draft' },
        { slug: 'home', status: 'draft' },
      ],
    });
    expectError(await call(env.app, 'DELETE', `${M}/content-types/hero`, { key }), 409, 'CONTENT_TYPE_NOT_EMPTY');
  });

  it('deletes an empty content type', async () => {
    await post('/content-types', { name: 'Temp' });
    const res = await call(env.app, 'DELETE', `${M}/content-types/temp`, { key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Success', data: null, meta: null });
    expectError(await call(env.app, 'GET', `${M}/content-types/temp`, { key }), 404, 'NOT_FOUND');
  });

  it('enforces authentication, key class, scopes and the creator role', async () => {
    expectError(await call(env.app, 'GET', `${M}/content-types`), 401, 'UNAUTHORIZED');
    expectError(await call(env.app, 'GET', `${M}/content-types`, { key: '' }), 401, 'UNAUTHORIZED');
    expectError(await call(env.app, 'GET', `${M}/content-types`, { key: 'svc_mgmt_' + 'a'.repeat(40) }), 401, 'UNAUTHORIZED');
    const seeded = await seedWorkspace(env.ctx);
    const wrong = expectError(await call(env.app, 'GET', `${M}/content-types`, { key: seeded.keys.delivery }), 401, 'UNAUTHORIZED');
    expect(wrong.message).toMatch(/management key/);

    // A key without schema:write may read but not write.
    const member = await createMember(env.ctx, wsSlug, 'editor@example.com', 'editor');
    const contentOnly = await createApiKey(env.ctx, wsId, member.id, { keyClass: 'management', scopes: ['content:write'] });
    expect((await call(env.app, 'GET', `${M}/content-types`, { key: contentOnly.key })).status).toBe(200);
    const noScope = expectError(await post('/content-types', { name: 'Nope' }, contentOnly.key), 403, 'FORBIDDEN');
    expect(noScope.message).toContain('schema:write');
    // The key has schema:write but its creator (an editor) does not: the intersection wins.
    const editorKey = await createApiKey(env.ctx, wsId, member.id, { keyClass: 'management', scopes: ['schema:write'] });
    const byRole = expectError(await post('/content-types', { name: 'Nope' }, editorKey.key), 403, 'FORBIDDEN');
    expect(byRole.message).toContain('schema:write');
  });

  it('creates and drops an expression index with sortable/filterable, used by the query plan', async () => {
    const ct = (
      await post('/content-types', {
        name: 'Product',
        fields: [
          { name: 'sku', field_type: 'text' },
          { name: 'price', field_type: 'number' },
        ],
      })
    ).body.data;
    const [, price] = ct.fields;
    const indexName = 'entries_data_num_price';
    const hasIndex = async () => {
      if (dialect === 'sqlite') {
        const r = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name = ${indexName}`.execute(env.ctx.db.kysely);
        return r.rows.length === 1;
      }
      const r = await sql<{ indexname: string }>`select indexname from pg_indexes where indexname = ${indexName} and schemaname = current_schema()`.execute(
        env.ctx.db.kysely,
      );
      return r.rows.length === 1;
    };
    expect(await hasIndex()).toBe(false);
    await call(env.app, 'PATCH', `${M}/content-types/product/fields/${price.id}`, { key, body: { sortable: true } });
    expect(await hasIndex()).toBe(true);

    // Enough rows of several types that a table scan would be the planner's choice without the index.
    const now = new Date().toISOString();
    const rows = Array.from({ length: 600 }, (_, i) => ({
      id: newId(),
      workspace_id: wsId,
      content_type_id: i % 3 === 0 ? ct.id : (newId(), ct.id),
      slug: `p-${i}`,
      status: 'published',
      data: JSON.stringify({ sku: `S${i}`, price: (i * 7919) % 1000 }),
      position: i,
      version: 1,
      created_at: now,
      updated_at: now,
      created_by: null,
      updated_by: null,
      publish_at: null,
      published_at: now,
    }));
    await env.ctx.db.kysely.insertInto('entries').values(rows).execute();
    if (dialect === 'postgres') await sql`analyze entries`.execute(env.ctx.db.kysely);
    else await sql`analyze`.execute(env.ctx.db.kysely);

    // Ordered as delivery orders it: a missing value is the smallest (NULLS FIRST ascending).
    const expr = dataFieldSql(dialect, 'price', 'number');
    const query = env.ctx.db.kysely
      .selectFrom('entries')
      .select('id')
      .where('content_type_id', '=', ct.id)
      .orderBy(expr, (ob) => ob.asc().nullsFirst())
      .orderBy('id', 'asc')
      .limit(10);
    const compiled = query.compile();
    const plan =
      dialect === 'sqlite'
        ? (await sql.raw(`EXPLAIN QUERY PLAN ${compiled.sql.replace('?', `'${ct.id}'`).replace('?', '10')}`).execute(env.ctx.db.kysely)).rows
            .map((r: any) => r.detail)
            .join('\n')
        : (await sql.raw(`EXPLAIN ${compiled.sql.replace('$1', `'${ct.id}'`).replace('$2', '10')}`).execute(env.ctx.db.kysely)).rows
            .map((r: any) => r['QUERY PLAN'])
            .join('\n');
    expect(plan).toContain(indexName);
    expect(plan).not.toMatch(/SCAN entries\b(?! USING)|Seq Scan/);
    if (dialect === 'sqlite') expect(plan).not.toContain('USE TEMP B-TREE');

    await call(env.app, 'PATCH', `${M}/content-types/product/fields/${price.id}`, { key, body: { sortable: false } });
    expect(await hasIndex()).toBe(false);
  });
});
