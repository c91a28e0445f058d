/**
 * The entries list of a type a review workflow covers (jsdom, fake API): a Stage column with the
 * assignees, and Stage and Assignee filters sent to GET …/entries as `stage` and `assignee` and
 * kept in the address (a reload with `?stage=` starts filtered); a type no workflow covers has
 * neither.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeField } from '../../fields/shared/test-utils';
import { fakeApi, ok, okList, renderScreen, type FakeCall } from '../../app/test-utils';
import EntriesList from './EntriesList';

const type = (slug: string, name: string) => ({
  id: `t-${slug}`,
  slug,
  name,
  description: null,
  is_block: false,
  orderable: false,
  display_field: 'title',
  fields: [makeField({ name: 'title', label: 'Title', field_type: 'text' })],
});
const entry = (slug: string, title: string, stage: { id: string; name: string }, assignees: { id: number; email: string; name: string | null }[] = []) => ({
  id: `e-${slug}`,
  slug,
  status: 'draft',
  data: JSON.stringify({ title }),
  publish_at: null,
  published_at: null,
  created_at: '2026-11-29T08:00:00.000Z',
  updated_at: '2026-11-29T08:00:00.000Z',
  created_by: 1,
  updated_by: 1,
  has_pending_changes: false,
  workflow: { workflow_id: 'w1', stage, required_approvals: 0, approvals: [], assignees, stage_changed_at: null },
});
const REVIEW = { id: 's2', name: 'Review' };
const ENTRIES = [entry('one', 'First', { id: 's1', name: 'Draft' }), entry('two', 'Second', REVIEW, [{ id: 2, email: 'bea@example.com', name: 'Bea' }])];
let calls: FakeCall[] = [];

beforeEach(() => {
  calls = fakeApi(({ path, query }) => {
    if (path === '/content-types') return okList([type('news', 'News'), type('blog', 'Blog')]);
    if (path === '/workflows')
      return ok([
        {
          id: 'w1',
          name: 'Newsroom',
          content_types: ['news'],
          pages: false,
          stages: [
            { id: 's1', name: 'Draft', required_approvals: 0, roles: null },
            { id: 's2', name: 'Review', required_approvals: 1, roles: null },
          ],
          publish_stage: 's2',
          created_at: '2026-11-29T08:00:00.000Z',
          updated_at: '2026-11-29T08:00:00.000Z',
        },
      ]);
    if (path === '/users') return okList([]);
    if (path === '/content-types/news/entries') return okList(query.get('stage') ? ENTRIES.filter((e) => e.workflow.stage.id === query.get('stage')) : ENTRIES);
    if (path === '/content-types/blog/entries') return okList([{ ...entry('b', 'Blog one', REVIEW), workflow: null }]);
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

const rows = async (name: string) => within(await screen.findByRole('table', { name })).getAllByRole('row');
const pick = async (label: string, option: string) => {
  const combo = screen.getByRole('combobox', { name: label });
  await userEvent.click(combo);
  const list = document.getElementById(combo.getAttribute('aria-controls') ?? '')!;
  await userEvent.click(within(list).getByRole('option', { name: option, hidden: true }));
};

describe('entries list with a review workflow', () => {
  it('shows each entry’s stage and assignees, and filters by stage and assignee', async () => {
    renderScreen(<EntriesList />, '/:workspace/content/:type', '/demo/content/news', 'editor');
    await waitFor(async () => expect(within((await rows('News entries'))[0]).getByText('Stage')).toBeInTheDocument());
    const second = (await rows('News entries'))[2];
    expect(within(second).getByText('Review')).toBeInTheDocument();
    expect(within(second).getByText('Bea')).toBeInTheDocument();

    await pick('Stage', 'Review');
    await waitFor(async () => expect(await rows('News entries')).toHaveLength(2));
    await pick('Assignee', 'Assigned to me');
    await waitFor(() =>
      expect(calls.some((c) => c.path === '/content-types/news/entries' && c.query.get('stage') === 's2' && c.query.get('assignee') === 'me')).toBe(true),
    );
  });

  it('starts filtered from the address (no unfiltered read first)', async () => {
    renderScreen(<EntriesList />, '/:workspace/content/:type', '/demo/content/news?stage=s2', 'editor');
    await waitFor(async () => expect(await rows('News entries')).toHaveLength(2));
    expect(calls.find((c) => c.path === '/content-types/news/entries')?.query.get('stage')).toBe('s2');
    expect(screen.getByRole('combobox', { name: 'Stage' })).toHaveValue('Review');
  });

  it('has no Stage column or filters for a type no workflow covers', async () => {
    renderScreen(<EntriesList />, '/:workspace/content/:type', '/demo/content/blog', 'editor');
    await screen.findByText('Blog one');
    expect(screen.queryByRole('columnheader', { name: 'Stage' })).toBeNull();
    expect(screen.queryByRole('combobox', { name: 'Stage' })).toBeNull();
  });
});
