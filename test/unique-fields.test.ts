/**
 * `is_unique` fields are backed by a unique index of their own (issue 13 "uniqueness that does
 * not scan"): the check reads the index instead of every entry of the type, the database itself
 * refuses a duplicate that bypasses the check (a version restore), and the index goes with its
 * content type.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/types.js';
import { uniqueIndexName } from '../src/db/dialect.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';

async function indexNames(db: Db): Promise<string[]> {
  const q =
    db.dialect === 'sqlite'
      ? sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE 'entries_uq_%'`
      : sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'entries_uq_%'`;
  return (await q.execute(db.kysely)).rows.map((r) => r.name);
}

/** The query plan of the uniqueness check, as text. */
async function checkPlan(db: Db, contentTypeId: string): Promise<string> {
  const expr = db.dialect === 'sqlite' ? `json_extract("data", '$.sku')` : `("data"->>'sku')`;
  const query = `SELECT id FROM entries WHERE content_type_id = '${contentTypeId}' AND ${expr} = 'SKU-9' LIMIT 1`;
  if (db.dialect === 'sqlite') {
    const rows = (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`).execute(db.kysely)).rows;
    return rows.map((r) => r.detail).join('\n');
  }
  // A handful of rows would be read sequentially anyway; the question is whether the index serves the query.
  return db.kysely.transaction().execute(async (trx) => {
    await sql`SET LOCAL enable_seqscan = off`.execute(trx);
    const rows = (await sql.raw<{ 'QUERY PLAN': string }>(`EXPLAIN ${query}`).execute(trx)).rows;
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describe.each(dialects())('unique fields on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    key = (await seedWorkspace(env.ctx)).keys.management;
  });
  afterAll(async () => env?.close());

  it('builds one unique index per unique field, used by the check, and drops it with the type', async () => {
    const before = await indexNames(env.ctx.db);
    const created = await req('POST', '/content-types', {
      name: 'Product',
      slug: 'product',
      fields: [
        { name: 'title', field_type: 'text' },
        { name: 'sku', field_type: 'text', is_unique: true },
      ],
    });
    expect(created.status).toBe(201);
    const ct = created.body.data;
    const sku = ct.fields.find((f: { name: string }) => f.name === 'sku');
    expect(await indexNames(env.ctx.db)).toEqual([...before, uniqueIndexName(sku.id)]);
    expect(await checkPlan(env.ctx.db, ct.id)).toContain(uniqueIndexName(sku.id));

    // A field added later gets its own index.
    const code = await req('POST', '/content-types/product/fields', { name: 'code', field_type: 'integer', is_unique: true });
    expect(code.status).toBe(201);
    const fields = (await req('GET', '/content-types/product')).body.data.fields as { id: string; name: string }[];
    expect(await indexNames(env.ctx.db)).toContain(uniqueIndexName(fields.find((f) => f.name === 'code')!.id));

    await req('DELETE', '/content-types/product');
    expect(await indexNames(env.ctx.db)).toEqual(before);
  });

  it('refuses duplicates per content type only, through the API and through a version restore', async () => {
    for (const slug of ['book', 'album']) {
      const res = await req('POST', '/content-types', {
        name: slug,
        slug,
        fields: [
          { name: 'title', field_type: 'text' },
          { name: 'sku', field_type: 'text', is_unique: true },
        ],
      });
      expect(res.status).toBe(201);
    }
    expect((await req('POST', '/content-types/book/entries', { slug: 'one', data: { title: 'One', sku: 'S-1' } })).status).toBe(201);
    // The same value in another content type, and entries without a value, are fine.
    expect((await req('POST', '/content-types/album/entries', { slug: 'one', data: { title: 'One', sku: 'S-1' } })).status).toBe(201);
    expect((await req('POST', '/content-types/book/entries', { slug: 'no-sku-1', data: { title: 'A' } })).status).toBe(201);
    expect((await req('POST', '/content-types/book/entries', { slug: 'no-sku-2', data: { title: 'B' } })).status).toBe(201);
    expectError(await req('POST', '/content-types/book/entries', { slug: 'two', data: { title: 'Two', sku: 'S-1' } }), 409, 'UNIQUE_VIOLATION');

    // 'two' once held S-2, then moved to S-3; 'three' takes S-2; restoring 'two' to S-2 is refused.
    expect((await req('POST', '/content-types/book/entries', { slug: 'two', data: { title: 'Two', sku: 'S-2' } })).status).toBe(201);
    expect((await req('PUT', '/content-types/book/entries/two', { data: { title: 'Two', sku: 'S-3' } })).status).toBe(200);
    expect((await req('POST', '/content-types/book/entries', { slug: 'three', data: { title: 'Three', sku: 'S-2' } })).status).toBe(201);
    const restored = await req('POST', '/content-types/book/entries/two/versions/1/restore');
    expectError(restored, 409, 'UNIQUE_VIOLATION');
    // Nothing was written: 'two' still holds S-3.
    expect(JSON.parse((await req('GET', '/content-types/book/entries/two')).body.data.data).sku).toBe('S-3');
  });
});
