/**
 * graphql-codegen against a live Quire (docs/graphql.md "Tools and typed queries"; D104: standard
 * tools work against the endpoint), both databases: the client preset reads the schema by
 * introspection over HTTP with a delivery key, generates typed documents (`documentMode:
 * 'string'`) for a query document, and a file that runs the typed query through
 * `client.graphql()` typechecks under `tsc --strict` (run as a process) without a cast, while a
 * wrong field access fails to compile. The generated document also runs against the server.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generate } from '@graphql-codegen/cli';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../packages/client/src/index.js';
import { GRAPHQL, seedDemoContent } from './graphql-fixtures.js';
import { createTestEnv, dialects, type TestEnv } from './helpers.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

const DOCUMENT = `query LatestPosts($first: Int!, $locale: String) {
  postCollection(first: $first, locale: $locale, order: [published_on_DESC]) {
    totalCount
    nodes { sys { slug isFallback } title published_on reading_minutes tags author { name } }
  }
}
`;

/** Uses the generated types: every access is typed, nothing is cast. */
const USAGE = `import { createClient } from '@quire/client';
import { LatestPostsDocument } from './gql/graphql';

const quire = createClient({ url: process.env.QUIRE_URL, apiKey: process.env.QUIRE_KEY });

export async function latest(): Promise<{ slug: string; title: string; minutes: number; author: string }[]> {
  const { data } = await quire.graphql(LatestPostsDocument, { first: 3, locale: 'de' });
  if (!data) return [];
  const total: number = data.postCollection.totalCount;
  return data.postCollection.nodes.slice(0, total).map((post) => ({
    slug: post.sys.slug,
    title: post.title ?? '',
    minutes: post.reading_minutes ?? 0,
    author: post.author?.name ?? 'anonymous',
    fallback: post.sys.isFallback,
  }));
}
`;

/** Reads a field the query did not select, and passes a variable of the wrong type. */
const MISUSE = `import { createClient } from '@quire/client';
import { LatestPostsDocument } from './gql/graphql';

const quire = createClient({});
export async function wrong(): Promise<string | undefined> {
  const { data } = await quire.graphql(LatestPostsDocument, { first: 'three' });
  return data?.postCollection.nodes[0].excerpt;
}
`;

function tsconfig(): string {
  return JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'ES2022',
      module: 'ES2022',
      moduleResolution: 'Bundler',
      lib: ['ES2022', 'DOM'],
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
      skipLibCheck: true,
      baseUrl: '.',
      paths: { '@quire/client': [path.join(ROOT, 'packages/client/src/index.ts')], '*': [path.join(ROOT, 'node_modules/*')] },
    },
    files: ['usage.ts', 'misuse.ts'],
  });
}

/** tsc's diagnostics per file name (tsc exits 2 with errors: its output is still wanted). */
async function typecheck(dir: string): Promise<Record<string, string[]>> {
  const out = await promisify(execFile)(process.execPath, [TSC, '-p', path.join(dir, 'tsconfig.json'), '--pretty', 'false'], { cwd: dir }).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? String(err),
  );
  const byFile: Record<string, string[]> = {};
  for (const line of out.split('\n').filter(Boolean)) {
    const file = /^(.+?)\(\d+,\d+\)/.exec(line)?.[1] ?? 'other';
    (byFile[path.basename(file)] ??= []).push(line);
  }
  return byFile;
}

describe.each(dialects())('graphql-codegen against a live server on %s', (dialect) => {
  let env: TestEnv;
  let url: string;
  let key: string;
  let dir: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    key = (await seedDemoContent(env.ctx)).keys.delivery;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-codegen-'));
  });
  afterAll(async () => {
    await env?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('generates typed documents by introspection; the typed query compiles under tsc --strict and a misuse does not', async () => {
    await fs.writeFile(path.join(dir, 'latest.graphql'), DOCUMENT);
    const started = performance.now();
    await generate(
      {
        schema: [{ [`${url}${GRAPHQL}`]: { headers: { 'X-API-Key': key } } }],
        documents: [path.join(dir, '*.graphql')],
        generates: { [path.join(dir, 'gql/')]: { preset: 'client', config: { documentMode: 'string', useTypeImports: true } } },
        silent: true,
      },
      true,
    );
    const codegenMs = performance.now() - started;
    const generated = await fs.readFile(path.join(dir, 'gql/graphql.ts'), 'utf8');
    expect(generated).toContain('export const LatestPostsDocument');
    expect(generated).toMatch(/export type LatestPostsQuery = /);

    await fs.writeFile(path.join(dir, 'usage.ts'), USAGE);
    await fs.writeFile(path.join(dir, 'misuse.ts'), MISUSE);
    await fs.writeFile(path.join(dir, 'tsconfig.json'), tsconfig());
    const diagnostics = await typecheck(dir);
    expect(Object.keys(diagnostics)).toEqual(['misuse.ts']);
    const misuse = diagnostics['misuse.ts'].join('\n');
    expect(misuse).toMatch(/Type 'string' is not assignable to type 'number'/);
    expect(misuse).toMatch(/Property 'excerpt' does not exist/);
    expect(codegenMs).toBeLessThan(30_000);
  }, 60_000);

  it('runs the generated document against the server', async () => {
    const mod = (await import(path.join(dir, 'gql/graphql.ts'))) as { LatestPostsDocument: { toString(): string } };
    const quire = createClient({ url, apiKey: key });
    const res = await quire.graphql(mod.LatestPostsDocument, { first: 3, locale: 'de' });
    expect(res.errors).toBeUndefined();
    expect(res.data).toMatchObject({ postCollection: { totalCount: 5 } });
  });
});
