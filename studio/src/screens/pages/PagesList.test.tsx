/**
 * The page list in jsdom with a fake API: pages in navigation order with their state badges;
 * "Move … down" sends the whole new order to PATCH /pages/reorder; a viewer gets no controls;
 * with a review workflow over pages, each page shows its stage and the list filters by stage and
 * assignee (sent to GET /pages, kept in the address), without reordering a filtered list.
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
let covered = false;
const WORKFLOW = {
  id: 'w1',
  name: 'Site review',
  content_types: [],
  pages: true,
  stages: [
    { id: 's1', name: 'Draft', required_approvals: 0, roles: null },
    { id: 's2', name: 'Review', required_approvals: 1, roles: null },
  ],
  publish_stage: 's2',
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
};
const inStage = (id: string, name: string) => ({
  workflow_id: 'w1',
  stage: { id, name },
  required_approvals: 0,
  approvals: [],
  assignees: [],
  stage_changed_at: null,
});

beforeEach(() => {
  covered = false;
  calls = fakeApi(({ method, path, body, query }) => {
    if (path === '/workflows') return ok(covered ? [WORKFLOW] : []);
    if (path === '/users') return okList([]);
    if (path === '/pages' && method === 'GET' && covered) {
      const withStages = pages.map((p) => ({ ...p, workflow: p.slug === 'home' ? inStage('s2', 'Review') : inStage('s1', 'Draft') }));
      return okList(query.get('stage') ? withStages.filter((p) => p.workflow.stage.id === query.get('stage')) : withStages);
    }
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

  it("shows each page's stage and filters by stage, without reordering the filtered list", async () => {
    covered = true;
    renderAs('editor');
    await screen.findByRole('link', { name: 'Home' });
    const nav = screen.getByRole('list', { name: 'Pages in navigation order' });
    await waitFor(() => expect(within(nav).getByText('Review')).toBeInTheDocument());
    expect(within(nav).getAllByText('Draft')).toHaveLength(2);
    const stage = screen.getByRole('combobox', { name: 'Stage' });
    await userEvent.click(stage);
    const list = document.getElementById(stage.getAttribute('aria-controls') ?? '')!;
    await userEvent.click(within(list).getByRole('option', { name: 'Review', hidden: true }));
    await waitFor(() => expect(titles()).toEqual(['Home']));
    expect(calls.some((c) => c.path === '/pages' && c.query.get('stage') === 's2')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Drag Home' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Move Home down' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete Home' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Assignee' })).toHaveValue('Anyone');
  });
});
