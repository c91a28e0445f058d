/**
 * `@quire/client/visual-editing` in Chromium (docs/visual-editing.md "Click to edit", D141): a
 * page rendered from a real preview answer with `stega=true` (a Quire app in this process; the
 * module is bundled for the browser with esbuild) gets an outline naming the field on hover and on
 * focus, each editable element is reachable with Tab, and a click or Enter opens the field: in a
 * new tab at its Studio URL when the page stands alone, by `postMessage` to the Studio when the
 * page is framed by the Studio's origin. `disable()` leaves the page as it was.
 */
import http from 'node:http';
import path from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestEnv, type TestEnv } from '../helpers.js';
import { createPageWorld, P } from '../pages-fixtures.js';
import { freePort } from '../processes.js';
import { launchBrowser, ROOT, skipBrowserSuites } from './harness.js';

/** Escapes text for an HTML text node or attribute. */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

describe.skipIf(skipBrowserSuites())('visual editing in Chromium', () => {
  let env: TestEnv;
  let browser: Browser;
  const servers: http.Server[] = [];
  let studio = '';
  let site = '';
  let blockId = '';
  let articleId = '';
  let wsSlug = '';

  beforeAll(async () => {
    const [studioPort, sitePort] = [await freePort(), await freePort()];
    studio = `http://127.0.0.1:${studioPort}`;
    site = `http://127.0.0.1:${sitePort}`;
    // The Studio URLs of the stega payloads point at the stand-in Studio below.
    env = await createTestEnv('sqlite', { config: { publicUrl: studio } });
    const w = await createPageWorld(env.ctx, env.app);
    articleId = await w.article('first', 'First article');
    wsSlug = (await w.req('GET', '/workspace')).body.data.slug;
    const image = await w.media({ alt_text: 'A team on a roof' });
    const home = await w.req('POST', '/pages', {
      slug: 'home',
      blocks: [{ type: 'hero', data: { headline: 'Hello there', subline: 'Plain words', image, featured: articleId } }],
    });
    if (home.status !== 201) throw new Error(JSON.stringify(home.body));
    const res = await call(env.app, 'GET', `${P}/pages/home?stega=true`, { key: w.keys.preview });
    const hero = res.body.data.blocks[0];
    blockId = hero.id;
    const data = JSON.parse(hero.data);
    const bundle = await build({
      entryPoints: [path.join(ROOT, 'packages/client/src/visual-editing.ts')],
      bundle: true,
      format: 'iife',
      globalName: 'QuireVisualEditing',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    const sitePage = `<!doctype html><html lang="en"><head><title>Preview</title></head><body>
      <main><h1>${esc(data.headline)}</h1><p id="sub">${esc(data.subline)}</p>
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="${esc(data.image.alt_text)}" width="40" height="40">
      <a id="featured" href="/elsewhere">${esc(data.featured.title)}</a><p id="static">Not from Quire</p></main>
      <script src="/visual-editing.js"></script>
      <script>window.editing = QuireVisualEditing.enableVisualEditing();</script></body></html>`;
    const studioParent = `<!doctype html><html lang="en"><head><title>Studio</title></head><body>
      <script>window.messages = []; addEventListener('message', (e) => window.messages.push({ origin: e.origin, data: e.data }));</script>
      <iframe title="Preview" src="${site}/" width="800" height="600"></iframe></body></html>`;
    const serve = (port: number, routes: Record<string, [string, string]>) =>
      new Promise<void>((resolve) => {
        const server = http.createServer((req, res) => {
          const path = new URL(req.url ?? '/', 'http://x').pathname;
          const [type, body] = routes[path] ?? ['text/html', '<!doctype html><title>Studio editor</title><p>Studio</p>'];
          res.writeHead(200, { 'content-type': `${type}; charset=utf-8` }).end(body);
        });
        servers.push(server);
        server.listen(port, '127.0.0.1', resolve);
      });
    await serve(sitePort, { '/': ['text/html', sitePage], '/visual-editing.js': ['text/javascript', bundle.outputFiles[0].text] });
    await serve(studioPort, { '/preview-pane': ['text/html', studioParent] });
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const s of servers) s.close();
    await env?.close();
  });

  const open = async (url: string): Promise<Page> => {
    const page = await (await browser.newContext({ viewport: { width: 1000, height: 700 } })).newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(url);
    return page;
  };

  it('outlines an editable element on hover and on focus, naming its field, and leaves other text alone', async () => {
    const page = await open(`${site}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-quire-edit]').length === 4);
    expect(await page.locator('#static').getAttribute('data-quire-edit')).toBeNull();
    expect(await page.locator('h1').getAttribute('tabindex')).toBe('0');
    expect(await page.locator('h1').getAttribute('aria-description')).toBe('Edit headline in Quire Studio');
    // The link keeps its own focusability; the text reads as it was written.
    expect(await page.locator('#featured').getAttribute('tabindex')).toBeNull();
    expect((await page.locator('h1').innerText()).startsWith('Hello there')).toBe(true);

    const outline = page.locator('[data-quire-outline]');
    await page.locator('h1').hover();
    await expect.poll(() => outline.evaluate((e) => (e as HTMLElement).style.display)).toBe('block');
    expect(await outline.innerText()).toBe('headline (en)');
    const [box, h1] = [await outline.boundingBox(), await page.locator('h1').boundingBox()];
    expect(Math.abs(box!.x - (h1!.x - 2))).toBeLessThan(1.5);
    expect(Math.abs(box!.width - (h1!.width + 4))).toBeLessThan(1.5);
    await page.mouse.move(5, 690);
    await expect.poll(() => outline.evaluate((e) => (e as HTMLElement).style.display)).toBe('none');

    // Keyboard: Tab reaches the headline first, then the subline, the image, the link.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('H1');
    expect(await outline.innerText()).toBe('headline (en)');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('sub');
    expect(await outline.innerText()).toBe('subline (en)');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('IMG');
    expect(await outline.innerText()).toBe('alt_text (en)');
    await page.context().close();
  });

  it('opens the field in a new tab at its Studio URL on a click or Enter when the page is not in the Studio', async () => {
    const page = await open(`${site}/`);
    await page.waitForSelector('[data-quire-edit]');
    const [tab] = await Promise.all([page.context().waitForEvent('page'), page.locator('h1').click()]);
    await tab.waitForLoadState();
    const url = new URL(tab.url());
    expect(url.origin).toBe(studio);
    expect(url.pathname).toBe(`/studio/${wsSlug}/pages/home`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ block: blockId, path: 'blocks.0', field: 'headline', locale: 'en' });
    await tab.close();
    // A link to a related entry edits that entry instead of following the link.
    await page.locator('#featured').focus();
    const [second] = await Promise.all([page.context().waitForEvent('page'), page.keyboard.press('Enter')]);
    await second.waitForLoadState();
    expect(second.url()).toBe(`${studio}/studio/${wsSlug}/content/article/first?field=title&locale=en`);
    expect(new URL(page.url()).pathname).toBe('/');
    await page.context().close();
  });

  it('posts {type: "quire:edit", ...origin} to the Studio when framed by it, opening no tab', async () => {
    const page = await open(`${studio}/preview-pane`);
    const frame = page.frameLocator('iframe');
    await frame.locator('[data-quire-edit]').first().waitFor();
    let tabs = 0;
    page.context().on('page', () => tabs++);
    await frame.locator('#sub').click();
    await page.waitForFunction(() => (window as unknown as { messages: unknown[] }).messages.length === 1);
    const [message] = await page.evaluate(() => (window as unknown as { messages: { origin: string; data: Record<string, unknown> }[] }).messages);
    expect(message.origin).toBe(site);
    expect(message.data).toEqual({
      type: 'quire:edit',
      origin: 'quire',
      href: `${studio}/studio/${wsSlug}/pages/home?block=${blockId}&path=blocks.0&field=subline&locale=en`,
      kind: 'block',
      id: blockId,
      content_type: 'hero',
      field: 'subline',
      locale: 'en',
      path: 'blocks.0',
    });
    expect(tabs).toBe(0);
    await page.context().close();
  });

  it('finds content rendered later, and disable() removes what it added', async () => {
    const page = await open(`${site}/`);
    await page.waitForFunction(() => document.querySelectorAll('[data-quire-edit]').length === 4);
    await page.evaluate(() => {
      const p = document.createElement('p');
      p.id = 'late';
      p.textContent = document.querySelector('h1')!.textContent;
      document.querySelector('main')!.append(p);
    });
    await page.waitForFunction(() => document.getElementById('late')?.getAttribute('data-quire-edit') === 'headline');
    await page.evaluate(() => (window as unknown as { editing: { disable(): void } }).editing.disable());
    expect(await page.evaluate(() => document.querySelectorAll('[data-quire-edit], [data-quire-outline], [aria-description]').length)).toBe(0);
    expect(await page.locator('h1').getAttribute('tabindex')).toBeNull();
    // Clicks are the page's own again: the link navigates.
    await Promise.all([page.waitForURL(`${site}/elsewhere`), page.locator('#featured').click()]);
    await page.context().close();
  });
});
