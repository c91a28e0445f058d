/**
 * The shell in jsdom with a fake management API: the session gate sends a signed-out person to
 * /sign-in with the return path, sign-in shows the API's refusal with its trace id and returns to
 * the path, the navbar lists entry types (not block types) and the role, and a workspace the
 * person is not a member of is named as such.
 */
import { capabilitiesOf } from '../../../src/modules/access/authorize.js';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';

interface Call {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

const SESSION = {
  user: { id: 1, email: 'ada@example.com', name: 'Ada' },
  workspaces: [{ id: 'ws-1', slug: 'demo', name: 'Demo', role: 'editor', capabilities: capabilitiesOf('editor') }],
  csrf_token: 'csrf-123',
};
const TYPES = [
  { id: 't1', slug: 'post', name: 'Post', is_block: false, fields: [] },
  { id: 't2', slug: 'hero', name: 'Hero', is_block: true, fields: [] },
];
const OVERVIEW = {
  content_types: [{ id: 't1', slug: 'post', name: 'Post', is_block: false, counts: { draft: 1, scheduled: 0, published: 2, archived: 0, total: 3 } }],
  pages: { draft: 0, scheduled: 0, published: 0, archived: 0, total: 0 },
  recent: [],
  scheduled: [],
};

function envelope(status: number, data: unknown, extra: Record<string, unknown> = {}): Response {
  const ok = status < 400;
  return new Response(JSON.stringify({ success: ok, message: ok ? 'Success' : String(extra.message), data, meta: extra.meta ?? null, ...extra }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let signedIn = false;
let calls: Call[] = [];

beforeEach(() => {
  signedIn = false;
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://studio.test');
      const method = init.method ?? 'GET';
      const path = url.pathname.replace('/api/v1/manage', '');
      calls.push({ method, path, headers: (init.headers ?? {}) as Record<string, string>, body: init.body ? JSON.parse(String(init.body)) : null });
      if (path === '/session' && method === 'GET')
        return signedIn ? envelope(200, SESSION) : envelope(401, null, { code: 'UNAUTHORIZED', message: 'Sign in first', traceId: 'req_a' });
      if (path === '/session' && method === 'POST') {
        const body = JSON.parse(String(init.body)) as { password: string };
        if (body.password !== 'correct horse') return envelope(401, null, { code: 'UNAUTHORIZED', message: 'Invalid email or password', traceId: 'req_bad' });
        signedIn = true;
        return envelope(200, SESSION);
      }
      if (path === '/content-types') return envelope(200, TYPES, { meta: { page_size: 2, total_data: 2, current_page: 1, total_pages: 1 } });
      if (path === '/overview') return envelope(200, OVERVIEW);
      return envelope(404, null, { code: 'NOT_FOUND', message: `no fake for ${method} ${path}`, traceId: 'req_404' });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function open(path: string) {
  window.history.replaceState(null, '', `/studio${path}`);
  return render(<App />);
}

describe('Studio shell', () => {
  it('sends a signed-out person to sign-in, shows a refusal with its trace id, then returns to the page asked for', async () => {
    const user = userEvent.setup();
    open('/demo/model');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(window.location.pathname).toBe('/studio/sign-in');
    expect(new URLSearchParams(window.location.search).get('next')).toBe('/demo/model');

    await user.type(screen.getByLabelText(/Email/), 'ada@example.com');
    await user.type(screen.getByLabelText(/Password/), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid email or password');
    expect(alert).toHaveTextContent('req_bad');

    await user.clear(screen.getByLabelText(/Password/));
    await user.type(screen.getByLabelText(/Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByRole('heading', { name: 'Content model', level: 1 });
    expect(window.location.pathname).toBe('/studio/demo/model');
  });

  it('lists entry types in the navbar, shows email and role, and sends the workspace id', async () => {
    signedIn = true;
    open('/demo');
    await screen.findByRole('heading', { name: 'Demo', level: 1 });
    const nav = screen.getByRole('navigation', { name: 'Studio' });
    expect(await within(nav).findByRole('link', { name: 'Post' })).toHaveAttribute('href', '/studio/demo/content/post');
    expect(within(nav).queryByRole('link', { name: 'Hero' })).toBeNull();
    expect(within(nav).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(nav).getByLabelText('Role: editor')).toBeInTheDocument();
    expect(within(nav).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.path === '/overview')).toBe(true));
    expect(calls.find((c) => c.path === '/overview')?.headers['X-Workspace-ID']).toBe('ws-1');
    expect(await screen.findByText('2 published')).toBeInTheDocument();
  });

  it('names a workspace the person does not belong to', async () => {
    signedIn = true;
    open('/elsewhere/settings/general');
    await screen.findByRole('heading', { name: 'Workspace not found' });
    expect(screen.getByRole('link', { name: 'Demo' })).toHaveAttribute('href', '/studio/demo');
  });
});
