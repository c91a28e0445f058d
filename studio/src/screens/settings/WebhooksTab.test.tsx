/**
 * Settings › Webhooks in jsdom against a fake management API: adding a webhook sends its URL,
 * events and content types and shows the signing secret once; a ping reports the receiver's
 * answer and opens the delivery log, whose failed delivery can be retried; disabling PATCHes
 * `enabled`; deleting asks first.
 */
import { capabilitiesOf } from '../../../../src/modules/access/authorize.js';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo, SessionWorkspace } from '../../api/session';
import type { Webhook, WebhookDelivery } from '../../api/types';
import { WorkspaceContext, workspaceContextValue } from '../../app/workspace';
import WebhooksTab from './WebhooksTab';

if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

const T = '2026-11-25T09:00:00.000Z';
let hooks: Webhook[] = [];
let calls: { method: string; url: string; body: unknown }[] = [];

const delivery = (id: string, status: WebhookDelivery['status'], code: number, type = 'entry.published'): WebhookDelivery => ({
  id,
  webhook_id: 'w1',
  event_id: type === 'ping' ? null : 7,
  event_type: type,
  status,
  attempt_count: 1,
  next_attempt_at: null,
  give_up_at: T,
  created_at: T,
  payload: {},
  attempts: [{ number: 1, started_at: T, finished_at: T, duration_ms: 12, status_code: code, response_excerpt: 'ok', error: null }],
});

beforeEach(() => {
  hooks = [];
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://studio.test');
      const path = url.pathname.replace('/api/v1/manage', '');
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      calls.push({ method, url: path, body });
      const ok = (data: unknown, status = 200) => new Response(JSON.stringify({ success: true, message: 'Success', data, meta: null }), { status });
      if (path === '/content-types') return ok([{ id: 't1', slug: 'post', name: 'Post', is_block: false, fields: [] }]);
      if (path === '/webhooks' && method === 'GET') return ok(hooks);
      if (path === '/webhooks' && method === 'POST') {
        const created: Webhook = { id: 'w1', description: null, enabled: true, content_types: [], created_at: T, updated_at: T, ...body };
        hooks = [created];
        return ok({ ...created, secret: 'whsec_c2VjcmV0LXZhbHVlLW9uY2U=' }, 201);
      }
      if (path === '/webhooks/w1' && method === 'PATCH') {
        hooks = [{ ...hooks[0], ...body }];
        return ok(hooks[0]);
      }
      if (path === '/webhooks/w1' && method === 'DELETE') {
        hooks = [];
        return ok(null);
      }
      if (path === '/webhooks/w1/ping') return ok(delivery('d-ping', 'delivered', 204, 'ping'));
      if (path === '/webhooks/w1/deliveries') return ok([delivery('d-ping', 'delivered', 204, 'ping'), delivery('d-1', 'failed', 500)]);
      if (path === '/webhooks/w1/deliveries/d-1/retry') return ok(delivery('d-1', 'delivered', 200));
      return new Response(JSON.stringify({ success: false, message: 'no fake', code: 'NOT_FOUND', data: null, traceId: 'req_x' }), { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderTab() {
  const workspace: SessionWorkspace = { id: 'ws-1', slug: 'demo', name: 'Demo', role: 'admin', capabilities: capabilitiesOf('admin') };
  const session: SessionInfo = { user: { id: 1, email: 'a@example.com', name: null }, workspaces: [workspace], csrf_token: 'c' };
  return render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <WorkspaceContext.Provider value={workspaceContextValue(session, workspace)}>
          <WebhooksTab />
        </WorkspaceContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('webhooks settings', () => {
  it('adds a webhook and shows its secret once, pings it, retries a failed delivery, disables and deletes it', async () => {
    renderTab();
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'https://site.example/hook');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }));

    const secret = await screen.findByRole('textbox', { name: 'Signing secret' });
    expect(secret).toHaveValue('whsec_c2VjcmV0LXZhbHVlLW9uY2U=');
    const post = calls.find((c) => c.method === 'POST' && c.url === '/webhooks');
    expect(post?.body).toEqual({
      url: 'https://site.example/hook',
      description: null,
      events: ['entry.published', 'entry.unpublished', 'entry.deleted'],
      content_types: [],
      enabled: true,
    });
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Signing secret' })).toBeNull());
    expect(await screen.findByText('https://site.example/hook')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Send ping' }));
    expect(await screen.findByText('Ping delivered: HTTP 204 in 12 ms')).toBeInTheDocument();
    const log = await screen.findByRole('table', { name: 'Deliveries of https://site.example/hook' });
    expect(await within(log).findByText('failed')).toBeInTheDocument();
    await userEvent.click(within(log).getByRole('button', { name: 'Retry entry.published delivery' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/webhooks/w1/deliveries/d-1/retry')).toBe(true));
    expect(await screen.findByText('Retry: delivered')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('switch', { name: 'Enable https://site.example/hook' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ enabled: false }));

    await userEvent.click(screen.getByRole('button', { name: 'Delete webhook https://site.example/hook' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this webhook?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete webhook' }));
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
  });

  it('offers an action of every kind (*.stage_changed: review workflow moves of entries and pages)', async () => {
    renderTab();
    await userEvent.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add webhook' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /URL/ }), 'https://site.example/hook');
    await userEvent.type(within(dialog).getByLabelText(/^Events/), '*.stage');
    await userEvent.click(await screen.findByRole('option', { name: '*.stage_changed (every kind)', hidden: true }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add webhook' }));
    await screen.findByRole('textbox', { name: 'Signing secret' });
    const post = calls.find((c) => c.method === 'POST' && c.url === '/webhooks');
    expect((post?.body as { events: string[] }).events).toEqual(['entry.published', 'entry.unpublished', 'entry.deleted', '*.stage_changed']);
  });
});
