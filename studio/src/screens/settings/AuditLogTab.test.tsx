/**
 * Settings › Audit log in jsdom against a fake management API: the rows of GET /audit-log with
 * actor, action, target and changed field names; "Load more" follows meta.next_cursor and appends;
 * applied filters go to the query (the "to" day whole), and the cursor walk restarts with them;
 * every filter has a label.
 */
import { capabilitiesOf } from '../../../../src/modules/access/authorize.js';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionInfo, SessionWorkspace } from '../../api/session';
import type { AuditEntry } from '../../api/types';
import { WorkspaceContext, workspaceContextValue } from '../../app/workspace';
import AuditLogTab, { auditQuery } from './AuditLogTab';

if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

const row = (n: number, over: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `0193-${n}`,
  at: `2026-11-2${n % 10}T09:00:00.000Z`,
  actor: { type: 'user', id: '4', label: 'ada@example.com', user_id: 4 },
  action: 'entry.updated',
  target: { kind: 'entry', id: `e${n}`, slug: `post-${n}` },
  ip: '203.0.113.7',
  user_agent: 'Firefox',
  request_id: `req_${n}`,
  changed_fields: ['title'],
  ...over,
});

let queries: URLSearchParams[] = [];

beforeEach(() => {
  queries = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://studio.test');
      const ok = (data: unknown, meta: unknown) => new Response(JSON.stringify({ success: true, message: 'Success', data, meta }), { status: 200 });
      if (url.pathname === '/api/v1/manage/users') return ok([{ id: 4, email: 'ada@example.com', name: 'Ada', role: 'owner' }], null);
      if (url.pathname !== '/api/v1/manage/audit-log') return new Response('{}', { status: 404 });
      queries.push(url.searchParams);
      if (url.searchParams.get('action') === 'key.*')
        return ok([row(7, { action: 'key.created', actor: { type: 'key', id: 'k1', label: 'CI', user_id: 4 }, changed_fields: undefined })], {
          page_size: 1,
          next_cursor: null,
        });
      if (url.searchParams.get('cursor') === 'c2')
        return ok([row(3, { action: 'session.sign_in_failed', actor: { type: 'system', id: null, label: 'scheduler', user_id: null } })], {
          page_size: 1,
          next_cursor: null,
        });
      return ok([row(1), row(2, { changed_fields: ['slug', 'summary'] })], { page_size: 2, next_cursor: 'c2' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderTab() {
  const workspace: SessionWorkspace = { id: 'ws-1', slug: 'demo', name: 'Demo', role: 'owner', capabilities: capabilitiesOf('owner') };
  const session: SessionInfo = { user: { id: 4, email: 'ada@example.com', name: null }, workspaces: [workspace], csrf_token: 'c' };
  return render(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <WorkspaceContext.Provider value={workspaceContextValue(session, workspace)}>
          <AuditLogTab />
        </WorkspaceContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('audit log settings', () => {
  it('lists rows, loads more by cursor, and applies filters to a new walk', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'Audit log' });
    expect(within(table).getByText('entry post-1')).toBeInTheDocument();
    expect(within(table).getByText('slug, summary')).toBeInTheDocument();
    expect(within(table).getAllByText('ada@example.com')).toHaveLength(2);
    expect(queries[0].get('cursor')).toBeNull();
    expect(queries[0].get('limit')).toBe('50');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(table).findByText('session.sign_in_failed')).toBeInTheDocument();
    expect(within(table).getByText('System (scheduler)')).toBeInTheDocument();
    expect(queries.at(-1)!.get('cursor')).toBe('c2');
    expect(within(table).getAllByRole('row')).toHaveLength(4);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull());

    for (const name of ['Actor', 'Action', 'Target', 'From', 'To']) expect(screen.getByLabelText(new RegExp(`^${name}`))).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText(/^Action/), 'key.*');
    await userEvent.type(screen.getByLabelText(/^Actor/), 'key:k1');
    await userEvent.click(screen.getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('Key CI')).toBeInTheDocument();
    const last = queries.at(-1)!;
    expect([last.get('action'), last.get('actor'), last.get('cursor'), last.get('target')]).toEqual(['key.*', 'key:k1', null, null]);
    expect(await screen.findByText('created by Ada')).toBeInTheDocument();
  });

  it('sends a date range as instants, the last day included', () => {
    const q = auditQuery({ actor: ' ', action: '', target: 'entry:e1', from: '2026-11-01', to: '2026-11-30' });
    expect(q.actor).toBeUndefined();
    expect(q.target).toBe('entry:e1');
    expect(q.from).toBe(new Date(2026, 10, 1).toISOString());
    expect(q.to).toBe(new Date(2026, 11, 1).toISOString());
  });
});
