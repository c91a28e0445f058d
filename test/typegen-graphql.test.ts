/**
 * `quire typegen --graphql` (src/cli/commands/typegen.ts; docs/cli.md, docs/graphql.md "Schema
 * as SDL"), both databases: the SDL it writes from the database and from a running server with a
 * delivery key is exactly what `GET /api/v1/public/graphql/schema.graphql` answers, to a file or
 * to stdout, and a bad source is refused with one line.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type net from 'node:net';
import { buildSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './cli-helpers.js';
import { GRAPHQL, seedDemoContent } from './graphql-fixtures.js';
import { createTestEnv, dialects, type TestEnv } from './helpers.js';

describe.each(dialects())('quire typegen --graphql on %s', (dialect) => {
  let env: TestEnv;
  let seeded: Awaited<ReturnType<typeof seedDemoContent>>;
  let url: string;
  let dir: string;
  let served: string;

  beforeAll(async () => {
    env = await createTestEnv(dialect);
    await env.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(env.app.server.address() as net.AddressInfo).port}`;
    seeded = await seedDemoContent(env.ctx);
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quire-typegen-graphql-'));
    const res = await fetch(`${url}${GRAPHQL}/schema.graphql`, { headers: { 'X-API-Key': seeded.keys.delivery } });
    expect(res.status).toBe(200);
    served = await res.text();
  });
  afterAll(async () => {
    await env?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('writes the SDL the endpoint serves from the database, a valid schema', async () => {
    const out = path.join(dir, 'db', 'schema.graphql');
    const run = await cli(['typegen', '--graphql', '--workspace', seeded.workspace.slug, '--out', out, '--json'], { context: env.ctx });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const sdl = await fs.readFile(out, 'utf8');
    expect(sdl.trimEnd()).toBe(served.trimEnd());
    expect(sdl.endsWith('\n')).toBe(true);
    expect(run.json()).toMatchObject({ out, bytes: Buffer.byteLength(sdl) });
    expect(run.json().types).toBeGreaterThan(20);
    const schema = buildSchema(sdl);
    expect(Object.keys(schema.getQueryType()!.getFields())).toEqual(expect.arrayContaining(['post', 'postCollection', 'author', 'page', 'asset']));
  });

  it('prints the SDL on stdout without --out (or with --out -), read from a server with a delivery key', async () => {
    const fromApi = await cli(['typegen', '--graphql', '--url', url, '--key', seeded.keys.delivery]);
    expect(fromApi.stderr).toBe('');
    expect(fromApi.code).toBe(0);
    expect(fromApi.stdout).toBe(`${served.trimEnd()}\n`);
    const dash = await cli(['typegen', '--graphql', '--workspace', seeded.workspace.slug, '--out', '-'], { context: env.ctx });
    expect(dash.stdout).toBe(fromApi.stdout);
    const json = await cli(['typegen', '--graphql', '--workspace', seeded.workspace.slug, '--json'], { context: env.ctx });
    expect(json.json()).toMatchObject({ out: null, sdl: fromApi.stdout });
  });

  it('refuses a management key, an unknown workspace, a half server source, and no --out without --graphql', async () => {
    const mgmt = await cli(['typegen', '--graphql', '--url', url, '--key', seeded.keys.management]);
    expect(mgmt.code).toBe(1);
    expect(mgmt.stdout).toBe('');
    expect(mgmt.stderr).toMatch(/^quire: .+\n$/);
    const unknown = await cli(['typegen', '--graphql', '--workspace', 'no-such-workspace'], { context: env.ctx });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^quire: .*no-such-workspace/);
    const half = await cli(['typegen', '--graphql', '--url', url]);
    expect(half.code).toBe(1);
    expect(half.stderr).toMatch(/--url and --key go together/);
    const noOut = await cli(['typegen', '--workspace', seeded.workspace.slug], { context: env.ctx });
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/--out/);
  });
});
