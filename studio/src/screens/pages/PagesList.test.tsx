/**
 * The page list in jsdom with a fake API: pages in navigation order with their state badges;
 * "Move … down" sends the whole new order to PATCH /pages/reorder; a viewer gets no controls.
 */
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo, SessionWorkspace } from '../../api/session';
import { WorkspaceContext, workspaceContextValue } from '../../app/workspace';
import PagesList from './PagesList';

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
const calls: { method: string; path: string; body: unknown }[] = [];

beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(input, 'http://studio.test').pathname.replace('/api/v1/manage', '');
      const method = init?.method ?? 'GET';
      const body = init?.body ? JSON.parse(String(init.body)) : null;
      calls.push({ method, path, body });
      const ok = (data: unknown, meta: unknown = null) => new Response(JSON.stringify({ success: true, message: 'Success', data, meta }), { status: 200 });
      if (path === '/pages' && method === 'GET') return ok(pages, { page_size: 100, total_data: pages.length, current_page: 1, total_pages: 1 });
      if (path === '/pages/reorder' && method === 'PATCH') {
        const order = (body as { order: string[] }).order;
        pages = order.map((id, i) => ({ ...pages.find((p) => p.id === id)!, position: i }));
        return ok(null);
      }
      return new Response(JSON.stringify({ success: false, message: 'no fake', code: 'NOT_FOUND', data: null, traceId: 'req_x' }), { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderAs(role: SessionWorkspace['role']) {
  const workspace: SessionWorkspace = { id: 'ws-1', slug: 'demo', name: 'Demo', role };
  const session: SessionInfo = { user: { id: 1, email: 'a@example.com', name: null }, workspaces: [workspace], csrf_token: 'c' };
  const router = createMemoryRouter([{ path: '/:workspace/pages', element: <PagesList /> }], { initialEntries: ['/demo/pages'] });
  return render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <WorkspaceContext.Provider value={workspaceContextValue(session, workspace)}>
          <RouterProvider router={router} />
        </WorkspaceContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

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
