/**
 * The page list in jsdom with a fake API: pages in navigation order with their state badges;
 * "Move … down" sends the whole new order to PATCH /pages/reorder; a viewer gets no controls.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionWorkspace } from '../../api/session';
import PagesList from './PagesList';
import { fakeApi, ok, okList, renderScreen, type FakeCall } from '../../app/test-utils';

const page = (id: string, slug: string, title: string | null, status: string, position: number, pending = false) => ({
  id,
  workspace_id: 'ws-1',
  slug,
  status,
  position,
  seo: { title, description: null, keywords: [], og_image: null, canonical: null },
  publish_at: null,
  published_at: null,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  created_by: 1,
  updated_by: 1,
  has_pending_changes: pending,
  published_version: null,
});
let pages = [page('p1', 'home', 'Home', 'published', 0, true), page('p2', 'about', null, 'draft', 1), page('p3', 'contact', 'Contact', 'scheduled', 2)];
let calls: FakeCall[] = [];

beforeEach(() => {
  calls = fakeApi(({ method, path, body }) => {
    if (path === '/pages' && method === 'GET') return okList(pages);
    if (path === '/pages/reorder' && method === 'PATCH') {
      const order = (body as { order: string[] }).order;
      pages = order.map((id, i) => ({ ...pages.find((p) => p.id === id)!, position: i }));
      return ok(null);
    }
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

const renderAs = (role: SessionWorkspace['role']) => renderScreen(<PagesList />, '/:workspace/pages', '/demo/pages', role);

const titles = () =>
  within(screen.getByRole('list', { name: 'Pages in navigation order' }))
    .getAllByRole('link')
    .map((a) => a.textContent);

describe('page list', () => {
  it('lists pages in navigation order with their states, and saves a new order', async () => {
    renderAs('editor');
    await screen.findByRole('link', { name: 'Home' });
    expect(titles()).toEqual(['Home', 'about', 'Contact']);
    expect(screen.getByText('changed')).toBeInTheDocument();
    expect(screen.getByText('scheduled')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Move Home up' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Move Home down' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ order: ['p2', 'p1', 'p3'] }));
    await waitFor(() => expect(titles()).toEqual(['about', 'Home', 'Contact']));
    expect(screen.getByRole('button', { name: 'Drag Home' })).toBeInTheDocument();
  });

  it('gives a viewer the list without controls', async () => {
    renderAs('viewer');
    await screen.findByRole('link', { name: 'Home' });
    for (const name of ['New page', 'Move Home down', 'Drag Home', 'Delete Home', 'Duplicate Home']) expect(screen.queryByRole('button', { name })).toBeNull();
  });
});
