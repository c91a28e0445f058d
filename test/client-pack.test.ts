/**
 * @quire/client as a user installs it: the package is packed once (`npm pack`, what a publication
 * uploads) and its tarball installed (`npm install --prefer-offline`) into fresh projects in a
 * temporary folder, outside this repository and its workspaces, each run against ONE real Quire
 * for the file (`node dist/src/server.js` with the demo workspace, SQLite):
 *
 * - a CommonJS and an ESM TypeScript project (`module: nodenext`, strict): the client's
 *   `quire-client typegen` writes their types over HTTP, tsc type-checks a script reading typed
 *   demo posts (with `require` in the CommonJS output, `import` in the ESM one), and the script
 *   runs on Node.js 20 (this process's), 22 and 24 (`npx -y node@22`, `node@24`);
 * - the bin: its declarations equal the server CLI's from the database (all but the first line),
 *   its `--graphql` text equals the server's SDL route, and a refused key exits 1 with the reason;
 * - a Vite project (`vite build`) whose bundle, loaded in Chromium, reads posts across origins;
 * - examples/site copied out (no workspace, no hoisted packages): installed with the tarball,
 *   `astro check` and `astro build`, then its server renders the demo's pages.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { ensureBuilt, ROOT } from './build.js';
import { launchBrowser, skipBrowserSuites } from './e2e/harness.js';
import { freePort, newestMtime, run, startDemoQuire, startNode, type Child } from './processes.js';

const CLIENT = path.join(ROOT, 'packages/client');
const SITE = path.join(ROOT, 'examples/site');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const INSTALL = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const ENV: NodeJS.ProcessEnv = { ...process.env, ASTRO_TELEMETRY_DISABLED: '1', npm_config_update_notifier: 'false' };
// vitest's own variables would leak into the projects' tools (Vite and Astro read them), and its
// NODE_ENV=test would make npm skip devDependencies or the builds bundle development code.
for (const name of Object.keys(ENV)) if (name.startsWith('VITEST') || name === 'TEST' || name === 'NODE_ENV') delete ENV[name];
const BUILD_ENV: NodeJS.ProcessEnv = { ...ENV, NODE_ENV: 'production' };

/** Writes `files` (path relative to `dir` → text) under `dir`. */
function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
}

/** The script of the CommonJS and ESM projects: typed by the declarations `quire-client typegen` wrote. */
const MAIN_TS = `
import { createClient, isQuireError } from '@quire/client';
import { renderRichText } from '@quire/client/rich-text';
import { key, url } from './config.js';

const quire = createClient({ url, apiKey: key });

async function main(): Promise<void> {
  const post = await quire.entries.get('welcome-to-quire', { type: 'post' });
  const title: string = post.data.title;
  const author: string | undefined = post.data.author?.name;
  const html: string = renderRichText(post.data.body);
  const titles: string[] = (await quire.entries.list('post', { sort: 'published_on:asc', limit: 2 })).items.map((p) => p.data.title);
  let refused = '';
  try {
    await quire.entries.get('no-such-post', { type: 'post' });
  } catch (err) {
    if (isQuireError(err, 'NOT_FOUND')) refused = err.code;
  }
  console.log(JSON.stringify({ title, author, html: html.slice(0, 3), posts: titles.length, refused }));
}

void main();
`;

/** A TypeScript project of `type` (commonjs or module) depending on the tarball. */
function nodeProject(dir: string, type: 'commonjs' | 'module', tarball: string, base: string, delivery: string): void {
  writeFiles(dir, {
    'package.json': JSON.stringify({ name: `quire-client-${type}`, private: true, type, dependencies: { '@quire/client': `file:${tarball}` } }, null, 2),
    'tsconfig.json': JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['ES2022', 'DOM'],
        types: [],
        strict: true,
        outDir: 'dist',
        rootDir: 'src',
      },
      include: ['src'],
    }),
    'src/config.ts': `export const url = ${JSON.stringify(base)};\nexport const key = ${JSON.stringify(delivery)};\n`,
    'src/main.ts': MAIN_TS,
  });
}

/** A Vite project reading the newest posts in the browser; the page sets data-done when it has them. */
function viteProject(dir: string, tarball: string, base: string, delivery: string): void {
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  writeFiles(dir, {
    'package.json': JSON.stringify(
      {
        name: 'quire-client-vite',
        private: true,
        type: 'module',
        scripts: { build: 'vite build' },
        dependencies: { '@quire/client': `file:${tarball}` },
        devDependencies: { vite: root.devDependencies.vite },
      },
      null,
      2,
    ),
    '.env': `VITE_QUIRE_URL=${base}\nVITE_QUIRE_KEY=${delivery}\n`,
    'index.html':
      '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Posts</title></head>\n<body><ul id="posts"></ul><script type="module" src="/main.js"></script></body></html>\n',
    'main.js': `
import { createClient } from '@quire/client';
const quire = createClient({ url: import.meta.env.VITE_QUIRE_URL, apiKey: import.meta.env.VITE_QUIRE_KEY });
quire.entries
  .list('post', { sort: 'published_on:asc', limit: 2 })
  .then((page) => {
    for (const post of page.items) document.querySelector('#posts').append(Object.assign(document.createElement('li'), { textContent: post.data.title }));
    document.body.dataset.done = 'ok';
  })
  .catch((err) => (document.body.dataset.done = String(err)));
`,
  });
}

/** Serves the files of `dir` on a free port (GET only; / is index.html). */
async function serveStatic(dir: string): Promise<{ base: string; close: () => Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  const server = http.createServer((req, res) => {
    const name = path.join(dir, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname).replace(/\/$/, '/index.html'));
    if (!name.startsWith(dir) || !fs.existsSync(name)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': types[path.extname(name)] ?? 'application/octet-stream' }).end(fs.readFileSync(name));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Copies examples/site without its build output, caches and installed packages. */
function copySite(to: string): void {
  fs.cpSync(SITE, to, { recursive: true, filter: (src) => !/[/\\](node_modules|dist|\.astro)$/.test(src) });
}

describe('@quire/client packed and installed outside the repository', () => {
  let work = '';
  let dataDir = '';
  let tarball = '';
  let quire: Child;
  let base = '';
  let keys = { management: '', delivery: '', preview: '' };
  /** node executables by major version: this process's (20) and npx's node@22 and node@24. */
  const nodes: Record<string, string> = {};
  /** The installs, started in beforeAll, awaited by the tests that need them. */
  const installs: Record<string, Promise<string>> = {};

  beforeAll(async () => {
    const started = Date.now();
    const lap = (what: string) => process.stderr.write(`[client pack] ${what}: ${Date.now() - started} ms\n`);
    ensureBuilt({ studio: false });
    lap('server built');
    // Only src counts: the build itself rewrites package.json (tshy writes `exports`) after dist.
    if (newestMtime(path.join(CLIENT, 'dist')) < newestMtime(path.join(CLIENT, 'src'))) {
      await run('npm', ['run', 'build', '-w', '@quire/client'], ROOT, BUILD_ENV);
    }
    lap('client built');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pack-'));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-pack-data-'));
    const packed = JSON.parse(await run('npm', ['pack', '--json', '--pack-destination', work], CLIENT, ENV)) as { filename: string }[];
    tarball = path.join(work, packed[0].filename);
    lap('packed');
    const resolveNode = async (major: string) => {
      const out = await run('npx', ['-y', '--prefer-offline', `node@${major}`, '-p', 'process.execPath'], work, ENV);
      nodes[major] = out.trim();
    };
    const [demo] = await Promise.all([startDemoQuire(ROOT, dataDir), resolveNode('22'), resolveNode('24')]);
    ({ quire, base, keys } = demo);
    nodes['20'] = process.execPath;

    nodeProject(path.join(work, 'cjs'), 'commonjs', tarball, base, keys.delivery);
    nodeProject(path.join(work, 'esm'), 'module', tarball, base, keys.delivery);
    viteProject(path.join(work, 'vite'), tarball, base, keys.delivery);
    copySite(path.join(work, 'site'));
    const sitePackage = JSON.parse(fs.readFileSync(path.join(work, 'site/package.json'), 'utf8')) as { dependencies: Record<string, string> };
    sitePackage.dependencies['@quire/client'] = `file:${tarball}`;
    fs.writeFileSync(path.join(work, 'site/package.json'), JSON.stringify(sitePackage, null, 2));
    for (const name of ['cjs', 'esm', 'vite', 'site']) installs[name] = run('npm', INSTALL, path.join(work, name), ENV);
    // A failed install is reported by the test awaiting it, not as an unhandled rejection here.
    for (const p of Object.values(installs)) p.catch(() => {});
    lap('node@22, node@24 and Quire ready, installs started');
    // Building a stale server (never in CI, where `npm ci` built it) can take minutes on a busy machine.
  }, 420_000);

  afterAll(async () => {
    await Promise.allSettled(Object.values(installs));
    await quire?.stop();
    for (const dir of [work, dataDir]) if (dir) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  });

  it('ships both builds, the bin, the types and the README, and nothing else', async () => {
    const files = (await run('tar', ['-tzf', tarball], work, ENV))
      .split('\n')
      .filter((f) => f && !f.endsWith('/'))
      .map((f) => f.replace(/^package\//, ''));
    for (const f of [
      'README.md',
      'package.json',
      'dist/esm/index.js',
      'dist/esm/index.d.ts',
      'dist/commonjs/index.js',
      'dist/commonjs/index.d.ts',
      'dist/esm/bin.js',
    ]) {
      expect(files).toContain(f);
    }
    expect(files.filter((f) => !/^(dist\/(esm|commonjs)\/|README\.md$|package\.json$)/.test(f))).toEqual([]);
  });

  for (const [name, type] of [
    ['cjs', 'commonjs'],
    ['esm', 'module'],
  ] as const) {
    it(`a ${type} TypeScript project: typegen over HTTP, tsc --strict, and the script on Node.js 20, 22 and 24`, async () => {
      const dir = path.join(work, name);
      await installs[name];
      const bin = path.join(dir, 'node_modules/.bin/quire-client');
      const typegen = JSON.parse(await run(bin, ['typegen', '--url', base, '--key', keys.delivery, '--out', 'src/quire.d.ts', '--json'], dir, ENV));
      expect(typegen).toEqual({ out: path.join(dir, 'src/quire.d.ts'), content_types: ['author', 'post'], block_types: expect.any(Array) });
      await run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir, ENV);
      const compiled = fs.readFileSync(path.join(dir, 'dist/main.js'), 'utf8');
      expect(compiled).toMatch(type === 'commonjs' ? /require\("@quire\/client"\)/ : /from '@quire\/client'/);
      for (const major of ['20', '22', '24']) {
        const out = JSON.parse(await run(nodes[major], ['dist/main.js'], dir, ENV));
        expect(out, `node ${major}`).toEqual({
          title: 'Welcome to the Quire demo blog',
          author: expect.any(String),
          html: '<p>',
          posts: 2,
          refused: 'NOT_FOUND',
        });
      }
    }, 120_000);
  }

  it('the bin writes what the server CLI writes, reads the SDL, and reports a refused key', async () => {
    const dir = path.join(work, 'esm');
    await installs.esm;
    const bin = path.join(dir, 'node_modules/.bin/quire-client');
    await run(bin, ['typegen', '--url', base, '--key', keys.management, '--out', 'all.d.ts'], dir, ENV);
    const serverEnv: NodeJS.ProcessEnv = { ...ENV, DATA_DIR: dataDir };
    delete serverEnv.DATABASE_URL;
    await run(process.execPath, [path.join(ROOT, 'bin/quire.js'), 'typegen', '--workspace', 'demo', '--out', path.join(dir, 'server.d.ts')], ROOT, serverEnv);
    const body = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8').split('\n').slice(1).join('\n');
    expect(body('all.d.ts')).toBe(body('server.d.ts'));
    expect(body('all.d.ts')).toContain('export interface Post {');

    const sdl = await run(bin, ['typegen', '--graphql', '--url', base, '--key', keys.delivery], dir, ENV);
    const served = await (await fetch(`${base}/api/v1/public/graphql/schema.graphql`, { headers: { 'X-API-Key': keys.delivery } })).text();
    expect(sdl.trimEnd()).toBe(served.trimEnd());

    const refused = await run(bin, ['typegen', '--url', base, '--key', 'svc_live_wrong', '--out', 'x.d.ts'], dir, ENV).then(
      () => '',
      (err: Error) => err.message,
    );
    expect(refused).toMatch(/failed \(1\)[\s\S]*quire-client: http:\/\/127\.0\.0\.1:\d+ answered 401: .+ \(\w+\)/);
    expect(fs.existsSync(path.join(dir, 'x.d.ts'))).toBe(false);
  }, 120_000);

  it.skipIf(skipBrowserSuites())(
    'a Vite project: vite build, and its bundle reads posts in Chromium across origins',
    async () => {
      const dir = path.join(work, 'vite');
      await installs.vite;
      await run(path.join(dir, 'node_modules/.bin/vite'), ['build', '--logLevel', 'warn'], dir, BUILD_ENV);
      const site = await serveStatic(path.join(dir, 'dist'));
      let browser: Browser | undefined;
      try {
        browser = await launchBrowser();
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (err) => errors.push(err.message));
        await page.goto(site.base);
        await page.waitForSelector('body[data-done]');
        await expect(page.locator('body').getAttribute('data-done')).resolves.toBe('ok');
        await expect(page.locator('#posts li').count()).resolves.toBe(2);
        expect(errors).toEqual([]);
      } finally {
        await browser?.close();
        await site.close();
      }
    },
    120_000,
  );

  it('examples/site copied out: installs with the tarball, passes astro check, builds and renders the demo', async () => {
    const dir = path.join(work, 'site');
    await installs.site;
    const astro = path.join(dir, 'node_modules/.bin/astro');
    // @astrojs/check and the TypeScript it type-checks with are the site's own devDependencies.
    await Promise.all([run(astro, ['check'], dir, BUILD_ENV), run(astro, ['build', '--silent'], dir, BUILD_ENV)]);
    const port = await freePort();
    const siteBase = `http://127.0.0.1:${port}`;
    const env = { ...ENV, HOST: '127.0.0.1', PORT: String(port), QUIRE_URL: base, QUIRE_DELIVERY_KEY: keys.delivery, SITE_CACHE_SECONDS: '0' };
    const site = await startNode(path.join(dir, 'dist/server/entry.mjs'), dir, env, `${siteBase}/api/preview`);
    try {
      const home = await fetch(`${siteBase}/en`);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('Content for every channel');
      const blog = await fetch(`${siteBase}/de/blog`);
      expect(blog.status).toBe(200);
      expect(await blog.text()).toContain('Willkommen im Quire-Demoblog');
    } finally {
      await site.stop();
    }
  }, 300_000);
});
