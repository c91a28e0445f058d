/**
 * The field cap (issue 23 item 5): a content type (entry or block type) holds at most 200
 * fields, however its fields arrive: created with the type over HTTP or through the operation
 * (the importer and the demo seed call it directly), added one by one with POST …/fields
 * (also concurrently), added by a Contentful import into a new or an existing type, or restored
 * from a workspace export (`quire import quire`) whose fields file lists more. Before,
 * only the HTTP body schema of POST /content-types counted, and fields added one by one reached
 * 210. On SQLite and PostgreSQL.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.js';
import { systemActor } from '../../src/modules/auth/permissions.js';
import { MAX_FIELDS_PER_TYPE } from '../../src/modules/content-types/model.js';
import { createContentType } from '../../src/modules/content-types/operations.js';
import { findContentTypeBySlug } from '../../src/modules/content-types/repository.js';
import { importContentful } from '../../src/modules/import/operations.js';
import type { ContentfulExport } from '../../src/modules/import/contentful/export.js';
import { cli } from '../cli-helpers.js';
import { call, createTestEnv, dialects, expectError, seedWorkspace, type TestEnv } from '../helpers.js';
import { freshCopy, readTable, writeTable } from './restore-fixtures.js';

const M = '/api/v1/manage';
const fields = (n: number, prefix = 'f') => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i + 1}`, field_type: 'text' }));

/** A Contentful export with one content type of `n` Symbol fields and no entries. */
function exportWithFields(n: number): ContentfulExport {
  return {
    locales: [{ code: 'en-US', default: true }],
    contentTypes: [
      {
        sys: { id: 'wide' },
        name: 'Wide',
        displayField: 'f1',
        fields: Array.from({ length: n }, (_, i) => ({ id: `f${i + 1}`, name: `F${i + 1}`, type: 'Symbol' })),
      },
    ],
    entries: [],
    assets: [],
  } as unknown as ContentfulExport;
}

describe.each(dialects())('the field cap on %s', (dialect) => {
  let env: TestEnv;
  let key: string;
  let wsId: string;

  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => call(env.app, method, `${M}${url}`, { key, body });
  const fieldCount = async (slug: string) => (await req('GET', `/content-types/${slug}/fields`)).body.data.length as number;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    const s = await seedWorkspace(env.ctx);
    key = s.keys.management;
    wsId = s.workspace.id;
  });
  afterAll(async () => env?.close());

  it('is 200', () => {
    expect(MAX_FIELDS_PER_TYPE).toBe(200);
  });

  it('POST …/fields on a type that has 200 fields answers 400 and adds nothing', async () => {
    expect((await req('POST', '/content-types', { name: 'Full', fields: fields(200) })).status).toBe(201);
    const refused = expectError(await req('POST', '/content-types/full/fields', { name: 'one_more', field_type: 'text' }), 400, 'VALIDATION_FAILED');
    expect(refused.errors[0].message).toContain('200');
    expect(await fieldCount('full')).toBe(200);
  });

  it('fields added one by one stop at 200', async () => {
    expect((await req('POST', '/content-types', { name: 'Growing', fields: fields(195) })).status).toBe(201);
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await req('POST', '/content-types/growing/fields', { name: `extra_${i}`, field_type: 'integer' })).status);
    expect(statuses).toEqual([...Array(5).fill(201), ...Array(10).fill(400)]);
    expect(await fieldCount('growing')).toBe(200);
  });

  it('concurrent additions stop at 200 too', async () => {
    expect((await req('POST', '/content-types', { name: 'Racing', fields: fields(190) })).status).toBe(201);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => req('POST', '/content-types/racing/fields', { name: `race_${i}`, field_type: 'text' })),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(10);
    for (const a of answers.filter((x) => x.status !== 201)) expectError(a, 400, 'VALIDATION_FAILED');
    expect(await fieldCount('racing')).toBe(200);
  });

  it('PATCH of a content type cannot add fields (fields are added one by one, under the cap)', async () => {
    expectError(await req('PATCH', '/content-types/full', { fields: [{ name: 'sneaky', field_type: 'text' }] }), 400, 'VALIDATION_FAILED');
    expect(await fieldCount('full')).toBe(200);
  });

  it('block types have the same cap', async () => {
    expect((await req('POST', '/content-types', { name: 'Wide block', is_block: true, fields: fields(200) })).status).toBe(201);
    expectError(await req('POST', '/content-types/wide-block/fields', { name: 'one_more', field_type: 'text' }), 400, 'VALIDATION_FAILED');
    expect(await fieldCount('wide-block')).toBe(200);
  });

  it('POST /content-types with 201 fields answers 400 at body.fields', async () => {
    const res = expectError(await req('POST', '/content-types', { name: 'Too wide', fields: fields(201) }), 400, 'VALIDATION_FAILED');
    expect(res.errors[0].path).toBe('body.fields');
    expectError(await req('GET', '/content-types/too-wide'), 404, 'NOT_FOUND');
  });

  it('createContentType called directly (importer, demo seed) refuses 201 fields', async () => {
    const attempt = createContentType(env.ctx, systemActor(wsId, 1), { name: 'Direct', fields: fields(201) as never });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ path: 'body.fields' }] });
    expect(await findContentTypeBySlug(env.ctx.db, wsId, 'direct')).toBeNull();
  });

  it('a restore of an export whose type has 201 fields is refused and writes nothing', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-field-cap-'));
    try {
      expect(
        (
          await cli(
            [
              'export',
              '--workspace',
              (await env.ctx.db.kysely.selectFrom('workspaces').select('slug').where('id', '=', wsId).executeTakeFirstOrThrow()).slug,
              '--out',
              dir,
            ],
            { context: env.ctx },
          )
        ).code,
      ).toBe(0);
      const rows = readTable(dir, 'fields');
      const full = rows.filter((r) => r.name === 'f200');
      expect(full.length).toBeGreaterThan(0);
      // One more field on a type that has 200, the manifest's hashes kept true.
      await writeTable(dir, 'fields', [...rows, { ...full[0], id: randomUUID(), name: 'f201', sort_order: 200 }]);
      // Fresh ids, so that restoring into this same database collides with nothing.
      const copy = `${dir}-copy`;
      await freshCopy(dir, copy);
      const run = await cli(['import', 'quire', copy, '--workspace', `restored-${dialect}`], { context: env.ctx });
      fs.rmSync(copy, { recursive: true, force: true });
      expect(run.code).toBe(1);
      expect(run.stderr, run.stderr).toContain('at most 200 fields');
      const ws = await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', `restored-${dialect}`).executeTakeFirst();
      if (ws) expect(await env.ctx.db.kysely.selectFrom('content_types').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a Contentful import of a type with 201 fields is refused before anything is written', async () => {
    const attempt = importContentful(env.ctx, { workspace: `cap-new-${dialect}`, export: exportWithFields(201) });
    await expect(attempt).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const ws = await env.ctx.db.kysely.selectFrom('workspaces').select('id').where('slug', '=', `cap-new-${dialect}`).executeTakeFirst();
    if (ws) expect(await findContentTypeBySlug(env.ctx.db, ws.id, 'wide')).toBeNull();
  });

  it('a Contentful import that would grow an existing type past 200 fields is refused and adds none', async () => {
    const workspace = `cap-grow-${dialect}`;
    const first = await importContentful(env.ctx, { workspace, export: exportWithFields(150) });
    const ct = async () => (await findContentTypeBySlug(env.ctx.db, first.workspace.id, 'wide'))!;
    expect((await ct()).fields).toHaveLength(150);
    await expect(importContentful(env.ctx, { workspace, export: exportWithFields(210) })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((await ct()).fields).toHaveLength(150);
    // Up to the cap is fine.
    await importContentful(env.ctx, { workspace, export: exportWithFields(200) });
    expect((await ct()).fields).toHaveLength(200);
  });
});
