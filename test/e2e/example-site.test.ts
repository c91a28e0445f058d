/**
 * The example site (examples/site, Astro SSR) against a real Quire, in Chromium.
 *
 * One Quire per file: `node dist/src/server.js` with the demo workspace (QUIRE_DEMO=1, SQLite in a
 * temporary DATA_DIR; its keys read from the banner it prints), one build of the site (`astro build`,
 * skipped when examples/site/dist is newer than its sources and the client), one site server
 * (`node dist/server/entry.mjs`) on another port, so the "latest" page's fetch to Quire is
 * cross-origin. Before the site starts, the suite replaces one post's cover (the demo's post type
 * has an image-only `cover` field) by an uploaded image, and registers a real webhook for page
 * events aimed at the site's /api/revalidate (its secret becomes the site's QUIRE_WEBHOOK_SECRET).
 *
 * Covered: the home and about pages' block trees in both locales; the blog index (rendered through
 * GraphQL: posts with their authors and covers in one query) and a post in both locales (rich text,
 * author, fallback of an untranslated post); the cover's srcset of transform
 * URLs; the browser-side fetch through CORS; preview mode showing an unpublished change (and
 * leaving it); the site's cache keeping a published change out until a signed webhook call
 * revalidates it (a bad signature answers 401); a real Quire webhook refreshing a page; the
 * Studio's live preview framing the site and showing an entry and a page edit within 1 s of the
 * autosave without reloading (postMessage update event); and no
 * type assertions in the site's TypeScript. Screenshots go to $EXAMPLE_SITE_SCREENSHOTS when set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { vercelStegaClean, vercelStegaDecode } from '@vercel/stega';
import { Webhook } from 'standardwebhooks';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page, Response as PwResponse } from 'playwright-core';
import { freePort, startDemoQuire, type Child } from '../processes.js';
import { ensureSiteBuilt, manageCall, signInAndAimPreview, SITE, siteFrame, startSite, stopAll } from './site.js';
import { ROOT, ensureBuilt, expectAccessible, expectNoHorizontalScroll, launchBrowser, recordCspViolations, screenshot, skipBrowserSuites } from './harness.js';

/** Every `as` assertion, `<T>x` assertion and non-null `!` in a piece of TypeScript, as "line: text". */
function assertionsIn(source: string, file: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node) || ts.isNonNullExpression(node)) {
      found.push(`${file}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

/** The TypeScript of a site file: a .ts file whole; an .astro file's frontmatter and <script> bodies. */
function scriptsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  if (!file.endsWith('.astro')) return [text];
  const front = /^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '';
  const scripts = [...text.matchAll(/<script(?![^>]*is:inline)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  return [front, ...scripts];
}

/** A locator's text without the origins a stega preview hides in it (docs/visual-editing.md). */
async function plainText(locator: Locator): Promise<string | null> {
  return vercelStegaClean(await locator.textContent());
}

function siteFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return siteFiles(full);
    return /\.(ts|astro|mjs)$/.test(e.name) ? [full] : [];
  });
}

describe.skipIf(skipBrowserSuites())('example site (Astro) on the demo workspace', () => {
  let quire: Child;
  let site: Child;
  let browser: Browser;
  let quireBase = '';
  let siteBase = '';
  let keys = { management: '', delivery: '', preview: '' };
  let webhookSecret = '';
  let webhookId = '';
  let dataDir = '';
  const contexts: BrowserContext[] = [];
  const shots = process.env.EXAMPLE_SITE_SCREENSHOTS;

  /** A management API call; returns the envelope's data (throws on an error answer). */
  const manage = (method: string, urlPath: string, body?: unknown): Promise<any> => manageCall(quireBase, keys.management, method, urlPath, body);

  const open = async (urlPath: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    const res = await page.goto(`${siteBase}${urlPath}`, { waitUntil: 'domcontentloaded' });
    expect(res?.status(), urlPath).toBe(200);
    return page;
  };

  const shot = async (page: Page, name: string) => {
    if (!shots) return;
    fs.mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  };

  /** A POST to the site's /api/revalidate signed with `secret` the Standard Webhooks way. */
  const revalidate = async (payload: unknown, secret: string) => {
    const body = JSON.stringify(payload);
    const id = `msg_${Date.now()}`;
    const now = new Date();
    const signature = new Webhook(secret).sign(id, now, body);
    return fetch(`${siteBase}/api/revalidate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
    });
  };

  /** Starts Quire with the demo, reads its keys, then prepares the content the suite needs (see the module comment). */
  const startQuire = async (sitePort: number) => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-site-'));
    // As the site's README starts Quire: the revalidation webhook calls the site on loopback.
    const started = startDemoQuire(ROOT, dataDir, { WEBHOOK_ALLOW_PRIVATE: '1' });
    const [demo, launched] = await Promise.all([started, launchBrowser()]);
    ({ quire, base: quireBase, keys } = demo);
    browser = launched;
    siteBase = `http://127.0.0.1:${sitePort}`;
    const workspaceId: string = (await manage('GET', '/workspace')).id;

    // One post's cover replaced by an uploaded 1600×900 PNG (the demo's covers are JPEGs).
    const png = await sharp({ create: { width: 1600, height: 900, channels: 3, background: { r: 59, g: 91, b: 219 } } })
      .composite([{ input: Buffer.from('<svg width="1600" height="900"><circle cx="800" cy="450" r="300" fill="#ffd43b"/></svg>'), top: 0, left: 0 }])
      .png()
      .toBuffer();
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'cover.png');
    form.set('alt_text', 'A yellow sun on blue');
    const upload = await fetch(`${quireBase}/api/v1/manage/media/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': keys.management, 'X-Workspace-ID': workspaceId },
      body: form,
    });
    expect(upload.status).toBe(201);
    const media = ((await upload.json()) as { data: { id: string } }).data;
    const welcome = await manage('GET', '/content-types/post/entries/welcome-to-quire');
    await manage('PUT', '/content-types/post/entries/welcome-to-quire', { data: { ...JSON.parse(welcome.data), cover: media.id } });
    await manage('PATCH', '/content-types/post/entries/welcome-to-quire/publish');
    // A published post without any German translation: the German site shows it in English.
    const author = await manage('GET', '/content-types/author/entries/ines-okafor');
    await manage('POST', '/content-types/post/entries', {
      slug: 'english-only',
      data: {
        title: 'Only in English',
        excerpt: 'Not translated yet.',
        body: {
          nodeType: 'document',
          data: {},
          content: [{ nodeType: 'paragraph', data: {}, content: [{ nodeType: 'text', value: 'Plain text.', marks: [], data: {} }] }],
        },
        author: author.id,
        published_on: '2025-12-01',
      },
    });
    await manage('PATCH', '/content-types/post/entries/english-only/publish');

    // A real webhook for page events, aimed at the site; its secret is the site's.
    const hook = await manage('POST', '/webhooks', { url: `${siteBase}/api/revalidate`, events: ['page.*'] });
    webhookSecret = hook.secret;
    webhookId = hook.id;
  };

  beforeAll(async () => {
    ensureBuilt();
    const started = Date.now();
    const sitePort = await freePort();
    // The site's build and Quire's start with its setup are independent: both at once.
    await Promise.all([ensureSiteBuilt(), startQuire(sitePort)]);
    const ready = Date.now();
    site = await startSite(sitePort, quireBase, keys, {
      QUIRE_WEBHOOK_SECRET: webhookSecret,
      PUBLIC_QUIRE_DELIVERY_KEY: keys.delivery,
      SITE_CACHE_SECONDS: '300',
      // Live events would drop cached answers by themselves; this suite tests the webhook path
      // alone (example-site-live.test.ts tests live updates).
      SITE_LIVE_UPDATES: 'off',
    });
    process.stderr.write(`[example site] build and Quire setup ${ready - started} ms, site start ${Date.now() - ready} ms\n`);
  }, 240_000);

  afterAll(() => stopAll({ contexts, browser, site, quire, dataDir }));

  it('renders the home page as its block tree, in English and German', async () => {
    const page = await open('/en');
    await expect(page.locator('[data-block=hero] h1').textContent()).resolves.toBe('Content for every channel');
    // feature-grid holds its three feature-item children, in order
    await expect(page.locator('[data-block=feature-grid] [data-block=feature-item] h3').allTextContents()).resolves.toEqual([
      'Pages from blocks',
      'Two languages',
      'Fast delivery',
    ]);
    await expect(page.locator('[data-block=rich-text] h2').textContent()).resolves.toBe('Start with the blog');
    await expect(page.locator('[data-block=call-to-action] a').getAttribute('href')).resolves.toBe('https://quire.local/docs/pages');
    // the hero's featured post is a relation resolved in the page's locale
    await expect(page.locator('[data-block=hero] .featured a').getAttribute('href')).resolves.toBe('/en/blog/welcome-to-quire');
    // the hero's image (an image-only media field of the demo), through transform URLs
    await expect(page.locator('[data-block=hero] img').getAttribute('srcset')).resolves.toMatch(
      /\/media\/files\/.+\/demo\/.+\.jpg\?w=\d+&h=\d+&fit=cover \d+w/,
    );
    await expect(page.locator('[data-block=hero] img').getAttribute('alt')).resolves.toMatch(/^Abstract shapes: /);
    await shot(page, 'home-en');
    // usable on a phone: the grid stacks, nothing scrolls sideways
    await page.setViewportSize({ width: 375, height: 800 });
    await expectNoHorizontalScroll(page, 'home at 375 px');

    const de = await open('/de');
    await expect(de.locator('html').getAttribute('lang')).resolves.toBe('de');
    await expect(de.locator('[data-block=hero] h1').textContent()).resolves.toBe('Inhalte für jeden Kanal');
    await expect(de.locator('[data-block=hero] .featured a').textContent()).resolves.toBe('Willkommen im Quire-Demoblog');
    await expect(de.locator('[data-block=feature-item] h3').first().textContent()).resolves.toBe('Seiten aus Blöcken');
    await expect(de.locator('[data-block=call-to-action] a').textContent()).resolves.toContain('Zur API-Anleitung');

    const about = await open('/de/about');
    await expect(about.locator('[data-block=hero] h1').textContent()).resolves.toBe('Über diese Demo');
    await expect(about.locator('[data-block=feature-item]').count()).resolves.toBe(2);
    await expect(about.locator('[data-block=rich-text] li').count()).resolves.toBe(2);
    // the gallery block: its German title and caption, three images
    await expect(about.locator('[data-block=gallery] h2').textContent()).resolves.toBe('Aus dem Blog');
    await expect(about.locator('[data-block=gallery] img').count()).resolves.toBe(3);
    await expect(about.locator('[data-block=gallery] figcaption').textContent()).resolves.toContain('Titelbild');
    await shot(about, 'about-de');
    const missing = await fetch(`${siteBase}/fr/about`);
    expect(missing.status).toBe(404);
  });

  it('renders the blog index and a post in both locales, with rich text, author and locale fallback', async () => {
    const en = await open('/en/blog');
    const titles = await en.locator('[data-posts] article h2').allTextContents();
    expect(titles.slice(0, 2)).toEqual(['Scheduling a release', 'Keys, previews and tokens']);
    expect(titles).toContain('Only in English');
    await shot(en, 'blog-en');

    const de = await open('/de/blog');
    await expect(de.locator('[data-posts] article h2').first().textContent()).resolves.toBe('Eine Veröffentlichung planen');
    // The blog index is rendered through GraphQL (client.graphql in src/lib/quire.ts listPosts):
    // each post with its author (a relation) and the cover image the suite added, read in one query.
    expect(fs.readFileSync(path.join(SITE, 'src/lib/quire.ts'), 'utf8')).toMatch(/export async function listPosts[\s\S]*?\.graphql<BlogListQuery>\(/);
    await expect(de.locator('[data-post=modeling-content-with-types-and-fields] .meta').textContent()).resolves.toContain('Tobias Brandt');
    await expect(de.locator('[data-post=english-only] h2').textContent()).resolves.toBe('Only in English');
    const listCover = await en.locator('[data-post=welcome-to-quire] img').getAttribute('srcset');
    expect(listCover).toMatch(/\/media\/files\/.+\.png\?w=\d+&h=\d+&fit=cover \d+w/);
    // the other posts show the demo's own covers
    const demoCover = await en.locator('[data-post=scheduling-a-release] img').getAttribute('srcset');
    expect(demoCover).toMatch(/\/media\/files\/.+\/demo\/.+\.jpg\?w=\d+&h=\d+&fit=cover \d+w/);

    const post = await open('/de/blog/modeling-content-with-types-and-fields');
    await expect(post.locator('h1').textContent()).resolves.toBe('Inhalte mit Typen und Feldern modellieren');
    await expect(post.locator('.body h2').textContent()).resolves.toBe('Drei Gewohnheiten, die sich auszahlen');
    await expect(post.locator('.body code').allTextContents()).resolves.toEqual(['text', 'rich_text', 'relation', 'media']);
    await expect(post.locator('.body blockquote').textContent()).resolves.toContain('Ein Modell ist fertig');
    await expect(post.locator('.author .name').textContent()).resolves.toContain('Developer Advocate');
    await expect(post.locator('time').textContent()).resolves.toBe('26. Januar 2026');
    await expect(post.locator('.notice').count()).resolves.toBe(0);
    await shot(post, 'post-de');

    const enPost = await open('/en/blog/keys-previews-and-tokens');
    await expect(enPost.locator('h1').textContent()).resolves.toBe('Keys, previews and tokens');
    await expect(enPost.locator('.body a').getAttribute('href')).resolves.toBe('https://example.com/docs/api');

    const fallback = await open('/de/blog/english-only');
    await expect(fallback.locator('h1').textContent()).resolves.toBe('Only in English');
    await expect(fallback.locator('.notice').textContent()).resolves.toContain('noch nicht übersetzt');
  });

  it('shows media through transform URLs with a srcset (w, h, fit) that loads', async () => {
    const page = await open('/en/blog/welcome-to-quire');
    const img = page.locator('img.cover');
    const srcset = (await img.getAttribute('srcset')) ?? '';
    expect(srcset).toMatch(/\/media\/files\/.+\.png\?w=640&h=320&fit=cover 640w/);
    expect(srcset.split(', ').length).toBeGreaterThanOrEqual(5);
    await expect(img.getAttribute('alt')).resolves.toBe('A yellow sun on blue');
    await img.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const el = document.querySelector<HTMLImageElement>('img.cover');
      return el !== null && el.complete && el.naturalWidth > 0;
    });
    const natural = await img.evaluate((el: HTMLImageElement) => ({ w: el.naturalWidth, h: el.naturalHeight, src: el.currentSrc }));
    expect(natural.w / natural.h).toBeCloseTo(2, 1);
    expect(natural.src).toContain('fit=cover');
    await shot(page, 'post-cover-en');
  });

  it('loads the latest posts in the browser from the delivery API across origins (CORS)', async () => {
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const responses: PwResponse[] = [];
    page.on('response', (r) => {
      if (r.url().startsWith(`${quireBase}/api/v1/public/entries`) && r.request().method() === 'GET') responses.push(r);
    });
    await page.goto(`${siteBase}/de/latest`);
    const host = page.locator('quire-latest[data-state]');
    await host.waitFor({ timeout: 10_000 });
    // 'failed' shows the browser's reason (a CORS refusal reads "Failed to fetch").
    expect(await host.getAttribute('data-state'), (await page.locator('quire-latest .status').textContent()) ?? '').toBe('loaded');
    expect(responses).toHaveLength(1);
    expect(responses[0].status()).toBe(200);
    expect(responses[0].request().headers()['x-api-key']).toBe(keys.delivery);
    expect((await responses[0].allHeaders())['access-control-allow-origin']).toMatch(/^(\*|http:\/\/127\.0\.0\.1:\d+)$/);
    await expect(page.locator('quire-latest li h2').count()).resolves.toBe(5);
    await expect(page.locator('quire-latest li h2').first().textContent()).resolves.toBe('Eine Veröffentlichung planen');
    await shot(page, 'latest-de');
  });

  it('preview mode: a preview token shows the working copy; leaving it shows the published post again', async () => {
    const slug = 'one-entry-many-languages';
    const entry = await manage('GET', `/content-types/post/entries/${slug}`);
    const data = JSON.parse(entry.data);
    // A change saved to the working copy only (the post stays published as it was).
    await manage('PUT', `/content-types/post/entries/${slug}`, {
      data: { ...data, title: 'One entry, many languages (draft)' },
      translations: Object.fromEntries(
        entry.translations.map((t: { locale: string; data: string }) => [
          t.locale,
          { data: { ...JSON.parse(t.data), title: 'Ein Eintrag, viele Sprachen (Entwurf)' } },
        ]),
      ),
    });
    const published = await open(`/de/blog/${slug}`);
    await expect(published.locator('h1').textContent()).resolves.toBe('Ein Eintrag, viele Sprachen');

    const bad = await fetch(`${siteBase}/api/preview?token=not-a-token`, { redirect: 'manual' });
    expect(bad.status).toBe(401);
    expect(bad.headers.get('set-cookie')).toBeNull();

    const { token } = await manage('POST', '/preview-tokens', { entry_id: entry.id });
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    // What the Studio opens from the workspace's preview URL template.
    await page.goto(`${siteBase}/api/preview?type=post&slug=${slug}&locale=de&token=${encodeURIComponent(token)}`);
    expect(new URL(page.url()).pathname).toBe(`/de/blog/${slug}`);
    await expect(plainText(page.locator('h1'))).resolves.toBe('Ein Eintrag, viele Sprachen (Entwurf)');
    // The working copy is read with the preview key and stega: its title carries where it is stored.
    expect(vercelStegaDecode((await page.locator('h1').textContent()) ?? '')).toMatchObject({ kind: 'entry', id: entry.id, field: 'title', locale: 'de' });
    await expect(page.locator('[data-preview-banner]').isVisible()).resolves.toBe(true);
    const cookie = (await context.cookies()).find((c) => c.name === 'quire_preview');
    expect(cookie?.httpOnly).toBe(true);
    await page.goto(`${siteBase}/en/blog/${slug}`);
    await expect(plainText(page.locator('h1'))).resolves.toBe('One entry, many languages (draft)');
    await shot(page, 'preview-en');
    // the list shows the working copy too
    await page.goto(`${siteBase}/en/blog`);
    await expect(plainText(page.locator(`[data-post=${slug}] h2`))).resolves.toBe('One entry, many languages (draft)');
    // The other posts are read with the preview key and stega: each title carries its origin, unseen.
    const other = (await page.locator('[data-post=welcome-to-quire] h2').textContent()) ?? '';
    expect(vercelStegaDecode(other)).toMatchObject({ origin: 'quire', kind: 'entry', field: 'title', locale: 'en' });
    expect(vercelStegaClean(other)).toBe('Welcome to the Quire demo blog');
    // Click-to-edit is on: the title is reachable with Tab (docs/visual-editing.md "Click to edit").
    await page.locator('[data-post=welcome-to-quire] h2 [data-quire-edit], [data-post=welcome-to-quire] h2[data-quire-edit]').first().waitFor();

    await page.goto(`${siteBase}/en/blog/${slug}`);
    await page.locator('[data-preview-banner] a').click();
    await page.waitForURL(`${siteBase}/en/blog/${slug}`);
    await expect(page.locator('h1').textContent()).resolves.toBe('One entry, many languages');
    await expect(page.locator('[data-preview-banner]').count()).resolves.toBe(0);
  });

  it('Studio live preview: the framed site shows an entry edit and a page edit within 1 s of the autosave, without a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    contexts.push(context);
    // The Studio's CSP (frame-src, connect-src) lets the framed site load and talk to it.
    const cspViolations = await recordCspViolations(context);
    const page = await context.newPage();
    // The workspace's preview URL template points at the site's preview route (Settings > General).
    await signInAndAimPreview(page, quire.output(), quireBase, siteBase);

    /** The site's frame once it said it listens; marks its window so a full reload would show. */
    const liveFrame = async () => {
      const frame = await siteFrame(page, siteBase);
      await frame.evaluate(() => Object.assign(window, { quireMarker: 'not reloaded' }));
      return frame;
    };
    /** Types `value` into the field, then measures from the autosave's answer to the frame showing it. */
    const editAndMeasure = async (field: RegExp, value: string, shows: () => Promise<boolean>) => {
      const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/v1/manage/') && r.status() === 200, {
        timeout: 15_000,
      });
      await page.getByRole('textbox', { name: field }).fill(value);
      await saved;
      const t0 = Date.now();
      while (!(await shows())) {
        if (Date.now() - t0 > 5_000) throw new Error(`the preview did not show '${value}' within 5 s`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return Date.now() - t0;
    };

    // An entry: the post's title in the blog post page.
    await page.goto(`${quireBase}/studio/demo/content/post/welcome-to-quire`);
    await page.getByRole('button', { name: 'Live preview' }).click();
    const postFrame = await liveFrame();
    expect(new URL(postFrame.url()).pathname).toBe('/en/blog/welcome-to-quire');
    const entryMs = await editAndMeasure(/^Title/, 'Welcome, live', async () => (await plainText(postFrame.locator('h1'))) === 'Welcome, live');
    expect(await postFrame.evaluate(() => (window as unknown as { quireMarker?: string }).quireMarker)).toBe('not reloaded');
    await page.locator('[data-preview-state=listening]', { hasText: 'last at' }).waitFor();
    await expectAccessible(page, 'entry editor with live preview');
    await shot(page, 'studio-live-preview-entry');

    // A page: its SEO title is the document title of the framed page. The pane stays open (remembered).
    await page.goto(`${quireBase}/studio/demo/pages/about`);
    const aboutFrame = await liveFrame();
    expect(new URL(aboutFrame.url()).pathname).toBe('/en/about');
    const pageMs = await editAndMeasure(/^SEO title/, 'About, live', async () => (await aboutFrame.title()).startsWith('About, live'));
    expect(await aboutFrame.evaluate(() => (window as unknown as { quireMarker?: string }).quireMarker)).toBe('not reloaded');
    await shot(page, 'studio-live-preview-page');
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'live-preview-1280');
    // On a phone the form and the preview are two tabs, and nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page, 'page editor with live preview at 390 px');
    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.locator('[data-preview-frame]').waitFor({ state: 'visible' });
    await screenshot(page, 'live-preview-390');
    process.stderr.write(`[example site] live preview: entry edit shown ${entryMs} ms after its autosave, page edit ${pageMs} ms\n`);
    expect(entryMs).toBeLessThanOrEqual(1000);
    expect(pageMs).toBeLessThanOrEqual(1000);
    // The production site still serves the published versions.
    const live = await fetch(`${siteBase}/en/blog/welcome-to-quire`);
    expect(await live.text()).not.toContain('Welcome, live');
    expect(cspViolations).toEqual([]);
  }, 90_000);

  it('keeps a published change out of its cache until a signed webhook call revalidates it; a bad signature answers 401', async () => {
    const slug = 'keys-previews-and-tokens';
    const before = await open(`/en/blog/${slug}`);
    await expect(before.locator('h1').textContent()).resolves.toBe('Keys, previews and tokens');
    await open('/en/blog');

    const entry = await manage('GET', `/content-types/post/entries/${slug}`);
    await manage('PUT', `/content-types/post/entries/${slug}`, { data: { ...JSON.parse(entry.data), title: 'Keys, previews and tokens, revised' } });
    await manage('PATCH', `/content-types/post/entries/${slug}/publish`);
    // Quire serves the new title at once; the site still answers from its cache.
    const cached = await open(`/en/blog/${slug}`);
    await expect(cached.locator('h1').textContent()).resolves.toBe('Keys, previews and tokens');

    const event = {
      type: 'entry.published',
      timestamp: new Date().toISOString(),
      workspace_id: entry.workspace_id,
      data: { id: entry.id, slug, content_type: 'post', status: 'published', version: 3 },
    };
    const forged = await revalidate(event, 'whsec_' + Buffer.from('not the secret at all, 32 bytes!').toString('base64'));
    expect(forged.status).toBe(401);
    const unsigned = await fetch(`${siteBase}/api/revalidate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(event),
    });
    expect(unsigned.status).toBe(401);
    const still = await open(`/en/blog/${slug}`);
    await expect(still.locator('h1').textContent()).resolves.toBe('Keys, previews and tokens');

    const ok = await revalidate(event, webhookSecret);
    expect(ok.status).toBe(200);
    const answer = (await ok.json()) as { revalidated: number; tags: string[] };
    expect(answer.tags).toEqual([`entry:${entry.id}`, 'type:post']);
    expect(answer.revalidated).toBeGreaterThanOrEqual(2);
    const after = await open(`/en/blog/${slug}`);
    await expect(after.locator('h1').textContent()).resolves.toBe('Keys, previews and tokens, revised');
    const list = await open('/en/blog');
    await expect(list.locator(`[data-post=${slug}] h2`).textContent()).resolves.toBe('Keys, previews and tokens, revised');
  });

  it('a real Quire webhook (page.published) makes the changed page appear', async () => {
    const before = await open('/en/about');
    await expect(before.locator('[data-block=hero] h1').textContent()).resolves.toBe('About this demo');

    // PUT keeps blocks sent with their ids (and their translations); only the hero's headline changes.
    const detail = await manage('GET', '/pages/about');
    const tree = (blocks: any[]): unknown[] =>
      blocks.map((b) => {
        const data = JSON.parse(b.data);
        return { id: b.id, type: b.type, data: b.type === 'hero' ? { ...data, headline: 'About this demo, renewed' } : data, children: tree(b.children ?? []) };
      });
    await manage('PUT', '/pages/about', { seo: detail.page.seo, blocks: tree(detail.blocks) });
    await manage('PATCH', '/pages/about/publish');

    const deadline = Date.now() + 15_000;
    let headline = '';
    while (Date.now() < deadline) {
      const res = await fetch(`${siteBase}/en/about`);
      headline = /<h1[^>]*>([^<]*)<\/h1>/.exec(await res.text())?.[1] ?? '';
      if (headline === 'About this demo, renewed') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(headline).toBe('About this demo, renewed');
    const deliveries = await manage('GET', `/webhooks/${webhookId}/deliveries`);
    expect(JSON.stringify(deliveries)).toContain('page.published');
  });

  it('the site TypeScript holds no type assertions (as, <T>, !)', () => {
    const files = siteFiles(path.join(SITE, 'src')).concat(path.join(SITE, 'astro.config.mjs'));
    expect(files.length).toBeGreaterThan(20);
    const found = files.flatMap((file) => scriptsOf(file).flatMap((code) => assertionsIn(code, path.relative(SITE, file))));
    expect(found).toEqual([]);
    expect(site.output()).not.toMatch(/error/i);
  });
});
