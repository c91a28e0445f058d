import { DummyDriver, Kysely, SqliteAdapter, SqliteDialect, SqliteIntrospector, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadSqlite } from './create-db.js';
import { SqliteLiteralLimitCompiler } from './sqlite-compiler.js';

interface Db {
  t: { id: number; name: string };
}

/** A Kysely that only compiles, with the compiler under test. */
const compiler = new Kysely<Db>({
  dialect: {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteLiteralLimitCompiler(),
  },
});

describe('SqliteLiteralLimitCompiler', () => {
  it('writes integer limits and offsets into the SQL and binds the other values', () => {
    const q = compiler.selectFrom('t').select('id').where('name', '=', 'a').orderBy('id').limit(10).offset(20).compile();
    expect(q.sql).toBe('select "id" from "t" where "name" = ? order by "id" limit 10 offset 20');
    expect(q.parameters).toEqual(['a']);
  });

  it('keeps anything but a non-negative safe integer as a parameter', () => {
    expect(compiler.selectFrom('t').select('id').limit(-1).compile()).toMatchObject({ sql: 'select "id" from "t" limit ?', parameters: [-1] });
    expect(compiler.selectFrom('t').select('id').limit(1.5).compile()).toMatchObject({ sql: 'select "id" from "t" limit ?', parameters: [1.5] });
    expect(
      compiler
        .selectFrom('t')
        .select('id')
        .limit(2 ** 60)
        .compile().parameters,
    ).toEqual([2 ** 60]);
    const expr = compiler
      .selectFrom('t')
      .select('id')
      .limit(sql<number>`${3} + 1`)
      .compile();
    expect(expr).toMatchObject({ sql: 'select "id" from "t" limit ? + 1', parameters: [3] });
  });

  it('returns what the bound form returns on a real database', async () => {
    const file = new (await loadSqlite())(':memory:');
    file.exec('create table t (id integer primary key, name text)');
    for (let i = 1; i <= 30; i++) file.prepare('insert into t values (?, ?)').run(i, `n${i}`);
    const literal = new Kysely<Db>({
      dialect: new (class extends SqliteDialect {
        override createQueryCompiler() {
          return new SqliteLiteralLimitCompiler();
        }
      })({ database: file }),
    });
    const bound = new Kysely<Db>({ dialect: new SqliteDialect({ database: file }) });
    for (const [limit, offset] of [
      [1, 0],
      [10, 5],
      [0, 0],
      [50, 25],
    ] as const) {
      const q = (db: Kysely<Db>) => db.selectFrom('t').select(['id', 'name']).orderBy('id').limit(limit).offset(offset).execute();
      expect(await q(literal)).toEqual(await q(bound));
    }
    expect((await literal.selectFrom('t').select('id').orderBy('id').limit(3).offset(4).execute()).map((r) => r.id)).toEqual([5, 6, 7]);
    await literal.destroy();
  });
});
