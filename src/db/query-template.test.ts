import { Kysely, SqliteDialect, type KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadSqlite } from './create-db.js';
import { idListCondition, idListValue, runTemplate } from './query-template.js';
import type { Db } from './types.js';

interface T {
  t: { id: string; name: string; n: number };
}

async function handle(plugins: KyselyPlugin[] = []): Promise<Db> {
  const file = new (await loadSqlite())(':memory:');
  file.exec("create table t (id text primary key, name text, n integer); insert into t values ('a', 'A', 1), ('b', 'B', 2), ('c', 'C', 3)");
  const kysely = new Kysely<T>({ dialect: new SqliteDialect({ database: file }) });
  const db = {
    kysely: plugins.length ? kysely.withPlugin(plugins[0]) : kysely,
    dialect: 'sqlite',
    memo: { fieldPatterns: new Map(), eventWatchers: new Set(), compiledQueries: new Map(), statementNames: new Map() },
    close: () => kysely.destroy(),
  } as unknown as Db;
  return db;
}

const byIds = (db: Db, ids: string[], min: number) =>
  runTemplate<{ id: string }>(
    db,
    'test.byIds',
    (value) =>
      (db.kysely as unknown as Kysely<T>)
        .selectFrom('t')
        .select('id')
        .where(idListCondition(db.dialect, 't.id', value('ids')))
        .where('n', '>=', value('min'))
        .orderBy('id'),
    { ids: idListValue(db.dialect, ids), min },
  );

describe('runTemplate', () => {
  it('compiles once per key and runs each call with its own values', async () => {
    const db = await handle();
    expect((await byIds(db, ['a', 'b', 'c'], 2)).map((r) => r.id)).toEqual(['b', 'c']);
    expect((await byIds(db, ['a'], 0)).map((r) => r.id)).toEqual(['a']);
    expect(await byIds(db, ['x', 'y'], 0)).toEqual([]);
    expect(db.memo.compiledQueries.size).toBe(1);
    expect([...db.memo.compiledQueries.values()][0].sql).toMatch(/json_each\(\?\)/);
    await db.close();
  });

  it('throws when a value of the template is missing', async () => {
    const db = await handle();
    await expect(
      runTemplate(db, 'test.missing', (value) => (db.kysely as unknown as Kysely<T>).selectFrom('t').select('id').where('id', '=', value('id')), {}),
    ).rejects.toThrow(/no value for id/);
    await db.close();
  });

  it('builds every query anew on a handle with plugins, so they see each one', async () => {
    const seen: string[] = [];
    const db = await handle([
      {
        transformQuery: (args) => {
          seen.push(args.node.kind);
          return args.node;
        },
        transformResult: async (args) => args.result,
      },
    ]);
    expect((await byIds(db, ['c', 'a'], 0)).map((r) => r.id)).toEqual(['a', 'c']);
    expect((await byIds(db, ['b'], 0)).map((r) => r.id)).toEqual(['b']);
    expect(seen).toEqual(['SelectQueryNode', 'SelectQueryNode']);
    expect(db.memo.compiledQueries.size).toBe(0);
    await db.close();
  });
});
