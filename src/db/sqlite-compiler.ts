/**
 * Kysely's SQLite query compiler, writing LIMIT and OFFSET counts into the SQL text.
 *
 * SQLite (3.47 and later) reads the value bound to a `LIMIT ?` or `OFFSET ?` parameter while it
 * plans the statement, and so marks the statement to be planned again whenever that parameter is
 * bound. better-sqlite3 binds every parameter on every run, so each run of a cached statement with
 * a bound limit parsed and planned it anew: 35–60 µs per query measured on the delivery reads (a
 * by-slug read: 14 µs with `limit 1` written in, 65–84 µs with `limit ?`), more than running it.
 * Written as a literal, the count is part of the statement's text and its cached plan is reused.
 *
 * Only non-negative safe integers are written in (the values Quire's repositories pass; an
 * expression or any other value stays a parameter). Each distinct count makes its own cached
 * statement: page sizes are few, and the statement cache (src/db/sqlite-driver.ts) bounds them.
 */
import { SqliteQueryCompiler, ValueNode, type LimitNode, type OffsetNode, type OperationNode } from 'kysely';

export class SqliteLiteralLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    this.append('limit ');
    this.#count(node.limit);
  }

  protected override visitOffset(node: OffsetNode): void {
    this.append('offset ');
    this.#count(node.offset);
  }

  #count(node: OperationNode): void {
    if (ValueNode.is(node) && typeof node.value === 'number' && Number.isSafeInteger(node.value) && node.value >= 0) {
      this.append(String(node.value));
    } else {
      this.visitNode(node);
    }
  }
}
