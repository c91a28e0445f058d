/**
 * The header's notification bell in jsdom against a fake management API (D132): the unread count
 * on the bell, the newest first in its popover, a click marking one read and opening its entry,
 * "Mark all read".
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from 'react-router';
import type { StudioNotification } from '../api/notifications';
import { notificationLink } from '../api/notifications';
import { NotificationBell } from './NotificationBell';
import { fakeApi, ok, renderScreen, type FakeCall } from './test-utils';

const bob = { id: 2, email: 'bob@example.com', name: 'Bob Reviewer' };
const note = (n: Partial<StudioNotification> & { id: string }): StudioNotification => ({
  kind: 'mentioned',
  read: false,
  created_at: '2026-11-29T10:00:00.000Z',
  actor: bob,
  item: { kind: 'entry', id: 'e1', content_type: 'post', slug: 'hello', title: 'Hello world' },
  release: null,
  comment_id: 'c1',
  stage: null,
  message: 'mentioned you in a comment',
  ...n,
});

let calls: FakeCall[] = [];
let unread = 2;
beforeEach(() => {
  unread = 2;
  calls = fakeApi(({ method, path, body }) => {
    if (path === '/notifications' && method === 'GET')
      return ok(
        [
          note({ id: 'n2', kind: 'changes_requested', message: 'requested changes', created_at: '2026-11-29T11:00:00.000Z' }),
          note({ id: 'n1' }),
          note({ id: 'n0', read: true, item: { kind: 'page', id: 'p1', content_type: null, slug: 'about', title: 'About us' }, message: 'assigned you' }),
        ],
        { unread, next_cursor: null },
      );
    if (path === '/notifications/read' && method === 'POST') {
      unread = (body as { all?: boolean }).all ? 0 : unread - 1;
      return ok({ read: 1 });
    }
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

function Where() {
  return <output aria-label="Location">{useLocation().pathname}</output>;
}

describe('notification bell', () => {
  it('shows the unread count, lists the newest first, and a click marks one read and opens its item', async () => {
    renderScreen(
      <>
        <NotificationBell />
        <Where />
      </>,
      '/:workspace/*',
      '/demo/home',
      'editor',
    );
    const bell = await screen.findByRole('button', { name: 'Notifications: 2 unread' });
    await userEvent.click(bell);
    const popover = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = within(popover).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      expect.stringMatching(/^Unread: Bob Reviewer requested changesHello world/),
      expect.stringMatching(/^Unread: Bob Reviewer mentioned you in a commentHello world/),
      expect.stringMatching(/^Bob Reviewer assigned youAbout us/),
    ]);
    await userEvent.click(within(items[0]!).getByRole('button'));
    await waitFor(() => expect(calls.find((c) => c.path === '/notifications/read')?.body).toEqual({ ids: ['n2'] }));
    expect(screen.getByRole('status', { name: 'Location' })).toHaveTextContent('/demo/content/post/hello');
    await screen.findByRole('button', { name: 'Notifications: 1 unread' });
  });

  it('marks all read', async () => {
    renderScreen(<NotificationBell />, '/:workspace', '/demo', 'viewer');
    await userEvent.click(await screen.findByRole('button', { name: 'Notifications: 2 unread' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/notifications/read')?.body).toEqual({ all: true }));
    await screen.findByRole('button', { name: 'Notifications' });
  });

  it('links entries by type and slug (and the comment), pages by slug, releases by id', () => {
    expect(notificationLink('demo', note({ id: 'x' }))).toBe('/demo/content/post/hello?comment=c1');
    expect(notificationLink('demo', note({ id: 'x', comment_id: null }))).toBe('/demo/content/post/hello');
    expect(notificationLink('demo', { item: { kind: 'page', id: 'p', content_type: null, slug: 'about', title: null }, release: null })).toBe(
      '/demo/pages/about',
    );
    expect(notificationLink('demo', { item: null, release: { id: 'r1', name: 'Launch' } })).toBe('/demo/releases/r1');
  });
});
