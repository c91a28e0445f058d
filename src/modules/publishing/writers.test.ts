/**
 * One writer of history (issue 24 item 4): outside the migrations, only the publishing core's
 * repository (publishing/repository.ts, appendVersions and copyLatestVersion) writes rows of
 * entry_versions or page_versions, and only the entries repository writes published entry
 * translations, so a rule added there reaches every writer: the API's single writes, the
 * importer's bulk path and the restore.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Every .ts file under `dir` except tests and the migrations (which run their own frozen SQL). */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return full === path.join(SRC, 'db', 'migrations') ? [] : sourceFiles(full);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Writes of a table in SQL text or a Kysely call: insert into / update / delete from / insertInto('…') / updateTable / deleteFrom. */
function writesOf(table: string): RegExp {
  return new RegExp(`(insert\\s+into|update|delete\\s+from)\\s+"?${table}\\b|(insertInto|updateTable|deleteFrom)\\(\\s*['"\`]${table}['"\`]`, 'i');
}

/** Writes through an ItemTables value's history table (`${sql.table(t.versions)}`). */
const VIA_TABLES = /(insert\s+into|update|delete\s+from)\s+\$\{sql\.table\(\w+\.versions\)\}/i;

/** The files of src/ (relative) whose text matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(SRC)
    .filter((f) => pattern.test(readFileSync(f, 'utf8')))
    .map((f) => path.relative(SRC, f).split(path.sep).join('/'))
    .sort();
}

describe('one writer of history and published copies', () => {
  it('only publishing/repository.ts writes version rows', () => {
    expect(filesMatching(writesOf('entry_versions'))).toEqual([]);
    expect(filesMatching(writesOf('page_versions'))).toEqual([]);
    expect(filesMatching(VIA_TABLES)).toEqual(['modules/publishing/repository.ts']);
  });

  it('only entries/repository.ts writes published entry translations', () => {
    expect(filesMatching(writesOf('published_entry_translations'))).toEqual(['modules/entries/repository.ts']);
  });

  it('the patterns find the writes they look for', () => {
    expect(writesOf('entry_versions').test(`await db.kysely.insertInto('entry_versions').values(rows)`)).toBe(true);
    expect(writesOf('entry_versions').test('sql`INSERT INTO entry_versions (entry_id) VALUES (1)`')).toBe(true);
    expect(writesOf('page_versions').test('sql`delete from "page_versions" where page_id = 1`')).toBe(true);
    expect(writesOf('entry_versions').test(`db.kysely.selectFrom('entry_versions')`)).toBe(false);
    expect(VIA_TABLES.test('sql`insert into ${sql.table(t.versions)} (a) values (1)`')).toBe(true);
  });
});
