/**
 * Queries built and compiled once per shape, then run with new values.
 *
 * Building a query through Kysely's immutable builder and compiling it costs tens of µs (a
 * delivery read of entries by id: 47–119 µs), which on the GraphQL mega menu's three reads was
 * about a tenth of the request. A template is built once with a Slot in place of each value that
 * changes between runs; the compiled SQL is kept in the handle's memo (DbMemo.compiledQueries)
 * under the caller's key, and each run swaps the slots in its parameters for the run's values. On
 * PostgreSQL the template's statement is also named (DbMemo.statementNames), so each connection
 * parses it once and PostgreSQL may keep its plan: planning the 60-id read took 0.4-0.5 ms of its
 * 1.2 ms on a warm connection, on every run, when it went unnamed.
 *
 * The key must name everything that changes the query's shape (dialect, perspective, whether an
 * optional join is made, …): two shapes under one key would run the first one's SQL. Values that
 * change the text (identifiers, `sql.lit`, list lengths) cannot be slots; a list of ids goes in as
 * one parameter instead (idListCondition).
 */
import { CompiledQuery, sql, type Compilable, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, Dialect } from './types.js';

/** A stand-in for a value while a template is built. */
export class Slot {
  constructor(readonly name: string) {}
}

/**
 * Runs the template `key` with `values` (by slot name): `build` makes the query with `value(name)`
 * in place of each value, called with Slots the first time this handle's memo meets the key.
 * Rows as the driver returns them. Throws when `values` lacks a slot the template holds.
 *
 * With a null key (a shape not worth keeping, such as a release's own tables), and on a handle with
 * Kysely plugins (a test observing or rewriting queries), the query is built with the values and
 * run each time instead: a plugin sees queries when they are compiled, and a kept compilation
 * would go past it.
 */
export async function runTemplate<R>(
  db: Db,
  key: string | null,
  build: (value: (name: string) => never) => Compilable<R> & { execute(): Promise<R[]> },
  values: Readonly<Record<string, unknown>>,
): Promise<R[]> {
  if (key === null || db.kysely.getExecutor().plugins.length > 0) return build((name) => values[name] as never).execute();
  let compiled = db.memo.compiledQueries.get(key);
  if (!compiled) {
    compiled = build((name) => new Slot(name) as never).compile();
    db.memo.compiledQueries.set(key, compiled);
    if (db.dialect === 'postgres' && !db.memo.statementNames.has(compiled.sql))
      db.memo.statementNames.set(compiled.sql, `quire_t${db.memo.statementNames.size + 1}`);
  }
  const parameters = compiled.parameters.map((p) => {
    if (!(p instanceof Slot)) return p;
    if (!(p.name in values)) throw new Error(`query template ${key}: no value for ${p.name}`);
    return values[p.name];
  });
  const result = await db.kysely.executeQuery(CompiledQuery.raw(compiled.sql, parameters as unknown[]));
  return result.rows as R[];
}

/**
 * `column IN <ids>` with the ids as one parameter, so the statement's text does not depend on how
 * many there are: PostgreSQL `= any($1::text[])` of an array, SQLite `in (select value from
 * json_each(?))` of its JSON. `ids` is the array itself, or a Slot standing for it (see idListValue).
 */
export function idListCondition(dialect: Dialect, column: string, ids: unknown): RawBuilder<SqlBool> {
  return dialect === 'postgres'
    ? sql<SqlBool>`${sql.ref(column)} = any(${ids}::text[])`
    : sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${ids}))`;
}

/** The parameter value of an idListCondition over `ids` in `dialect`. */
export function idListValue(dialect: Dialect, ids: readonly string[]): unknown {
  return dialect === 'postgres' ? ids : JSON.stringify(ids);
}
