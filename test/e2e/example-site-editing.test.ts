/**
 * Click-to-edit on the example site (examples/site; docs/visual-editing.md "Click to edit", D141),
 * in Chromium: the Studio's page editor with its live preview pane showing the site in preview
 * mode (pages read with the preview key and stega, `enableVisualEditing()` on). A click on the
 * hero's headline inside the frame focuses that block's Headline field in the editor; typing there
 * shows in the frame within 1 s of the last key (the Studio saves 300 ms after it while the pane is
 * open) and of the autosave, and the swapped-in content is editable again. In
 * the entry editor, a click on the post's title (its working copy, read through the preview token
 * with stega) focuses the Title field. A
 * published page (no preview cookie) carries no origins and no click-to-edit: even the site's own
 * module run on it marks nothing.
 *
 * One demo Quire (SQLite in a temporary DATA_DIR) and one site server for the file, as
 * example-site.test.ts starts them.
 */
import fs from 'node:fs';
import os from 'node:os';
import { vercelStegaClean, vercelStegaDecode } from '@vercel/stega';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort, startDemoQuire, type Child } from '../processes.js';
import { ROOT, ensureBuilt, launchBrowser, recordCspViolations, skipBrowserSuites } from './harness.js';
import { ensureSiteBuilt, signInAndAimPreview, siteFrame, startSite, stopAll } from './site.js';

const HEADLINE = 'Content for every channel';

describe.skipIf(skipBrowserSuites())('example site: click-to-edit in the Studio’s live preview', () => {
  let quire: Child;
  let site: Child;
  let browser: Browser;
  let quireBase = '';
  let siteBase = '';
  let dataDir = '';
  let keys = { management: '', delivery: '', preview: '' };
  const contexts: BrowserContext[] = [];

  const newPage = async (viewport = { width: 1400, height: 900 }): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    return { context, page: await context.newPage() };
  };

  beforeAll(async () => {
    ensureBuilt();
    const sitePort = await freePort();
    siteBase = `http://127.0.0.1:${sitePort}`;
    dataDir = fs.mkdtempSync(`${os.tmpdir()}/quire-editing-`);
    const [, demo, launched] = await Promise.all([ensureSiteBuilt(), startDemoQuire(ROOT, dataDir), launchBrowser()]);
    ({ quire, base: quireBase, keys } = demo);
    browser = launched;
    // The site's default cache, as deployed: preview reads are never cached, the schema is.
    site = await startSite(sitePort, quireBase, keys);
  }, 240_000);

  afterAll(() => stopAll({ contexts, browser, site, quire, dataDir }));

  it('a click on the hero headline in the preview focuses its Headline field; typing there shows in the frame within 1 s', async () => {
    const { context, page } = await newPage();
    const cspViolations = await recordCspViolations(context);
    await signInAndAimPreview(page, quire.output(), quireBase, siteBase);

    await page.goto(`${quireBase}/studio/demo/pages/home`);
    await page.getByRole('button', { name: 'Live preview', exact: true }).click();
    const frame = await siteFrame(page, siteBase);
    expect(new URL(frame.url()).pathname).toBe('/en');

    // The headline was read with stega: it carries its block's origin, and shows as plain text.
    const headline = frame.locator('[data-block=hero] h1');
    const raw = (await headline.textContent()) ?? '';
    expect(vercelStegaClean(raw)).toBe(HEADLINE);
    expect(vercelStegaDecode(raw)).toMatchObject({ origin: 'quire', kind: 'block', field: 'headline', locale: 'en', path: 'blocks.0' });
    expect(await frame.title()).not.toMatch(/[\u200b-\u200d\ufeff]/);
    // enableVisualEditing() marked it: reachable with Tab, an outline with its field on hover.
    await frame.locator('[data-block=hero] h1[data-quire-edit=headline]').waitFor({ timeout: 10_000 });
    await expect(headline.getAttribute('tabindex')).resolves.toBe('0');
    await headline.hover();
    await expect(frame.locator('[data-quire-outline]').textContent()).resolves.toBe('headline (en)');
    await expect(frame.locator('[data-quire-outline]').isVisible()).resolves.toBe(true);
    // Navigation labels stay plain, so they navigate.
    await expect(frame.locator('nav[aria-label=Main] [data-quire-edit]').count()).resolves.toBe(0);

    const field = page.getByRole('textbox', { name: /^Headline/ });
    await headline.click();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement), { timeout: 5_000 }).toBe(true);
    await expect(field.inputValue()).resolves.toBe(HEADLINE);
    await frame.evaluate(() => Object.assign(window, { quireMarker: 'not reloaded' }));

    // Typing into the focused field: the autosave, then the frame shows the new headline.
    const typeAndTime = async (text: string, expected: string) => {
      const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/v1/manage/') && r.status() === 200, {
        timeout: 15_000,
      });
      await page.keyboard.press('End');
      const typedAt = Date.now();
      await page.keyboard.type(text);
      const lastKeyAt = Date.now();
      await saved;
      const savedAt = Date.now();
      const shows = async () => vercelStegaClean(await frame.locator('[data-block=hero] h1').textContent()) === expected;
      while (!(await shows())) {
        if (Date.now() - savedAt > 5_000) throw new Error(`the preview did not show "${expected}" within 5 s of the autosave`);
        await new Promise((r) => setTimeout(r, 20));
      }
      const shownAt = Date.now();
      process.stderr.write(
        `[example site editing] headline typed → shown ${shownAt - typedAt} ms, ${shownAt - lastKeyAt} ms after the last key (autosave answered after ${savedAt - typedAt} ms, frame updated ${shownAt - savedAt} ms later)\n`,
      );
      return { afterSave: shownAt - savedAt, afterLastKey: shownAt - lastKeyAt };
    };
    let timing = await typeAndTime(', edited', `${HEADLINE}, edited`);
    // With the pane open the Studio saves 300 ms after the last key and tells the frame as the save
    // answers, so the frame follows the typing within a second: 550-700 ms here, 1.0-1.1 s with two
    // busy loops on this 2-core machine, 1.2 s and more with the 1 s pause of a closed pane. A CI
    // machine running other suites alongside may miss once; a second, fresh measurement decides,
    // which a real slowdown (the closed pane's pause, a reload) misses as well.
    if (timing.afterLastKey > 1000) timing = await typeAndTime(' again', `${HEADLINE}, edited again`);
    expect(timing.afterSave).toBeLessThanOrEqual(1000);
    expect(timing.afterLastKey).toBeLessThanOrEqual(1000);
    expect(await frame.evaluate(() => (window as unknown as { quireMarker?: string }).quireMarker)).toBe('not reloaded');

    // The swapped-in <main> is editable too: the new headline leads back to its field.
    await frame.locator('[data-block=hero] h1[data-quire-edit=headline]').waitFor({ timeout: 5_000 });
    await page.getByRole('button', { name: 'Live preview', exact: true }).focus();
    await frame.locator('[data-block=hero] h1').click();
    await expect.poll(() => field.evaluate((el) => el === document.activeElement), { timeout: 5_000 }).toBe(true);

    // An entry: the post's working copy (read through its preview token, with stega) leads to its Title field.
    await page.goto(`${quireBase}/studio/demo/content/post/welcome-to-quire`);
    const postFrame = await siteFrame(page, siteBase);
    expect(new URL(postFrame.url()).pathname).toBe('/en/blog/welcome-to-quire');
    await postFrame.locator('h1[data-quire-edit=title]').waitFor({ timeout: 10_000 });
    await postFrame.locator('h1').click();
    const title = page.getByRole('textbox', { name: /^Title/ });
    await expect.poll(() => title.evaluate((el) => el === document.activeElement), { timeout: 5_000 }).toBe(true);
    expect(cspViolations).toEqual([]);
  }, 120_000);

  it('on a published page click-to-edit is inert: no origins, no outlines, no tabindex, links navigate', async () => {
    // The preview page's script is the site's built click-to-edit module.
    const { context, page: previewPage } = await newPage();
    const home = await fetch(`${quireBase}/api/v1/public/pages/home`, { headers: { 'X-API-Key': keys.delivery } });
    const pageId = ((await home.json()) as { data: { page: { id: string } } }).data.page.id;
    const minted = await fetch(`${quireBase}/api/v1/manage/preview-tokens`, {
      method: 'POST',
      headers: { 'X-API-Key': keys.management, 'Content-Type': 'application/json' },
      body: JSON.stringify({ page_id: pageId }),
    });
    const { token } = ((await minted.json()) as { data: { token: string } }).data;
    await previewPage.goto(`${siteBase}/api/preview?token=${encodeURIComponent(token)}&locale=en`);
    await previewPage.locator('[data-block=hero] h1[data-quire-edit]').waitFor({ timeout: 10_000 });
    const moduleUrl = await previewPage.locator('script[type=module][src*="VisualEditing"]').getAttribute('src');
    expect(moduleUrl).toBeTruthy();
    await context.close();

    const { page } = await newPage();
    const res = await page.goto(`${siteBase}/en`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    const html = (await res?.text()) ?? '';
    expect(html).not.toMatch(/[\u200b-\u200d\ufeff]/);
    expect(html).not.toContain('VisualEditing');
    expect(html).not.toContain('quire-visual-editing');
    // Even the module itself, run on the published page, finds nothing to mark.
    await page.addScriptTag({ url: `${siteBase}${moduleUrl}`, type: 'module' });
    await page.waitForFunction(() => document.querySelector('[data-quire-outline]') !== null);
    await page.locator('[data-block=hero] h1').hover();
    await expect(page.locator('[data-quire-outline]').isVisible()).resolves.toBe(false);
    await expect(page.locator('[data-quire-edit]').count()).resolves.toBe(0);
    await expect(page.locator('main [tabindex]').count()).resolves.toBe(0);
    await page.locator('nav[aria-label=Main] a', { hasText: 'Blog' }).click();
    await page.waitForURL(`${siteBase}/en/blog`);
  });
});
