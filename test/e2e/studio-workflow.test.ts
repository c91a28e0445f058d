/**
 * A review workflow with two people, in two Chromium contexts against one real server (SQLite)
 * (docs/workflow.md, docs/studio.md "Review workflows" and "Comments, notifications and who else
 * is here"): an author writes an article and submits it for review; the owner, told by the
 * notification bell, opens it (each sees the other on the item), comments on its Body field and
 * mentions the author; the author, told in turn, fixes the field and resolves the thread; the
 * owner approves, moves it to the publish stage and publishes it, and production serves the fixed
 * text. Publishing is refused outside the publish stage on the way. axe-core on the editor with
 * the workflow panel, the comment panel and the notification popover, and on Settings › Workflows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  expectAccessible,
  launchBrowser,
  printAxeResults,
  publishFromEditor,
  setUpOwner,
  skipBrowserSuites,
  startStudioServer,
  until,
  type StudioServer,
} from './harness.js';

const OWNER_PASSWORD = 'owner password 123';
const AUTHOR_PASSWORD = 'author password 123';
const AUTHOR = 'author@example.com';

const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 1 });
const workflowPanel = (page: Page) => page.getByRole('region', { name: 'Review workflow' });
const stageIs = (page: Page, stage: string) => visible(workflowPanel(page).getByText(stage, { exact: true }));
const saved = (page: Page) => visible(page.getByRole('status', { name: 'Save state: Saved' }));

describe.skipIf(skipBrowserSuites())('Studio review workflow with two people in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let ownerContext: BrowserContext;
  let authorContext: BrowserContext;
  let owner: Page;
  let author: Page;
  let ws: string;
  let mgmt: string;
  let production: string;
  let entryUrl: string;

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

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ workspace: 'newsroom' }), launchBrowser()]);
    ws = `${server.base}/studio/${server.workspace.slug}`;
    mgmt = (JSON.parse(server.cli(['keys', 'create', '--workspace', 'newsroom', '--class', 'management', '--json'])) as { key: string }).key;
    production = (
      JSON.parse(server.cli(['keys', 'create', '--workspace', 'newsroom', '--class', 'delivery', '--environment', 'production', '--json'])) as { key: string }
    ).key;
    await manage('POST', '/content-types', {
      name: 'Article',
      slug: 'article',
      display_field: 'title',
      fields: [
        { name: 'title', label: 'Title', field_type: 'text', required: true },
        { name: 'body', label: 'Body', field_type: 'textarea' },
      ],
    });
    await manage('POST', '/workflows', {
      name: 'Editorial',
      content_types: ['article'],
      stages: [{ name: 'Draft' }, { name: 'In review', required_approvals: 1 }, { name: 'Ready', roles: ['owner', 'admin', 'editor'] }],
      publish_stage: 'Ready',
    });

    ownerContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    owner = await ownerContext.newPage();
    owner.setDefaultTimeout(10_000);
    await setUpOwner(owner, server, OWNER_PASSWORD);

    // The owner invites the author (role: author) and the author accepts in a browser of their own.
    await owner.goto(`${ws}/settings/people`);
    await owner.getByRole('button', { name: 'Invite person' }).click();
    const invite = owner.getByRole('dialog', { name: 'Invite a person' });
    await invite.getByLabel(/^Email/).fill(AUTHOR);
    await invite.getByRole('button', { name: 'Invite' }).click();
    const created = owner.getByRole('dialog', { name: 'Invitation created' });
    const link = await created.getByLabel('Invitation link').inputValue();
    await created.getByRole('button', { name: 'Done' }).click();

    authorContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    author = await authorContext.newPage();
    author.setDefaultTimeout(10_000);
    await author.goto(link);
    await author.getByLabel(/^New password/).fill(AUTHOR_PASSWORD);
    await author.getByLabel(/^Repeat the password/).fill(AUTHOR_PASSWORD);
    await author.getByRole('button', { name: 'Set password and continue' }).click();
    await visible(heading(author, 'E2E Studio'));
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    printAxeResults('studio workflow e2e');
  }, 60_000);

  it('the author writes an article, cannot publish it in Draft, and submits it for review', async () => {
    await author.goto(`${ws}/content/article`);
    await visible(heading(author, 'Article'));
    await author.getByRole('link', { name: 'New entry' }).click();
    await author.getByRole('textbox', { name: 'Title' }).fill('Autumn menu');
    await author.getByRole('button', { name: 'Create entry' }).click();
    await visible(heading(author, 'Autumn menu'));
    entryUrl = author.url();
    await stageIs(author, 'Draft');
    await author.getByRole('textbox', { name: 'Body' }).fill('Pumpkin soup.');
    await saved(author);

    await workflowPanel(author).getByRole('button', { name: 'Move to stage…' }).click();
    // Ready is for editors and above: the author's menu says so.
    expect(await author.getByRole('menuitem', { name: /Ready/ }).isDisabled()).toBe(true);
    await author.getByRole('menuitem', { name: /In review/ }).click();
    await stageIs(author, 'In review');
    await visible(workflowPanel(author).getByText('0 of 1 approvals'));
    await expectAccessible(author, 'entry editor with a review workflow (author)');
  }, 120_000);

  it('the owner is told, opens the article, sees the author on it, and comments on the Body field', async () => {
    await owner.goto(`${ws}/content/article`);
    const bell = owner.getByRole('button', { name: /^Notifications: 1 unread/ });
    await visible(bell);
    await bell.click();
    const popover = owner.getByRole('dialog', { name: 'Notifications' });
    await visible(popover.getByText(/asked for your approval|approval/i).first());
    await expectAccessible(owner, 'notification popover');
    await popover.getByRole('listitem').first().getByRole('button').click();
    await visible(heading(owner, 'Autumn menu'));
    expect(owner.url()).toBe(entryUrl.replace(/\?.*$/, ''));
    await stageIs(owner, 'In review');
    // Each sees the other on the article.
    await visible(owner.getByRole('group', { name: /Also editing this entry: .*author@example\.com/ }));
    await visible(author.getByRole('group', { name: /Also editing this entry: .*owner|Also editing this entry/ }));

    // Publishing waits for the publish stage, and Ready waits for an approval.
    const region = owner.getByRole('region', { name: 'Status and actions' });
    expect(await region.getByRole('button', { name: 'Publish', exact: true }).isDisabled()).toBe(true);

    await owner.getByRole('button', { name: 'Comment on Body' }).click();
    const panel = owner.getByRole('dialog', { name: /Comments on Body/ });
    await visible(panel);
    await panel.getByRole('textbox', { name: 'New comment on Body' }).fill(`@${AUTHOR} please give the price of the soup`);
    await panel.getByRole('button', { name: 'Comment', exact: true }).click();
    await visible(panel.getByRole('listitem').filter({ hasText: 'please give the price of the soup' }).first());
    await expectAccessible(owner, 'comment panel');
    await owner.keyboard.press('Escape');
  }, 120_000);

  it('the author is told of the mention, fixes the field and resolves the thread', async () => {
    const bell = author.getByRole('button', { name: /^Notifications: \d+ unread/ });
    await visible(bell);
    const commentButton = author.getByRole('button', { name: 'Comments on Body: 1 open' });
    await visible(commentButton);
    await author.getByRole('textbox', { name: 'Body' }).fill('Pumpkin soup, 6 €.');
    await saved(author);
    await commentButton.click();
    const panel = author.getByRole('dialog', { name: /Comments on Body/ });
    const thread = panel.getByRole('listitem').filter({ hasText: 'please give the price of the soup' }).first();
    await thread.getByRole('button', { name: 'Resolve' }).click();
    await visible(panel.getByText(/0 open/));
    await author.keyboard.press('Escape');
    // The author made the latest changes: someone else approves them.
    expect(await workflowPanel(author).getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
  }, 120_000);

  it('the owner approves, moves the article to Ready and publishes it; production serves the fix', async () => {
    await owner.reload();
    await visible(heading(owner, 'Autumn menu'));
    expect(await owner.getByRole('textbox', { name: 'Body' }).inputValue()).toBe('Pumpkin soup, 6 €.');
    await workflowPanel(owner).getByRole('button', { name: 'Approve' }).click();
    await visible(workflowPanel(owner).getByText('1 of 1 approvals'));
    await workflowPanel(owner).getByRole('button', { name: 'Move to stage…' }).click();
    await owner.getByRole('menuitem', { name: /Ready/ }).click();
    await stageIs(owner, 'Ready');
    await publishFromEditor(owner);
    const slug = new URL(entryUrl).pathname.split('/').pop()!;
    await until(async () => {
      const res = await fetch(`${server.base}/api/v1/public/entries/${slug}?type=article`, { headers: { 'X-API-Key': production } });
      if (res.status !== 200) return false;
      const body = (await res.json()) as { data: { entry: { data: string } } };
      return (JSON.parse(body.data.entry.data) as { body: string }).body === 'Pumpkin soup, 6 €.';
    }, 'the published article in production');
    await owner.goto(`${ws}/settings/workflows`);
    await visible(owner.getByText('Editorial').first());
    await expectAccessible(owner, 'settings/workflows');
  }, 120_000);
});
