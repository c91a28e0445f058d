/**
 * The workspace revisions the caches compare (docs/scaling.md "Large writes"; migrations 005 and
 * 028): every write that production readers can see moves `revision`, every write moves
 * `draft_revision`, and other transactions see them move at the commit. On PostgreSQL a
 * transaction moves each at most once, however many rows it writes (per-row bumps of one row made
 * a 1,000-row transaction quadratic); a savepoint rolled back takes its bump with it. On SQLite
 * the triggers bump per row.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import type { Db } from '../src/db/types.js';
import type { BootstrapResult } from '../src/modules/auth/operations.js';
import { call, createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const M = '/api/v1/manage';

describe.each(dialects())('revision bumps on %s', (dialect) => {
  let env: TestEnv;
  let ws: BootstrapResult;
  const revisions = async (db: Db = env.ctx.db) => {
    const row = await db.kysely.selectFrom('workspaces').select(['revision', 'draft_revision']).where('id', '=', ws.workspace.id).executeTakeFirstOrThrow();
    return { revision: Number(row.revision), draft: Number(row.draft_revision) };
  };
  /** Renames the published entries (production readers see slugs) in the caller's transaction. */
  const renamePublished = (db: Db, suffix: string) =>
    sql`update entries set slug = slug || ${suffix} where workspace_id = ${ws.workspace.id} and status = 'published'`.execute(db.kysely);
  /** Edits the drafts' working copies (only preview readers see them). */
  const editDrafts = (db: Db) =>
    sql`update entries set updated_at = updated_at || '' where workspace_id = ${ws.workspace.id} and status = 'draft'`.execute(db.kysely);

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    ws = await seedWorkspace(env.ctx);
    const key = ws.keys.management;
    expect(
      (await call(env.app, 'POST', `${M}/content-types`, { key, body: { name: 'Post', slug: 'post', fields: [{ name: 'title', field_type: 'text' }] } }))
        .status,
    ).toBe(201);
    for (let i = 0; i < 6; i++) {
      const made = await call(env.app, 'POST', `${M}/content-types/post/entries`, { key, body: { slug: `p${i}`, data: { title: `P${i}` } } });
      expect(made.status).toBe(201);
      if (i < 4) expect((await call(env.app, 'PATCH', `${M}/content-types/post/entries/p${i}/publish`, { key })).status).toBe(200);
    }
  });
  afterAll(async () => env?.close());

  it('a transaction writing many visible rows moves both revisions, once on PostgreSQL, once per row on SQLite', async () => {
    const before = await revisions();
    await withTransaction(env.ctx.db, async (db) => {
      await renamePublished(db, '-a');
      await renamePublished(db, '-b');
    });
    const after = await revisions();
    const bumps = dialect === 'postgres' ? 1 : 8;
    expect(after).toEqual({ revision: before.revision + bumps, draft: before.draft + bumps });
  });

  it('working-copy writes move only draft_revision; a visible write later in the same transaction still moves revision', async () => {
    const before = await revisions();
    await withTransaction(env.ctx.db, async (db) => {
      await editDrafts(db);
      expect((await revisions(db)).revision).toBe(before.revision);
      await renamePublished(db, '-c');
    });
    const after = await revisions();
    // PostgreSQL: the draft edits bumped draft_revision; the renames bump both once more.
    if (dialect === 'postgres') expect(after).toEqual({ revision: before.revision + 1, draft: before.draft + 2 });
    else expect(after).toEqual({ revision: before.revision + 4, draft: before.draft + 6 });
  });

  it('a rolled-back savepoint takes its bump with it; the next write of the transaction bumps again', async () => {
    const before = await revisions();
    await withTransaction(env.ctx.db, async (db) => {
      await sql`savepoint s1`.execute(db.kysely);
      await renamePublished(db, '-d');
      await sql`rollback to savepoint s1`.execute(db.kysely);
      expect(await revisions(db)).toEqual(before);
      await editDrafts(db);
    });
    const after = await revisions();
    expect(after.revision).toBe(before.revision);
    expect(after.draft).toBe(before.draft + (dialect === 'postgres' ? 1 : 2));
  });

  it('each transaction moves the revisions again', async () => {
    const before = await revisions();
    for (const suffix of ['-e', '-f']) await withTransaction(env.ctx.db, async (db) => renamePublished(db, suffix));
    const bumps = dialect === 'postgres' ? 2 : 8;
    expect(await revisions()).toEqual({ revision: before.revision + bumps, draft: before.draft + bumps });
  });
});
