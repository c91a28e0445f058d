/**
 * Live updates on the example site (examples/site; docs/front-ends.md "The example site", D142), in
 * Chromium, in production mode (published content, the site's cache on for 300 s). The site's
 * server subscribes to Quire's live events with its delivery key, drops the cached answers whose
 * `Cache-Tag` an event names, and passes the event on to open pages through its own stream
 * (`/api/live`); a page showing one of the tags refetches itself and swaps its <main> in.
 *
 * Covered: an open blog list shows a post published through the management API within 3 s,
 * without a reload; an open post page shows a changed-and-published title within 3 s, and the
 * list opened beside it too; an open page whose tags the event does not name stays as it was
 * (no refetch: the about page); a saved but unpublished change reaches no open page; the browser never sees the
 * delivery key. Measured times go to stderr.
 *
 * One demo Quire (SQLite in a temporary DATA_DIR) and one site server for the file, as
 * example-site.test.ts starts them.
 */
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, startDemoQuire, type Child } from '../processes.js';
import { ROOT, ensureBuilt, launchBrowser, recordCspViolations, skipBrowserSuites } from './harness.js';
import { ensureSiteBuilt, manageCall, startSite, stopAll } from './site.js';

/** The bound asserted between the publish call's answer and the open page showing the change. */
const BOUND_MS = 3_000;

describe.skipIf(skipBrowserSuites())('example site: live updates of open published pages', () => {
  let quire: Child;
  let site: Child;
  let browser: Browser;
  let quireBase = '';
  let siteBase = '';
  let dataDir = '';
  let keys = { management: '', delivery: '', preview: '' };
  const contexts: BrowserContext[] = [];

  /** A management API call; returns the envelope's data (throws on an error answer). */
  const manage = (method: string, urlPath: string, body?: unknown): Promise<any> => manageCall(quireBase, keys.management, method, urlPath, body);

  /** Opens `urlPath` in a new context, once its live stream is open; a marker tells a reload apart. */
  const open = async (urlPath: string): Promise<{ page: Page; context: BrowserContext }> => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const streamed = page.waitForResponse((r) => r.url() === `${siteBase}/api/live` && r.status() === 200);
    const res = await page.goto(`${siteBase}${urlPath}`, { waitUntil: 'domcontentloaded' });
    expect(res?.status(), urlPath).toBe(200);
    await streamed;
    await page.evaluate(() => Object.assign(window, { quireMarker: 'not reloaded' }));
    return { page, context };
  };

  const notReloaded = async (page: Page) => page.evaluate(() => (window as unknown as { quireMarker?: string }).quireMarker === 'not reloaded');

  /** Ms from `since` until `check` holds (polled every 20 ms); throws past 10 s. */
  const until = async (since: number, check: () => Promise<boolean>, what: string): Promise<number> => {
    while (!(await check())) {
      if (Date.now() - since > 10_000) throw new Error(`${what}: not within 10 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return Date.now() - since;
  };

  beforeAll(async () => {
    ensureBuilt();
    const sitePort = await freePort();
    siteBase = `http://127.0.0.1:${sitePort}`;
    dataDir = fs.mkdtempSync(`${os.tmpdir()}/quire-site-live-`);
    const [, demo, launched] = await Promise.all([ensureSiteBuilt(), startDemoQuire(ROOT, dataDir), launchBrowser()]);
    ({ quire, base: quireBase, keys } = demo);
    browser = launched;
    // The cache on (300 s): without the live events' purge, the pages would keep the old content.
    site = await startSite(sitePort, quireBase, keys, { SITE_CACHE_SECONDS: '300' });
  }, 240_000);

  afterAll(() => stopAll({ contexts, browser, site, quire, dataDir }));

  it('an open blog list shows a newly published post within 3 s, without a reload; the delivery key never reaches the browser', async () => {
    const { page: list, context } = await open('/en/blog');
    const cspViolations = await recordCspViolations(context);
    const requests: string[] = [];
    list.on('request', (r) => requests.push(`${r.url()} ${JSON.stringify(r.headers())}`));
    const before = await list.locator('[data-post]').count();
    expect(before).toBeGreaterThan(0);
    await expect(list.locator('[data-post=live-from-quire]').count()).resolves.toBe(0);
    // Another page whose answers the new post cannot change: the about page (no post on it; the
    // home page lists the latest posts, so it would rightly refresh).
    const { page: about } = await open('/en/about');
    const aboutTags: string[] = JSON.parse((await about.locator('#quire-live-tags').textContent()) ?? '[]');
    expect(aboutTags.length).toBeGreaterThan(0);
    let aboutRefetches = 0;
    about.on('request', (r) => {
      if (r.url().startsWith(`${siteBase}/en`)) aboutRefetches++;
    });

    const author = await manage('GET', '/content-types/author/entries/ines-okafor');
    // A saved draft is no published change: the open list stays as it is.
    await manage('POST', '/content-types/post/entries', {
      slug: 'live-from-quire',
      data: {
        title: 'Live from Quire',
        excerpt: 'Published while you were reading.',
        body: {
          nodeType: 'document',
          data: {},
          content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: 'Fresh.', marks: [], data: {} }] }],
        },
        author: author.id,
        published_on: '2026-11-01',
      },
    });
    await new Promise((r) => setTimeout(r, 1_500));
    await expect(list.locator('[data-post=live-from-quire]').count()).resolves.toBe(0);

    await manage('PATCH', '/content-types/post/entries/live-from-quire/publish');
    const published = Date.now();
    const ms = await until(published, async () => (await list.locator('[data-post=live-from-quire] h2').count()) === 1, 'the new post in the open list');
    process.stderr.write(`[example site live] publish answered → new post in the open blog list: ${ms} ms\n`);
    expect(ms).toBeLessThanOrEqual(BOUND_MS);
    await expect(list.locator('[data-post=live-from-quire] h2').textContent()).resolves.toBe('Live from Quire');
    await expect(list.locator('[data-post]').count()).resolves.toBe(before + 1);
    expect(await notReloaded(list)).toBe(true);
    // A fresh visitor gets the new list too (the site's cache lost the old one).
    const fresh = await (await fetch(`${siteBase}/en/blog`)).text();
    expect(fresh).toContain('Live from Quire');

    // The about page showed nothing the event named: it did not refetch.
    await new Promise((r) => setTimeout(r, 500));
    expect(aboutRefetches).toBe(0);
    expect(requests.some((r) => r.includes(keys.delivery) || r.includes(keys.management))).toBe(false);
    const html = await list.content();
    expect(html).not.toContain(keys.delivery);
    expect(cspViolations).toEqual([]);
  }, 60_000);

  it('an open post page shows a changed title once it is published, within 3 s, and an open list too', async () => {
    const slug = 'keys-previews-and-tokens';
    const { page: post } = await open(`/en/blog/${slug}`);
    await expect(post.locator('h1').textContent()).resolves.toBe('Keys, previews and tokens');
    const { page: list } = await open('/en/blog');
    await expect(list.locator(`[data-post=${slug}] h2`).textContent()).resolves.toBe('Keys, previews and tokens');

    // Saved, not published: production readers still see the old title, so the pages do too.
    const entry = await manage('GET', `/content-types/post/entries/${slug}`);
    await manage('PUT', `/content-types/post/entries/${slug}`, { data: { ...JSON.parse(entry.data), title: 'Keys, previews and tokens, live' } });
    await new Promise((r) => setTimeout(r, 1_500));
    await expect(post.locator('h1').textContent()).resolves.toBe('Keys, previews and tokens');

    await manage('PATCH', `/content-types/post/entries/${slug}/publish`);
    const published = Date.now();
    const postMs = await until(
      published,
      async () => (await post.locator('h1').textContent()) === 'Keys, previews and tokens, live',
      'the new title on the open post page',
    );
    const listMs = await until(
      published,
      async () => (await list.locator(`[data-post=${slug}] h2`).textContent()) === 'Keys, previews and tokens, live',
      'the new title in the open list',
    );
    process.stderr.write(`[example site live] publish answered → new title on the open post page: ${postMs} ms, in the open list: ${listMs} ms\n`);
    expect(postMs).toBeLessThanOrEqual(BOUND_MS);
    expect(listMs).toBeLessThanOrEqual(BOUND_MS);
    expect(await notReloaded(post)).toBe(true);
    expect(await notReloaded(list)).toBe(true);
    expect(await post.title()).toContain('Keys, previews and tokens, live');
  }, 60_000);
});
