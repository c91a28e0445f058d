/**
 * Every shell and TypeScript code block of README.md and docs/**\/*.md runs against a fresh demo
 * Quire (issue 28 item 4; docs/README.md "Code blocks").
 *
 * The demo is seeded once (`node dist/src/server.js` on an empty DATA_DIR, its keys read from the
 * banner); each markdown file then gets a copy of that DATA_DIR and a server of its own, so a file's
 * writes never reach another file. A file's blocks run in document order in one bash process, so
 * later blocks see what earlier ones wrote and the variables they set:
 *
 * - ```sh, ```bash and ```shell blocks are bash. `curl` is a function that runs the real curl and
 *   fails the block on an answer it did not expect: 4xx and 5xx are refused unless the comment right
 *   under the command shows that answer (`# HTTP/1.1 412 …` for a status, `# {"success":false,…
 *   "code":"NOT_FOUND",…}` for an error code), and then the answer must be that one. `npx quire`
 *   runs this repository's CLI on the file's DATA_DIR.
 * - ```ts and ```typescript blocks are stripped of their types (TypeScript's transpileModule) and
 *   run by node as modules, `@quire/client` resolving to the built package (packages/client/dist).
 * - The environment holds QUIRE_URL and the demo's three keys as QUIRE_MANAGEMENT_KEY,
 *   QUIRE_DELIVERY_KEY and QUIRE_PREVIEW_KEY, the names every doc uses; `http://localhost:3000` in a
 *   block is replaced by the file's server.
 * - A block that cannot run by nature (installing, starting a server, hosts of a production
 *   machine) says so in its info string, `no-run` followed by the reason (```sh no-run starts the
 *   server); the test asserts each has a reason and that there are at most MAX_SKIPPED.
 *
 * With DATABASE_URL, README.md's blocks also run against a server on PostgreSQL (a schema of its
 * own), the demo moved there as docs/cli.md says: exported from SQLite with its users, imported,
 * and new keys created with the CLI.
 *
 * Prints the count of blocks run and skipped.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, ROOT } from './build.js';
import { blocksOf, markdownFiles, MAX_SKIPPED, scriptOf, writeFixtures, type Block } from './doc-snippets.js';
import { freePort, newestMtime, run, startDemoQuire, startNode, type Child } from './processes.js';

const CLIENT = path.join(ROOT, 'packages/client');
const PG_URL = process.env.DATABASE_URL;

/** Runs bash on `script` in `cwd`; resolves with the exit code and the whole output. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

const all = markdownFiles().flatMap((file) => blocksOf(file, fs.readFileSync(path.join(ROOT, file), 'utf8')));
const runnable = all.filter((b) => b.skip === null);
const files = [...new Set(runnable.map((b) => b.file))];

/** A counting semaphore: `take` waits while `size` holders have not released. */
function semaphore(size: number): { take: () => Promise<void>; release: () => void } {
  let free = size;
  const waiting: (() => void)[] = [];
  return {
    take: () => (free > 0 ? (free--, Promise.resolve()) : new Promise<void>((resolve) => waiting.push(resolve))),
    release: () => {
      const next = waiting.shift();
      if (next) next();
      else free++;
    },
  };
}
const slots = semaphore(2);

/** A failed run's story: the harness's own lines (which block, which answer), then the output's end. */
function report(output: string): string {
  // A line of the harness may follow an answer without a newline of its own.
  const harness = output.split('\n').flatMap((l) => (l.includes('@@') ? [l.slice(l.indexOf('@@'))] : []));
  return `${harness.join('\n')}\n… the output's last 4,000 characters:\n${output.slice(-4000)}`;
}

describe('doc snippets', () => {
  let seeded = '';
  let keys = { management: '', delivery: '', preview: '' };
  const temp: string[] = [];

  beforeAll(async () => {
    // The blocks call these as a reader's shell would; say so plainly when one is missing.
    for (const tool of ['bash', 'curl', 'jq'])
      await run('sh', ['-c', `command -v ${tool}`], ROOT, process.env).catch(() => {
        throw new Error(`the doc snippets need ${tool} on the PATH`);
      });
    const started = Date.now();
    ensureBuilt({ studio: false });
    // Only src counts: the build itself rewrites package.json (tshy writes `exports`) after dist.
    if (newestMtime(path.join(CLIENT, 'dist')) < newestMtime(path.join(CLIENT, 'src'))) {
      await run('npm', ['run', 'build', '-w', '@quire/client'], ROOT, { ...process.env, NODE_ENV: 'production' });
    }
    seeded = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-snippets-seed-'));
    temp.push(seeded);
    const built = Date.now();
    const demo = await startDemoQuire(ROOT, seeded);
    keys = demo.keys;
    await demo.quire.stop();
    const counts = { sh: runnable.filter((b) => b.lang === 'sh').length, ts: runnable.filter((b) => b.lang === 'ts').length };
    process.stdout.write(
      `[doc snippets] ${runnable.length} blocks run (${counts.sh} shell, ${counts.ts} TypeScript) in ${files.length} files, ${all.length - runnable.length} skipped (no-run); build checked in ${built - started} ms, demo seeded in ${Date.now() - built} ms\n`,
    );
  }, 300_000);

  afterAll(() => {
    for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  it('skips few blocks, each with its reason', () => {
    const skipped = all.filter((b) => b.skip !== null);
    for (const b of skipped) expect(b.skip, `${b.file}:${b.line} says no-run without a reason`).toMatch(/\w+ \w+/);
    expect(skipped.length).toBeLessThanOrEqual(MAX_SKIPPED);
    expect(runnable.length).toBeGreaterThan(0);
  });

  /**
   * Runs `script(work, base)` with bash against a server of its own on a copy of the seeded demo,
   * at most two at a time (CI has two cores); resolves with bash's exit code and output.
   */
  async function onFreshDemo(
    script: (work: string, base: string) => string,
    postgres?: { url: string; keys: typeof keys },
  ): Promise<{ code: number; output: string }> {
    await slots.take();
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-snippets-'));
    temp.push(work);
    let quire: Child | undefined;
    try {
      const dataDir = path.join(work, 'data');
      fs.cpSync(seeded, dataDir, { recursive: true });
      // @quire/client of a TypeScript block resolves to the repository's package, and
      // @vercel/stega (docs/visual-editing.md) to the repository's copy.
      fs.mkdirSync(path.join(work, 'node_modules/@quire'), { recursive: true });
      fs.symlinkSync(CLIENT, path.join(work, 'node_modules/@quire/client'));
      fs.mkdirSync(path.join(work, 'node_modules/@vercel'), { recursive: true });
      fs.symlinkSync(path.join(ROOT, 'node_modules/@vercel/stega'), path.join(work, 'node_modules/@vercel/stega'));
      await writeFixtures(work);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        PUBLIC_URL: base,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        QUIRE_DEMO: '1',
        QUIRE_ROOT: ROOT,
        QUIRE_URL: base,
        QUIRE_MANAGEMENT_KEY: (postgres?.keys ?? keys).management,
        QUIRE_DELIVERY_KEY: (postgres?.keys ?? keys).delivery,
        QUIRE_PREVIEW_KEY: (postgres?.keys ?? keys).preview,
      };
      if (postgres) env.DATABASE_URL = postgres.url;
      else delete env.DATABASE_URL;
      // A fresh demo as the quick start runs it: no Redis. CI's REDIS_URL would share state between
      // runs (a persisted query registered by an earlier run answered graphql.md's first
      // hash-only request, which must be unknown).
      delete env.REDIS_URL;
      quire = await startNode(path.join(ROOT, 'dist/src/server.js'), ROOT, env, `${base}/readyz`, 60_000);
      return await bash(script(work, base), work, env);
    } finally {
      await quire?.stop();
      slots.release();
    }
  }

  it.concurrent.each(files)(
    '%s: every block runs against a fresh demo',
    async (file) => {
      const { code, output } = await onFreshDemo((work, base) =>
        scriptOf(
          runnable.filter((b) => b.file === file),
          work,
          base,
        ),
      );
      expect(code, report(output)).toBe(0);
      expect(output).toContain('@@done');
    },
    120_000,
  );

  // One file on PostgreSQL too: the demo moved there as cli.md describes (export, import, new keys).
  (PG_URL ? it.concurrent : it.skip)(
    'README.md on PostgreSQL: the demo restored from an export, its blocks run',
    async () => {
      const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
      const schema = `snippets_${process.pid}_${Date.now().toString(36)}`;
      const work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-snippets-pg-'));
      temp.push(work);
      try {
        await pool.query(`CREATE SCHEMA "${schema}"`);
        const url = `${PG_URL}${PG_URL?.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
        const cli = (args: string[], env: NodeJS.ProcessEnv) => run(process.execPath, [path.join(ROOT, 'bin/quire.js'), ...args], work, env);
        fs.cpSync(seeded, path.join(work, 'data'), { recursive: true });
        const sqlite = { ...process.env, DATA_DIR: path.join(work, 'data'), DATABASE_URL: '', LOG_LEVEL: 'warn' };
        await cli(['export', '--workspace', 'demo', '--out', path.join(work, 'demo.tar'), '--with-users'], sqlite);
        const postgres = { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'warn' };
        await cli(['import', 'quire', path.join(work, 'demo.tar'), '--workspace', 'demo'], postgres);
        const key = async (...args: string[]) =>
          (JSON.parse(await cli(['keys', 'create', '--workspace', 'demo', '--json', ...args], postgres)) as { key: string }).key;
        const pgKeys = {
          management: await key('--class', 'management'),
          delivery: await key('--class', 'delivery'),
          preview: await key('--class', 'delivery', '--environment', 'preview'),
        };
        const { code, output } = await onFreshDemo(
          (dir, base) =>
            scriptOf(
              runnable.filter((b) => b.file === 'README.md'),
              dir,
              base,
            ),
          { url, keys: pgKeys },
        );
        expect(code, report(output)).toBe(0);
        expect(output).toContain('@@done');
      } finally {
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
        await pool.end();
      }
    },
    180_000,
  );

  it.concurrent(
    'fails a block on an answer it does not show, and on a TypeScript block that throws',
    async () => {
      const md = (fence: string, ...lines: string[]) => blocksOf('self-test.md', [fence, ...lines, '```'].join('\n'));
      const missing = 'curl -H "X-API-Key: $QUIRE_DELIVERY_KEY" "$QUIRE_URL/api/v1/public/entries/nope?type=post"';
      const list = 'curl -H "X-API-Key: $QUIRE_DELIVERY_KEY" "$QUIRE_URL/api/v1/public/entries?type=post"';
      const cases: [Block[], string | null][] = [
        [md('```sh', missing), 'unexpected HTTP 404'],
        [md('```sh', missing, '# {"success":false,"code":"NOT_FOUND"}'), null],
        [md('```sh', missing, '# {"success":false,"code":"FORBIDDEN"}'), 'expected error FORBIDDEN, got HTTP 404'],
        [md('```sh', list, '# HTTP/1.1 404 Not Found'), 'expected HTTP 404, got 200'],
        [blocksOf('self-test.md', ['```sh', missing, '```', '', '```json', '{"success": false, "code": "NOT_FOUND"}', '```'].join('\n')), null],
        [md('```ts', "throw new Error('a failing block');"), 'a failing block'],
      ];
      // Each case in a bash of its own; the outer script prints what each did.
      const { code, output } = await onFreshDemo((work, base) =>
        cases
          .map(([blocks, failure], n) => {
            fs.writeFileSync(path.join(work, `case-${n}.sh`), scriptOf(blocks, work, base));
            const want = failure === null ? 'ok' : 'failed';
            return `if bash case-${n}.sh >case-${n}.log 2>&1; then r=ok; else r=failed; fi; echo "case ${n}: $r (want ${want})"; cat case-${n}.log`;
          })
          .join('\n'),
      );
      expect(code, output).toBe(0);
      cases.forEach(([, failure], n) => {
        expect(output, output).toContain(`case ${n}: ${failure === null ? 'ok' : 'failed'} (want`);
        if (failure !== null) expect(output).toContain(failure);
      });
    },
    120_000,
  );
});
