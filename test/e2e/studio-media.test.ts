/**
 * The Studio's media library end to end in Chromium against a real server (SQLite): ten PNGs
 * (drawn with sharp) uploaded at once through the file dialog and listed; search by name; one
 * moved into a new folder and found through the folder filter; a focal point set by clicking an
 * image whose left half is red and right half blue, after which the server's cover crop
 * (`?w=400&h=400&fit=cover`) changes from both colours to red only; a delete warning that names
 * the entry using the asset, then the delete. axe-core on the library, the detail panel and the
 * warning; the library at 390 px. Screenshots (docs/studio/media-*.png) with STUDIO_SCREENSHOTS=1.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  expectAccessible,
  expectNoHorizontalScroll,
  launchBrowser,
  printAxeResults,
  screenshot,
  skipBrowserSuites,
  startStudioServer,
  until,
  type StudioServer,
} from './harness.js';

const PASSWORD = 'owner password 123';
const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const hidden = (l: Locator) => l.waitFor({ state: 'hidden' });

/** An 800×400 PNG, left half red, right half blue: where a crop lands shows in its colours. */
async function halves(): Promise<Buffer> {
  const left = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 800, height: 400, channels: 3, background: '#0000ff' } })
    .composite([{ input: left, left: 0, top: 0 }])
    .png()
    .toBuffer();
}

/** Mean red and blue of an image (0..255). */
async function redBlue(image: Buffer): Promise<{ r: number; b: number }> {
  const { channels } = await sharp(image).stats();
  return { r: channels[0].mean, b: channels[2].mean };
}

describe.skipIf(skipBrowserSuites())('Studio media library in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;
  let lib: string;
  let mgmt: string;

  const manage = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}/api/v1/manage${path}`, {
      method,
      headers: { 'X-API-Key': mgmt, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { success: boolean; data: any; message: string };
    return { status: res.status, data: json.data, message: json.message };
  };
  const assets = async (query = '') =>
    (await manage('GET', `/media?limit=100${query}`)).data as { id: string; original_name: string; url: string; folder: string | null }[];
  const crop = async (url: string) => Buffer.from(await (await fetch(`${url}?w=400&h=400&fit=cover`)).arrayBuffer());

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ workspace: 'media' }), launchBrowser()]);
    lib = `${server.base}/studio/${server.workspace.slug}/media`;
    mgmt = (JSON.parse(server.cli(['keys', 'create', '--workspace', 'media', '--class', 'management', '--json'])) as { key: string }).key;
    const type = await manage('POST', '/content-types', {
      name: 'Post',
      slug: 'post',
      display_field: 'title',
      fields: [
        { name: 'title', label: 'Title', field_type: 'text', required: true },
        { name: 'cover', label: 'Cover', field_type: 'media' },
      ],
    });
    expect(type.status, type.message).toBe(201);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(server.setupUrl);
    await page.getByLabel(/^New password/).fill(PASSWORD);
    await page.getByLabel(/^Repeat the password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await visible(page.getByRole('heading', { name: 'E2E Studio', level: 1 }));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    printAxeResults('studio media e2e');
  }, 60_000);

  it('uploads ten images at once with progress, lists and searches them, and moves one into a new folder', async () => {
    await page.getByRole('link', { name: 'Media' }).click();
    await visible(page.getByRole('heading', { name: 'Media', level: 1 }));
    const files = [{ name: 'halves.png', mimeType: 'image/png', buffer: await halves() }];
    for (let i = 2; i <= 10; i++) {
      const buffer = await sharp({ create: { width: 120 + i * 10, height: 90, channels: 3, background: { r: i * 20, g: 120, b: 255 - i * 20 } } })
        .png()
        .toBuffer();
      files.push({ name: `photo-${String(i).padStart(2, '0')}.png`, mimeType: 'image/png', buffer });
    }
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose files' }).click();
    await (await chooser).setFiles(files);
    const uploads = page.getByRole('list', { name: 'Uploads' });
    await until(async () => (await uploads.getByText('Uploaded', { exact: true }).count()) === 10, 'ten uploads done');
    const grid = page.getByRole('list', { name: 'Media' });
    await until(async () => (await grid.getByRole('button', { name: /^Open / }).count()) === 10, 'ten assets listed');
    expect((await assets()).map((a) => a.original_name).sort()).toEqual(files.map((f) => f.name).sort());
    await expectAccessible(page, 'media library with ten uploads');
    await screenshot(page, 'media-library-1280');

    await page.getByRole('textbox', { name: 'Search media' }).fill('PHOTO-07');
    await until(async () => (await grid.getByRole('button', { name: /^Open / }).count()) === 1, 'one search result');
    await grid.getByRole('button', { name: 'Open photo-07.png' }).click();
    const panel = page.getByRole('dialog', { name: 'Asset details' });
    await panel.getByRole('combobox', { name: /^Folder/ }).fill('archive/2026');
    await panel.getByRole('button', { name: 'Save' }).click();
    await until(async () => (await assets('&folder=archive/2026')).map((a) => a.original_name).join() === 'photo-07.png', 'photo-07 moved');
    await page.keyboard.press('Escape');
    await hidden(panel);
    await page.getByRole('textbox', { name: 'Search media' }).fill('');
    await page.getByRole('combobox', { name: 'Folder', exact: true }).click();
    await page.getByRole('option', { name: /2026 \(1\)/ }).click();
    await until(
      async () => (await grid.getByRole('button', { name: /^Open / }).allTextContents()).join() === 'photo-07.png',
      'the folder filter showing photo-07',
    );
  }, 60_000);

  it('sets a focal point by clicking the image, and the server cover crop follows it', async () => {
    const halvesAsset = (await assets()).find((a) => a.original_name === 'halves.png')!;
    const post = await manage('POST', '/content-types/post/entries', { data: { title: 'Cover story', cover: halvesAsset.id } });
    expect(post.status, post.message).toBe(201);
    const before = await crop(halvesAsset.url);
    const centred = await redBlue(before);
    expect(centred.r).toBeGreaterThan(80); // both halves in a centred 400×400 cut
    expect(centred.b).toBeGreaterThan(80);

    await page.goto(`${lib}?asset=${halvesAsset.id}`);
    const panel = page.getByRole('dialog', { name: 'Asset details' });
    const image = panel.getByTestId('focal-image');
    await visible(image);
    await until(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), 'the image loaded');
    const box = (await image.boundingBox())!;
    await image.click({ position: { x: box.width * 0.1, y: box.height * 0.5 } });
    await expectAccessible(page, 'asset detail panel (unsaved focal point)', '[role="dialog"]');
    await screenshot(page, 'media-detail-1280');
    expect(Number(await panel.getByRole('textbox', { name: 'Focal point from the left (%)' }).inputValue())).toBeCloseTo(10, 0);
    await panel.getByRole('button', { name: 'Save' }).click();
    await until(async () => Math.abs(((await manage('GET', `/media/${halvesAsset.id}`)).data.focal_x as number) - 0.1) < 0.02, 'the focal point saved');

    const after = await crop(halvesAsset.url);
    expect(after.equals(before)).toBe(false);
    const left = await redBlue(after);
    expect(left.r).toBeGreaterThan(200); // the cut moved onto the red half
    expect(left.b).toBeLessThan(40);
  }, 60_000);

  it('warns before deleting an asset with the entry that uses it, then deletes it', async () => {
    const halvesAsset = (await assets()).find((a) => a.original_name === 'halves.png')!;
    const panel = page.getByRole('dialog', { name: 'Asset details' });
    await panel.getByRole('button', { name: 'Delete asset' }).click();
    const warning = page.getByRole('dialog', { name: 'Delete halves.png?' });
    const where = warning.getByRole('list', { name: 'Where the asset is used' });
    await visible(where);
    expect(await where.getByRole('listitem').allTextContents()).toEqual(['Cover story (post entry)']);
    await expectAccessible(page, 'delete warning with usage', '[role="dialog"]');
    await screenshot(page, 'media-delete-1280');
    await warning.getByRole('button', { name: 'Delete asset' }).click();
    await hidden(warning);
    await until(async () => (await manage('GET', `/media/${halvesAsset.id}`)).status === 404, 'the asset deleted');
    await hidden(panel);
  }, 30_000);

  it('is usable at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(lib);
    await visible(page.getByRole('heading', { name: 'Media', level: 1 }));
    await visible(page.getByRole('list', { name: 'Media' }).getByRole('button', { name: 'Open photo-10.png' }));
    await expectNoHorizontalScroll(page, 'media library at 390 px');
    await page.getByText('List', { exact: true }).click();
    await visible(page.getByRole('table', { name: 'Media' }));
    await expectNoHorizontalScroll(page, 'media list view at 390 px');
    await page.getByText('Grid', { exact: true }).click();
    await screenshot(page, 'media-library-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  }, 30_000);
});
