/**
 * End-to-end harness of the Studio: ONE real Quire server per test file (`node dist/src/server.js`,
 * what `npm start` runs) in a child process on a free port with a temporary DATA_DIR (SQLite), a
 * workspace and its owner's one-time setup link made by the CLI (`quire bootstrap --json` →
 * `setup_url`), Debian's Chromium driven by playwright-core, and an axe-core check.
 *
 * - `ensureBuilt()` (test/build.ts) rebuilds the server or the Studio when its output is missing or
 *   older than its sources (src, studio/src), so a suite never tests a stale build.
 * - Chromium: /usr/bin/chromium (`apt-get install chromium`; .ci/run installs it). Outside CI a
 *   missing browser skips the browser suites with a message; in CI (CI=true) it fails them.
 * - Screenshots go to docs/studio/ only with STUDIO_SCREENSHOTS=1 (they are documentation,
 *   regenerated on purpose, not on every run).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import axe, { type AxeResults, type ContextObject, type RunOptions } from 'axe-core';
import pg from 'pg';
import { chromium, type Browser, type BrowserContext, type Locator, type Page, type Response as PlaywrightResponse } from 'playwright-core';
import { ensureBuilt, ROOT } from '../build.js';

export { ensureBuilt, ROOT };
export const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** true when Chromium is installed. */
export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM);
}

/**
 * Whether this run may skip the browser suites: only outside CI when Chromium is missing. In CI a
 * missing Chromium is a failure (launchBrowser throws), never a silent skip.
 */
export function skipBrowserSuites(): boolean {
  if (chromiumAvailable()) return false;
  if (process.env.CI) return false;
  process.stderr.write(`\n[quire e2e] ${CHROMIUM} is missing: Studio browser suites skipped (apt-get install -y chromium)\n`);
  return true;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface StudioServer {
  /** http://127.0.0.1:<port> */
  base: string;
  workspace: { id: string; slug: string };
  owner: { email: string };
  /** `<base>/studio/setup?token=…` printed by `quire bootstrap --json` */
  setupUrl: string;
  /** The three keys printed by `quire bootstrap --json` */
  keys: { management: string; delivery: string; preview: string };
  dataDir: string;
  /** Runs the CLI against this server's database; returns stdout. */
  cli(args: string[], input?: string): string;
  stop(): Promise<void>;
}

/**
 * Bootstraps a workspace (`quire bootstrap --json`, locales en and de) in a fresh DATA_DIR, then
 * starts `node dist/src/server.js` on a free port and waits until /readyz answers (30 s at most).
 * SQLite unless `options.env` names a DATABASE_URL: `env` is added to the environment of the CLI
 * and of the server (the caller owns that database and cleans it up).
 */
export async function startStudioServer(options: { workspace?: string; email?: string; env?: Record<string, string> } = {}): Promise<StudioServer> {
  ensureBuilt();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-'));
  const env = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: base, PORT: String(port), HOST: '127.0.0.1', QUIRE_DEMO: '0', LOG_LEVEL: 'warn' };
  delete (env as Record<string, string | undefined>).DATABASE_URL;
  Object.assign(env, options.env);
  const cli = (args: string[], input?: string) =>
    execFileSync(process.execPath, [path.join(ROOT, 'bin/quire.js'), ...args], { cwd: ROOT, env, input, encoding: 'utf8', timeout: 60_000 });
  const slug = options.workspace ?? 'e2e';
  const email = options.email ?? 'owner@example.com';
  const boot = JSON.parse(cli(['bootstrap', '--workspace', slug, '--name', 'E2E Studio', '--locales', 'en,de', '--email', email, '--json'])) as {
    workspace: { id: string; slug: string };
    keys: { management: string; delivery: string; preview: string };
    setup_url?: string;
  };
  if (!boot.setup_url) throw new Error('quire bootstrap --json printed no setup_url');

  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'dist/src/server.js')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited !== undefined) throw new Error(`the server exited with ${exited}:\n${output}`);
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not become ready in 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    base,
    workspace: boot.workspace,
    owner: { email },
    setupUrl: boot.setup_url,
    keys: boot.keys,
    dataDir,
    cli,
    stop: async () => {
      if (exited === undefined) {
        const done = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await done;
        clearTimeout(timer);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * startStudioServer on PostgreSQL: the server's DATABASE_URL points at a fresh schema
 * (`e2e_studio_<random>`) of the database at `url`, through the URL's `options` (search_path),
 * so its tables never meet another suite's. `stop()` also drops the schema. Throws when the
 * server's tables did not land in that schema.
 */
export async function startStudioServerOnPostgres(url: string, options: { workspace?: string; email?: string } = {}): Promise<StudioServer> {
  const schema = `e2e_studio_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const dropSchema = async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await admin.end();
  };
  try {
    await admin.query(`CREATE SCHEMA "${schema}"`);
    const schemaUrl = new URL(url);
    schemaUrl.searchParams.set('options', `-c search_path=${schema}`);
    const server = await startStudioServer({ ...options, env: { DATABASE_URL: schemaUrl.toString() } });
    const tables = await admin.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name = 'workspaces'`, [
      schema,
    ]);
    if (tables.rows[0].n !== 1) {
      await server.stop();
      throw new Error(`the server's tables are not in schema ${schema}`);
    }
    return {
      ...server,
      stop: async () => {
        await server.stop();
        await dropSchema();
      },
    };
  } catch (err) {
    await dropSchema();
    throw err;
  }
}

/** Launches /usr/bin/chromium headless; throws (failing the suite) when it is missing. */
export async function launchBrowser(): Promise<Browser> {
  if (!chromiumAvailable()) throw new Error(`${CHROMIUM} is missing: install it with \`apt-get install -y chromium\` (.ci/run does)`);
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

/**
 * A page in a new browser context at `viewport` (reduced motion, so no transition delays a step),
 * its actions waiting 10 s at most.
 */
export async function openStudioPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce' });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return page;
}

export interface AxeSummary {
  screen: string;
  violations: { id: string; impact: string | null | undefined; nodes: number }[];
}

/** Every axe run of this process, for the suite's closing report. */
export const axeResults: AxeSummary[] = [];

/**
 * Runs axe-core (WCAG 2.0/2.1 A and AA rules and best practices) on the page, or on the part
 * matching the CSS selector `within`, and throws, listing them, when any
 * violation is serious or critical. Minor and moderate findings are recorded in axeResults.
 * `exclude` (a CSS selector) leaves out markup the Studio does not write (a third-party widget's
 * own elements); the suite that uses it says why.
 */
export async function expectAccessible(page: Page, screen: string, within?: string, exclude?: string): Promise<AxeSummary> {
  const { summary, violations } = await scanAccessibility(page, screen, within, exclude);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length) throw new Error(`axe found ${bad.length} serious/critical violation(s) on ${screen}:\n  ${describeViolations(bad).join('\n  ')}`);
  return summary;
}

type AxeViolation = AxeResults['violations'][number];
type AxeWindow = Window & { axe?: typeof axe };

const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
// Details of violations only: passes and inapplicable rules are not collected (much faster).
const AXE_OPTIONS: RunOptions = { runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] };

/**
 * Runs axe-core as expectAccessible does (same rules, `within` and `exclude`), records the summary
 * in axeResults and answers every violation of any impact, without throwing.
 *
 * A page without frames (every Studio screen but an external live preview) is checked by axe.run
 * in the page, axe-core's source evaluated there once per document; a page with frames by
 * @axe-core/playwright's AxeBuilder, which checks every frame, cross-origin ones too. Same rules,
 * same findings, but AxeBuilder took 2.4 s a check where this takes 0.45 s (28 checks of the
 * sweep, both on the same pages): on every analyze() it evaluates axe's 650 kB source, runs
 * axe.runPartial, which serializes every node of every rule with its selectors, passes included
 * (axe.run keeps the violations' only), then opens a blank page, evaluates the source there too
 * and calls axe.finishRun in it (1.4 s of the 2.4).
 */
export async function scanAccessibility(
  page: Page,
  screen: string,
  within?: string,
  exclude?: string,
): Promise<{ summary: AxeSummary; violations: AxeViolation[] }> {
  let result: AxeResults;
  if (page.frames().length > 1) {
    let builder = new AxeBuilder({ page });
    // A dialog is checked on its own when the page behind it was checked already.
    if (within) builder = builder.include(within);
    if (exclude) builder = builder.exclude(exclude);
    result = await builder.withTags(AXE_TAGS).options({ resultTypes: AXE_OPTIONS.resultTypes }).analyze();
  } else {
    const main = page.mainFrame();
    if (!(await main.evaluate(() => typeof (window as AxeWindow).axe?.run === 'function'))) {
      await main.evaluate(axe.source);
      // as AxeBuilder configures it: its name in the rules' help URLs
      await main.evaluate(() => (window as AxeWindow).axe!.configure({ branding: { application: 'playwright' } }));
    }
    // A dialog is checked on its own when the page behind it was checked already.
    const context: ContextObject = { include: within ? [within] : [], exclude: exclude ? [exclude] : [] };
    // (arguments typed unknown: Playwright's serializable types recurse too deep into axe's)
    result = await main.evaluate(([c, o]: unknown[]) => (window as AxeWindow).axe!.run(c as ContextObject, o as RunOptions), [
      context,
      AXE_OPTIONS,
    ] as unknown[]);
  }
  const summary: AxeSummary = { screen, violations: result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length })) };
  axeResults.push(summary);
  return { summary, violations: result.violations };
}

/** One line per violation: impact, rule, help, then each node's selector and failure summary. */
export function describeViolations(violations: AxeViolation[]): string[] {
  return violations.map(
    (v) => `${v.impact} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n').join(' ')}`).join('\n    ')}`,
  );
}

/** Saves a screenshot to docs/studio/<name>.png when STUDIO_SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.STUDIO_SCREENSHOTS !== '1') return;
  const dir = path.join(ROOT, 'docs/studio');
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: false });
}

/** Throws when the page scrolls sideways at its current width (a layout not usable on a phone). */
export async function expectNoHorizontalScroll(page: Page, screen: string): Promise<void> {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  if (scroll > width + 1) throw new Error(`${screen} scrolls sideways at ${width} px (content is ${scroll} px wide)`);
}

/** Gzipped size of a built Studio asset (what a compressing proxy would send), by its URL path. */
export function gzippedAssetBytes(urlPath: string): number {
  const file = path.join(ROOT, 'dist', decodeURIComponent(urlPath.replace(/^\//, '')));
  return gzipSync(fs.readFileSync(file), { level: 9 }).length;
}

/**
 * Opens the owner's one-time setup link, sets `password` (typed twice) and waits for the
 * workspace's home ("E2E Studio", the name `startStudioServer` gives it).
 */
export async function setUpOwner(page: Page, server: StudioServer, password: string): Promise<void> {
  await page.goto(server.setupUrl);
  await page.getByLabel(/^New password/).fill(password);
  await page.getByLabel(/^Repeat the password/).fill(password);
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await page.getByRole('heading', { name: 'E2E Studio', level: 1 }).waitFor({ state: 'visible' });
}

/**
 * Records the Studio scripts (`/studio/assets/*.js`) `page` downloads from now on, by URL path,
 * with the bytes that crossed the wire for each body (the build's brotli or gzip copy), until
 * `stop()`.
 */
export function recordScripts(page: Page): { scripts: Map<string, Promise<number>>; stop: () => void } {
  const scripts = new Map<string, Promise<number>>();
  const onResponse = (res: PlaywrightResponse) => {
    const url = new URL(res.url());
    if (url.pathname.startsWith('/studio/assets/') && url.pathname.endsWith('.js'))
      scripts.set(
        url.pathname,
        res
          .request()
          .sizes()
          .then((s) => s.responseBodySize),
      );
  };
  page.on('response', onResponse);
  return { scripts, stop: () => page.off('response', onResponse) };
}

/**
 * Tracks `page`'s requests from now on, except the Studio's event stream
 * (`/api/v1/manage/events`: a Server-Sent Events response open for as long as the Studio is, so
 * Playwright's `networkidle` never comes). `quiet()` resolves once no tracked request has been in
 * flight for 500 ms (what `networkidle` means otherwise); start tracking before the navigation
 * whose requests it must see.
 */
export function trackNetwork(page: Page): { quiet: (timeout?: number) => Promise<void>; stop: () => void } {
  const inFlight = new Set<unknown>();
  let lastChange = Date.now();
  const tracked = (url: string) => !new URL(url).pathname.startsWith('/api/v1/manage/events');
  const onRequest = (req: { url(): string }) => {
    if (!tracked(req.url())) return;
    inFlight.add(req);
    lastChange = Date.now();
  };
  const onDone = (req: { url(): string }) => {
    if (inFlight.delete(req)) lastChange = Date.now();
  };
  page.on('request', onRequest);
  page.on('requestfinished', onDone);
  page.on('requestfailed', onDone);
  return {
    quiet: (timeout = 30_000) => until(async () => inFlight.size === 0 && Date.now() - lastChange >= 500, 'no request in flight for 500 ms', timeout),
    stop: () => {
      page.off('request', onRequest);
      page.off('requestfinished', onDone);
      page.off('requestfailed', onDone);
    },
  };
}

/** Polls `check` every 100 ms until it holds, failing with "timed out waiting for `what`". */
export async function until(check: () => Promise<boolean>, what: string, timeout = 10_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Records every Content-Security-Policy violation in the context's pages and frames (a
 * `securitypolicyviolation` listener installed before any script of the page runs, reported on the
 * console) and Chromium's own "Refused to …" console errors. Returns the list it fills.
 */
export async function recordCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'} in ${e.documentURI}`);
    });
  });
  context.on('console', (msg) => {
    const text = msg.text();
    if (/^CSP violation: |Content Security Policy|Refused to (load|execute|apply|frame|connect)/.test(text)) violations.push(text);
  });
  return violations;
}

/** Prints this process's axe results under `suite` (a suite's afterAll), one line per screen. */
export function printAxeResults(suite: string): void {
  const lines = axeResults.map(
    (r) => `  ${r.screen}: ${r.violations.length ? r.violations.map((v) => `${v.impact} ${v.id} (${v.nodes})`).join(', ') : 'no violations'}`,
  );
  if (lines.length) process.stdout.write(`\n[${suite}] axe results\n${lines.join('\n')}\n`);
}

/** The page editor's row of a block, by the start of its accessible name ("Card “First”"). */
export function blockRow(page: Page, label: string): Locator {
  return page.locator('li[data-block]', { has: page.getByRole('button', { name: `Drag ${label}`, exact: true }) });
}

/** Adds a block of `type` inside the block `label` through its "Add block inside …" menu. */
export async function addBlockInside(page: Page, label: string, type: string): Promise<void> {
  await blockRow(page, label)
    .getByRole('button', { name: `Add block inside ${label}` })
    .click();
  await page
    .getByRole('menu', { name: `Add block inside ${label}`, exact: true })
    .getByRole('menuitem', { name: type, exact: true })
    .click();
}

/**
 * Publishes from an editor's status bar: its Publish (or Publish changes) button, then the same
 * button in the confirmation that lists what goes live. Answers the confirmation's text.
 */
export async function publishFromEditor(page: Page, label: 'Publish' | 'Publish changes' = 'Publish'): Promise<string> {
  await page.getByRole('region', { name: 'Status and actions' }).getByRole('button', { name: label, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `${label}: `, exact: false });
  await dialog.getByRole('list', { name: 'What goes live' }).or(dialog.getByText('No field differs from the live version.')).waitFor({ state: 'visible' });
  const text = await dialog.innerText();
  await dialog.getByRole('button', { name: label, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  return text;
}
