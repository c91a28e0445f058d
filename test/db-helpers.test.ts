/**
 * The dialect helpers of src/db/ that modules call instead of testing the dialect (issue 24
 * item 5), on both databases: each gives the same answer on SQLite and PostgreSQL, and emits its
 * dialect's statement (or none) where the two differ.
 * - bulk.ts updateRowsByKey: rows found by a one- or two-column key, typed columns and constants
 *   set, batches of `perStatement`, rows whose key matches nothing change nothing.
 * - catalog.ts: indexState, tableIndexedBy with isMissingIndexError, plannerRowCount,
 *   refreshColumnStatistics, advanceSerialSequence.
 * - lock.ts selectForUpdate, takeWriteLock, lockRowsForCommitOrder; transaction.ts readOneSnapshot.
 * - dialect.ts dataFieldJsonTypeSql, inByteOrder.
 * - ddl-session.ts openDdlSession: one session per lock and schema on PostgreSQL, released when it
 *   ends; SQLite's worker-thread statement; a handle that cannot run long DDL refuses.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateRowsByKey } from '../src/db/bulk.js';
import { advanceSerialSequence, indexState, isMissingIndexError, plannerRowCount, refreshColumnStatistics, tableIndexedBy } from '../src/db/catalog.js';
import { canRunLongDdl, openDdlSession } from '../src/db/ddl-session.js';
import { dataFieldJsonTypeSql, dataFieldSql, inByteOrder } from '../src/db/dialect.js';
import { lockRowsForCommitOrder, selectForUpdate, takeWriteLock } from '../src/db/lock.js';
import { readOneSnapshot, withTransaction } from '../src/db/transaction.js';
import type { Db } from '../src/db/types.js';
import { systemActor } from '../src/modules/auth/permissions.js';
import { createContentType } from '../src/modules/content-types/operations.js';
import { createEntry } from '../src/modules/entries/operations.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

describe.each(dialects())('src/db dialect helpers on %s', (dialect) => {
  let env: TestEnv;
  let db: Db;
  let wsId: string;
  let typeId: string;
  const ids: string[] = [];
  beforeAll(async () => {
    env = await createTestEnv(dialect);
    db = env.ctx.db;
    const seeded = await seedWorkspace(env.ctx);
    wsId = seeded.workspace.id;
    const actor = systemActor(wsId, seeded.user.id);
    const ct = await createContentType(env.ctx, actor, {
      name: 'Note',
      display_field: 'title',
      fields: [
        { name: 'title', field_type: 'text', localizable: true },
        { name: 'code', field_type: 'text', is_unique: true },
      ],
    });
    typeId = ct.id;
    for (const title of ['one', 'two', 'three', 'four', 'five'])
      ids.push((await createEntry(env.ctx, actor, 'note', { data: { title, code: title }, translations: { de: { data: { title: `${title} de` } } } })).id);
  });
  afterAll(async () => env?.close());

  /** Statements `fn` sends, compiled. */
  async function statements(fn: (db: Db) => Promise<unknown>): Promise<string[]> {
    const sent: string[] = [];
    const kysely = db.kysely.withPlugin({
      transformQuery: (args) => {
        sent.push(db.kysely.getExecutor().compileQuery(args.node, args.queryId).sql);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    await fn({ ...db, kysely });
    return sent;
  }

  const row = (id: string) => db.kysely.selectFrom('entries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('updateRowsByKey sets typed columns and constants by key, in batches, and leaves unmatched keys alone', async () => {
    const before = await row(ids[4]);
    const rows = ids.slice(0, 3).map((id, i) => ({ id, data: JSON.stringify({ title: `new ${i}`, code: `c${i}` }), status: 'draft', version: 40 + i }));
    rows.push({ id: 'no-such-entry', data: '{}', status: 'draft', version: 1 });
    const sent = await statements((tx) =>
      withTransaction(tx, (t) =>
        updateRowsByKey(t, 'entries', ['id'], rows, {
          types: { data: 'json', version: 'integer' },
          constants: { updated_at: '2031-01-01T00:00:00.000Z' },
          perStatement: 2,
        }),
      ),
    );
    const updates = sent.filter((s) => /^update/i.test(s));
    expect(updates).toHaveLength(dialect === 'sqlite' ? 4 : 2);
    for (const [i, id] of ids.slice(0, 3).entries()) {
      const r = await row(id);
      expect(JSON.parse(typeof r.data === 'string' ? r.data : JSON.stringify(r.data))).toEqual({ title: `new ${i}`, code: `c${i}` });
      expect(Number(r.version)).toBe(40 + i);
      expect(r.updated_at).toBe('2031-01-01T00:00:00.000Z');
    }
    expect(await row(ids[4])).toEqual(before);

    await withTransaction(db, (t) =>
      updateRowsByKey(t, 'entry_translations', ['entry_id', 'locale'], [{ entry_id: ids[0], locale: 'de', data: JSON.stringify({ title: 'neu' }) }], {
        types: { data: 'json' },
        perStatement: 300,
      }),
    );
    const de = await db.kysely
      .selectFrom('entry_translations')
      .select(['entry_id', 'data'])
      .where('locale', '=', 'de')
      .where('entry_id', 'in', ids.slice(0, 2))
      .execute();
    const titleOf = (id: string) => {
      const data = de.find((t) => t.entry_id === id)!.data;
      return (typeof data === 'string' ? JSON.parse(data) : data).title;
    };
    expect(titleOf(ids[0])).toBe('neu');
    expect(titleOf(ids[1])).toBe('two de');
  });

  it('updateRowsByKey refuses a column name that is not a plain identifier', async () => {
    await expect(updateRowsByKey(db, 'entries', ['id'], [{ id: ids[0], 'status"; drop table entries; --': 'x' }], { perStatement: 10 })).rejects.toThrow(
      /unsafe column name/,
    );
  });

  it('indexState tells a valid index from a missing one; tableIndexedBy reads through the index, and a missing one is recognized', async () => {
    expect(await indexState(db, 'entries_type_created')).toBe('valid');
    expect(await indexState(db, 'entries_no_such_index')).toBeNull();
    const [uniqueIndex] = await sql<{ name: string }>`select ${sql.raw(dialect === 'sqlite' ? 'name' : 'indexname')} as name from ${sql.raw(
      dialect === 'sqlite' ? 'sqlite_master' : 'pg_indexes',
    )} where ${sql.raw(dialect === 'sqlite' ? 'name' : 'indexname')} like 'entries_uq_%'`
      .execute(db.kysely)
      .then((r) => r.rows.map((x) => x.name));
    expect(uniqueIndex).toBeTruthy();
    // As the importer asks (entry-checks.ts): the type as a literal, so SQLite may use the partial index.
    const code = dataFieldSql(dialect, 'code', 'text');
    const hits = await sql<{
      id: string;
    }>`select id from ${tableIndexedBy(db, 'entries', uniqueIndex)} where content_type_id = ${sql.lit(typeId)} and ${code} in ('c0', 'five')`.execute(
      db.kysely,
    );
    expect(hits.rows.map((r) => r.id).sort()).toEqual([ids[0], ids[4]].sort());
    let failure: unknown = null;
    await sql`select id from ${tableIndexedBy(db, 'entries', 'entries_uq_missing')} where content_type_id = ${sql.lit(typeId)} and ${code} in ('one')`
      .execute(db.kysely)
      .catch((err) => (failure = err));
    if (dialect === 'sqlite') expect(isMissingIndexError(db, failure)).toBe(true);
    else expect(failure).toBeNull();
    expect(isMissingIndexError(db, new Error('some other failure'))).toBe(false);
  });

  it('planner statistics: a row count and an ANALYZE on PostgreSQL, nothing on SQLite', async () => {
    const sent = await statements((tx) => refreshColumnStatistics(tx, 'entries', ['content_type_id', 'slug']));
    expect(sent).toEqual(dialect === 'postgres' ? ['analyze entries (content_type_id, slug)'] : []);
    const count = await plannerRowCount(db, 'entries');
    if (dialect === 'postgres') expect(count).toBeGreaterThanOrEqual(5);
    else expect(count).toBeNull();
    await expect(refreshColumnStatistics(db, 'entries', ['slug; drop table entries'])).rejects.toThrow(/unsafe identifier/);
  });

  it('advanceSerialSequence moves the next serial id past one written explicitly', async () => {
    const max = Number(
      (
        await db.kysely
          .selectFrom('entry_translations')
          .select((eb) => eb.fn.max('id').as('m'))
          .executeTakeFirstOrThrow()
      ).m,
    );
    await sql`update entry_translations set id = ${max + 100} where id = ${max}`.execute(db.kysely);
    await advanceSerialSequence(db, 'entry_translations');
    const inserted = await db.kysely
      .insertInto('entry_translations')
      .values({ entry_id: ids[4], locale: 'fr', data: '{}', created_at: '2031-01-01T00:00:00.000Z', updated_at: '2031-01-01T00:00:00.000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(Number(inserted.id)).toBeGreaterThan(max + 100);
  });

  it('locks: the statements each dialect needs, and none where it needs none', async () => {
    const claim = (tx: Db) => selectForUpdate(tx, tx.kysely.selectFrom('webhook_deliveries as d').select('d.id'), { of: 'd', skipLocked: true }).execute();
    const sent = await statements((tx) =>
      withTransaction(tx, async (t) => {
        await takeWriteLock(t, 'webhook_deliveries');
        await claim(t);
        await lockRowsForCommitOrder(t, 'workspaces', { id: wsId });
      }),
    );
    if (dialect === 'sqlite') expect(sent).toEqual(['update "webhook_deliveries" set id = id where 0', 'select "d"."id" from "webhook_deliveries" as "d"']);
    else
      expect(sent).toEqual([
        'select "d"."id" from "webhook_deliveries" as "d" for update of "d" skip locked',
        'select 1 from "workspaces" where "id" = $1 for no key update',
      ]);
  });

  it('readOneSnapshot makes a PostgreSQL transaction read-only; SQLite sends nothing', async () => {
    const sent = await statements((tx) => withTransaction(tx, (t) => readOneSnapshot(t)));
    expect(sent).toEqual(dialect === 'postgres' ? ['SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY'] : []);
    if (dialect === 'postgres')
      await expect(
        withTransaction(db, async (t) => {
          await readOneSnapshot(t);
          await t.kysely.updateTable('workspaces').set({ name: 'changed' }).where('id', '=', wsId).execute();
        }),
      ).rejects.toThrow(/read-only/);
  });

  it('dataFieldJsonTypeSql tells a value from an absent key and a JSON null; inByteOrder sorts text byte by byte', async () => {
    await db.kysely
      .updateTable('entries')
      .set({ data: JSON.stringify({ title: null, code: 'x' }) } as never)
      .where('id', '=', ids[3])
      .execute();
    const types = await db.kysely
      .selectFrom('entries')
      .select([
        'id',
        sql<string | null>`${dataFieldJsonTypeSql(dialect, 'title')}`.as('t'),
        sql<string | null>`${dataFieldJsonTypeSql(dialect, 'missing', 'entries')}`.as('m'),
      ])
      .where('content_type_id', '=', typeId)
      .execute();
    expect(types.find((r) => r.id === ids[3])?.t).toBe('null');
    expect(types.find((r) => r.id === ids[4])?.t).toMatch(/^(text|string)$/);
    expect(types.every((r) => r.m === null)).toBe(true);
    expect(() => dataFieldJsonTypeSql(dialect, "x') or 1=1 --")).toThrow(/unsafe field name/);

    const sorted = await sql<{
      v: string;
    }>`select v from (select 'b' as v union all select 'B' union all select 'a' union all select '_') as t order by ${inByteOrder(
      dialect,
      sql`${sql.ref('v')}`,
    )}`.execute(db.kysely);
    expect(sorted.rows.map((r) => r.v)).toEqual(['B', '_', 'a', 'b']);
  });

  it('openDdlSession runs DDL outside the pool, one session per lock and schema', async () => {
    if (!canRunLongDdl(db)) {
      await expect(openDdlSession(db, 990_001)).rejects.toThrow(/cannot run long DDL/);
      return;
    }
    const first = await openDdlSession(db, 990_001);
    expect(first).not.toBeNull();
    if (dialect === 'postgres') expect(await openDdlSession(db, 990_001)).toBeNull();
    await first!.run('create table ddl_probe (x integer)');
    await first!.run('drop table ddl_probe');
    await first!.end();
    await first!.end();
    const again = await openDdlSession(db, 990_001);
    expect(again).not.toBeNull();
    await again!.cancel();
    await expect(withTransaction(db, async (tx) => openDdlSession(tx, 990_001))).rejects.toThrow(/cannot run long DDL/);
  });
});
