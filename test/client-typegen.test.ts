/**
 * `quire typegen` (src/cli/commands/typegen.ts), both databases: the declarations it writes for
 * a workspace's content model (from the database, and over the API with a delivery key) compile
 * under `tsc --strict` together with a usage file that reads typed entries and block trees
 * through @quire/client without a single cast, and a misuse (a wrong field type) fails to compile.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type net from 'node:net';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../packages/client/src/index.js';
import { renderTypes } from '../packages/client/src/typegen.js';
import { TYPE_TEST_MODEL } from '../packages/client/type-tests/model.js';
import { cli } from './cli-helpers.js';
import { createTestEnv, dialects, seedWorkspace, type TestEnv } from './helpers.js';

const CLIENT_ENTRY = path.resolve(import.meta.dirname, '../packages/client/src/index.ts');

/** The usage file: every property access is typed by the generated declarations. */
const USAGE = `
import { createClient, type TypedBlock } from '@quire/client';
const quire = createClient({ url: 'http://localhost:3000', apiKey: 'svc_live_x' });
export async function titles(): Promise<string[]> {
  const out: string[] = [];
  for await (const post of quire.entries.iterate('post')) {
    const title: string = post.data.title;
    const rank: number | undefined = post.data.rank;
    const authorName: string | undefined = post.data.author?.name;
    const tags: ('news' | 'howto')[] | undefined = post.data.tags;
    const cover: string | undefined = post.data.cover?.url;
    const related: string[] = (post.data.related ?? []).map((r) => r.slug);
    out.push(title, String(rank), authorName ?? '', String(tags), cover ?? '', ...related);
  }
  const page = await quire.entries.list('post', { limit: 5, filter: { rank: { gte: 2 } }, sort: 'rank:desc' });
  const narrowed = await quire.entries.list('post', { fields: ['title', 'author.name'] });
  const heads: string[] = narrowed.items.map((p) => \`\${p.data.title} \${p.data.author?.name ?? ''}\`);
  const first: string | undefined = page.items[0]?.data.body?.nodeType;
  const written = await quire.manage.entries.create('post', { data: { title: 'x', author: '00000000-0000-4000-8000-000000000000' } });
  const authorId: string | undefined = written.data.author;
  const tree = await quire.pages.get('home');
  const walk = (blocks: TypedBlock[]): string[] =>
    blocks.flatMap((b) => (b.type === 'hero-banner' ? [b.data.heading, ...walk(b.children)] : walk(b.children)));
  return [...out, first ?? '', authorId ?? '', ...heads, ...walk(tree.blocks)];
}
`;

const MISUSE = `
import { createClient } from '@quire/client';
const quire = createClient({});
export async function wrong(): Promise<number> {
  const post = await quire.entries.get('p', { type: 'post' });
  return post.data.title;
}
`;

/** Compiles the files under --strict with '@quire/client' mapped to the client's source; returns the diagnostics per file name. */
function compile(files: string[]): Record<string, string[]> {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    skipLibCheck: true,
    paths: { '@quire/client': [CLIENT_ENTRY] },
  });
  const out: Record<string, string[]> = {};
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const name = d.file ? path.basename(d.file.fileName) : 'program';
    (out[name] ??= []).push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }
  return out;
}

describe('the client type tests', () => {
  it('run against what typegen renders for their model (packages/client/type-tests/quire.d.ts)', async () => {
    const fixture = await fs.readFile(path.resolve(import.meta.dirname, '../packages/client/type-tests/quire.d.ts'), 'utf8');
    expect(fixture).toBe(renderTypes(TYPE_TEST_MODEL, 'packages/client/type-tests/model.ts', 'quire-client typegen'));
  });
});

describe.each(dialects())('quire typegen on %s', (dialect) => {
  let env: TestEnv;
  let ws: Awaited<ReturnType<typeof seedWorkspace>>;
  let url: string;
  let dir: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    ws = await seedWorkspace(env.ctx);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-typegen-'));
    const admin = createClient({ url, apiKey: ws.keys.management });
    await admin.manage.contentTypes.create({ name: 'Author', slug: 'author', fields: [{ name: 'name', field_type: 'text', required: true }] });
    await admin.manage.contentTypes.create({
      name: 'Post',
      slug: 'post',
      fields: [
        { name: 'title', field_type: 'text', required: true },
        { name: 'rank', field_type: 'integer', filterable: true, sortable: true },
        { name: 'body', field_type: 'rich_text' },
        { name: 'tags', field_type: 'multi_select', options: ['news', 'howto'] },
        { name: 'keywords', field_type: 'tags' },
        { name: 'cover', field_type: 'media' },
        { name: 'author', field_type: 'relation', options: ['author'] },
        { name: 'related', field_type: 'relation_list', options: ['post'] },
        { name: 'extra', field_type: 'json' },
      ],
    });
    await admin.manage.contentTypes.create({
      name: 'Hero banner',
      slug: 'hero-banner',
      is_block: true,
      fields: [{ name: 'heading', field_type: 'text', required: true }],
    });
  });
  afterAll(async () => {
    await env?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes interfaces from the database that type the client without casts', async () => {
    const out = path.join(dir, 'db', 'quire.d.ts');
    const run = await cli(['typegen', '--workspace', ws.workspace.slug, '--out', out, '--json'], { context: env.ctx });
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ out, content_types: ['author', 'post'], block_types: ['hero-banner'] });
    const text = await fs.readFile(out, 'utf8');
    expect(text).toContain('export interface PostFields {\n  title: string;\n  rank?: number;');
    expect(text).toContain('  author?: Q.Related<"author"> | null;');
    expect(text).toContain('  keywords?: string[];');
    expect(text).toContain('  cover?: string;');
    expect(text).toContain('export interface HeroBannerBlock {');
    expect(text).toContain('      filterable: { rank: "integer" };\n      sortable: "rank";');
    const usage = path.join(dir, 'db', 'usage.ts');
    await fs.writeFile(usage, USAGE);
    const misuse = path.join(dir, 'db', 'misuse.ts');
    await fs.writeFile(misuse, MISUSE);
    const diagnostics = compile([out, usage, misuse]);
    expect(Object.keys(diagnostics)).toEqual(['misuse.ts']);
    expect(diagnostics['misuse.ts'].join('\n')).toMatch(/Type 'string' is not assignable to type 'number'/);
  }, 60_000);

  it('reads the model over the API with a delivery key, the same declarations', async () => {
    const fromDb = path.join(dir, 'db2.d.ts');
    const fromApi = path.join(dir, 'api.d.ts');
    await cli(['typegen', '--workspace', ws.workspace.slug, '--out', fromDb], { context: env.ctx });
    const run = await cli(['typegen', '--url', url, '--key', ws.keys.delivery, '--out', fromApi]);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/2 content type\(s\), 1 block type\(s\)/);
    const body = (s: string) => s.split('\n').slice(1).join('\n');
    expect(body(await fs.readFile(fromApi, 'utf8'))).toBe(body(await fs.readFile(fromDb, 'utf8')));
  });

  it('refuses --url without --key, and no source at all', async () => {
    const half = await cli(['typegen', '--url', url, '--out', path.join(dir, 'x.d.ts')]);
    expect(half.code).toBe(1);
    expect(half.stderr).toMatch(/--url and --key go together/);
  });
});
