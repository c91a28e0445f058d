/**
 * The page editor in jsdom with a fake API: the page's tree loads with its SEO; an edit autosaves
 * the whole tree with its block ids and If-Match; a refused publish puts the server's message
 * under the block's field, marks the block, lists the field by block position and type and
 * focuses it, and a click in that list expands a collapsed block and focuses its field (below
 * 900 px from the live preview's tab too: the Edit tab first). The page's own title and slug take
 * comments (`title`, `slug`, without a locale).
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeField } from '../../fields/shared/test-utils';
import { PREVIEW_TAB_QUERY } from '../../editor/LivePreview';
import { setPublishWithoutAsking } from '../../editor/publish-confirm';
import PageEditor from './PageEditor';
import { fakeApi, ok, okList, refusal, renderScreen, stubMatchMedia, type FakeCall } from '../../app/test-utils';

const SECTION = {
  id: 't-section',
  slug: 'section',
  name: 'Section',
  is_block: true,
  display_field: null,
  fields: [makeField({ name: 'heading', label: 'Heading', field_type: 'text', required: true, localizable: true })],
};
const PAGE = {
  id: 'p1',
  workspace_id: 'ws-1',
  slug: 'home',
  status: 'draft',
  position: 0,
  seo: { title: 'Home', description: null, keywords: [], og_image: null, canonical: null },
  publish_at: null,
  published_at: null,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  created_by: 1,
  updated_by: 1,
  has_pending_changes: false,
  published_version: null,
};
const BLOCK_ID = '01a20571-0bb3-71f2-96d0-a30739092b27';
let calls: FakeCall[] = [];

/** The suite's fake answers (beforeEach), for a test that adds some of its own. */
let answerOf: (call: FakeCall) => Response | null = () => null;

beforeEach(() => {
  answerOf = ({ method, path }) => {
    if (path === '/content-types') return okList([SECTION]);
    if (path === '/workspace') return ok({ id: 'ws-1', slug: 'demo', name: 'Demo', locales: ['en', 'de'], default_locale: 'en', preview_url_template: null });
    if (path === '/pages/home' && method === 'GET')
      return ok({
        page: PAGE,
        blocks: [{ id: BLOCK_ID, page_id: 'p1', block_type_id: 't-section', type: 'section', position: 0, data: '{"heading":"Welcome"}', children: [] }],
        seo_translations: [],
        block_translations: [],
      });
    if (path === '/pages/home' && method === 'PUT') return ok(PAGE, null, '"p1-2"');
    if (path === '/pages/home/publish')
      return refusal(400, 'VALIDATION_FAILED', 'Validation failed', [{ path: 'blocks.0.data.heading', message: 'is required' }]);
    if (path.endsWith('/versions') || path === '/users') return okList([]);
    return null;
  };
  calls = fakeApi(answerOf);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setPublishWithoutAsking(false);
  localStorage.clear();
});

const renderEditor = () => renderScreen(<PageEditor />, '/:workspace/pages/:slug', '/demo/pages/home', 'editor');

/** The editor with its heading emptied and refused by a publish (without the confirmation); answers the refused field's button. */
async function refusedHeading() {
  renderEditor();
  await screen.findByRole('heading', { name: 'Home', level: 1 }, { timeout: 5000 });
  await userEvent.clear(screen.getByRole('textbox', { name: 'Heading' }));
  setPublishWithoutAsking(true);
  await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
  return screen.findByRole('button', { name: 'Block 1: Section › Heading' });
}

describe('page editor', () => {
  it('autosaves the whole tree with its block ids, and shows a refused publish on the block field', async () => {
    renderEditor();
    await screen.findByRole('heading', { name: 'Home', level: 1 }, { timeout: 5000 });
    const heading = screen.getByRole('textbox', { name: 'Heading' });
    expect(heading).toHaveValue('Welcome');
    await userEvent.clear(heading);
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    // Nothing is live yet: the confirmation lists all of the page.
    const confirm = await screen.findByRole('dialog', { name: 'Publish: “Home”?' });
    expect(within(confirm).getByRole('list', { name: 'What goes live' })).toHaveTextContent('SEO title');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH' && c.path === '/pages/home/publish')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT')!;
    expect(put.ifMatch).toBe('"p1-1"');
    expect(put.body).toMatchObject({
      seo: { title: 'Home' },
      seo_translations: {},
      blocks: [{ id: BLOCK_ID, type: 'section', data: {}, translations: {}, children: [] }],
    });
    expect(calls.find((c) => c.path === '/pages/home/publish')!.ifMatch).toBe('"p1-2"');
    expect(await screen.findByText('is required')).toBeInTheDocument();
    expect(screen.getByText('needs attention')).toBeInTheDocument();
    const alert = screen.getByRole('alert', { name: /Some fields need attention/ });
    expect(alert).toHaveTextContent('Block 1: Section › Heading: is required');
    // The first refused field has the focus at once.
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Heading' })).toHaveFocus());
  });

  it('takes a click on a refused field to it: the block expanded, the field focused', async () => {
    const go = await refusedHeading();
    await userEvent.click(screen.getByRole('button', { name: /^Collapse Section/ }));
    expect(screen.queryByRole('textbox', { name: 'Heading' })).toBeNull();
    await userEvent.click(go);
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Heading' })).toHaveFocus());
  });

  it('goes to the field a click-to-edit link names: ?block=…&field=…&locale=… (D141)', async () => {
    renderScreen(<PageEditor />, '/:workspace/pages/:slug', `/demo/pages/home?block=${BLOCK_ID}&path=blocks.0&field=heading&locale=en`, 'editor');
    const heading = await screen.findByRole('textbox', { name: 'Heading' }, { timeout: 5000 });
    await waitFor(() => expect(heading).toHaveFocus());
  });

  it('goes to a block field clicked in the site preview, expanding its block (quire:edit, D141)', async () => {
    const page = (path: string, method: string) =>
      path === '/workspace'
        ? ok({
            id: 'ws-1',
            slug: 'demo',
            name: 'Demo',
            locales: ['en', 'de'],
            default_locale: 'en',
            preview_url_template: 'http://site.test/p?slug={slug}&token={token}',
          })
        : path === '/preview-tokens' && method === 'POST'
          ? ok({ token: 't', expires_at: new Date(Date.now() + 3600_000).toISOString() })
          : null;
    calls = fakeApi((call) => page(call.path, call.method) ?? answerOf(call));
    renderEditor();
    await screen.findByRole('heading', { name: 'Home', level: 1 }, { timeout: 5000 });
    await userEvent.click(screen.getByRole('button', { name: 'Live preview' }));
    await waitFor(() => expect(document.querySelector('iframe')).not.toBeNull());
    await userEvent.click(screen.getByRole('button', { name: /^Collapse Section/ }));
    expect(screen.queryByRole('textbox', { name: 'Heading' })).toBeNull();
    const edit = {
      type: 'quire:edit',
      kind: 'block',
      id: BLOCK_ID,
      field: 'heading',
      locale: 'en',
      href: `http://localhost/studio/demo/pages/home?block=${BLOCK_ID}`,
    };
    act(() => {
      window.dispatchEvent(new MessageEvent('message', { data: edit, origin: 'http://site.test', source: document.querySelector('iframe')!.contentWindow }));
    });
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Heading' })).toHaveFocus());
  });

  it('below 900 px, a click on a refused field from the Preview tab shows the Edit tab, then focuses the field', async () => {
    // A phone's width: the live preview is a tab beside the form (EditorColumns).
    stubMatchMedia([PREVIEW_TAB_QUERY]);
    const go = await refusedHeading();
    await userEvent.click(screen.getByRole('button', { name: 'Live preview' }));
    expect(screen.getByRole('tab', { name: 'Preview' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('textbox', { name: 'Heading', hidden: true })).not.toBeVisible();
    await userEvent.click(go);
    expect(screen.getByRole('tab', { name: 'Edit' })).toHaveAttribute('aria-selected', 'true');
    const heading = screen.getByRole('textbox', { name: 'Heading' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toBeVisible();
  });

  it('takes comments on the page’s own title and slug (not localized), beside the heading and the slug', async () => {
    const slugThread = {
      id: 'c1',
      item: { kind: 'page', id: 'p1', content_type: null, slug: 'home' },
      field: 'slug',
      locale: null,
      parent_id: null,
      body: 'Shorter address?',
      author: { id: 2, email: 'bob@example.com', name: 'Bob' },
      mentions: [],
      resolved: false,
      resolved_by: null,
      resolved_at: null,
      created_at: '2026-11-29T10:00:00.000Z',
      updated_at: '2026-11-29T10:00:00.000Z',
      edited: false,
    };
    calls = fakeApi((call) => {
      if (call.path === '/pages/home/comments' && call.method === 'GET') return ok([slugThread]);
      if (call.path === '/pages/home/comments' && call.method === 'POST') return ok({ ...slugThread, id: 'c2', ...(call.body as object) });
      return answerOf(call);
    });
    renderEditor();
    // The heading keeps its own name; its comment button sits beside it.
    await screen.findByRole('heading', { name: 'Home', level: 1 }, { timeout: 5000 });
    expect(await screen.findByRole('button', { name: 'Comments on Slug: 1 open' })).toBeInTheDocument();
    // Not localized: the comment carries no locale.
    await userEvent.click(screen.getByRole('button', { name: 'Comment on Page title' }));
    const panel = await screen.findByRole('dialog', { name: 'Comments on Page title' });
    await userEvent.type(within(panel).getByLabelText('New comment on Page title'), 'Say “Start” instead');
    await userEvent.click(within(panel).getByRole('button', { name: 'Comment' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST' && c.path === '/pages/home/comments')?.body).toEqual({ body: 'Say “Start” instead', field: 'title' }),
    );
  });
});
