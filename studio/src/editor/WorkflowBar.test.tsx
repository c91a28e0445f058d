/**
 * The review workflow in the page editor (jsdom, fake API): the stage badge and "n of N
 * approvals"; Publish held back outside the publish stage with the reason; "Move to stage…"
 * offers the other stages, disabled with the reason (approvals missing, a role not allowed); the
 * last editor cannot approve; another editor approves, then moves the page on, after which
 * Publish is available; a refused move shows the server's message; "Move with a note…" sends the
 * chosen stage with a required comment, and shows a refusal in its dialog; "Request changes" needs a
 * comment; assignees are sent as user ids; an edit of the working copy withdraws the approvals
 * shown (the save's answer carries no workflow state) and makes the editor its last editor.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Workflow, WorkflowState } from '../api/types';
import PageEditor from '../screens/pages/PageEditor';
import { fakeApi, ok, okList, refusal, renderScreen, type FakeCall } from '../app/test-utils';

const WORKFLOW: Workflow = {
  id: 'w1',
  name: 'Site review',
  content_types: [],
  pages: true,
  stages: [
    { id: 's1', name: 'Draft', required_approvals: 0, roles: null },
    { id: 's2', name: 'Review', required_approvals: 1, roles: null },
    { id: 's3', name: 'Ready', required_approvals: 0, roles: null },
    { id: 's4', name: 'Legal', required_approvals: 0, roles: ['r-legal'] },
  ],
  publish_stage: 's3',
  created_at: '2026-11-29T08:00:00.000Z',
  updated_at: '2026-11-29T08:00:00.000Z',
};
const ADA = { id: 1, email: 'a@example.com', name: 'Ada' };
const BEA = { id: 2, email: 'bea@example.com', name: 'Bea' };
const inReview = (approvals: WorkflowState['approvals'] = [], lastEditorId = 2): WorkflowState => ({
  workflow_id: 'w1',
  stage: { id: 's2', name: 'Review' },
  required_approvals: 1,
  approvals,
  assignees: [],
  stage_changed_at: '2026-11-29T08:00:00.000Z',
  last_editor: lastEditorId === 1 ? ADA : BEA,
});
const page = (updatedBy: number, workflow: WorkflowState) => ({
  id: 'p1',
  workspace_id: 'ws-1',
  slug: 'home',
  status: 'draft',
  position: 0,
  seo: { title: 'Home', description: null, keywords: [], og_image: null, canonical: null },
  publish_at: null,
  published_at: null,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  created_by: 1,
  updated_by: updatedBy,
  has_pending_changes: false,
  published_version: null,
  workflow,
});

let calls: FakeCall[] = [];
let lastEditor = 2;
let approvals: WorkflowState['approvals'] = [];
let moveRefusal: Response | null = null;

beforeEach(() => {
  lastEditor = 2;
  approvals = [];
  moveRefusal = null;
  calls = fakeApi(({ method, path, body }) => {
    if (path === '/content-types') return okList([]);
    if (path === '/workspace') return ok({ id: 'ws-1', slug: 'demo', name: 'Demo', locales: ['en'], default_locale: 'en', preview_url_template: null });
    if (path === '/workflows') return ok([WORKFLOW]);
    if (path === '/users')
      return okList([
        { ...ADA, invitation_id: null, role: 'editor', status: 'active', created_at: '2026-11-24T08:00:00.000Z' },
        { ...BEA, invitation_id: null, role: 'editor', status: 'active', created_at: '2026-11-24T08:00:00.000Z' },
      ]);
    if (path === '/pages/home' && method === 'GET')
      return ok({ page: page(2, inReview(approvals, lastEditor)), blocks: [], seo_translations: [], block_translations: [] });
    if (path === '/pages/home' && method === 'PUT') {
      const { workflow: _, ...saved } = page(1, inReview());
      return ok(saved, null, '"p1-2"');
    }
    if (path === '/pages/home/approve') return ok(inReview([{ user: ADA, at: '2026-11-29T09:00:00.000Z' }]));
    if (path === '/pages/home/stage') {
      if (moveRefusal) return moveRefusal;
      const stage = WORKFLOW.stages.find((s) => s.id === (body as { stage: string }).stage)!;
      return ok({ ...inReview(), stage: { id: stage.id, name: stage.name }, required_approvals: stage.required_approvals });
    }
    if (path === '/pages/home/request-changes') return ok(inReview());
    if (path === '/pages/home/assignees')
      return ok({ ...inReview(), assignees: (body as { assignees: number[] }).assignees.map((id) => (id === 2 ? BEA : ADA)) });
    if (path.endsWith('/versions')) return okList([]);
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

const renderEditor = async () => {
  renderScreen(<PageEditor />, '/:workspace/pages/:slug', '/demo/pages/home', 'editor');
  return screen.findByRole('region', { name: 'Review workflow' }, { timeout: 5000 });
};
const stageItem = (name: RegExp) => screen.findByRole('menuitem', { name });

describe('review workflow in the page editor', () => {
  it('shows the stage and approvals, holds Publish back, and lets another editor approve and move the page on', async () => {
    const bar = await renderEditor();
    expect(within(bar).getByText('Review')).toBeInTheDocument();
    expect(within(bar).getByText('0 of 1 approvals')).toBeInTheDocument();
    const publish = screen.getByRole('button', { name: 'Publish' });
    await waitFor(() => expect(publish).toBeDisabled());
    expect(publish).toHaveAccessibleDescription('Publishing happens in the stage “Ready”; this item is in “Review”. Move it there first.');

    await userEvent.click(within(bar).getByRole('button', { name: 'Move to stage…' }));
    expect(await stageItem(/^Ready/)).toBeDisabled();
    expect(await stageItem(/^Ready/)).toHaveTextContent('Needs 1 approval to move on from “Review” (0 given)');
    expect(await stageItem(/^Legal/)).toHaveTextContent('Your role cannot move items to this stage');
    // Moving back needs no approvals.
    expect(await stageItem(/^Draft/)).toBeEnabled();
    expect(screen.queryByRole('menuitem', { name: /^Review/ })).toBeNull();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(within(bar).getByRole('button', { name: 'Approve' }));
    expect(await within(bar).findByText('1 of 1 approvals')).toBeInTheDocument();
    expect(within(bar).getByText('Approved by Ada')).toBeInTheDocument();
    expect(within(bar).queryByRole('button', { name: 'Approve' })).toBeNull();

    await userEvent.click(within(bar).getByRole('button', { name: 'Move to stage…' }));
    const ready = await stageItem(/^Ready/);
    expect(ready).toBeEnabled();
    await userEvent.click(ready);
    await waitFor(() => expect(calls.find((c) => c.path === '/pages/home/stage')?.body).toEqual({ stage: 's3' }));
    expect(await within(bar).findByText('Ready')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Publish' })).toBeEnabled();
  });

  it('keeps the last editor from approving, and shows a refused move as the server said', async () => {
    lastEditor = 1;
    const bar = await renderEditor();
    expect(within(bar).getByRole('button', { name: 'Approve' })).toBeDisabled();
    expect(within(bar).getByRole('button', { name: 'Approve' })).toHaveAccessibleDescription('You made the latest changes, so someone else approves them.');

    moveRefusal = refusal(403, 'FORBIDDEN', "Your role 'editor' may not move items into stage 'Draft'");
    await userEvent.click(within(bar).getByRole('button', { name: 'Move to stage…' }));
    await userEvent.click(await stageItem(/^Draft/));
    expect(await within(bar).findByText("Your role 'editor' may not move items into stage 'Draft'")).toBeInTheDocument();
  });

  it('asks what to change before requesting changes, and sends assignees as user ids', async () => {
    const bar = await renderEditor();
    await userEvent.click(within(bar).getByRole('button', { name: 'Request changes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request changes' });
    const send = within(dialog).getByRole('button', { name: 'Request changes' });
    expect(send).toBeDisabled();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /What needs to change/ }), 'The hero image is too dark');
    await userEvent.click(send);
    await waitFor(() => expect(calls.find((c) => c.path === '/pages/home/request-changes')?.body).toEqual({ comment: 'The hero image is too dark' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Request changes' })).toBeNull());

    const assignees = within(bar).getByRole('combobox', { name: 'Assignees' });
    await userEvent.click(assignees);
    const list = document.getElementById(assignees.getAttribute('aria-controls') ?? '')!;
    await userEvent.click(within(list).getByRole('option', { name: 'Bea', hidden: true }));
    await waitFor(() => expect(calls.find((c) => c.path === '/pages/home/assignees')?.body).toEqual({ assignees: [2] }));
  });

  it('withdraws the approvals shown when the working copy changes, and the editor can no longer approve', async () => {
    approvals = [{ user: BEA, at: '2026-11-29T09:00:00.000Z' }];
    const bar = await renderEditor();
    expect(within(bar).getByText('1 of 1 approvals')).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'SEO title' }), '!');
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true), { timeout: 5000 });
    expect(await within(bar).findByText('0 of 1 approvals')).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Approve' })).toBeDisabled();
  });

  it('moves with a note: a stage (the blocked ones disabled with the reason) and a required note, in one request', async () => {
    const bar = await renderEditor();
    await userEvent.click(within(bar).getByRole('button', { name: 'Move to stage…' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Move with a note…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move with a note' });
    // Moving back is the one move open here, so it is chosen; the note has the focus.
    const stage = within(dialog).getByRole('combobox', { name: /Stage/ });
    expect(stage).toHaveValue('Draft');
    const note = within(dialog).getByRole('textbox', { name: /Note/ });
    await waitFor(() => expect(note).toHaveFocus());
    const move = within(dialog).getByRole('button', { name: 'Move to Draft' });
    expect(move).toBeDisabled();
    await userEvent.click(stage);
    expect(await within(dialog).findByRole('option', { name: 'Ready (Needs 1 approval to move on from “Review” (0 given))', hidden: true })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await userEvent.keyboard('{Escape}');

    await userEvent.type(note, 'The legal text is missing; back to you');
    await userEvent.click(move);
    await waitFor(() =>
      expect(calls.find((c) => c.path === '/pages/home/stage')?.body).toEqual({ stage: 's1', comment: 'The legal text is missing; back to you' }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Move with a note' })).toBeNull());
    expect(await within(bar).findByText('Draft')).toBeInTheDocument();
  });

  it('shows a refused move with a note in its dialog, as the server said, and keeps the note', async () => {
    const bar = await renderEditor();
    moveRefusal = refusal(409, 'APPROVALS_MISSING', "Moving on from 'Review' needs 1 approval (0 given)");
    await userEvent.click(within(bar).getByRole('button', { name: 'Move to stage…' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Move with a note…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move with a note' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Note/ }), 'Please check');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move to Draft' }));
    expect(await within(dialog).findByText("Moving on from 'Review' needs 1 approval (0 given)")).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Note/ })).toHaveValue('Please check');
    expect(within(bar).getByText('Review')).toBeInTheDocument();
  });
});
