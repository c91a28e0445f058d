/**
 * The Studio's accessibility sweep in Chromium against one real server (SQLite): every route of
 * the Studio × {1440, 390 px wide} × {en, de} (a browser in en-US or de-DE, and the editors
 * switched to that content locale), each with its menus, popovers and dialogs opened one after
 * the other, checked with axe-core (WCAG 2.0/2.1 A and AA and best practices). Any violation, of
 * any impact, fails the sweep; every finding is listed at the end. Also: a refused publish lists
 * each failing block field by block type and position and focuses the first (a click on another
 * expands, scrolls to and focuses it), and below 900 px the live preview is a tab of its own.
 *
 * One server, one browser, one page per browser locale, reused across routes; one case per
 * language and width. SWEEP_SCREENS="page editor,home" runs only those screens.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  describeViolations,
  launchBrowser,
  printAxeResults,
  publishFromEditor,
  scanAccessibility,
  setUpOwner,
  skipBrowserSuites,
  startStudioServer,
  until,
  type StudioServer,
} from './harness.js';

const PASSWORD = 'owner password 123';
const visible = (l: Locator) => l.waitFor({ state: 'visible' });
const hidden = (l: Locator) => l.waitFor({ state: 'hidden' });

/** A popup the sweep opens: `open` shows it and answers the CSS selector axe checks; `close` hides it. */
interface Popup {
  name: string;
  /** only at this width (the burger exists only on narrow screens) */
  width?: number;
  /** only in the default locale (en): the control edits a field that is not localizable */
  defaultLocaleOnly?: boolean;
  open: (page: Page) => Promise<string>;
  close?: (page: Page) => Promise<void>;
}

interface Screen {
  name: string;
  path: string;
  /** what shows once the screen has loaded */
  ready: (page: Page) => Locator;
  /** the editors: switch the content locale */
  editor?: boolean;
  popups: Popup[];
}

const escape = async (page: Page) => {
  await page.keyboard.press('Escape');
};
const closeDialog = async (page: Page) => {
  const open = await page.getByRole('dialog').count();
  await page.keyboard.press('Escape');
  await until(async () => (await page.getByRole('dialog').count()) < open, 'the dialog to close');
};
/** A dialog opened by the button `name`, checked on its own. */
const dialogFrom = (name: string | RegExp, exact = true): Popup => ({
  name: `dialog ${String(name)}`,
  open: async (page) => {
    await page
      .getByRole('button', { name, exact: typeof name === 'string' ? exact : undefined })
      .first()
      .click();
    await visible(page.getByRole('dialog').last());
    return '[role=dialog]';
  },
  close: closeDialog,
});
/** A menu opened by the button `name`. */
const menuFrom = (name: string | RegExp): Popup => ({
  name: `menu ${String(name)}`,
  open: async (page) => {
    await page
      .getByRole('button', { name, exact: typeof name === 'string' })
      .first()
      .click();
    await visible(page.getByRole('menu'));
    return '[role=menu]';
  },
  close: async (page) => {
    await escape(page);
    await hidden(page.getByRole('menu'));
  },
});
/** A select's list of options, opened from the combobox `label`. */
const listFrom = (label: string | RegExp): Popup => ({
  name: `options of ${String(label)}`,
  open: async (page) => {
    const exact = typeof label === 'string';
    await page
      .getByRole('textbox', { name: label, exact })
      .or(page.getByRole('combobox', { name: label, exact }))
      .first()
      .click();
    await visible(page.getByRole('listbox'));
    return '[role=listbox]';
  },
  close: async (page) => {
    await escape(page);
    await hidden(page.getByRole('listbox'));
  },
});
/** The editors' locale switcher to de (a segmented control: its label takes the click). */
const switchToGerman = async (page: Page) => {
  await page.locator('label', { hasText: /^de$/ }).click();
  await until(async () => page.getByRole('radio', { name: 'de', exact: true }).isChecked(), 'the editor in de');
};
const burger: Popup = {
  name: 'navigation',
  width: 390,
  open: async (page) => {
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await visible(page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Content model' }));
    return 'body';
  },
  close: async (page) => {
    await page.getByRole('button', { name: 'Close navigation' }).click();
    await hidden(page.getByRole('navigation', { name: 'Studio' }).getByRole('link', { name: 'Content model' }));
  },
};

describe.skipIf(skipBrowserSuites())('Studio accessibility sweep in Chromium', () => {
  let server: StudioServer;
  let browser: Browser;
  let ws: string;
  let mgmt: string;
  let assetId: string;
  let releaseId: string;
  const contexts: BrowserContext[] = [];

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
  const upload = async (name: string, color: string, alt?: string) => {
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
    if (alt) form.set('alt_text', alt);
    const res = await fetch(`${server.base}/api/v1/manage/media/upload`, {
      method: 'POST',
      headers: { 'X-API-Key': mgmt, 'X-Workspace-ID': server.workspace.id },
      body: form,
    });
    return ((await res.json()) as { data: { id: string } }).data.id;
  };

  beforeAll(async () => {
    [server, browser] = await Promise.all([startStudioServer({ workspace: 'sweep' }), launchBrowser()]);
    ws = `${server.base}/studio/${server.workspace.slug}`;
    mgmt = (JSON.parse(server.cli(['keys', 'create', '--workspace', 'sweep', '--class', 'management', '--json'])) as { key: string }).key;
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
        { name: 'day', label: 'Day', field_type: 'date' },
        { name: 'starts', label: 'Starts', field_type: 'datetime' },
        { name: 'kind', label: 'Kind', field_type: 'select', options: ['news', 'essay'] },
        { name: 'tags', label: 'Tags', field_type: 'multi_select', options: ['a', 'b'] },
        { name: 'featured', label: 'Featured', field_type: 'boolean' },
        { name: 'cover', label: 'Cover', field_type: 'media' },
        { name: 'author', label: 'Author', field_type: 'relation', options: ['author'] },
      ],
    });
    await manage('POST', '/content-types', {
      name: 'Section',
      slug: 'section',
      is_block: true,
      fields: [{ name: 'heading', label: 'Heading', field_type: 'text', required: true, localizable: true }],
    });
    await manage('POST', '/content-types', {
      name: 'Card',
      slug: 'card',
      is_block: true,
      fields: [
        { name: 'title', label: 'Title', field_type: 'text', required: true, localizable: true },
        { name: 'image', label: 'Image', field_type: 'media' },
      ],
    });
    await manage('POST', '/content-types/author/entries', { slug: 'ada', data: { name: 'Ada Lovelace' } });
    assetId = await upload('team.png', '#3b82f6', 'The team');
    await upload('no-alt.png', '#ef4444');
    await manage('POST', '/content-types/post/entries', { slug: 'first', data: { title: 'First post', kind: 'news', cover: assetId } });
    await manage('PATCH', '/content-types/post/entries/first/publish');
    await manage('PUT', '/content-types/post/entries/first', { data: { title: 'First post, edited', kind: 'news', cover: assetId } });
    for (const title of ['Second post', 'Third post']) await manage('POST', '/content-types/post/entries', { data: { title } });
    releaseId = (await manage('POST', '/releases', { title: 'Autumn launch', description: 'The campaign' })).id as string;
    await manage('POST', `/releases/${releaseId}/items`, {
      kind: 'entry',
      id: (await manage('GET', '/content-types/post/entries/first')).id,
      action: 'publish',
    });
    await manage('POST', '/pages', {
      slug: 'welcome',
      seo: { title: 'Welcome' },
      blocks: [
        { type: 'section', data: { heading: 'Intro' }, children: [{ type: 'card', data: { title: 'First card' } }] },
        { type: 'card', data: { title: 'Second card' } },
      ],
    });
    // Two refused fields: a card inside the first section, and the last block, far down the page.
    await manage('POST', '/pages', {
      slug: 'unfinished',
      seo: { title: 'Unfinished' },
      blocks: [
        { type: 'section', data: { heading: 'Top' }, children: [{ type: 'card', data: {} }] },
        ...['B', 'C', 'D', 'E', 'F', 'G'].map((heading) => ({ type: 'section', data: { heading }, children: [] })),
        { type: 'card', data: {} },
      ],
    });

    // A comment thread on the first post's title and one on the page's SEO title (D131): the comment panels list them.
    const thread = await manage('POST', '/content-types/post/entries/first/comments', { body: 'Is this title too long?', field: 'title', locale: 'en' });
    await manage('POST', '/content-types/post/entries/first/comments', { body: 'Shortened it.', parent_id: thread.id });
    await manage('POST', '/pages/welcome/comments', { body: 'A friendlier title?', field: 'seo.title', locale: 'en' });

    const first = await browser.newContext({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce', locale: 'en-US' });
    contexts.push(first);
    const page = await first.newPage();
    page.setDefaultTimeout(10_000);
    await setUpOwner(page, server, PASSWORD);
    const de = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      reducedMotion: 'reduce',
      locale: 'de-DE',
      storageState: await first.storageState(),
    });
    contexts.push(de);
    (await de.newPage()).setDefaultTimeout(10_000);
    // A review workflow over authors (D130): Ada waits in Review for one approval, assigned to the owner.
    await manage('POST', '/workflows', {
      name: 'Editorial',
      content_types: ['author'],
      stages: [{ name: 'Draft' }, { name: 'Review', required_approvals: 1 }, { name: 'Ready' }],
      publish_stage: 'Ready',
    });
    await manage('POST', '/content-types/author/entries/ada/stage', { stage: 'Review' });
    await manage('PATCH', '/content-types/author/entries/ada/assignees', { assignees: ['owner@example.com'] });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    printAxeResults('studio sweep');
  }, 120_000);

  const screens = (): Screen[] => [
    {
      name: 'home',
      path: '',
      ready: (p) => p.getByRole('heading', { name: 'Recent changes' }),
      popups: [
        burger,
        {
          name: 'notifications',
          open: async (page) => {
            await page.getByRole('button', { name: /^Notifications/ }).click();
            await visible(page.getByRole('dialog', { name: 'Notifications' }));
            return 'body';
          },
          close: closeDialog,
        },
      ],
    },
    {
      name: 'model',
      path: '/model',
      // The model list's own Post link: the navbar's Post link is there before the lazily loaded
      // screen, and an axe scan then found the page without its h1.
      ready: (p) => p.getByRole('main').getByRole('link', { name: 'Post', exact: true }),
      popups: [burger, dialogFrom('Create content type')],
    },
    {
      name: 'content type',
      path: '/model/post',
      ready: (p) => p.getByRole('button', { name: 'Edit field Title' }),
      popups: [dialogFrom('Add field'), dialogFrom('Edit field Title'), dialogFrom('Impact of changing field Title'), dialogFrom('Delete content type')],
    },
    {
      name: 'block type',
      path: '/model/section',
      ready: (p) => p.getByRole('button', { name: 'Edit field Heading' }),
      popups: [dialogFrom('Delete block type')],
    },
    {
      name: 'entries list',
      path: '/content/post',
      ready: (p) => p.getByRole('table', { name: 'Post entries' }),
      popups: [
        listFrom('Status'),
        listFrom('Sort'),
        {
          name: 'bulk actions and schedule',
          open: async (page) => {
            await page.getByRole('checkbox', { name: /^Select Second post/ }).check();
            await page
              .getByRole('region', { name: 'Bulk actions' })
              .getByRole('button', { name: /^Schedule/ })
              .click();
            await visible(page.getByRole('dialog'));
            return 'body';
          },
          close: async (page) => {
            await closeDialog(page);
            await page.getByRole('checkbox', { name: /^Select Second post/ }).uncheck();
          },
        },
      ],
    },
    {
      name: 'entries list with a workflow',
      path: '/content/author',
      ready: (p) => p.getByRole('table', { name: 'Author entries' }),
      popups: [listFrom('Stage'), listFrom('Assignee')],
    },
    {
      name: 'entry editor with a workflow',
      path: '/content/author/ada',
      ready: (p) => p.getByRole('region', { name: 'Review workflow' }),
      popups: [menuFrom('Move to stage…'), dialogFrom('Request changes'), listFrom('Assignees')],
    },
    { name: 'new entry', path: '/content/post/new', ready: (p) => p.getByRole('button', { name: 'Create entry' }), popups: [] },
    {
      name: 'entry editor',
      path: '/content/post/first',
      editor: true,
      ready: (p) => p.getByRole('status', { name: /^Save state/ }),
      popups: [
        {
          name: 'date picker',
          open: async (page) => {
            await page.getByRole('button', { name: /^Day/ }).first().click();
            await visible(page.locator('.mantine-Popover-dropdown:visible'));
            return '.mantine-Popover-dropdown';
          },
          close: async (page) => {
            await escape(page);
            await hidden(page.locator('.mantine-Popover-dropdown:visible'));
          },
          defaultLocaleOnly: true,
        },
        { ...listFrom(/^Kind/), defaultLocaleOnly: true },
        { ...dialogFrom(/^(Choose|Replace) media for Cover/), defaultLocaleOnly: true },
        { ...dialogFrom(/^(Choose|Replace) entry for Author/), defaultLocaleOnly: true },
        dialogFrom('View version 1'),
        dialogFrom('Delete'),
        dialogFrom('Publish changes'),
        {
          name: 'comment panel with the mention list',
          open: async (page) => {
            await page.getByRole('button', { name: /^Comments? on Title/ }).click();
            const panel = page.getByRole('dialog', { name: /^Comments on Title/ });
            await visible(panel);
            await panel.getByRole('textbox', { name: /^New comment on Title/ }).fill('@own');
            await visible(page.getByRole('listbox', { name: 'Members to mention' }));
            return 'body';
          },
          close: async (page) => {
            await page.getByRole('textbox', { name: /^New comment on Title/ }).fill('');
            await closeDialog(page);
          },
        },
        dialogFrom('Comments: 1 open'),
        {
          name: 'live preview',
          open: async (page) => {
            await page.getByRole('button', { name: 'Live preview', exact: true }).click();
            await visible(page.getByText('Built-in preview', { exact: true }));
            return 'body';
          },
          close: async (page) => {
            await page.getByRole('button', { name: 'Live preview', exact: true }).click();
            await hidden(page.getByText('Built-in preview', { exact: true }));
          },
        },
      ],
    },
    {
      name: 'pages list',
      path: '/pages',
      ready: (p) => p.getByRole('list', { name: 'Pages in navigation order' }),
      popups: [dialogFrom('New page'), dialogFrom('Delete Welcome')],
    },
    {
      name: 'page editor',
      path: '/pages/welcome',
      editor: true,
      ready: (p) => p.getByRole('list', { name: 'Block tree' }),
      popups: [
        menuFrom('Add block'),
        menuFrom(/^Actions for Section/),
        dialogFrom('Rename'),
        { ...dialogFrom(/^Choose media for Image/), defaultLocaleOnly: true },
        {
          name: 'move to',
          open: async (page) => {
            await page.getByRole('button', { name: /^Actions for Card “Second card”/ }).click();
            await page.getByRole('menuitem', { name: 'Move to…' }).click();
            await visible(page.getByRole('dialog'));
            return '[role=dialog]';
          },
          close: closeDialog,
        },
        dialogFrom('Publish'),
        dialogFrom(/^Comments? on SEO title/),
      ],
    },
    { name: 'releases', path: '/releases', ready: (p) => p.getByRole('table', { name: 'Releases' }), popups: [dialogFrom('New release')] },
    {
      name: 'release',
      path: '/releases/RELEASE',
      ready: (p) => p.getByRole('table', { name: 'Items of the release' }),
      popups: [dialogFrom('Changes of Post first'), dialogFrom('Publish now'), dialogFrom('Schedule'), dialogFrom('Delete release')],
    },
    {
      name: 'media library',
      path: '/media',
      ready: (p) => p.getByRole('list', { name: 'Media' }),
      popups: [listFrom('Type'), listFrom('Folder')],
    },
    {
      name: 'asset details',
      path: `/media?asset=ASSET`,
      ready: (p) => p.getByLabel('Alt text', { exact: true }),
      popups: [dialogFrom('Delete asset')],
    },
    { name: 'settings general', path: '/settings/general', ready: (p) => p.getByLabel(/^Workspace name/), popups: [] },
    {
      name: 'settings locales',
      path: '/settings/locales',
      ready: (p) => p.getByRole('button', { name: 'Remove locale de' }),
      popups: [dialogFrom('Remove locale de')],
    },
    { name: 'settings api keys', path: '/settings/api-keys', ready: (p) => p.getByRole('table', { name: 'API keys' }), popups: [dialogFrom('Create API key')] },
    { name: 'settings webhooks', path: '/settings/webhooks', ready: (p) => p.getByText('No webhooks yet.'), popups: [dialogFrom('Add webhook')] },
    { name: 'settings people', path: '/settings/people', ready: (p) => p.getByRole('table', { name: 'People' }), popups: [dialogFrom('Invite person')] },
    { name: 'settings audit log', path: '/settings/audit-log', ready: (p) => p.getByRole('table', { name: 'Audit log' }), popups: [] },
    { name: 'settings roles', path: '/settings/roles', ready: (p) => p.getByRole('table', { name: 'Roles' }), popups: [dialogFrom('Create role')] },
    {
      name: 'settings workflows',
      path: '/settings/workflows',
      ready: (p) => p.getByRole('table', { name: 'Workflows' }),
      popups: [dialogFrom('Create workflow'), dialogFrom('Edit workflow Editorial')],
    },
    { name: 'graphql explorer', path: '/graphql', ready: (p) => p.getByRole('heading', { name: 'GraphQL explorer', level: 1 }), popups: [] },
    { name: 'not found', path: '/no-such-screen', ready: (p) => p.getByRole('heading', { level: 1 }), popups: [] },
  ];

  it('a refused publish lists each failing block field by type and position and focuses the first; a click expands, scrolls to and focuses another', async () => {
    const page = contexts[0].pages()[0];
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${ws}/pages/unfinished`);
    await visible(page.getByRole('list', { name: 'Block tree' }));
    await page.getByRole('button', { name: 'Collapse Card #9' }).click();
    await publishFromEditor(page);
    const list = page.getByRole('list', { name: 'Fields that need attention' });
    await visible(list);
    expect(await list.getByRole('listitem').allInnerTexts()).toEqual(['Block 1.1: Card › Title: is required', 'Block 8: Card › Title: is required']);
    const focusedRow = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        const row = el?.closest('li[data-block]');
        const box = el?.getBoundingClientRect();
        return {
          row: row?.querySelector('button[aria-label^="Drag"]')?.getAttribute('aria-label') ?? null,
          invalid: el?.getAttribute('aria-invalid') ?? null,
          onScreen: box ? box.top >= 0 && box.bottom <= window.innerHeight : false,
        };
      });
    await until(async () => (await focusedRow()).row === 'Drag Card #2', 'the first refused field focused');
    expect(await focusedRow()).toEqual({ row: 'Drag Card #2', invalid: 'true', onScreen: true });
    await page.getByRole('button', { name: 'Block 8: Card › Title' }).click();
    await until(async () => (await focusedRow()).row === 'Drag Card #9', 'the collapsed block expanded and its field focused');
    expect(await focusedRow()).toEqual({ row: 'Drag Card #9', invalid: 'true', onScreen: true });
  }, 120_000);

  it('below 900 px the live preview is a tab beside the form, at the top of the screen', async () => {
    const page = contexts[0].pages()[0];
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${ws}/content/post/first`);
    await visible(page.getByRole('status', { name: /^Save state/ }));
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await page.getByRole('button', { name: 'Live preview', exact: true }).click();
    const previewTab = page.getByRole('tab', { name: 'Preview' });
    await visible(previewTab);
    expect(await previewTab.getAttribute('aria-selected')).toBe('true');
    const pane = page.getByText('Built-in preview', { exact: true });
    await visible(pane);
    expect((await pane.boundingBox())!.y).toBeLessThan(844);
    expect(await title.isVisible()).toBe(false);
    await page.getByRole('tab', { name: 'Edit' }).click();
    await visible(title);
    expect(await pane.isVisible()).toBe(false);
    await page.setViewportSize({ width: 1440, height: 900 });
    // wide again: side by side, no tabs
    await visible(pane);
    expect(await page.getByRole('tab', { name: 'Preview' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Live preview', exact: true }).click();
    await hidden(pane);
  }, 120_000);

  // One case per browser language and width, so each reports on its own.
  for (const [i, locale] of (['en', 'de'] as const).entries())
    for (const width of [1440, 390])
      it(`every route at ${width} px in ${locale}, with its menus, popovers and dialogs open: no axe violation of any impact`, async () => {
        const started = Date.now();
        const findings: string[] = [];
        const unopened: string[] = [];
        // SWEEP_SCREENS="page editor,home" reruns a few screens while fixing them.
        const only = process.env.SWEEP_SCREENS?.split(',');
        const page = contexts[i].pages()[0];
        const check = async (label: string, within?: string) => {
          const { violations } = await scanAccessibility(page, label, within);
          if (violations.length) findings.push(`${label}:\n  ${describeViolations(violations).join('\n  ')}`);
        };
        const open = async (screen: Screen) => {
          await page.goto(`${ws}${screen.path.replace('ASSET', assetId).replace('RELEASE', releaseId)}`);
          await visible(screen.ready(page));
          if (screen.editor && locale === 'de') await switchToGerman(page);
        };
        await page.setViewportSize({ width, height: width > 900 ? 900 : 844 });
        for (const screen of screens().filter((x) => !only || only.includes(x.name))) {
          const label = `${screen.name} ${width} ${locale}`;
          await open(screen);
          await check(label);
          for (const popup of screen.popups) {
            if (popup.width && popup.width !== width) continue;
            if (popup.defaultLocaleOnly && locale !== 'en') continue;
            try {
              const within = await popup.open(page);
              await check(`${label}: ${popup.name}`, within === 'body' ? undefined : within);
              await popup.close?.(page);
            } catch (err) {
              // Recorded, so one run lists every popup that fails; the screen is opened again for the next.
              unopened.push(`${label}: ${popup.name}: ${(err as Error).message.split('\n')[0]}`);
              await open(screen);
            }
          }
        }
        process.stdout.write(`\n[studio sweep] ${width} px ${locale}: ${Date.now() - started} ms\n`);
        expect(unopened, unopened.join('\n')).toEqual([]);
        expect(findings, findings.join('\n')).toEqual([]);
      }, 600_000);
});
