/**
 * withTransaction: a transaction PostgreSQL aborts for a deadlock (40P01) or a serialization
 * failure (40001) rolled back whole and runs again (at most 3 attempts); any other error, and any
 * error on SQLite, reaches the caller at once; a failed attempt leaves nothing behind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../src/db/transaction.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const aborted = (code: string) => Object.assign(new Error(`aborted (${code})`), { code });

describe.each(dialects())('withTransaction on %s', (dialect) => {
  let env: TestEnv;
  let wsId: string;
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    wsId = (await seedWorkspace(env.ctx)).workspace.id;
  });
  afterAll(async () => env?.close());

  const rename = (db: Parameters<Parameters<typeof withTransaction>[1]>[0], name: string) =>
    db.kysely.updateTable('workspaces').set({ name }).where('id', '=', wsId).execute();
  const nameNow = async () => (await env.ctx.db.kysely.selectFrom('workspaces').select('name').where('id', '=', wsId).executeTakeFirstOrThrow()).name;

  it(dialect === 'postgres' ? 'runs a transaction aborted by a deadlock or a serialization failure again' : 'never retries on SQLite', async () => {
    for (const code of ['40P01', '40001']) {
      let attempts = 0;
      const run = withTransaction(env.ctx.db, async (db) => {
        attempts += 1;
        await rename(db, `attempt ${attempts}`);
        if (attempts === 1) throw aborted(code);
        return attempts;
      });
      if (dialect === 'postgres') {
        expect(await run).toBe(2);
        expect(await nameNow()).toBe('attempt 2');
      } else {
        await expect(run).rejects.toThrow(`aborted (${code})`);
        expect(attempts).toBe(1);
      }
    }
  });

  it('gives up after three attempts and leaves nothing of them', async () => {
    const before = await nameNow();
    let attempts = 0;
    await expect(
      withTransaction(env.ctx.db, async (db) => {
        attempts += 1;
        await rename(db, `doomed ${attempts}`);
        throw aborted('40P01');
      }),
    ).rejects.toThrow('aborted (40P01)');
    expect(attempts).toBe(dialect === 'postgres' ? 3 : 1);
    expect(await nameNow()).toBe(before);
  });

  it('does not retry other errors', async () => {
    let attempts = 0;
    await expect(
      withTransaction(env.ctx.db, async () => {
        attempts += 1;
        throw aborted('23505');
      }),
    ).rejects.toThrow('aborted (23505)');
    expect(attempts).toBe(1);
  });
});
