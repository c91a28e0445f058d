/**
 * Where SQL may differ between SQLite and PostgreSQL (issue 24 item 5; src/db/dialect.ts header):
 * only in src/db/. Modules and the HTTP layer call named helpers there (lockRows,
 * selectForUpdate, updateRowsByKey, indexState, dataFieldSql, …) and never test the dialect
 * themselves, so a rule written in a module holds on both databases and a third dialect would
 * be added in one directory. No database is needed: the check reads the source files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * A test of the dialect: `dialect === …`, `dialect !== …`, `.dialect == …` (loose too), or a
 * `switch` over a dialect.
 */
const DIALECT_TEST = /\bdialect\s*[!=]==?|switch\s*\([^)]*\bdialect\b/;

/** Source files of src/ outside src/db/, tests excluded, relative to the repository root. */
function sourceFilesOutsideDb(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (rel !== 'src/db') walk(rel);
      } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(rel);
    }
  };
  walk('src');
  return out;
}

describe('dialect differences live in src/db/', () => {
  it('recognizes each form of a dialect test', () => {
    for (const line of [
      "if (db.dialect === 'sqlite') {",
      "if (trx.dialect !== 'postgres') return;",
      "const pg = ctx.db.dialect == 'postgres';",
      "return dialect === 'postgres' ? a : b;",
      'switch (db.dialect) {',
    ])
      expect(DIALECT_TEST.test(line), line).toBe(true);
    for (const line of ['dataFieldSql(db.dialect, field.name, field.field_type)', "return { status: 'ready', database: ctx.db.dialect };"])
      expect(DIALECT_TEST.test(line), line).toBe(false);
  });

  it('no file of src/ outside src/db/ tests the dialect', () => {
    const files = sourceFilesOutsideDb();
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((rel) =>
      fs
        .readFileSync(path.join(ROOT, rel), 'utf8')
        .split('\n')
        .map((line, i) => ({ at: `${rel}:${i + 1}`, line: line.trim() }))
        .filter(({ line }) => DIALECT_TEST.test(line)),
    );
    // Each hit: move the difference into a named helper in src/db/ and call that.
    expect(found).toEqual([]);
  });
});
