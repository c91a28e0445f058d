/**
 * Who else is here and others' changes (D133) in jsdom, with a fake event stream: the editor says
 * which item it shows (presence PUT) and shows the others' initials; a change event of the item
 * shows "X changed this entry" with Reload unless the ETag is the editor's own save; a workflow
 * change by someone else refreshes the panel and says so; the person's own never shows.
 */
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, renderScreen, type FakeCall } from '../../app/test-utils';
import { useItemCollab } from './ItemCollab';

const ITEM = '/content-types/post/entries/hello';
const ada = { id: 1, email: 'a@example.com', name: 'Ada' };
const bob = { id: 2, email: 'bob@example.com', name: 'Bob Reviewer' };
const carol = { id: 3, email: 'carol@example.com', name: null };

let calls: FakeCall[] = [];
let send: (event: string, data: unknown) => void = () => {};
let serverEtag = '"e1-2"';
const onReload = vi.fn();
const onRefresh = vi.fn();

function Editor() {
  const collab = useItemCollab({
    kind: 'entry',
    id: 'e1',
    path: ITEM,
    what: 'entry',
    locale: 'en',
    enabled: true,
    onReload,
    onRefresh,
    etag: () => '"e1-2"',
  });
  return (
    <>
      {collab.header}
      {collab.notice}
    </>
  );
}

beforeEach(() => {
  onReload.mockReset();
  onRefresh.mockReset();
  serverEtag = '"e1-2"';
  calls = fakeApi(({ method, path }) => {
    if (path === '/events') {
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          send = (event, data) => controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        },
      });
      return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
    }
    if (path === '/events/s1/presence' && method === 'PUT') return ok({ people: [ada, bob] });
    if (path === `${ITEM}/comments`) return ok([]);
    if (path === ITEM) return ok({ id: 'e1', updated_by: 2 }, null, serverEtag);
    if (path === '/users')
      return ok([
        { ...ada, invitation_id: null, role: 'editor', status: 'active' },
        { ...bob, invitation_id: null, role: 'admin', status: 'active' },
      ]);
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

const show = async () => {
  renderScreen(<Editor />, '/:workspace/x', '/demo/x', 'editor');
  await waitFor(() => expect(calls.some((c) => c.path === '/events')).toBe(true));
  act(() => send('hello', { stream: 's1', user: ada }));
  await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ item: { kind: 'entry', id: 'e1' } }));
};
const frame = (data: object) => act(() => send('item', { item: { kind: 'entry', id: 'e1', content_type: 'post', slug: 'hello' }, ...data }));

describe('who else is here', () => {
  it('shows the other people on the item, from the presence PUT and then its frames', async () => {
    await show();
    expect(await screen.findByRole('group', { name: 'Also editing this entry: Bob Reviewer' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Bob Reviewer' })).toHaveTextContent('BR');
    expect(screen.queryByRole('img', { name: 'Ada' })).toBeNull();
    act(() => send('presence', { item: { kind: 'entry', id: 'e1' }, people: [ada, bob, carol] }));
    expect(await screen.findByRole('img', { name: 'carol@example.com' })).toHaveTextContent('C');
  });

  it('says when someone else changed the item, not after the editor’s own save', async () => {
    await show();
    frame({ type: 'entry.updated', by: null, version: 3 });
    // the server's ETag is the editor's own: no notice
    await waitFor(() => expect(calls.filter((c) => c.path === ITEM)).toHaveLength(1), { timeout: 4000 });
    expect(screen.queryByTestId('item-changed-notice')).toBeNull();
    serverEtag = '"e1-3"';
    frame({ type: 'entry.updated', by: null, version: 4 });
    const notice = await screen.findByTestId('item-changed-notice', {}, { timeout: 4000 });
    expect(notice).toHaveTextContent('Bob Reviewer changed this entry.');
    await userEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(onReload).toHaveBeenCalledOnce();
    expect(screen.queryByTestId('item-changed-notice')).toBeNull();
  });

  it('a workflow change by someone else refreshes the panel and says so; one’s own does not', async () => {
    await show();
    frame({ type: 'entry.workflow_changed', by: 1, change: 'stage', stage: { id: 's', name: 'Review' } });
    frame({ type: 'entry.workflow_changed', by: 2, change: 'stage', stage: { id: 's', name: 'Review' } });
    expect(await screen.findByTestId('item-changed-notice')).toHaveTextContent('Bob Reviewer moved this entry to “Review”.');
    expect(onRefresh).toHaveBeenCalledOnce();
    expect(screen.queryByRole('button', { name: 'Reload' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByTestId('item-changed-notice')).toBeNull();
  });
});
