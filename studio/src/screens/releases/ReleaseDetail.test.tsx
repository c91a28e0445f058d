/**
 * The release screen in jsdom with a fake API: items with their action, status and conflict;
 * Validate listing each problem by item and field; a refused publication listing every problem;
 * a revert refused for items published again since, then forced; a viewer's screen without
 * publishing or deleting. Also the problem labels and the list's status filter.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionWorkspace } from '../../api/session';
import type { Release, ReleaseItem } from '../../api/types';
import { fakeApi, ok, okList, refusal, renderScreen, type FakeCall } from '../../app/test-utils';
import ReleaseDetail, { problemLabel } from './ReleaseDetail';
import ReleasesList from './ReleasesList';

const ID = '11111111-1111-4111-8111-111111111111';
const release = (over: Partial<Release> = {}): Release => ({
  id: ID,
  title: 'Autumn launch',
  description: 'The campaign',
  status: 'open',
  publish_at: null,
  published_at: null,
  reverted_at: null,
  failure: null,
  items_count: 2,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  created_by: 1,
  ...over,
});
const item = (id: string, kind: ReleaseItem['kind'], slug: string, over: Partial<ReleaseItem> = {}): ReleaseItem => ({
  kind,
  id,
  slug,
  content_type: kind === 'entry' ? 'post' : null,
  action: 'publish',
  base_version: 2,
  conflict: false,
  status: 'published',
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  ...over,
});
const ITEMS = [item('e1', 'entry', 'first-post', { conflict: true }), item('p1', 'page', 'autumn', { action: 'unpublish' })];
const postType = { id: 't1', slug: 'post', name: 'Post', is_block: false, fields: [] };

afterEach(() => vi.unstubAllGlobals());

function serve(current: Release, extra: (c: FakeCall) => Response | null = () => null): FakeCall[] {
  return fakeApi((c) => {
    const answer = extra(c);
    if (answer) return answer;
    if (c.path === `/releases/${ID}` && c.method === 'GET') return ok(current);
    if (c.path === `/releases/${ID}/items`) return ok(ITEMS);
    if (c.path === '/content-types') return okList([postType]);
    if (c.path === '/releases') return okList([current]);
    return null;
  });
}
const renderAs = (role: SessionWorkspace['role']) => renderScreen(<ReleaseDetail />, '/:workspace/releases/:id', `/demo/releases/${ID}`, role);

describe('release screen', () => {
  it('lists the items and says what keeps the release from going live', async () => {
    const calls = serve(release(), (c) =>
      c.path === `/releases/${ID}/validation`
        ? ok({ valid: false, problems: [{ path: 'entry.e1.data.title', message: "entry 'first-post' (post): is required" }] })
        : c.path === `/releases/${ID}/publish`
          ? refusal(422, 'RELEASE_INVALID', 'The release cannot be published: 2 problems', [
              { path: 'entry.e1.data.title', message: 'is required' },
              { path: 'page.p1', message: "page 'autumn' is not published" },
            ])
          : null,
    );
    renderAs('editor');
    const table = await screen.findByRole('table', { name: 'Items of the release' });
    await within(table).findByText('first-post');
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent(/first-post.*Post.*publish.*conflict.*published/);
    expect(rows[2]).toHaveTextContent(/autumn.*Page.*unpublish/);

    await userEvent.click(screen.getByRole('button', { name: 'Validate' }));
    const problems = await screen.findByRole('list', { name: 'What keeps the release from going live' });
    expect(problems).toHaveTextContent("Post first-post › data.title: entry 'first-post' (post): is required");

    await userEvent.click(screen.getByRole('button', { name: 'Publish now' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Publish release' }));
    const refused = await screen.findByRole('list', { name: 'Problems' });
    expect(
      within(refused)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Post first-post › data.title: is required', "Page autumn: page 'autumn' is not published"]);
    expect(calls.filter((c) => c.path === `/releases/${ID}/publish`)).toHaveLength(1);
  });

  it('lists the items published again since when a revert is refused, and reverts anyway on request', async () => {
    const calls = serve(release({ status: 'published', published_at: '2026-11-25T08:00:00.000Z' }), (c) => {
      if (c.path !== `/releases/${ID}/revert`) return null;
      return (c.body as { force?: boolean }).force
        ? ok(release({ status: 'published', reverted_at: '2026-11-26T08:00:00.000Z' }))
        : refusal(409, 'RELEASE_CONFLICT', '1 item was published again since this release', [
            { path: 'entry.e1', message: "entry 'first-post' was published again since this release" },
          ]);
    });
    renderAs('editor');
    await userEvent.click(await screen.findByRole('button', { name: 'Revert' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Revert release' }));
    const dialog = await screen.findByRole('dialog', { name: 'Some items were published again since' });
    expect(within(dialog).getByRole('list')).toHaveTextContent("Post first-post: entry 'first-post' was published again since this release");
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revert anyway' }));
    await waitFor(() => expect(calls.filter((c) => c.path === `/releases/${ID}/revert`).map((c) => c.body)).toEqual([{}, { force: true }]));
    // A published release offers no publishing, scheduling, validation or deletion.
    for (const name of ['Publish now', 'Schedule', 'Validate', 'Delete release', 'Preview in the editors'])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });

  it('shows why a scheduled publication failed, and gives a viewer only Validate and the changes', async () => {
    serve(release({ status: 'failed', failure: [{ path: 'entry.e1.data.title', message: 'is required' }] }));
    renderAs('viewer');
    const failure = await screen.findByRole('list', { name: 'Why the publication failed' });
    await waitFor(() => expect(failure).toHaveTextContent('Post first-post › data.title: is required'));
    expect(screen.getByRole('button', { name: 'Validate' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Changes of Post first-post' })).toBeInTheDocument();
    for (const name of ['Publish now', 'Schedule', 'Delete release', 'Remove Post first-post from the release'])
      expect(screen.queryByRole('button', { name })).toBeNull();
  });
});

describe('releases list', () => {
  it('lists releases with status and items, and narrows them by status', async () => {
    const calls = serve(release({ status: 'scheduled', publish_at: '2026-12-01T08:00:00.000Z' }));
    renderScreen(<ReleasesList />, '/:workspace/releases', '/demo/releases', 'editor');
    const link = await screen.findByRole('link', { name: 'Autumn launch' });
    expect(link).toHaveAttribute('href', `/demo/releases/${ID}`);
    expect(screen.getByRole('table', { name: 'Releases' })).toHaveTextContent(/scheduled.*2.*Publishes/);
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'failed');
    await waitFor(() => expect(calls.some((c) => c.path === '/releases' && c.query.get('status') === 'failed')).toBe(true));
    expect(screen.getByRole('button', { name: 'New release' })).toBeInTheDocument();
  });
});

describe('problemLabel', () => {
  it('names the item and field of a problem path, and keeps unknown paths', () => {
    const name = (s: string | null) => (s === 'post' ? 'Post' : 'Entry');
    expect(problemLabel('entry.e1.blocks.0.data.title', ITEMS, name)).toBe('Post first-post › blocks.0.data.title');
    expect(problemLabel('page.p1', ITEMS, name)).toBe('Page autumn');
    expect(problemLabel('entry.zz.data.title', ITEMS, name)).toBe('entry.zz.data.title');
  });
});
