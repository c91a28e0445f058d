/**
 * Releases in the Studio end to end, in Chromium against a real server (SQLite) (docs/studio.md
 * "Releases", docs/releases.md): a release of one page and three posts is made in the Studio
 * (New release; Add to release from an editor; Add to this release from the banner of the release
 * perspective), each release version edited in the editors while the working copies and production
 * stay as they are, previewed (the built-in live preview of the release version; delivery's
 * `?release=` with a preview key), checked (Validate, an item's Changes against the published
 * version), published together (production gets all four at once) and reverted (production gets
 * the old versions back). axe-core on the Releases list, a release with its Changes dialog, and
 * an editor with the switcher active; screenshots at 1280 px with STUDIO_SCREENSHOTS=1
 * (docs/studio/releases-*.png).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  expectAccessible,
  expectNoHorizontalScroll,
  launchBrowser,
  printAxeResults,
  screenshot,
  setUpOwner,
  skipBrowserSuites,
  startStudioServer,
  until,
  type StudioServer,
} from './harness.js';

const PASSWORD = 'owner password 123';
const POSTS = ['first-post', 'second-post', 'third-post'];

const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 });

describe.skipIf(skipBrowserSuites())('Studio releases in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let page: Page;
  let ws: string;
  let production: string;
  let preview: string;
  let releaseId: string;
  let mgmt: string;

  const manage = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.base}/api/v1/manage${path}`, {
      method,
      headers: { 'X-API-Key': mgmt, ...(body ? { 'Content-Type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const json = (await res.json()) as { success: boolean; data: Record<string, unknown>; message: string };
    if (!json.success) throw new Error(`${method} ${path}: ${res.status} ${json.message}`);
    return json.data;
  };
  const deliver = async (path: string, key: string) => {
    const res = await fetch(`${server.base}/api/v1/public${path}`, { headers: { 'X-API-Key': key } });
    return { status: res.status, body: (await res.json()) as { data: Record<string, unknown> } };
  };
  /** The post titles a key reads (in POSTS order), optionally in a release's perspective. */
  const titles = async (key: string, release?: string) =>
    Promise.all(
      POSTS.map(async (slug) => {
        const { body } = await deliver(`/entries/${slug}?type=post${release ? `&release=${release}` : ''}`, key);
        return (JSON.parse((body.data.entry as { data: string }).data) as { title: string }).title;
      }),
    );
  const seoTitle = async (key: string, release?: string) =>
    ((await deliver(`/pages/autumn${release ? `?release=${release}` : ''}`, key)).body.data.page as { seo: { title: string } }).seo.title;
  const working = async (slug: string) => JSON.parse((await manage('GET', `/content-types/post/entries/${slug}`)).data as string) as { title: string };
  const saved = () => visible(page.getByRole('status', { name: 'Save state: Saved' }));

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ workspace: 'releases' }), launchBrowser()]);
    ws = `${server.base}/studio/${server.workspace.slug}`;
    mgmt = (JSON.parse(server.cli(['keys', 'create', '--workspace', 'releases', '--class', 'management', '--json'])) as { key: string }).key;
    const key = (env: string) =>
      (JSON.parse(server.cli(['keys', 'create', '--workspace', 'releases', '--class', 'delivery', '--environment', env, '--json'])) as { key: string }).key;
    production = key('production');
    preview = key('preview');

    await manage('POST', '/content-types', {
      name: 'Post',
      slug: 'post',
      display_field: 'title',
      fields: [{ name: 'title', label: 'Title', field_type: 'text', required: true, localizable: true }],
    });
    await manage('POST', '/content-types', {
      name: 'Hero',
      slug: 'hero',
      is_block: true,
      fields: [{ name: 'headline', label: 'Headline', field_type: 'text' }],
    });
    for (const [i, slug] of POSTS.entries()) {
      await manage('POST', '/content-types/post/entries', { slug, data: { title: `Post ${i + 1}` } });
      await manage('PATCH', `/content-types/post/entries/${slug}/publish`);
    }
    await manage('POST', '/pages', { slug: 'autumn', seo: { title: 'Summer' }, blocks: [{ type: 'hero', data: { headline: 'Summer days' } }] });
    await manage('PATCH', '/pages/autumn/publish');

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await setUpOwner(page, server, PASSWORD);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    printAxeResults('studio releases e2e');
  }, 60_000);

  it('creates a release and fills it from the editors: Add to release, then the banner of the release perspective', async () => {
    await page.getByRole('link', { name: 'Releases' }).click();
    await visible(heading(page, 'Releases'));
    await visible(page.getByText(/No releases yet/));
    await page.getByRole('button', { name: 'New release' }).click();
    const dialog = page.getByRole('dialog', { name: 'New release' });
    await dialog.getByRole('textbox', { name: 'Title' }).fill('Autumn launch');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('The autumn campaign: landing page and three posts');
    await dialog.getByRole('button', { name: 'Create release' }).click();
    await visible(heading(page, 'Autumn launch'));
    releaseId = new URL(page.url()).pathname.split('/').pop()!;
    await visible(page.getByText(/No items yet/));

    // The first post: Add to release… in its editor, then straight into the release version.
    await page.goto(`${ws}/content/post/first-post`);
    await visible(heading(page, 'Post 1'));
    await page.getByRole('button', { name: 'Add to release…' }).click();
    const add = page.getByRole('dialog', { name: /Add “Post 1” to a release/ });
    await until(async () => (await add.getByRole('combobox', { name: 'Release' }).inputValue()) === releaseId, 'the open release chosen');
    await add.getByRole('button', { name: 'Add to release' }).click();
    await add.getByRole('button', { name: 'Edit the release version' }).click();
    await visible(page.getByText('Editing the release version'));
    expect(await page.getByRole('combobox', { name: 'Release perspective' }).inputValue()).toBe(releaseId);
    await page.getByRole('textbox', { name: 'Title' }).fill('Autumn post 1');
    await saved();

    // The others, in the perspective: the banner says they are not in the release and adds them.
    for (const [i, slug] of POSTS.slice(1).entries()) {
      await page.goto(`${ws}/content/post/${slug}`);
      await visible(page.getByText('Not in this release'));
      await page.getByRole('button', { name: 'Add to this release' }).click();
      await visible(page.getByText('Editing the release version'));
      await page.getByRole('textbox', { name: 'Title' }).fill(`Autumn post ${i + 2}`);
      await saved();
    }
    await page.goto(`${ws}/pages/autumn`);
    await page.getByRole('button', { name: 'Add to this release' }).click();
    await visible(page.getByText('Editing the release version'));
    await page.getByRole('textbox', { name: 'SEO title' }).fill('Autumn');
    await saved();
    await expectAccessible(page, 'page editor in a release perspective (banner, switcher)');
    await screenshot(page, 'releases-page-editor-1280');

    // Release versions only: the working copies and production are untouched.
    expect((await working('first-post')).title).toBe('Post 1');
    expect(await titles(production)).toEqual(['Post 1', 'Post 2', 'Post 3']);
    expect(await seoTitle(production)).toBe('Summer');
  }, 120_000);

  it('previews the release: the built-in live preview of a release version, and delivery with ?release for a preview key', async () => {
    await page.goto(`${ws}/content/post/second-post`);
    await visible(page.getByText('Editing the release version'));
    await page.getByRole('button', { name: 'Live preview' }).click();
    await visible(page.getByText('Built-in preview: follows your typing'));
    await visible(page.getByRole('heading', { name: 'Autumn post 2', level: 2 }));
    await expectAccessible(page, 'entry editor in a release perspective with the live preview');
    await screenshot(page, 'releases-entry-preview-1280');
    await page.getByRole('button', { name: 'Close the live preview' }).click();

    expect(await titles(preview, releaseId)).toEqual(['Autumn post 1', 'Autumn post 2', 'Autumn post 3']);
    expect(await seoTitle(preview, releaseId)).toBe('Autumn');
    expect(await titles(preview)).toEqual(['Post 1', 'Post 2', 'Post 3']);

    // Leaving the perspective: the editor shows the working copy again.
    await page.getByRole('combobox', { name: 'Release perspective' }).selectOption({ label: 'Working copies' });
    await visible(heading(page, 'Post 2'));
    expect(await page.getByText('Editing the release version').count()).toBe(0);
  }, 60_000);

  it('validates, shows each item’s changes, publishes the four items together and reverts them', async () => {
    await page.goto(`${ws}/releases`);
    await visible(page.getByRole('link', { name: 'Autumn launch' }));
    await expectAccessible(page, 'releases list');
    await screenshot(page, 'releases-list-1280');
    await page.getByRole('link', { name: 'Autumn launch' }).click();
    await visible(heading(page, 'Autumn launch'));
    const itemsTable = page.getByRole('table', { name: 'Items of the release' });
    await until(async () => (await itemsTable.getByRole('row').count()) === 5, 'four items');

    await page.getByRole('button', { name: 'Validate' }).click();
    await visible(page.getByText('Ready to publish'));

    await page.getByRole('button', { name: 'Changes of Post first-post' }).click();
    const changes = page.getByRole('dialog', { name: 'Changes of Post first-post' });
    const row = changes.getByRole('row', { name: /Title \(en\)/ });
    await visible(row);
    expect(await row.innerText()).toMatch(/changed\s+Post 1\s+Autumn post 1/i);
    await expectAccessible(page, 'a release item’s changes (dialog)', '[role="dialog"]');
    await screenshot(page, 'releases-changes-1280');
    await changes.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByRole('button', { name: 'Changes of page autumn' }).click();
    await visible(page.getByRole('dialog', { name: 'Changes of page autumn' }).getByRole('row', { name: /SEO title/ }));
    await page.getByRole('dialog', { name: 'Changes of page autumn' }).getByRole('button', { name: 'Close', exact: true }).click();
    await expectAccessible(page, 'a release with four items, validated');
    await screenshot(page, 'releases-detail-1280');

    await page.getByRole('button', { name: 'Publish now' }).click();
    await page
      .getByRole('dialog', { name: /Publish “Autumn launch” now/ })
      .getByRole('button', { name: 'Publish release' })
      .click();
    await visible(page.getByText('Published 4 items'));
    expect(await titles(production)).toEqual(['Autumn post 1', 'Autumn post 2', 'Autumn post 3']);
    expect(await seoTitle(production)).toBe('Autumn');
    // The working copies without pending changes became the release versions too.
    expect((await working('third-post')).title).toBe('Autumn post 3');
    // A published release is no perspective any more.
    expect(await page.getByRole('combobox', { name: 'Release perspective' }).inputValue()).toBe('');

    await page.getByRole('button', { name: 'Revert' }).click();
    await page
      .getByRole('dialog', { name: /Revert “Autumn launch”/ })
      .getByRole('button', { name: 'Revert release' })
      .click();
    await visible(page.getByText('Release reverted'));
    await visible(page.getByText('reverted', { exact: true }));
    expect(await titles(production)).toEqual(['Post 1', 'Post 2', 'Post 3']);
    expect(await seoTitle(production)).toBe('Summer');
    expect(await page.getByRole('button', { name: 'Revert' }).count()).toBe(0);

    // On a phone: the header keeps the switcher, the items' table scrolls in its own box.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.reload();
    await visible(heading(page, 'Autumn launch'));
    await visible(page.getByRole('combobox', { name: 'Release perspective' }));
    await expectNoHorizontalScroll(page, 'a release at 390 px');
    // A member of two workspaces has the workspace select beside it, still within the width.
    server.cli(['bootstrap', '--workspace', 'second', '--name', 'Second', '--email', server.owner.email, '--json']);
    await page.reload();
    await visible(page.getByRole('combobox', { name: 'Workspace' }));
    await visible(page.getByRole('combobox', { name: 'Release perspective' }));
    await expectNoHorizontalScroll(page, 'a release at 390 px with two workspaces');
    const header = await page.locator('header').boundingBox();
    const select = await page.getByRole('combobox', { name: 'Workspace' }).boundingBox();
    expect(select!.x + select!.width).toBeLessThanOrEqual(header!.x + header!.width);
    await expectAccessible(page, 'a reverted release at 390 px');
    await screenshot(page, 'releases-detail-390');
  }, 90_000);
});
