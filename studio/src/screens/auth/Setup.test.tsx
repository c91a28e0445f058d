/**
 * The setup and invitation screen in jsdom with a fake API (docs/api.md "Accounts and
 * invitations"): an invitation of an email that already has an account is accepted signed in as
 * that email, with the link's token (signing in on the page first when needed, signing out first
 * when signed in as someone else); a link that sets a password still asks for it twice.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, refusal, type FakeCall } from '../../app/test-utils';
import Setup from './Setup';

const TOKEN = `qt_${'a'.repeat(43)}`;
const INVITED = 'nia@example.com';
const LINK = { purpose: 'invitation', email: INVITED, workspace: { slug: 'demo', name: 'Demo' }, role: 'editor', expires_at: '2026-12-01T10:00:00.000Z' };
const sessionOf = (email: string, workspaces: { id: string; slug: string; name: string; role: string }[] = []) => ({
  user: { id: 7, email, name: null },
  workspaces,
  csrf_token: `csrf-of-${email}`,
});
const JOINED = sessionOf(INVITED, [
  { id: 'ws-0', slug: 'elsewhere', name: 'Elsewhere', role: 'admin' },
  { id: 'ws-1', slug: 'demo', name: 'Demo', role: 'editor' },
]);

function renderSetup() {
  const router = createMemoryRouter(
    [
      { path: '/setup', element: <Setup /> },
      { path: '/:workspace', element: <p>Workspace home</p> },
    ],
    { initialEntries: [`/setup?token=${TOKEN}`] },
  );
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
  return router;
}

const posted = (calls: FakeCall[], path: string) => calls.filter((c) => c.method === 'POST' && c.path === path);

afterEach(() => vi.unstubAllGlobals());

describe('Setup: invitations of an existing account', () => {
  it('not signed in: signs in as the invited email on the page, then accepts with the token and opens the workspace', async () => {
    let signedIn = false;
    const calls = fakeApi((c) => {
      if (c.path === '/session/token') return ok({ ...LINK, action: 'sign_in' });
      if (c.path === '/session' && c.method === 'GET')
        return signedIn ? ok(sessionOf(INVITED)) : refusal(401, 'UNAUTHORIZED', 'Sign in to the Studio first: no session');
      if (c.path === '/session' && c.method === 'POST') {
        signedIn = true;
        return ok(sessionOf(INVITED, [JOINED.workspaces[0]]));
      }
      if (c.path === '/session/invitations/accept') return ok(JOINED);
      return null;
    });
    const router = renderSetup();
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Accept your invitation' });
    await screen.findByRole('button', { name: 'Sign in and accept' });
    expect(screen.getByText(/already has a Quire account/)).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe(INVITED);
    await user.type(screen.getByLabelText(/^Password/), 'my own password');
    await user.click(screen.getByRole('button', { name: 'Sign in and accept' }));
    await screen.findByText('Workspace home');
    expect(router.state.location.pathname).toBe('/demo');
    expect(posted(calls, '/session').map((c) => c.body)).toEqual([{ email: INVITED, password: 'my own password' }]);
    expect(posted(calls, '/session/invitations/accept').map((c) => c.body)).toEqual([{ token: TOKEN }]);
  });

  it('signed in as the invited email: one click accepts; nothing is sent before it', async () => {
    const calls = fakeApi((c) => {
      if (c.path === '/session/token') return ok({ ...LINK, action: 'sign_in' });
      if (c.path === '/session' && c.method === 'GET') return ok(sessionOf(INVITED, [JOINED.workspaces[0]]));
      if (c.path === '/session/invitations/accept') return ok(JOINED);
      return null;
    });
    renderSetup();
    const user = userEvent.setup();
    const accept = await screen.findByRole('button', { name: 'Accept invitation' });
    expect(posted(calls, '/session/invitations/accept')).toHaveLength(0);
    await user.click(accept);
    await screen.findByText('Workspace home');
    expect(posted(calls, '/session/invitations/accept').map((c) => c.body)).toEqual([{ token: TOKEN }]);
    expect(posted(calls, '/session')).toHaveLength(0);
  });

  it('signed in as someone else: says so, signs out on request, then offers the sign-in as the invited email', async () => {
    let signedOut = false;
    const calls = fakeApi((c) => {
      if (c.path === '/session/token') return ok({ ...LINK, action: 'sign_in' });
      if (c.path === '/session' && c.method === 'GET') return signedOut ? refusal(401, 'UNAUTHORIZED', 'no session') : ok(sessionOf('other@example.com'));
      if (c.path === '/session' && c.method === 'DELETE') {
        signedOut = true;
        return ok(null);
      }
      return null;
    });
    renderSetup();
    const user = userEvent.setup();
    await screen.findByText(/You are signed in as/);
    expect(screen.getByText('other@example.com')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept invitation' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByRole('button', { name: 'Sign in and accept' });
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/session')).toBe(true);
    expect(posted(calls, '/session/invitations/accept')).toHaveLength(0);
  });

  it('shows the refusal when accepting fails and stays on the page', async () => {
    fakeApi((c) => {
      if (c.path === '/session/token') return ok({ ...LINK, action: 'sign_in' });
      if (c.path === '/session' && c.method === 'GET') return ok(sessionOf(INVITED));
      if (c.path === '/session/invitations/accept') return refusal(404, 'NOT_FOUND', 'This link is unknown, already used or expired; ask for a new one');
      return null;
    });
    renderSetup();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Accept invitation' }));
    await screen.findByText(/already used or expired/);
    expect(screen.queryByText('Workspace home')).toBeNull();
  });
});

describe('Setup: a link that sets a password', () => {
  it('an invitation of a new email asks for a password twice and redeems the token', async () => {
    const calls = fakeApi((c) => {
      if (c.path === '/session/token') return ok({ ...LINK, action: 'set_password' });
      if (c.path === '/session/password') return ok(sessionOf(INVITED, [JOINED.workspaces[1]]));
      return null;
    });
    renderSetup();
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'Accept your invitation' });
    await user.type(screen.getByLabelText(/^New password/), 'a new password 1');
    await user.type(screen.getByLabelText(/^Repeat the password/), 'a new password 1');
    await user.click(screen.getByRole('button', { name: 'Set password and continue' }));
    await screen.findByText('Workspace home');
    await waitFor(() => expect(posted(calls, '/session/password').map((c) => c.body)).toEqual([{ token: TOKEN, password: 'a new password 1' }]));
    expect(calls.some((c) => c.path === '/session' && c.method === 'GET')).toBe(false);
  });
});
