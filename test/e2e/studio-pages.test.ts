/**
 * The Studio's pages screens end to end in Chromium against a real server (SQLite), without
 * writing through the API: an owner makes three block types (section › card › button, the card
 * with a media field) in the content model screens, creates a page in the Studio, builds a three-level tree from blocks with an image uploaded from
 * a card's media picker, translates it (de, with
 * fallback marks), reorders blocks by mouse drag (root level) and by keyboard (dnd-kit: Space,
 * arrow, Space), moves one with the row menu, publishes, and reads it through the delivery API in
 * de with the expected tree; the page list reorders by keyboard (PATCH /pages/reorder); the model
 * screen warns which pages use a block type before deleting it. axe-core on the list, the editor
 * in de and the usage warning; 390-pixel layouts; screenshots with STUDIO_SCREENSHOTS=1
 * (docs/studio/pages-*.png).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  addBlockInside,
  axeResults,
  blockRow,
  expectAccessible,
  expectNoHorizontalScroll,
  launchBrowser,
  publishFromEditor,
  screenshot,
  skipBrowserSuites,
  startStudioServer,
  type StudioServer,
} from './harness.js';

const OWNER_PASSWORD = 'owner password 123';

const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 });

async function until(check: () => Promise<boolean>, what: string, timeout = 8000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface DeliveredBlock {
  type: string;
  data: string;
  children: DeliveredBlock[];
}
/** A delivered tree as "type:value(children)" using each block's first value. */
const shape = (blocks: DeliveredBlock[]): string =>
  blocks
    .map((b) => {
      const v = Object.values(JSON.parse(b.data) as Record<string, unknown>)[0] ?? '';
      return `${b.type}:${String(v)}${b.children.length ? `(${shape(b.children)})` : ''}`;
    })
    .join(', ');

describe.skipIf(skipBrowserSuites())('Studio pages in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ws: string;
  let mgmt: string;
  let delivery: string;

  const manage = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}/api/v1/manage${path}`, {
      method,
      headers: { 'X-API-Key': mgmt, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { success: boolean; data: unknown; message: string };
    if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
    return json.data;
  };
  const delivered = async (slug: string, locale: string) => {
    const res = await fetch(`${server.base}/api/v1/public/pages/${slug}?locale=${locale}`, { headers: { 'X-API-Key': delivery } });
    if (res.status === 404) return null;
    return ((await res.json()) as { data: { page: { seo: { title: string } }; blocks: DeliveredBlock[] } }).data;
  };
  const saved = () => visible(page.getByRole('status', { name: 'Save state: Saved' }));
  const row = (label: string) => blockRow(page, label);
  const menu = async (label: string, item: string) => {
    await page.getByRole('button', { name: `Actions for ${label}`, exact: true }).click();
    await page
      .getByRole('menu', { name: `Actions for ${label}`, exact: true })
      .getByRole('menuitem', { name: item })
      .click();
  };
  /** dnd-kit's keyboard path on the focused handle: Space lifts, the arrow moves, Space drops (each step given time to measure). */
  const keyboardDrag = async (key: string) => {
    await page.keyboard.press('Space');
    await page.waitForTimeout(200);
    await page.keyboard.press(key);
    await page.waitForTimeout(300);
    await page.keyboard.press('Space');
  };
  const addInside = (label: string, type: string) => addBlockInside(page, label, type);

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ workspace: 'pages' }), launchBrowser()]);
    ws = `${server.base}/studio/${server.workspace.slug}`;
    mgmt = (JSON.parse(server.cli(['keys', 'create', '--workspace', 'pages', '--class', 'management', '--json'])) as { key: string }).key;
    delivery = (
      JSON.parse(server.cli(['keys', 'create', '--workspace', 'pages', '--class', 'delivery', '--environment', 'production', '--json'])) as { key: string }
    ).key;
    await manage('POST', '/pages', { slug: 'about', seo: { title: 'About us' } });

    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(server.setupUrl);
    await page.getByLabel(/^New password/).fill(OWNER_PASSWORD);
    await page.getByLabel(/^Repeat the password/).fill(OWNER_PASSWORD);
    await page.getByRole('button', { name: 'Set password and continue' }).click();
    await visible(heading(page, 'E2E Studio'));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    const lines = axeResults.map(
      (r) => `  ${r.screen}: ${r.violations.length ? r.violations.map((v) => `${v.impact} ${v.id} (${v.nodes})`).join(', ') : 'no violations'}`,
    );
    if (lines.length) process.stdout.write(`\n[studio pages e2e] axe results\n${lines.join('\n')}\n`);
  }, 60_000);

  it('makes three block types in the content model screens', async () => {
    /** Field label, field type option, and whether it is localizable. */
    const types: [string, [string, string, boolean][]][] = [
      ['Section', [['Heading', 'Text', true]]],
      [
        'Card',
        [
          ['Title', 'Text', true],
          ['Body', 'Long text', true],
          ['Image', 'Media', false],
        ],
      ],
      [
        'Button',
        [
          ['Label', 'Text', true],
          ['Link', 'URL', false],
        ],
      ],
    ];
    for (const [name, fields] of types) {
      await page.goto(`${ws}/model`);
      await page.getByRole('button', { name: 'Create content type' }).click();
      const create = page.getByRole('dialog', { name: 'Create content type' });
      await create.getByLabel(/^Name/).fill(name);
      await create.getByLabel('Block type').check();
      await create.getByRole('button', { name: 'Create' }).click();
      await visible(heading(page, name));
      const list = page.getByRole('list', { name: `Fields of ${name}` }).getByRole('listitem');
      for (const [i, [label, option, localizable]] of fields.entries()) {
        await page.getByRole('button', { name: 'Add field' }).first().click();
        const dialog = page.getByRole('dialog', { name: `Add a field to ${name}` });
        await dialog.getByLabel(/^Label/).fill(label);
        await dialog.getByLabel(/^Field type/).click();
        await page.getByRole('option', { name: new RegExp(`^${option} — `) }).click();
        if (localizable) await dialog.getByLabel('Localizable').check();
        if (name === 'Section') await dialog.getByLabel('Required').check();
        await dialog.getByRole('button', { name: 'Add field' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await until(async () => (await list.count()) === i + 1, `field ${label} of ${name}`);
      }
    }
    const made = (await manage('GET', '/content-types')) as { slug: string; is_block: boolean; fields: { name: string; field_type: string }[] }[];
    const summary = made.filter((t) => t.is_block).map((t) => `${t.slug}:${t.fields.map((f) => `${f.name}/${f.field_type}`).join(',')}`);
    expect(summary.sort()).toEqual(['button:label/text,link/url', 'card:title/text,body/textarea,image/media', 'section:heading/text']);
  }, 90_000);

  it('builds a three-level page from blocks, translates it and reorders blocks by drag, keyboard and menu', async () => {
    await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Pages' }).click();
    await visible(heading(page, 'Pages'));
    await page.getByRole('button', { name: 'New page' }).click();
    const dialog = page.getByRole('dialog', { name: 'New page' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Landing page');
    expect(await dialog.getByRole('textbox', { name: 'Slug' }).inputValue()).toBe('landing-page');
    await dialog.getByRole('button', { name: 'Create page' }).click();
    await visible(heading(page, 'Landing page'));
    expect(new URL(page.url()).pathname).toBe('/studio/pages/pages/landing-page');

    // Level 1: a section; level 2: two cards; level 3: a button in the first card; a second section.
    await page.getByRole('button', { name: 'Add block', exact: true }).click();
    await page.getByRole('menu', { name: 'Add block', exact: true }).getByRole('menuitem', { name: 'Section', exact: true }).click();
    await row('Section #1').getByRole('textbox', { name: 'Heading' }).fill('Welcome');
    await addInside('Section “Welcome”', 'Card');
    await row('Card #2').getByRole('textbox', { name: 'Title' }).fill('First');
    // An image for the first card, uploaded from the media field's picker and chosen at once.
    await row('Card “First”').getByRole('button', { name: 'Choose media for Image' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose media for Image' });
    const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#f59f00' } })
      .png()
      .toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await picker.getByRole('button', { name: 'Upload a file' }).click();
    await (await chooser).setFiles({ name: 'card.png', mimeType: 'image/png', buffer: png });
    await picker.waitFor({ state: 'hidden' });
    await visible(row('Card “First”').getByRole('group', { name: 'Image: card.png' }));
    await addInside('Card “First”', 'Button');
    await row('Button #3').getByRole('textbox', { name: 'Label' }).fill('Read more');
    await row('Button “Read more”').getByRole('textbox', { name: 'Link' }).fill('https://example.com/more');
    await addInside('Section “Welcome”', 'Card');
    await row('Card #4').getByRole('textbox', { name: 'Title' }).fill('Second');
    await page.getByRole('button', { name: 'Add block', exact: true }).click();
    await page.getByRole('menu', { name: 'Add block', exact: true }).getByRole('menuitem', { name: 'Section', exact: true }).click();
    await row('Section #5').getByRole('textbox', { name: 'Heading' }).fill('Closing');
    await saved();
    const stored = async () => shape(((await manage('GET', '/pages/landing-page')) as { blocks: DeliveredBlock[] }).blocks);
    const tree = (expected: string, what: string) =>
      until(async () => (await stored()) === expected, what).catch(async () => {
        throw new Error(`${what}: the stored tree is ${await stored()}`);
      });
    await tree('section:Welcome(card:First(button:Read more), card:Second), section:Closing', 'the three-level tree autosaved');

    // Keyboard drag (dnd-kit KeyboardSensor): the second card goes above the first (collapsed).
    await page.getByRole('button', { name: 'Collapse Card “First”' }).click();
    await page.getByRole('button', { name: 'Drag Card “Second”' }).focus();
    await keyboardDrag('ArrowUp');
    await saved();
    await tree('section:Welcome(card:Second, card:First(button:Read more)), section:Closing', 'the cards swapped by keyboard');

    // Mouse drag: with both sections collapsed, Closing is dragged above Welcome.
    await page.getByRole('button', { name: 'Collapse Section “Welcome”' }).click();
    await page.getByRole('button', { name: 'Collapse Section “Closing”' }).click();
    const from = (await page.getByRole('button', { name: 'Drag Section “Closing”' }).boundingBox())!;
    const to = (await page.getByRole('button', { name: 'Drag Section “Welcome”' }).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 4 });
    await page.mouse.move(to.x + to.width / 2, to.y + 2, { steps: 8 });
    await page.waitForTimeout(150);
    await page.mouse.up();
    await saved();
    await tree('section:Closing, section:Welcome(card:Second, card:First(button:Read more))', 'the sections swapped by mouse drag');

    // The row menu: move the button out of its card and back in (outdent, then "Move to…").
    await page.getByRole('button', { name: 'Expand Section “Welcome”' }).click();
    await page.getByRole('button', { name: 'Expand Card “First”' }).click();
    await menu('Button “Read more”', 'Outdent (out of its parent)');
    await tree('section:Closing, section:Welcome(card:Second, card:First, button:Read more)', 'the button outdented');
    await menu('Button “Read more”', 'Move to…');
    const moveTo = page.getByRole('dialog', { name: 'Move Button “Read more”' });
    await moveTo.getByRole('combobox', { name: 'Into' }).selectOption({ label: '– Card “First”' });
    await moveTo.getByRole('button', { name: 'Move' }).click();
    await saved();
    await tree('section:Closing, section:Welcome(card:Second, card:First(button:Read more))', 'the button moved back into its card');

    // Translations: de values for the Welcome section and the first card; the rest falls back to en.
    await page.getByText('de', { exact: true }).click();
    await page.getByRole('textbox', { name: 'SEO title (de)' }).fill('Startseite');
    await row('Section “Welcome”').getByRole('textbox', { name: 'Heading (de)' }).fill('Willkommen');
    await row('Card “First”').getByRole('textbox', { name: 'Title (de)' }).fill('Erste');
    await visible(row('Card “Second”').getByText('falls back to en').first());
    await visible(row('Card “Second”').getByText('en: Second'));
    await saved();
    await expectAccessible(page, 'page editor (de: translations, fallback marks, three-level tree)');
    await screenshot(page, 'pages-editor-de-1280');
    await page.getByText('en (default)', { exact: true }).click();
    await visible(page.getByRole('textbox', { name: 'SEO title', exact: true }));
    await screenshot(page, 'pages-editor-1280');
  }, 60_000);

  it('publishes, and the delivery API returns the tree in de', async () => {
    expect(await delivered('landing-page', 'de')).toBeNull();
    await publishFromEditor(page);
    await visible(page.getByRole('region', { name: 'Status and actions' }).getByText('published', { exact: true }));
    const de = (await delivered('landing-page', 'de'))!;
    expect(de.page.seo.title).toBe('Startseite');
    expect(shape(de.blocks)).toBe('section:Closing, section:Willkommen(card:Second, card:Erste(button:Read more))');
    const en = (await delivered('landing-page', 'en'))!;
    expect(shape(en.blocks)).toBe('section:Closing, section:Welcome(card:Second, card:First(button:Read more))');
    const button = JSON.parse(de.blocks[1].children[1].children[0].data) as Record<string, string>;
    expect(button).toEqual({ label: 'Read more', link: 'https://example.com/more' });
    // The card's image: the uploaded PNG, delivered inline with its file URL, which serves it.
    const { image } = JSON.parse(de.blocks[1].children[1].data) as { image: { mime_type: string; width: number; url: string } };
    expect(image).toMatchObject({ mime_type: 'image/png', width: 48, height: 32 });
    expect((await fetch(image.url)).headers.get('content-type')).toBe('image/png');
  }, 30_000);

  it('reorders the page list by keyboard and warns where a block type is used', async () => {
    await page.getByRole('link', { name: '← All pages' }).click();
    await visible(heading(page, 'Pages'));
    const order = async () => ((await manage('GET', '/pages')) as { slug: string }[]).map((p) => p.slug).join(',');
    expect(await order()).toBe('about,landing-page');
    await page.getByRole('button', { name: 'Drag Landing page' }).focus();
    await keyboardDrag('ArrowUp');
    await until(async () => (await order()) === 'landing-page,about', 'the navigation order saved');
    await page.getByRole('button', { name: 'Move Landing page down' }).click();
    await until(async () => (await order()) === 'about,landing-page', 'moved back with the button');
    await page.reload();
    await visible(page.getByRole('link', { name: 'Landing page' }));
    await expectAccessible(page, 'pages list');
    await screenshot(page, 'pages-list-1280');

    await page.goto(`${ws}/model/button`);
    await visible(heading(page, 'Button'));
    await page.getByRole('button', { name: 'Delete block type' }).click();
    const warn = page.getByRole('dialog', { name: 'Delete Button?' });
    await visible(warn.getByText('Used by 1 block on 1 page'));
    await visible(warn.getByRole('link', { name: 'landing-page' }));
    await expectAccessible(page, 'block type deletion with its usage', '[role="dialog"]');
    await warn.getByRole('button', { name: 'Cancel' }).click();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${ws}/pages`);
    await visible(heading(page, 'Pages'));
    await expectNoHorizontalScroll(page, 'pages list at 390 px');
    await screenshot(page, 'pages-list-390');
    await page.getByRole('link', { name: 'Landing page' }).click();
    await visible(heading(page, 'Landing page'));
    await visible(row('Card “First”'));
    await expectNoHorizontalScroll(page, 'page editor at 390 px');
    await expectAccessible(page, 'page editor at 390 px');
    await page.getByRole('button', { name: 'Collapse Section “Closing”' }).click();
    await page.getByRole('heading', { name: 'Blocks' }).scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    await screenshot(page, 'pages-editor-390');
  }, 45_000);
});
