/**
 * The Studio's entries screens end to end in Chromium against a real server (SQLite): a post type
 * with a relation, a media field and rich text (made through the management API with a CLI key);
 * an owner creates a post in the editor, picks the related author and the cover image, writes
 * rich text, localizes the title (de) and watches autosave; publishes and reads the post through
 * the delivery API; edits the published post (readers still get the old title), publishes the
 * changes, restores a version from the history with its diff, schedules with the date-time
 * picker; a 412 conflict offers a reload; bulk publish reports per item. An author's session
 * shows no publish buttons. axe-core on the list and the editor; screenshots at 1280 px with
 * STUDIO_SCREENSHOTS=1 (docs/studio/entries-*.png).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  axeResults,
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
const AUTHOR_PASSWORD = 'author password 456';

const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const hidden = (l: Locator) => l.waitFor({ state: 'hidden' });
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 });

/** Polls `check` until it holds, failing with `what`. */
async function until(check: () => Promise<boolean>, what: string, timeout = 8000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(skipBrowserSuites())('Studio entries in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let ws: string;
  let mgmt: string;
  let delivery: string;
  let adaId: string;
  let coverId: string;

  const manage = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}/api/v1/manage${path}`, {
      method,
      headers: { 'X-API-Key': mgmt, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { success: boolean; data: Record<string, unknown>; message: string };
    if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
    return { data: json.data, etag: res.headers.get('etag') };
  };
  const post = async (slug: string) => {
    const { data, etag } = await manage('GET', `/content-types/post/entries/${slug}`);
    return { ...data, data: JSON.parse(data.data as string) as Record<string, unknown>, etag } as Record<string, unknown> & {
      data: Record<string, unknown>;
      translations: { locale: string; data: string }[];
      etag: string | null;
    };
  };
  const deliveredTitle = async (slug: string) => {
    const res = await fetch(`${server.base}/api/v1/public/entries/${slug}?type=post&fields=title`, { headers: { 'X-API-Key': delivery } });
    if (res.status === 404) return null;
    const json = (await res.json()) as { data: { entry: { data: string } } };
    return (JSON.parse(json.data.entry.data) as { title: string }).title;
  };
  const saved = () => visible(page.getByRole('status', { name: 'Save state: Saved' }));

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ workspace: 'entries' }), launchBrowser()]);
    ws = `${server.base}/studio/${server.workspace.slug}`;
    mgmt = (JSON.parse(server.cli(['keys', 'create', '--workspace', 'entries', '--class', 'management', '--json'])) as { key: string }).key;
    delivery = (
      JSON.parse(server.cli(['keys', 'create', '--workspace', 'entries', '--class', 'delivery', '--environment', 'production', '--json'])) as { key: string }
    ).key;

    await manage('POST', '/content-types', {
      name: 'Author',
      slug: 'author',
      display_field: 'name',
      fields: [{ name: 'name', label: 'Name', field_type: 'text', required: true }],
    });
    await manage('POST', '/content-types', {
      name: 'Post',
      slug: 'post',
      display_field: 'title',
      fields: [
        { name: 'title', label: 'Title', field_type: 'text', required: true, localizable: true, sortable: true },
        { name: 'body', label: 'Body', field_type: 'rich_text', localizable: true },
        { name: 'author', label: 'Author', field_type: 'relation', options: ['author'] },
        { name: 'cover', label: 'Cover', field_type: 'media' },
      ],
    });
    for (const name of ['Ada Lovelace', 'Grace Hopper']) {
      const { data } = await manage('POST', '/content-types/author/entries', { data: { name } });
      if (name === 'Ada Lovelace') adaId = data.id as string;
    }
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3b82f6' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'team.png');
    form.set('alt_text', 'The team');
    const up = await fetch(`${server.base}/api/v1/manage/media/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': mgmt, 'X-Workspace-ID': server.workspace.id },
      body: form,
    });
    coverId = ((await up.json()) as { data: { id: string } }).data.id;
    for (const title of ['Older post one', 'Older post two']) await manage('POST', '/content-types/post/entries', { data: { title } });

    server.cli(['users', 'create', '--workspace', 'entries', '--email', 'author@example.com', '--role', 'author']);
    server.cli(['users', 'set-password', '--workspace', 'entries', '--email', 'author@example.com'], `${AUTHOR_PASSWORD}\n`);

    context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
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
    if (lines.length) process.stdout.write(`\n[studio entries e2e] axe results\n${lines.join('\n')}\n`);
  }, 60_000);

  it('creates a post with a relation, an image and rich text, localizes it, and autosaves', async () => {
    await page.goto(`${ws}/content/post`);
    await visible(heading(page, 'Post'));
    await visible(page.getByRole('link', { name: 'Older post one' }));
    await page.getByRole('link', { name: 'New entry' }).click();
    await visible(heading(page, 'New Post'));
    await page.getByRole('textbox', { name: 'Title' }).fill('Hello Quire');
    await page.getByRole('button', { name: 'Create entry' }).click();
    await visible(heading(page, 'Hello Quire'));
    expect(new URL(page.url()).pathname).toBe(`/studio/entries/content/post/hello-quire`);

    await page.getByRole('button', { name: 'Choose entry for Author' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose entry for Author' });
    await picker.getByRole('textbox', { name: 'Search entries' }).fill('ada');
    await picker.getByRole('button', { name: 'Choose Ada Lovelace' }).click();
    await hidden(picker);
    await visible(page.getByRole('group', { name: 'Author: Ada Lovelace' }));

    await page.getByRole('button', { name: 'Choose media for Cover' }).click();
    const media = page.getByRole('dialog', { name: 'Choose media for Cover' });
    // The thumbnail inside the button (named by the button, so its own alt text is empty).
    await visible(media.getByRole('button', { name: 'Choose The team' }).locator('img'));
    await media.getByRole('button', { name: 'Choose The team' }).click();
    await hidden(media);
    await visible(page.getByRole('group', { name: 'Cover: The team' }));

    const body = page.getByRole('textbox', { name: 'Body' });
    await body.click();
    await page.getByRole('button', { name: 'Heading 2' }).click();
    await page.keyboard.type('A first heading');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Some ');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type('bold');
    await page.getByRole('button', { name: 'Bold' }).click();
    await page.keyboard.type(' text.');
    await page.getByRole('button', { name: 'Embed entry', exact: true }).click();
    await page.getByRole('dialog', { name: 'Embed entry' }).getByRole('button', { name: 'Choose Ada Lovelace' }).click();
    await saved();

    await until(async () => {
      const p = await post('hello-quire');
      const doc = p.data.body as { content: { nodeType: string; content: { value?: string; marks?: { type: string }[] }[] }[] };
      return (
        p.data.author === adaId &&
        p.data.cover === coverId &&
        doc.content[0].nodeType === 'heading-2' &&
        doc.content[1].content.some((t) => t.value === 'bold' && t.marks?.[0].type === 'bold') &&
        doc.content.some((n) => n.nodeType === 'embedded-entry-block')
      );
    }, 'the post with relation, cover and rich text in the API');

    await page.getByText('de', { exact: true }).click();
    const titleDe = page.getByRole('textbox', { name: 'Title (de)' });
    await visible(page.getByText('falls back to en').first());
    await visible(page.getByText('en: Hello Quire'));
    await titleDe.fill('Hallo Quire');
    await visible(page.getByRole('status', { name: /Save state: (Unsaved changes|Saving…)/ }));
    await saved();
    expect(await page.getByRole('textbox', { name: 'Author' }).count()).toBe(0);
    await until(
      async () => (await post('hello-quire')).translations.some((t) => t.locale === 'de' && JSON.parse(t.data).title === 'Hallo Quire'),
      'the de title saved',
    );
    await expectAccessible(page, 'entry editor (de: translations, fallback marks, read-only shared fields)');
    await page.getByText('en (default)', { exact: true }).click();
    await visible(page.getByRole('textbox', { name: 'Title', exact: true }));
    await screenshot(page, 'entries-editor-1280');
  }, 90_000);

  it('publishes; edits to the published post stay unseen until "Publish changes"', async () => {
    // The confirmation lists what goes live: everything, in both locales, on the first publication.
    const first = await publishFromEditor(page);
    expect(first).toContain('Nothing of it is live now');
    expect(first).toMatch(/Title \(de\)/);
    await visible(page.getByRole('region', { name: 'Status and actions' }).getByText('published', { exact: true }));
    expect(await deliveredTitle('hello-quire')).toBe('Hello Quire');

    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Hello Quire, edited');
    await saved();
    await visible(page.getByRole('region', { name: 'Status and actions' }).getByText('changed'));
    expect(await deliveredTitle('hello-quire')).toBe('Hello Quire');
    const changes = await publishFromEditor(page, 'Publish changes');
    expect(changes).toContain('Readers get these changes to the live version (en)');
    expect(changes).toMatch(/changed\s*Title/i);
    await hidden(page.getByRole('region', { name: 'Status and actions' }).getByText('changed'));
    expect(await deliveredTitle('hello-quire')).toBe('Hello Quire, edited');

    // Open preview without a preview URL template: the built-in preview of the working copy, in
    // the live preview pane, follows the form as the user types (before any autosave).
    const titleBox = page.getByRole('textbox', { name: 'Title', exact: true });
    await titleBox.fill('Hello Quire, draft title');
    await page.getByRole('button', { name: 'Open preview' }).click();
    const builtin = page.locator('[data-builtin-preview]');
    await visible(builtin);
    const previewTitle = builtin.locator('[data-preview-field="title"]');
    await visible(previewTitle.getByText('Hello Quire, draft title', { exact: true }));
    await visible(builtin.locator('[data-preview-field="cover"] img'));
    await titleBox.press('End');
    await titleBox.pressSequentially(' typed');
    await visible(previewTitle.getByText('Hello Quire, draft title typed', { exact: true }));
    expect(await page.locator('[data-preview-state]').getAttribute('data-preview-state')).toBe('builtin');
    expect(await page.locator('iframe[data-preview-frame]').count()).toBe(0);
    await expectAccessible(page, 'built-in preview');
    await page.getByRole('button', { name: 'Close the live preview' }).click();
    await hidden(builtin);
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Hello Quire, edited');
    await saved();
  }, 60_000);

  it('shows a version with its diff and restores it', async () => {
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'View version 1' }).click();
    const dialog = page.getByRole('dialog', { name: /Version 1/ });
    const diff = dialog.getByRole('table', { name: /Differences between version 1/ });
    await visible(diff);
    await visible(diff.getByRole('row', { name: /Title.*Hello Quire.*Hello Quire, edited/ }));
    await expectAccessible(page, 'version diff');
    await screenshot(page, 'entries-version-diff-1280');
    await dialog.getByRole('button', { name: 'Restore version 1' }).click();
    await hidden(dialog);
    await visible(page.getByRole('region', { name: 'Status and actions' }).getByText('changed'));
    expect(await page.getByRole('textbox', { name: 'Title', exact: true }).inputValue()).toBe('Hello Quire');
    const p = await post('hello-quire');
    expect(p.data.title).toBe('Hello Quire');
    expect(p.data.author).toBeUndefined();
    expect(await deliveredTitle('hello-quire')).toBe('Hello Quire, edited');
  }, 60_000);

  it('a save after someone else saved gets the 412 message and a reload', async () => {
    const current = await post('hello-quire');
    await manage('PUT', '/content-types/post/entries/hello-quire', { data: { ...current.data, title: 'Changed elsewhere' } });
    await page.getByRole('textbox', { name: 'Title', exact: true }).fill('My concurrent edit');
    await visible(page.getByRole('alert').getByText('Someone else saved this entry first'));
    await page.getByRole('button', { name: 'Reload' }).click();
    await hidden(page.getByText('Someone else saved this entry first'));
    expect(await page.getByRole('textbox', { name: 'Title', exact: true }).inputValue()).toBe('Changed elsewhere');
  }, 30_000);

  it('unpublishes and schedules with the date-time picker', async () => {
    await page.getByRole('button', { name: 'Unpublish', exact: true }).click();
    await visible(page.getByRole('region', { name: 'Status and actions' }).getByText('draft', { exact: true }));
    expect(await deliveredTitle('hello-quire')).toBeNull();

    // A draft may lack its required title; publishing it names the field inline (errors[].path data.title).
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await title.fill('');
    await saved();
    await publishFromEditor(page);
    await visible(page.getByText('is required', { exact: true }));
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    await title.fill('Changed elsewhere');
    await saved();
    expect(await page.getByText('is required', { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: /^Schedule/ });
    await dialog.getByRole('button', { name: /^Publish at/ }).click();
    await page.getByRole('button', { name: 'Next month' }).click();
    await page.getByRole('button', { name: /^15 / }).click();
    await page.getByLabel('Hours').fill('10');
    await page.getByLabel('Minutes').fill('30');
    await page.getByRole('button', { name: 'Confirm date and time' }).click();
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await hidden(dialog);
    await visible(page.getByRole('region', { name: 'Status and actions' }).getByText('scheduled', { exact: true }));
    const p = await post('hello-quire');
    expect(p.status).toBe('scheduled');
    expect(new Date(p.publish_at as string).getTime()).toBeGreaterThan(Date.now());
  }, 60_000);

  it('list: search, status filter and bulk publish with per-item results', async () => {
    await page.getByRole('link', { name: '← All Post entries' }).click();
    await visible(heading(page, 'Post'));
    await visible(page.getByRole('link', { name: 'Changed elsewhere' }));
    await page.getByRole('textbox', { name: 'Search' }).fill('older');
    await until(async () => (await page.getByRole('link', { name: 'Changed elsewhere' }).count()) === 0, 'the search to narrow the list');
    await visible(page.getByRole('link', { name: 'Older post two' }));
    await page.getByRole('textbox', { name: 'Search' }).fill('');
    await visible(page.getByRole('link', { name: 'Changed elsewhere' }));
    await page.getByRole('checkbox', { name: 'Select all entries on this page' }).check();
    const bar = page.getByRole('region', { name: 'Bulk actions' });
    await visible(bar.getByText('3 selected'));
    await expectAccessible(page, 'entries list (with a selection and bulk actions)');
    await screenshot(page, 'entries-list-1280');
    await bar.getByRole('button', { name: 'Publish', exact: true }).click();
    const result = page.getByRole('dialog', { name: 'Bulk publish: result' });
    await visible(result.getByText('3 succeeded'));
    await result.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'published' }).click();
    await visible(page.getByText('3 entries'));

    // A phone's width: the table scrolls inside its box, the page never sideways; the editor stacks.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForTimeout(500); // the navigation slides away
    await expectNoHorizontalScroll(page, 'entries list at 390 px');
    await screenshot(page, 'entries-list-390');
    await page.goto(`${ws}/content/post/hello-quire`);
    await visible(page.getByRole('textbox', { name: 'Title', exact: true }));
    await expectNoHorizontalScroll(page, 'entry editor at 390 px');
    await screenshot(page, 'entries-editor-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);

  it('uploads an image from the media picker and uses it at once', async () => {
    await page.goto(`${ws}/content/post/older-post-two`);
    await visible(heading(page, 'Older post two'));
    await page.getByRole('button', { name: 'Choose media for Cover' }).click();
    const media = page.getByRole('dialog', { name: 'Choose media for Cover' });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#10b981' } })
      .png()
      .toBuffer();
    const chooser = page.waitForEvent('filechooser');
    await media.getByRole('button', { name: 'Upload a file' }).click();
    await (await chooser).setFiles({ name: 'green.png', mimeType: 'image/png', buffer: png });
    await hidden(media);
    await visible(page.getByRole('group', { name: 'Cover: green.png' }));
    await saved();
    await until(async () => {
      const { data } = await manage('GET', '/content-types/post/entries/older-post-two');
      const cover = JSON.parse(data.data as string).cover as string | undefined;
      if (!cover || cover === coverId) return false;
      const asset = await manage('GET', `/media/${cover}`);
      return asset.data.original_name === 'green.png' && asset.data.width === 40;
    }, 'the uploaded image stored and chosen as the cover');
  }, 60_000);

  it('an author sees no publish actions but can edit', async () => {
    const authorContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const author = await authorContext.newPage();
    author.setDefaultTimeout(10_000);
    await author.goto(`${server.base}/studio/sign-in`);
    await author.getByLabel(/^Email/).fill('author@example.com');
    await author.getByLabel(/^Password/).fill(AUTHOR_PASSWORD);
    await author.getByRole('button', { name: 'Sign in' }).click();
    await visible(heading(author, 'E2E Studio'));
    await author.goto(`${ws}/content/post/older-post-one`);
    await visible(heading(author, 'Older post one'));
    const actions = author.getByRole('region', { name: 'Status and actions' });
    await visible(actions.getByRole('button', { name: 'Duplicate' }));
    for (const name of ['Publish', 'Publish changes', 'Unpublish', 'Archive', 'Schedule'])
      expect(await actions.getByRole('button', { name, exact: true }).count()).toBe(0);
    await author.getByRole('link', { name: '← All Post entries' }).click();
    await author.getByRole('checkbox', { name: 'Select Older post one' }).check();
    const bar = author.getByRole('region', { name: 'Bulk actions' });
    await visible(bar.getByRole('button', { name: 'Delete' }));
    expect(await bar.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    await authorContext.close();
  }, 60_000);
});
