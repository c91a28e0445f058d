/**
 * Comments on fields in jsdom against a fake management API (D131): each field's button carries
 * its open threads (per locale for localized fields), the panel lists the field's threads or all
 * of them, and posting, replying (with an @-mention picked from the members), resolving, editing
 * one's own and deleting send what the contract says.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Comment } from '../../api/comments';
import { fakeApi, ok, renderScreen, type FakeCall } from '../../app/test-utils';
import { FieldSourcesContext } from '../../fields/sources';
import { fakeSources, makeField } from '../../fields/shared/test-utils';
import { EntryForm } from '../../screens/entries/EntryForm';
import { useItemCollab } from '../collab/ItemCollab';
import { CommentsContext } from './context';

const ITEM = '/content-types/post/entries/hello';
const ada = { id: 1, email: 'a@example.com', name: 'Ada' };
const bob = { id: 2, email: 'bob@example.com', name: 'Bob Reviewer' };
const item = { kind: 'entry' as const, id: 'e1', content_type: 'post', slug: 'hello' };
const comment = (c: Partial<Comment> & { id: string }): Comment => ({
  item,
  field: 'title',
  locale: 'en',
  parent_id: null,
  body: 'text',
  author: bob,
  mentions: [],
  resolved: false,
  resolved_by: null,
  resolved_at: null,
  created_at: '2026-11-29T10:00:00.000Z',
  updated_at: '2026-11-29T10:00:00.000Z',
  edited: false,
  ...c,
});

const fields = [
  makeField({ field_type: 'text', name: 'title', label: 'Title', localizable: true, sort_order: 0 }),
  makeField({ field_type: 'integer', name: 'minutes', label: 'Minutes', sort_order: 1 }),
];

function Editor({ locale }: { locale: string }) {
  const collab = useItemCollab({
    kind: 'entry',
    id: 'e1',
    path: ITEM,
    what: 'entry',
    locale,
    enabled: true,
    onReload: () => {},
    onRefresh: () => {},
    etag: () => null,
  });
  return (
    <FieldSourcesContext.Provider value={fakeSources()}>
      {collab.header}
      {collab.notice}
      <CommentsContext.Provider value={collab.scope}>
        <EntryForm
          fields={fields}
          draft={{ data: { title: 'Hello', minutes: 3 }, translations: {} }}
          locale={locale}
          defaultLocale="en"
          readOnly={false}
          errors={new Map()}
          revision={0}
          onChange={() => {}}
        />
      </CommentsContext.Provider>
    </FieldSourcesContext.Provider>
  );
}

let comments: Comment[] = [];
let calls: FakeCall[] = [];
beforeEach(() => {
  comments = [
    comment({ id: 'c1', body: 'Is this title too long?', created_at: '2026-11-29T10:00:00.000Z' }),
    comment({ id: 'c2', parent_id: 'c1', body: 'Shortened it', author: ada, created_at: '2026-11-29T10:05:00.000Z' }),
    comment({ id: 'c3', field: 'title', locale: 'de', body: 'Übersetzung prüfen', created_at: '2026-11-29T10:06:00.000Z' }),
    comment({ id: 'c4', field: 'minutes', locale: null, body: 'Resolved one', resolved: true, resolved_by: ada, created_at: '2026-11-29T10:07:00.000Z' }),
    comment({ id: 'c5', field: 'minutes', locale: null, body: 'Mine', author: ada, created_at: '2026-11-29T10:08:00.000Z' }),
  ];
  calls = fakeApi(({ method, path, body }) => {
    if (path === `${ITEM}/comments` && method === 'GET') return ok(comments);
    if (path === `${ITEM}/comments` && method === 'POST') {
      const c = comment({ id: `n${comments.length}`, author: ada, ...(body as object) });
      comments = [...comments, c];
      return ok(c);
    }
    if (path.startsWith('/comments/') && method === 'PATCH') return ok(comment({ id: path.split('/')[2]!, ...(body as object) }));
    if (path.startsWith('/comments/') && method === 'DELETE') return ok(null);
    if (path === '/users')
      return ok([
        { ...ada, invitation_id: null, role: 'editor', status: 'active' },
        { ...bob, invitation_id: null, role: 'admin', status: 'active' },
      ]);
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

const show = (locale = 'en', role: 'editor' | 'admin' = 'editor', url = '/demo/x') => renderScreen(<Editor locale={locale} />, '/:workspace/x', url, role);

describe('comments on fields', () => {
  it('shows the open threads on each field button (per locale) and lists a field’s threads with replies, or all', async () => {
    show();
    const title = await screen.findByRole('button', { name: 'Comments on Title (en): 1 open' });
    expect(screen.getByRole('button', { name: 'Comments on Minutes: 1 open' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Comments: 3 open' })).toBeInTheDocument();
    // the field keeps its own accessible name
    expect(screen.getByLabelText('Title')).toHaveValue('Hello');
    await userEvent.click(title);
    const panel = await screen.findByRole('dialog', { name: 'Comments on Title (en)' });
    const threads = within(panel).getAllByRole('article');
    expect(threads).toHaveLength(1);
    expect(threads[0]).toHaveTextContent('Is this title too long?');
    expect(threads[0]).toHaveTextContent('Shortened it');
    expect(within(panel).queryByText('Übersetzung prüfen')).toBeNull();
    await userEvent.click(within(panel).getByRole('radio', { name: 'All on this entry' }));
    const all = within(panel).getAllByRole('article');
    expect(all.map((a) => a.getAttribute('aria-label'))).toEqual([
      'Thread by Bob Reviewer on Title (en)',
      'Thread by Bob Reviewer on Title (de)',
      'Thread by Bob Reviewer on Minutes, resolved',
      'Thread by Ada on Minutes',
    ]);
    expect(all[2]).toHaveTextContent('Resolved by Ada');
  });

  it('posts on the field and locale, replies with a mention picked from the members', async () => {
    show('de');
    await userEvent.click(await screen.findByRole('button', { name: 'Comments on Title (de): 1 open' }));
    const panel = await screen.findByRole('dialog', { name: 'Comments on Title (de)' });
    await userEvent.type(within(panel).getByLabelText('New comment on Title (de)'), 'Bitte kürzen');
    await userEvent.click(within(panel).getByRole('button', { name: 'Comment' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ body: 'Bitte kürzen', field: 'title', locale: 'de' }));

    const thread = within(panel).getByRole('article', { name: 'Thread by Bob Reviewer' });
    await userEvent.click(within(thread).getByRole('button', { name: 'Reply' }));
    const box = within(thread).getByLabelText('Reply to Bob Reviewer');
    await userEvent.type(box, 'Done, @bo');
    const option = await screen.findByRole('option', { name: /Bob Reviewer/ });
    expect(option).toBeInTheDocument();
    await userEvent.keyboard('{Enter}');
    expect(box).toHaveValue('Done, @bob@example.com ');
    await userEvent.type(box, 'please check');
    await userEvent.click(within(thread).getByRole('button', { name: 'Reply' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST')[1]?.body).toEqual({
        body: 'Done, @bob@example.com please check',
        field: 'title',
        locale: 'de',
        parent_id: 'c3',
      }),
    );
  });

  it('resolves, edits one’s own comment and deletes it; others’ comments only as owner or admin', async () => {
    show();
    await userEvent.click(await screen.findByRole('button', { name: 'Comments on Minutes: 1 open' }));
    const panel = await screen.findByRole('dialog', { name: 'Comments on Minutes' });
    const [resolved, mine] = within(panel).getAllByRole('article');
    // Bob's comment: no edit, no delete for an editor
    expect(within(resolved!).queryByRole('button', { name: /Edit comment/ })).toBeNull();
    expect(within(resolved!).queryByRole('button', { name: /Delete comment/ })).toBeNull();
    await userEvent.click(within(resolved!).getByRole('button', { name: 'Reopen' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({ path: '/comments/c4', body: { resolved: false } }));

    await userEvent.click(within(mine!).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')[1]).toMatchObject({ path: '/comments/c5', body: { resolved: true } }));
    await userEvent.click(within(mine!).getByRole('button', { name: 'Edit comment by Ada' }));
    const edit = within(mine!).getByLabelText('Edit your comment');
    await userEvent.clear(edit);
    await userEvent.type(edit, 'Mine, edited');
    await userEvent.click(within(mine!).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')[2]).toMatchObject({ path: '/comments/c5', body: { body: 'Mine, edited' } }));
    await userEvent.click(within(mine!).getByRole('button', { name: 'Delete comment by Ada' }));
    await userEvent.click(within(mine!).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'DELETE')?.path).toBe('/comments/c5'));
  });

  it('an admin may delete anyone’s comment', async () => {
    show('en', 'admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Comments on Title (en): 1 open' }));
    const panel = await screen.findByRole('dialog', { name: 'Comments on Title (en)' });
    expect(within(panel).getAllByRole('button', { name: 'Delete comment by Bob Reviewer' })).toHaveLength(1);
    expect(within(panel).queryByRole('button', { name: 'Edit comment by Bob Reviewer' })).toBeNull();
  });

  it('a link with ?comment=<id> (from a notification) opens the panel on that comment’s thread', async () => {
    show('en', 'editor', '/demo/x?comment=c2');
    const panel = await screen.findByRole('dialog', { name: 'Comments on Title (en)' });
    expect(within(panel).getByRole('article')).toHaveTextContent('Shortened it');
  });
});
