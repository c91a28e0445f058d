/**
 * Settings › Workflows in jsdom against a fake management API: workflows are listed with what they
 * cover and their stages; creating one sends its name, types, pages, ordered stages (approvals,
 * roles) and publish stage by name (new stages have no id); editing sends the kept stages' ids;
 * a type another workflow covers cannot be chosen; a refusal stays in the dialog; deleting asks.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, okList, refusal, renderScreen, type FakeCall } from '../../app/test-utils';
import type { Workflow } from '../../api/types';
import WorkflowsTab from './WorkflowsTab';

if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

const NEWS: Workflow = {
  id: 'w-news',
  name: 'Newsroom',
  content_types: ['news'],
  pages: false,
  stages: [
    { id: 's1', name: 'Draft', required_approvals: 0, roles: null },
    { id: 's2', name: 'Legal', required_approvals: 2, roles: ['r-legal'] },
  ],
  publish_stage: 's2',
  created_at: '2026-11-29T08:00:00.000Z',
  updated_at: '2026-11-29T08:00:00.000Z',
};
let workflows: Workflow[] = [];
let calls: FakeCall[] = [];
let refuse = false;

beforeEach(() => {
  workflows = [NEWS];
  refuse = false;
  calls = fakeApi(({ method, path, body }) => {
    if (path === '/content-types')
      return okList([
        { id: 't1', slug: 'blog-post', name: 'Blog post', is_block: false, fields: [] },
        { id: 't2', slug: 'news', name: 'News', is_block: false, fields: [] },
        { id: 't3', slug: 'hero', name: 'Hero', is_block: true, fields: [] },
      ]);
    if (path === '/roles')
      return ok([
        { id: 'editor', name: 'editor', description: '', preset: true, permissions: [] },
        { id: 'admin', name: 'admin', description: '', preset: true, permissions: [] },
        { id: 'r-legal', name: 'Legal team', description: '', preset: false, permissions: [] },
      ]);
    if (path === '/workflows' && method === 'GET') return ok(workflows);
    if (path === '/workflows' && method === 'POST') {
      if (refuse) return refusal(400, 'VALIDATION_FAILED', 'Validation failed', [{ path: 'content_types[0]', message: 'is in the workflow Newsroom' }]);
      const input = body as Workflow;
      const created: Workflow = {
        ...NEWS,
        ...input,
        id: 'w-blog',
        stages: input.stages.map((s, i) => ({ ...s, id: `b${i + 1}` })),
        publish_stage: `b${input.stages.findIndex((s) => s.name === input.publish_stage) + 1}`,
      };
      workflows = [...workflows, created];
      return ok(created);
    }
    if (path === '/workflows/w-news' && method === 'PATCH') {
      workflows = [{ ...NEWS, ...(body as object) } as Workflow];
      return ok(workflows[0]);
    }
    if (path === '/workflows/w-news' && method === 'DELETE') {
      workflows = [];
      return ok(null);
    }
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

/** Picks `name` in the dropdown of `combo` (Mantine's test env keeps every dropdown's options in the page). */
async function pick(combo: HTMLElement, name: string) {
  await userEvent.click(combo);
  const list = await waitFor(() => document.getElementById(combo.getAttribute('aria-controls') ?? '') ?? Promise.reject(new Error('no listbox')));
  await userEvent.click(within(list).getByRole('option', { name, hidden: true }));
}

const renderTab = () => renderScreen(<WorkflowsTab />, '/:workspace/settings/workflows', '/demo/settings/workflows', 'admin');

describe('workflows settings', () => {
  it('lists a workflow with what it covers and its stages', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'Workflows' });
    const row = within(table).getAllByRole('row')[1];
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]).toHaveTextContent('Newsroom');
    await waitFor(() => expect(cells[1]).toHaveTextContent('News'));
    expect(
      within(cells[2])
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Draft', 'Legal · 2 approvals to move on · moved here by Legal teampublish stage']);
  });

  it('creates a workflow from the editor, with stages in order and a publish stage by name', async () => {
    renderTab();
    await screen.findByRole('table', { name: 'Workflows' });
    await userEvent.click(screen.getByRole('button', { name: 'Create workflow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create workflow' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Blog review');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /Content types/ }));
    // News is in another workflow: offered, but not selectable.
    expect(await screen.findByRole('option', { name: 'News (in Newsroom)', hidden: true })).toHaveAttribute('data-combobox-disabled', 'true');
    expect(screen.queryByRole('option', { name: 'Hero', hidden: true })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'Blog post', hidden: true }));

    // The starter stages: Draft, Review (1 approval), Ready to publish; Review moves up, a fourth is added.
    expect(within(dialog).getAllByRole('group', { name: /^Stage \d$/ })).toHaveLength(3);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move stage 2 up' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add stage' }));
    const fourth = within(dialog).getByRole('group', { name: 'Stage 4' });
    await userEvent.type(within(fourth).getByRole('textbox', { name: /Stage 4 name/ }), 'Legal');
    await userEvent.clear(within(fourth).getByRole('textbox', { name: /Approvals needed/ }));
    await userEvent.type(within(fourth).getByRole('textbox', { name: /Approvals needed/ }), '2');
    await pick(within(fourth).getByRole('combobox', { name: /Roles that may move/ }), 'Legal team');
    await pick(within(dialog).getByRole('combobox', { name: /Publish stage/ }), 'Ready to publish');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create workflow' }));

    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/workflows')).toBeTruthy());
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Blog review',
      content_types: ['blog-post'],
      pages: false,
      stages: [
        { name: 'Review', required_approvals: 1, roles: null },
        { name: 'Draft', required_approvals: 0, roles: null },
        { name: 'Ready to publish', required_approvals: 0, roles: null },
        { name: 'Legal', required_approvals: 2, roles: ['r-legal'] },
      ],
      publish_stage: 'Ready to publish',
    });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create workflow' })).toBeNull());
    expect(await screen.findByText('Blog review')).toBeInTheDocument();
  });

  it('keeps a refusal in the dialog, edits with the stage ids, and deletes after asking', async () => {
    refuse = true;
    renderTab();
    await screen.findByRole('table', { name: 'Workflows' });
    await userEvent.click(screen.getByRole('button', { name: 'Create workflow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create workflow' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Again');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create workflow' }));
    expect(await within(dialog).findByText('is in the workflow Newsroom')).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Edit workflow Newsroom' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit workflow Newsroom' });
    await userEvent.click(within(edit).getByRole('switch', { name: /Pages/ }));
    await userEvent.click(within(edit).getByRole('button', { name: 'Save workflow' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')).toBeTruthy());
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
      name: 'Newsroom',
      content_types: ['news'],
      pages: true,
      stages: [
        { id: 's1', name: 'Draft', required_approvals: 0, roles: null },
        { id: 's2', name: 'Legal', required_approvals: 2, roles: ['r-legal'] },
      ],
      publish_stage: 's2',
    });

    await userEvent.click(await screen.findByRole('button', { name: 'Delete workflow Newsroom' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this workflow?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete workflow' }));
    expect(await screen.findByText(/No workflows yet/)).toBeInTheDocument();
  });
});
