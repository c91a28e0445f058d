/**
 * The workspace home in jsdom with a fake API: recent changes and scheduled publications list
 * each item under the title GET /overview gives it (an entry's display value, a page's SEO title,
 * else the slug), linking to its editor; no other request is needed for the titles; opened again,
 * home reads the overview again (an item renamed meanwhile shows its new title).
 */
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Overview } from '../../api/types';
import Home from './Home';
import { fakeApi, ok, renderScreen, type FakeCall } from '../../app/test-utils';

const counts = { draft: 1, scheduled: 1, published: 1, archived: 0, total: 3 };
const at = '2026-11-24T08:00:00.000Z';
const OVERVIEW: Overview = {
  content_types: [{ id: 't1', slug: 'post', name: 'Post', is_block: false, counts }],
  pages: counts,
  recent: [
    {
      kind: 'entry',
      id: 'e1',
      slug: 'hello-quire',
      title: 'Hello Quire',
      content_type: 'post',
      action: 'update',
      version: 2,
      status: 'draft',
      created_at: at,
      created_by: 1,
    },
    {
      kind: 'entry',
      id: 'e2',
      slug: 'untitled',
      title: 'untitled',
      content_type: 'post',
      action: 'create',
      version: 1,
      status: 'draft',
      created_at: at,
      created_by: 1,
    },
    {
      kind: 'page',
      id: 'p1',
      slug: 'home',
      title: 'Welcome home',
      content_type: null,
      action: 'publish',
      version: 3,
      status: 'published',
      created_at: at,
      created_by: 1,
    },
  ],
  scheduled: [{ kind: 'entry', id: 'e3', slug: 'soon', title: 'Coming soon', content_type: 'post', publish_at: '2026-12-01T10:00:00.000Z' }],
};
let calls: FakeCall[] = [];

beforeEach(() => {
  calls = fakeApi(({ path }) => (path === '/overview' ? ok(OVERVIEW) : null));
});
afterEach(() => vi.unstubAllGlobals());

describe('home', () => {
  it('lists recent and scheduled items under their titles, linking to their editors', async () => {
    renderScreen(<Home />, '/:workspace', '/demo', 'editor');
    const recent = await screen.findByRole('table', { name: 'Recent changes' });
    expect(within(recent).getByRole('link', { name: 'Hello Quire' })).toHaveAttribute('href', '/demo/content/post/hello-quire');
    expect(within(recent).getByRole('link', { name: 'untitled' })).toHaveAttribute('href', '/demo/content/post/untitled');
    expect(within(recent).getByRole('link', { name: 'Welcome home' })).toHaveAttribute('href', '/demo/pages/home');
    expect(within(recent).queryByText('hello-quire')).toBeNull();
    const scheduled = screen.getByRole('table', { name: 'Scheduled publications' });
    expect(within(scheduled).getByRole('link', { name: 'Coming soon' })).toHaveAttribute('href', '/demo/content/post/soon');
    expect(calls.map((c) => c.path)).toEqual(['/overview']);
  });

  it('reads the overview again when home opens again, showing the cached one meanwhile', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: 30_000 } } });
    const first = renderScreen(<Home />, '/:workspace', '/demo', 'editor', client);
    await screen.findByRole('link', { name: 'Hello Quire' });
    first.unmount();
    const renamed = { ...OVERVIEW, recent: [{ ...OVERVIEW.recent[0], title: 'Hello again', version: 3 }] };
    fakeApi(({ path }) => (path === '/overview' ? ok(renamed) : null));
    renderScreen(<Home />, '/:workspace', '/demo', 'editor', client);
    expect(screen.getByRole('link', { name: 'Hello Quire' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('link', { name: 'Hello again' })).toBeInTheDocument());
  });
});
