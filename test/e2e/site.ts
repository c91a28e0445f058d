/**
 * The example site (examples/site, Astro SSR) in browser suites: its build, kept fresh, and the
 * Studio steps that frame it. Each suite starts its own demo Quire (test/processes.ts
 * startDemoQuire) and its own site server (`node dist/server/entry.mjs`) on another port.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { newestMtime, run, startNode, type Child } from '../processes.js';
import { ROOT } from './harness.js';

export const SITE = path.join(ROOT, 'examples/site');
export const SITE_ENTRY = path.join(SITE, 'dist/server/entry.mjs');
const CLIENT = path.join(ROOT, 'packages/client');

/**
 * Builds the client when its dist is older than its sources, and the site when its build is older
 * than its inputs: `astro build`, and `astro check` beside it (strict TypeScript of every .astro
 * and .ts file, the generated types included), so a type error in the site fails the suite.
 */
export async function ensureSiteBuilt(): Promise<void> {
  await withSiteLock(buildIfStale);
}

/**
 * Runs `build` while holding the site's build lock (a directory: mkdir is atomic), so suites
 * started together do not build the client or the site at once (tshy and astro clear their
 * output first). A lock older than 10 minutes is a crashed build's: taken over.
 */
async function withSiteLock(build: () => Promise<void>): Promise<void> {
  const lock = path.join(SITE, '.build-lock');
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 600_000) fs.rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    await build();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

async function buildIfStale(): Promise<void> {
  const env = { ...process.env, NODE_ENV: 'production', ASTRO_TELEMETRY_DISABLED: '1' };
  if (newestMtime(path.join(CLIENT, 'dist')) < newestMtime(path.join(CLIENT, 'src'))) {
    await run('npm', ['run', 'build', '-w', '@quire/client'], ROOT, env);
  }
  const inputs = Math.max(
    ...['src', 'astro.config.mjs', 'package.json', 'tsconfig.json'].map((p) => newestMtime(path.join(SITE, p))),
    newestMtime(path.join(CLIENT, 'dist')),
  );
  if (newestMtime(SITE_ENTRY) >= inputs) return;
  await Promise.all([run('npx', ['astro', 'check'], SITE, env), run('npx', ['astro', 'build', '--silent'], SITE, env)]);
}

/**
 * Signs the demo's owner in through the one-time setup link of the demo banner (`quireOutput`),
 * then points the workspace's preview URL template at the site's preview route (Settings > General).
 */
export async function signInAndAimPreview(page: Page, quireOutput: string, quireBase: string, siteBase: string): Promise<void> {
  const setupUrl = /(http\S+\/studio\/setup\?token=\S+)/.exec(quireOutput)?.[1];
  if (!setupUrl) throw new Error(`no setup link in the demo banner:\n${quireOutput}`);
  await page.goto(setupUrl);
  await page.getByLabel(/^New password/).fill('owner password 123');
  await page.getByLabel(/^Repeat the password/).fill('owner password 123');
  await page.getByRole('button', { name: 'Set password and continue' }).click();
  await page.waitForURL(/\/studio\/demo/);
  await page.goto(`${quireBase}/studio/demo/settings/general`);
  await page.getByLabel('Preview URL template').fill(`${siteBase}/api/preview?type={type}&slug={slug}&locale={locale}&token={token}`);
  await page.getByRole('button', { name: /^Save/ }).click();
  await page.getByText(/saved/i).first().waitFor();
}

/** The site's frame in the editor's live preview pane, once the pane says the site listens. */
export async function siteFrame(page: Page, siteBase: string): Promise<Frame> {
  await page.locator('[data-preview-state=listening]').waitFor({ timeout: 15_000 });
  const frame = page.frames().find((f) => f.url().startsWith(siteBase));
  if (!frame)
    throw new Error(
      `no site frame among ${page
        .frames()
        .map((f) => f.url())
        .join(', ')}`,
    );
  return frame;
}

/**
 * Starts the built site on 127.0.0.1:`port` against the Quire at `quireBase` with the demo's
 * production and preview keys; `env` adds or overrides settings (examples/site/README.md).
 */
export function startSite(port: number, quireBase: string, keys: { delivery: string; preview: string }, env: Record<string, string> = {}): Promise<Child> {
  const siteEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(port),
    QUIRE_URL: quireBase,
    QUIRE_DELIVERY_KEY: keys.delivery,
    QUIRE_PREVIEW_KEY: keys.preview,
    PUBLIC_QUIRE_URL: quireBase,
    ...env,
  };
  return startNode(SITE_ENTRY, SITE, siteEnv, `http://127.0.0.1:${port}/api/preview`);
}

/**
 * A management API call to the Quire at `quireBase` with `key`; returns the envelope's data and
 * throws naming the call on an error answer. `any`: suites read the fields they need.
 */
export async function manageCall(quireBase: string, key: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const res = await fetch(`${quireBase}/api/v1/manage${urlPath}`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { success: boolean; data: unknown; message: string };
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${json.message}`);
  return json.data;
}

/** Closes what a suite opened: browser contexts, the browser, the site, Quire and its data directory. */
export async function stopAll(opened: { contexts: BrowserContext[]; browser?: Browser; site?: Child; quire?: Child; dataDir: string }): Promise<void> {
  for (const c of opened.contexts) await c.close().catch(() => {});
  await opened.browser?.close();
  await opened.site?.stop();
  await opened.quire?.stop();
  if (opened.dataDir) fs.rmSync(opened.dataDir, { recursive: true, force: true });
}
