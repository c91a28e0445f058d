/**
 * The Studio's GraphQL explorer end to end in Chromium against a real server (SQLite): the owner
 * opens "GraphQL explorer" from the navigation, gives the workspace's production delivery key, and
 * GraphiQL (its Monaco editor and workers) opens with a default query on the first content type;
 * running it through the real `POST /api/v1/public/graphql` shows the published entry and not the
 * draft. "Create a preview key for the explorer" makes a preview key in one click; the preview
 * side shows the draft too. The key is in the tab's sessionStorage, never in localStorage or the
 * URL; the editor's workers run from the build's script files; no Content-Security-Policy
 * violation; axe on the key form and on the explorer. The explorer's first load is printed.
 * Screenshot (docs/studio/graphql-explorer-1280.png) with STUDIO_SCREENSHOTS=1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  expectAccessible,
  launchBrowser,
  printAxeResults,
  recordCspViolations,
  recordScripts,
  screenshot,
  setUpOwner,
  skipBrowserSuites,
  startStudioServer,
  trackNetwork,
  until,
  type StudioServer,
} from './harness.js';

const PASSWORD = 'owner password 123';
const visible = (l: Locator) => l.waitFor({ state: 'visible' });

describe.skipIf(skipBrowserSuites())('Studio GraphQL explorer in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let cspViolations: string[];

  const manage = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}/api/v1/manage${path}`, {
      method,
      headers: { 'X-API-Key': server.keys.management, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { data: any; message: string };
    expect(res.status, `${method} ${path}: ${json.message}`).toBeLessThan(300);
    return json.data;
  };

  /** The text GraphiQL's response editor shows (Monaco draws it as lines, spaces as no-break spaces). */
  const responseText = async () => (await page.locator('.graphiql-response .view-lines').innerText()).replace(/\u00a0/g, ' ');
  const run = () => page.getByRole('button', { name: /^Execute query/ }).click();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ workspace: 'gql' }), launchBrowser()]);
    await manage('POST', '/content-types', {
      name: 'Article',
      slug: 'article',
      display_field: 'title',
      fields: [
        { name: 'title', label: 'Title', field_type: 'text', required: true },
        { name: 'rating', label: 'Rating', field_type: 'integer' },
      ],
    });
    await manage('POST', '/content-types/article/entries', { slug: 'live-one', data: { title: 'Published article', rating: 5 } });
    await manage('PATCH', '/content-types/article/entries/live-one/publish');
    await manage('POST', '/content-types/article/entries', { slug: 'draft-one', data: { title: 'Draft article', rating: 2 } });

    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    cspViolations = await recordCspViolations(context);
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await setUpOwner(page, server, PASSWORD);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    printAxeResults('studio graphql e2e');
  }, 60_000);

  it('runs the default query with a production key and sees the published entry only', async () => {
    // JavaScript the explorer loads (as sent: the build's brotli copies), from here on.
    const { scripts, stop } = recordScripts(page);
    const network = trackNetwork(page);
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'GraphQL explorer' }).click();
    await visible(page.getByRole('heading', { name: 'GraphQL explorer', level: 1 }));
    await expectAccessible(page, 'graphql explorer: key form');
    await page.getByLabel(/^Production key/).fill(server.keys.delivery);
    await page.getByRole('button', { name: 'Use these keys' }).click();

    // GraphiQL with Monaco, the default query on the first content type.
    const editor = page.locator('.graphiql-query-editor .view-lines');
    await until(async () => (await editor.innerText()).includes('articleCollection(first:'), 'the default query in the editor', 20_000);
    await run();
    await until(async () => (await responseText()).includes('Published article'), 'the answer in the response editor', 20_000);
    const answer = await responseText();
    expect(answer).not.toContain('Draft article');
    expect(answer).toContain('"totalCount": 1');

    // The key lives in this tab's sessionStorage only.
    const stored = await page.evaluate(() => ({
      session: Object.keys(sessionStorage).map((k) => `${k}=${sessionStorage.getItem(k)}`),
      local: Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`),
    }));
    expect(stored.session.join('\n')).toContain(server.keys.delivery);
    expect(stored.local.join('\n')).not.toContain(server.keys.delivery);
    expect(page.url()).not.toContain(server.keys.delivery);

    // Monaco's workers run from the build's script files.
    await until(async () => page.workers().length >= 2, 'the editor workers');
    for (const worker of page.workers()) expect(new URL(worker.url()).pathname).toMatch(/^\/studio\/assets\/(editor|json|graphql)\.worker-[\w-]+\.js$/);

    await network.quiet();
    network.stop();
    stop();
    const wire = (await Promise.all(scripts.values())).reduce((a, b) => a + b, 0);
    process.stdout.write(`\n[studio graphql e2e] the explorer with GraphiQL and Monaco: ${scripts.size} scripts, ${(wire / 1024).toFixed(1)} KB brotli\n`);
    await screenshot(page, 'graphql-explorer-1280');
    // GraphiQL's tabs are list items holding their buttons (axe nested-interactive): its markup,
    // not ours, so the tab bar is left out; the rest of GraphiQL and the screen are checked.
    await expectAccessible(page, 'graphql explorer: GraphiQL with an answer', undefined, '.graphiql-tab');
    expect(cspViolations).toEqual([]);
  }, 120_000);

  it('creates a preview key in one click and reads the draft on the preview side', async () => {
    await page.getByRole('button', { name: 'Change keys' }).click();
    await page.getByRole('button', { name: 'Create a preview key for the explorer' }).click();
    const preview = page.getByRole('radio', { name: 'Preview (drafts too)' });
    await preview.waitFor({ state: 'attached' });
    expect(await preview.isChecked()).toBe(true);
    await run();
    await until(async () => (await responseText()).includes('Draft article'), 'the draft in the answer', 20_000);
    expect(await responseText()).toContain('"totalCount": 2');

    // The key is listed in Settings › API keys, as a preview delivery key.
    // (through the owner's session: keys cannot list keys)
    const res = await context.request.get(`${server.base}/api/v1/manage/api-keys`, { headers: { 'X-Workspace-ID': server.workspace.id } });
    expect(res.status()).toBe(200);
    const keys = ((await res.json()) as { data: { name: string; environment: string | null; expires_at: string | null }[] }).data;
    const made = keys.find((k) => k.name === `GraphQL explorer (${server.owner.email})`);
    expect(made?.environment).toBe('preview');
    expect(made?.expires_at).toBeTruthy();

    // Back to production: the draft is gone again.
    await page.getByText('Production (published)').click();
    await run();
    await until(async () => !(await responseText()).includes('Draft article') && (await responseText()).includes('Published article'), 'the production answer');
    expect(cspViolations).toEqual([]);
  }, 120_000);
});
