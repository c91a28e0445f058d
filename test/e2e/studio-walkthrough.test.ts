/**
 * The editor's first hour as one flow in Chromium (issue 27, "Done when"; docs/studio.md
 * "Walkthrough"): a new owner opens the setup link and reaches the Studio; in a workspace holding
 * the demo's content model (its block types made through the API, as a developer would) and
 * nothing configured (no preview URL template), they create a page with a hero whose image they
 * upload from the field's picker with its alt text (one of the demo's JPEGs), a feature grid
 * holding a feature item (a nested block) and a rich-text block with bold text; translate it into
 * German; see it in the built-in live preview in both languages; publish it and read it through the
 * delivery API; type a character into the hero's headline (CHANGED) and delete it again (no
 * CHANGED). Then at 390 px, with the live preview as a tab: the emptied headline refuses the
 * publication, the refused field is chosen from the Preview tab (the Edit tab comes back and the
 * field has the focus), and typing the headline back clears CHANGED again. axe-core at 1440 and
 * 390 px; screenshots with STUDIO_SCREENSHOTS=1 (docs/studio/walkthrough-*.png).
 *
 * The flow runs on SQLite, and as a smoke run on PostgreSQL (a fresh schema of DATABASE_URL) with
 * the same steps. Without DATABASE_URL the PostgreSQL run is skipped with a message outside CI; CI
 * always has PostgreSQL (test/global-setup.ts fails the run without it), so there it never skips.
 * One server per database, shared by the steps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { DEMO_CONTENT_TYPES } from '../../src/modules/demo/content.js';
import { DEMO_IMAGES, renderDemoImage } from '../../src/modules/demo/images.js';
import { DEMO_BLOCK_TYPES } from '../../src/modules/demo/pages.js';
import {
  addBlockInside,
  blockRow,
  expectAccessible,
  expectNoHorizontalScroll,
  launchBrowser,
  openStudioPage,
  printAxeResults,
  publishFromEditor,
  screenshot,
  setUpOwner,
  skipBrowserSuites,
  startStudioServer,
  startStudioServerOnPostgres,
  until,
  type StudioServer,
} from './harness.js';

const PASSWORD = 'owner password 123';
const HEADLINE = 'Hello, world';
const ALT = 'Deep blue panels around a red circle';
const pgUrl = process.env.DATABASE_URL;

const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const hidden = (l: Locator) => l.waitFor({ state: 'hidden' });

if (!pgUrl && !process.env.CI) process.stderr.write('\n[quire e2e] DATABASE_URL is not set: the walkthrough on PostgreSQL is skipped\n');

interface DeliveredBlock {
  type: string;
  data: string;
  children: DeliveredBlock[];
}

/** The same steps on each database; `start` makes the server. */
function walkthrough(database: string, start: () => Promise<StudioServer>) {
  return () => {
    let server: StudioServer;
    let browser: Browser;
    let page: Page;
    let heroImage: string;
    let itemId: string;

    const status = () => page.getByRole('region', { name: 'Status and actions' });
    const changed = () => status().getByText('changed', { exact: true });
    const saved = () => visible(page.getByRole('status', { name: 'Save state: Saved' }));
    const headline = () => page.getByRole('textbox', { name: 'Headline', exact: true });
    // The innermost matching row: a parent's row holds its children's drag handles too.
    const row = (label: string) => blockRow(page, label).last();
    // Screenshots of one run only (the same screens on both databases).
    const shot = (name: string) => (database === 'SQLite' ? screenshot(page, name) : Promise.resolve());
    const manage = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${server.base}/api/v1/manage${path}`, {
        method,
        headers: { 'X-API-Key': server.keys.management, ...(body ? { 'Content-Type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      const json = (await res.json()) as { success: boolean; data: unknown; message: string };
      if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
      return json.data;
    };
    /** The published page in `locale` as "type:first value(children)", read with the bootstrap delivery key. */
    const delivered = async (locale: string) => {
      const res = await fetch(`${server.base}/api/v1/public/pages/welcome?locale=${locale}`, { headers: { 'X-API-Key': server.keys.delivery } });
      expect(res.status).toBe(200);
      const blocks = ((await res.json()) as { data: { blocks: DeliveredBlock[] } }).data.blocks;
      const shape = (list: DeliveredBlock[]): string =>
        list
          .map((b) => {
            const data = JSON.parse(b.data) as Record<string, unknown>;
            const first = b.type === 'rich-text' ? JSON.stringify(data.body).match(/"value":"([^"]+)"/)?.[1] : (data.headline ?? data.title);
            return `${b.type}:${String(first)}${b.children.length ? `(${shape(b.children)})` : ''}`;
          })
          .join(', ');
      return { shape: shape(blocks), hero: JSON.parse(blocks[0].data) as Record<string, unknown> };
    };

    beforeAll(async () => {
      [server, browser] = await Promise.all([start(), launchBrowser()]);
      // The demo's model, made as a developer would (the model screens are covered by studio-pages).
      for (const type of [...DEMO_CONTENT_TYPES, ...DEMO_BLOCK_TYPES]) await manage('POST', '/content-types', type);
      page = await openStudioPage(browser, { width: 1440, height: 900 });
    }, 240_000);

    afterAll(async () => {
      await browser?.close();
      await server?.stop();
    }, 60_000);

    it('the setup link leads a new owner into the Studio', async () => {
      await setUpOwner(page, server, PASSWORD);
      expect(new URL(page.url()).pathname).toBe(`/studio/${server.workspace.slug}`);
      const settings = (await manage('GET', '/workspace')) as { preview_url_template: string | null };
      expect(settings.preview_url_template).toBeNull();
    }, 60_000);

    it('creates a page with a hero image, a nested block and rich text, and translates it into German', async () => {
      await page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Pages' }).click();
      await page.getByRole('button', { name: 'New page' }).click();
      const dialog = page.getByRole('dialog', { name: 'New page' });
      await dialog.getByRole('textbox', { name: 'Title' }).fill('Welcome');
      await dialog.getByRole('button', { name: 'Create page' }).click();
      await visible(page.getByRole('heading', { name: 'Welcome', level: 1 }));

      await page.getByRole('button', { name: 'Add block', exact: true }).click();
      await page.getByRole('menu', { name: 'Add block', exact: true }).getByRole('menuitem', { name: 'Hero', exact: true }).click();
      await row('Hero #1').getByRole('textbox', { name: 'Headline', exact: true }).fill(HEADLINE);
      // The hero image: one of the demo's JPEGs, uploaded from the field's picker with its alt text.
      const hero = row(`Hero “${HEADLINE}”`);
      await hero.getByRole('button', { name: 'Choose media for Image' }).click();
      const picker = page.getByRole('dialog', { name: 'Choose media for Image' });
      await picker.getByRole('textbox', { name: 'Alt text of the upload' }).fill(ALT);
      const chooser = page.waitForEvent('filechooser');
      await picker.getByRole('button', { name: 'Upload a file' }).click();
      await (await chooser).setFiles({ name: DEMO_IMAGES[0].name, mimeType: 'image/jpeg', buffer: await renderDemoImage(DEMO_IMAGES[0]) });
      await hidden(picker);
      await visible(hero.getByRole('group', { name: `Image: ${ALT}` }));

      // A feature grid holding a feature item: a nested block.
      await page.getByRole('button', { name: 'Add block', exact: true }).click();
      await page.getByRole('menu', { name: 'Add block', exact: true }).getByRole('menuitem', { name: 'Feature grid', exact: true }).click();
      await row('Feature grid #2').getByRole('textbox', { name: 'Title', exact: true }).fill('Why Quire');
      await addBlockInside(page, 'Feature grid “Why Quire”', 'Feature item');
      await row('Feature item #3').getByRole('textbox', { name: 'Title', exact: true }).fill('Fast');
      itemId = (await row('Feature item “Fast”').getAttribute('data-block'))!;

      // Rich text with a bold word.
      await page.getByRole('button', { name: 'Add block', exact: true }).click();
      await page.getByRole('menu', { name: 'Add block', exact: true }).getByRole('menuitem', { name: 'Rich text', exact: true }).click();
      const text = row('Rich text #4');
      await text.getByRole('textbox', { name: 'Body', exact: true }).click();
      await page.keyboard.type('Some ');
      await text.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type('bold');
      await text.getByRole('button', { name: 'Bold' }).click();
      await page.keyboard.type(' words.');
      await saved();

      await page.getByText('de', { exact: true }).click();
      await page.getByRole('textbox', { name: 'SEO title (de)' }).fill('Willkommen');
      await hero.getByRole('textbox', { name: 'Headline (de)' }).fill('Hallo, Welt');
      await row('Feature item “Fast”').getByRole('textbox', { name: 'Title (de)' }).fill('Schnell');
      await text.getByRole('textbox', { name: 'Body (de)' }).click();
      await page.keyboard.type('Ein paar Worte.');
      await saved();

      const stored = (await manage('GET', '/pages/welcome')) as { blocks: { type: string; data: string; children: { type: string }[] }[] };
      expect(stored.blocks.map((b) => `${b.type}(${b.children.map((c) => c.type).join()})`)).toEqual(['hero()', 'feature-grid(feature-item)', 'rich-text()']);
      heroImage = (JSON.parse(stored.blocks[0].data) as { image: string }).image;
      const asset = (await manage('GET', `/media/${heroImage}`)) as { mime_type: string; alt_text: string; width: number };
      expect(asset).toMatchObject({ mime_type: 'image/jpeg', alt_text: ALT, width: DEMO_IMAGES[0].width });
    }, 120_000);

    it('sees the page in the built-in preview with nothing configured, in German and in English', async () => {
      await status().getByRole('button', { name: 'Open preview' }).click();
      const preview = page.locator('[data-builtin-preview]');
      await visible(preview);
      expect(await page.locator('iframe[data-preview-frame]').count()).toBe(0);
      const heroBlock = preview.locator('[data-preview-block="hero"]');
      await visible(heroBlock.locator('[data-preview-field="headline"]').getByText('Hallo, Welt', { exact: true }));
      const img = heroBlock.locator('[data-preview-field="image"] img');
      await visible(img);
      expect(await img.getAttribute('src')).toContain(heroImage);
      await until(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth > 0), 'the hero image loaded in the preview');
      await visible(preview.locator('[data-preview-block="feature-grid"] [data-preview-block="feature-item"]').getByText('Schnell', { exact: true }));
      await visible(preview.locator('[data-preview-block="rich-text"]').getByText('Ein paar Worte.'));
      await expectAccessible(page, `page editor with the built-in preview (de), ${database}`);
      await shot('walkthrough-preview-de-1440');

      await page.getByText('en (default)', { exact: true }).click();
      await visible(heroBlock.locator('[data-preview-field="headline"]').getByText(HEADLINE, { exact: true }));
      await visible(preview.locator('[data-preview-block="rich-text"] :is(b, strong)').getByText('bold', { exact: true }));
      // It follows the form as the user types, before any autosave.
      // The item's row by its block id: its label follows the title being typed.
      const itemTitle = page.locator(`li[data-block="${itemId}"]`).getByRole('textbox', { name: 'Title', exact: true });
      await itemTitle.fill('Fast and light');
      await visible(preview.locator('[data-preview-block="feature-item"]').getByText('Fast and light', { exact: true }));
      await itemTitle.fill('Fast');
      await saved();
    }, 60_000);

    it('publishes, and the delivery API serves the page in both languages', async () => {
      const confirmation = await publishFromEditor(page);
      expect(confirmation).toContain('Hero');
      await visible(status().getByText('published', { exact: true }));
      expect(await changed().count()).toBe(0);
      const de = await delivered('de');
      expect(de.shape).toBe('hero:Hallo, Welt, feature-grid:Why Quire(feature-item:Schnell), rich-text:Ein paar Worte.');
      expect(de.hero.image).toMatchObject({ id: heroImage, alt_text: ALT });
      expect((await delivered('en')).shape).toBe('hero:Hello, world, feature-grid:Why Quire(feature-item:Fast), rich-text:Some ');
    }, 60_000);

    it('a typed change shows CHANGED; typing the old text back clears it', async () => {
      await headline().press('End');
      await headline().pressSequentially('!');
      await saved();
      await visible(changed());
      await visible(status().getByText('Readers see the published version until you publish the changes.'));
      await headline().press('Backspace');
      await saved();
      await hidden(changed());
      expect(await headline().inputValue()).toBe(HEADLINE);
      expect(await status().getByRole('button', { name: 'Publish changes', exact: true }).count()).toBe(0);
      expect(((await manage('GET', '/pages/welcome')) as { page: { has_pending_changes: boolean } }).page.has_pending_changes).toBe(false);
      await expectAccessible(page, `page editor, published, no changes, ${database}`);
      await shot('walkthrough-published-1440');
    }, 60_000);

    it('at 390 px: a refused field chosen from the Preview tab is shown in the Edit tab and focused; typing it back clears CHANGED', async () => {
      await page.setViewportSize({ width: 390, height: 844 });
      const editTab = page.getByRole('tab', { name: 'Edit' });
      const previewTab = page.getByRole('tab', { name: 'Preview' });
      await visible(editTab);
      await editTab.click();
      await headline().fill('');
      await saved();
      await visible(changed());
      await publishFromEditor(page, 'Publish changes');
      const refused = page.getByRole('list', { name: 'Fields that need attention' });
      await visible(refused);
      expect(await refused.getByRole('listitem').allInnerTexts()).toEqual(['Block 1: Hero › Headline: is required']);
      const focused = () => headline().evaluate((el) => el === document.activeElement);
      await until(focused, 'the refused headline focused at once');

      await previewTab.click();
      await visible(page.locator('[data-builtin-preview]'));
      expect(await headline().isVisible()).toBe(false);
      await expectNoHorizontalScroll(page, 'the Preview tab at 390 px');
      await shot('walkthrough-refused-preview-390');
      await page.getByRole('button', { name: 'Block 1: Hero › Headline' }).click();
      expect(await editTab.getAttribute('aria-selected')).toBe('true');
      await visible(headline());
      await until(focused, 'the refused headline focused from the Preview tab');

      await page.keyboard.type(HEADLINE);
      await saved();
      await hidden(changed());
      await expectNoHorizontalScroll(page, 'the page editor at 390 px');
      await expectAccessible(page, `page editor at 390 px, ${database}`);
      await shot('walkthrough-editor-390');
      expect((await delivered('en')).shape).toBe('hero:Hello, world, feature-grid:Why Quire(feature-item:Fast), rich-text:Some ');
    }, 60_000);
  };
}

afterAll(() => printAxeResults('studio walkthrough'));

describe.skipIf(skipBrowserSuites())(
  'The editor walkthrough in Chromium on SQLite',
  walkthrough('SQLite', () => startStudioServer({ workspace: 'walk' })),
);

describe.runIf(pgUrl && !skipBrowserSuites())(
  'The editor walkthrough in Chromium on PostgreSQL',
  walkthrough('PostgreSQL', () => startStudioServerOnPostgres(pgUrl!, { workspace: 'walk' })),
);
