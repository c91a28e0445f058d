/**
 * Where the two query planners differ in ways a query must be written around (the SQL text is
 * the same on both databases; src/db/dialect.ts holds the places where it differs). Each helper
 * names one difference, and the modules that write delivery queries ask it instead of testing the
 * dialect themselves. Measured in test/delivery-plans.test.ts, which asserts the plans.
 */
import type { Dialect } from './types.js';

/**
 * True where the planner keeps statistics of column values (PostgreSQL, via ANALYZE and
 * autovacuum) and so sizes plain `status = … OR …` terms right; SQLite keeps none, and given an
 * index-friendly term on a column it takes that index whether or not it is selective. Queries
 * hide such terms from SQLite's planner (a CASE, a unary `+`) and show them to PostgreSQL's.
 */
export function plannerKnowsSelectivity(dialect: Dialect): boolean {
  return dialect === 'postgres';
}

/**
 * True where the planner sorts rows that an index equality has already put in order: SQLite
 * does not see that an indexed expression equal to a constant (or NULL) orders nothing, and
 * sorts the rows in a temporary B-tree when asked to order by it, so such queries order by id
 * alone there. PostgreSQL reads the order from its index path as it is.
 */
export function sortsRowsPinnedByIndex(dialect: Dialect): boolean {
  return dialect === 'sqlite';
}

/**
 * True where an unordered `LIMIT n` count may be planned as a sequential scan that reads a big
 * table through a small ring of buffers (PostgreSQL), so each such count reads its pages from
 * the operating system again; an ORDER BY matching an index makes the planner read an index
 * range instead (docs/scaling.md "Counts"). SQLite reads through its page cache either way.
 */
export function cappedCountsNeedIndexOrder(dialect: Dialect): boolean {
  return dialect === 'postgres';
}
