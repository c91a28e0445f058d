/**
 * `node bin/quire.js` as a real process (docs/cli.md "The `quire` command line" (D61)): the bin
 * script runs the compiled CLI
 * with the process environment. `npm test` compiles everything (its typecheck emits dist/) before
 * vitest starts, so the compiled CLI is current; run alone, the suite builds it when it is missing.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { externalEnv } from './cli-helpers.js';
import { dialects } from './helpers.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin', 'quire.js');
const run = promisify(execFile);

/** Runs the bin script; resolves with exit code and output whatever the code. */
async function quire(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

let built = false;
function buildOnce(): void {
  if (built || fs.existsSync(path.join(ROOT, 'dist', 'src', 'cli', 'index.js'))) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
  built = true;
}

describe.each(dialects())('bin/quire.js as a process on %s', (dialect) => {
  let external: Awaited<ReturnType<typeof externalEnv>>;
  beforeAll(async () => {
    buildOnce();
    external = await externalEnv(dialect);
  }, 120_000);
  afterAll(async () => external?.cleanup());

  it('is executable and prints its help', async () => {
    expect(fs.statSync(BIN).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const help = await quire(['--help'], external.env);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: quire [options] [command]');
    expect(help.stdout).toContain('bootstrap');
  });

  it('bootstraps a workspace in the environment database and fails cleanly on the second try', async () => {
    const first = await quire(['bootstrap', '--workspace', 'proc', '--locales', 'en,de', '--json'], external.env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out).toMatchObject({ workspace: { slug: 'proc' }, user: { email: 'owner@proc.local' } });
    expect(out.keys.management).toMatch(/^svc_mgmt_/);

    const second = await quire(['bootstrap', '--workspace', 'proc', '--json'], external.env);
    expect(second).toEqual({ code: 1, stdout: '', stderr: "quire: workspace 'proc' already exists\n" });
    const usage = await quire(['keys', 'create', '--workspace', 'proc'], external.env);
    expect(usage).toEqual({ code: 2, stdout: '', stderr: "quire: required option '--class <class>' not specified\n" });
  });
});
