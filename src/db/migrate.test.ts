/**
 * Migrations freeze the code they run (src/db/migrate.ts): a migration, and the frozen code it
 * uses, imports at run time only kysely and other files of src/db/migrations/. Type-only imports
 * are allowed (they vanish from the compiled code). A later change of live module code (snapshot
 * format, index definitions) therefore never changes what an old migration does.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { isIntrospectionRace } from './migrate.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Every .ts file under `dir` except tests, recursively. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return sourceFiles(full);
    return d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Whether an import or export declaration loads nothing at run time. */
function typeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false; // `import 'x'` runs x.
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/**
 * The module specifiers `file` (source `text`) loads at run time that are neither kysely nor a
 * file inside `root`: static imports and re-exports that are not type-only, dynamic `import()`
 * and `require()`.
 */
export function importsOutside(file: string, text: string, root: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const check = (specifier: string) => {
    if (specifier === 'kysely') return;
    if (specifier.startsWith('.')) {
      const target = path.resolve(path.dirname(file), specifier);
      if (target.startsWith(root + path.sep)) return;
    }
    found.push(specifier);
  };
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!typeOnly(node)) check(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      const arg = node.arguments[0];
      if (isImport || isRequire) check(ts.isStringLiteralLike(arg) ? arg.text : '<computed>');
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('migrations import no live code', () => {
  const files = sourceFiles(MIGRATIONS_DIR);

  it('finds the migrations and their frozen code', () => {
    expect(files.some((f) => f.endsWith('005-versions.ts'))).toBe(true);
    expect(files.some((f) => f.includes(`${path.sep}frozen${path.sep}`))).toBe(true);
  });

  it.each(files.map((f) => [path.relative(MIGRATIONS_DIR, f), f]))('%s imports only kysely, types and src/db/migrations/', (_name, file) => {
    expect(importsOutside(file, readFileSync(file, 'utf8'), MIGRATIONS_DIR)).toEqual([]);
  });

  it('the check catches every way of loading live code', () => {
    const file = path.join(MIGRATIONS_DIR, '099-example.ts');
    const text = [
      `import { sql, type Kysely } from 'kysely';`,
      `import type { Dialect } from '../types.js';`,
      `import { type Database } from '../types.js';`,
      `import { helper } from './frozen/099-helper.js';`,
      `import { createDataIndexSql } from '../dialect.js';`,
      `import { type Entry, entrySnapshotOf } from '../../modules/entries/snapshot.js';`,
      `import * as json from '../../lib/json.js';`,
      `import '../../lib/side-effect.js';`,
      `export { seoFromColumn } from '../../modules/pages/seo.js';`,
      `export type { Seo } from '../../modules/pages/model.js';`,
      `import { z } from 'zod';`,
      `const late = () => import('../../modules/pages/snapshot.js');`,
      `const old = require('../../lib/time.js');`,
    ].join('\n');
    expect(importsOutside(file, text, MIGRATIONS_DIR)).toEqual([
      '../dialect.js',
      '../../modules/entries/snapshot.js',
      '../../lib/json.js',
      '../../lib/side-effect.js',
      '../../modules/pages/seo.js',
      'zod',
      '../../modules/pages/snapshot.js',
      '../../lib/time.js',
    ]);
  });
});

describe('isIntrospectionRace', () => {
  const pgError = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

  it('retries a schema or relation dropped during the catalog scan', () => {
    expect(isIntrospectionRace(pgError('3F000', 'schema "t_1" does not exist'))).toBe(true);
    expect(isIntrospectionRace(pgError('42P01', 'relation "t_1.media" does not exist'))).toBe(true);
    // Seen in CI: a test schema dropped while another suite's migrator scanned the catalog.
    expect(isIntrospectionRace(pgError('42703', 'column "fingerprint" of relation "idempotency_keys" does not exist'))).toBe(true);
    expect(isIntrospectionRace(pgError('XX000', 'cache lookup failed for relation 16384'))).toBe(true);
  });

  it('does not retry other errors', () => {
    expect(isIntrospectionRace(pgError('XX000', 'could not open file'))).toBe(false);
    expect(isIntrospectionRace(pgError('42501', 'permission denied'))).toBe(false);
    expect(isIntrospectionRace(new Error('no code'))).toBe(false);
    expect(isIntrospectionRace(null)).toBe(false);
  });
});
