/**
 * Helpers of screens' component tests: a fake management API on `fetch` (answers in
 * the API envelope, every request recorded), a screen rendered at a route of workspace
 * "demo" with a role, inside Mantine (test env), a query client and the workspace context, and
 * media queries answered as on a given screen.
 */
import type { ReactElement } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { SessionInfo, SessionWorkspace } from '../api/session';
import { capabilitiesOf } from '../../../src/modules/access/authorize.js';
import { WorkspaceContext, workspaceContextValue } from './workspace';

export interface FakeCall {
  method: string;
  /** relative to /api/v1/manage */
  path: string;
  /** the query string's parameters */
  query: URLSearchParams;
  body: unknown;
  ifMatch: string | null;
}

export const ok = (data: unknown, meta: unknown = null, etag = '"p1-1"') =>
  new Response(JSON.stringify({ success: true, message: 'Success', data, meta }), { status: 200, headers: { ETag: etag } });
export const okList = (data: unknown[]) => ok(data, { page_size: 100, total_data: data.length, current_page: 1, total_pages: 1 });
export const refusal = (status: number, code: string, message: string, errors: { path: string; message: string }[] | null = null) =>
  new Response(JSON.stringify({ success: false, message, code, data: null, errors, traceId: 'req_1' }), { status });

/** Stubs matchMedia so that exactly the queries in `matching` match (undone by vi.unstubAllGlobals). */
export function stubMatchMedia(matching: string[]): void {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: matching.includes(query),
    media: query,
    onchange: null,
    addListener: () => {},
    removeListener: () => {},
    addEventListener: () => {},
    removeEventListener: () => {},
    dispatchEvent: () => false,
  }));
}

/** Stubs fetch with `answer` (null: 404); returns the recorded calls. */
export function fakeApi(answer: (call: FakeCall) => Response | null): FakeCall[] {
  const calls: FakeCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      const call: FakeCall = {
        method: init?.method ?? 'GET',
        path: new URL(input, 'http://studio.test').pathname.replace('/api/v1/manage', ''),
        query: new URL(input, 'http://studio.test').searchParams,
        body: init?.body ? JSON.parse(String(init.body)) : null,
        ifMatch: headers['If-Match'] ?? null,
      };
      calls.push(call);
      return answer(call) ?? refusal(404, 'NOT_FOUND', 'no fake');
    }),
  );
  return calls;
}

/**
 * Renders `element` at `url` (route `path`) for a member of workspace "demo" with `role`; `client`
 * is a fresh query client unless a test shares one between renders (what is cached).
 */
export function renderScreen(
  element: ReactElement,
  path: string,
  url: string,
  role: SessionWorkspace['role'],
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } }),
) {
  const workspace: SessionWorkspace = { id: 'ws-1', slug: 'demo', name: 'Demo', role, capabilities: capabilitiesOf(role) };
  const session: SessionInfo = { user: { id: 1, email: 'a@example.com', name: null }, workspaces: [workspace], csrf_token: 'c' };
  const router = createMemoryRouter([{ path, element }], { initialEntries: [url] });
  return render(
    <MantineProvider env="test">
      <Notifications />
      <QueryClientProvider client={client}>
        <WorkspaceContext.Provider value={workspaceContextValue(session, workspace)}>
          <RouterProvider router={router} />
        </WorkspaceContext.Provider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}
