/**
 * A restore into a database that already holds translation records (docs/cli.md "Export and
 * restore"): translation records keep their exported numbers where those are free and get new
 * numbers where they are taken, and a new number never collides with a number the same restore
 * writes as exported, in the same batch or a later one. Before, a taken record got the
 * database's next number, which the next exported record of the batch then also claimed
 * (`UNIQUE constraint failed: entry_translations.id`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnv, dialects, seedWorkspace, call, type TestEnv } from './helpers.js';
import { freshCopy, makeExport, readTable, restore } from './security/restore-fixtures.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-restore-serial-'));
const base = path.join(tmp, 'base');

beforeAll(async () => {
  await makeExport(base);
}, 60_000);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.each(dialects())('restoring translation records whose numbers are partly taken on %s', (dialect) => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
  }, 60_000);
  afterAll(async () => env?.close());

  it('keeps free numbers, renumbers taken ones above every exported number, and restores every translation', async () => {
    const exported = readTable(base, 'entry_translations');
    const numbers = exported.map((t) => Number(t.id)).sort((a, b) => a - b);
    expect(numbers.length).toBeGreaterThan(3);
    // Take the lowest exported number (and only it) with a translation of another workspace.
    const ws = await seedWorkspace(env.ctx);
    const M = '/api/v1/manage';
    const key = ws.keys.management;
    expect(
      (
        await call(env.app, 'POST', `${M}/content-types`, {
          key,
          body: { name: 'Note', slug: 'note', fields: [{ name: 'title', field_type: 'text', localizable: true }] },
        })
      ).status,
    ).toBe(201);
    for (let i = 0; i < numbers[0]; i++) {
      const res = await call(env.app, 'POST', `${M}/content-types/note/entries`, {
        key,
        body: { data: { title: `n${i}` }, translations: { de: { data: { title: `d${i}` } } } },
      });
      expect(res.status).toBe(201);
    }
    const dir = path.join(tmp, `copy-${dialect}`);
    await freshCopy(base, dir);
    const run = await restore(env, dir, `restored-${dialect}`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { workspace: { id: string }; counts: Record<string, number>; renumbered: number };
    expect(report.counts.entry_translations).toBe(exported.length);
    expect(report.renumbered).toBe(1);

    const rows = await env.ctx.db.kysely
      .selectFrom('entry_translations')
      .innerJoin('entries', 'entries.id', 'entry_translations.entry_id')
      .select(['entry_translations.id', 'entry_translations.locale', 'entry_translations.data'])
      .where('entries.workspace_id', '=', report.workspace.id)
      .execute();
    expect(rows).toHaveLength(exported.length);
    const stored = rows.map((r) => Number(r.id));
    // Free numbers kept; the taken one renumbered above every exported number.
    for (const n of numbers.slice(1)) expect(stored).toContain(n);
    expect(stored).not.toContain(numbers[0]);
    expect(Math.max(...stored)).toBeGreaterThan(numbers[numbers.length - 1]);
  });
});
