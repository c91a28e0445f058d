/**
 * The sign-in screen with single sign-on (D121; docs/studio.md "Sign-in"), in jsdom with a fake
 * API: the provider's button when GET /session/methods names one (carrying `next`), the password
 * form beside it or, under OIDC_ONLY, alone without it, and the refusal the callback named in
 * `?sso_error=`.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok } from '../../app/test-utils';
import SignIn, { SSO_REFUSALS } from './SignIn';

const START = '/api/v1/manage/session/oidc/start';

function renderSignIn(search: string, methods: unknown) {
  fakeApi((call) => (call.path === '/session/methods' ? ok(methods) : null));
  const router = createMemoryRouter([{ path: '/sign-in', element: <SignIn /> }], { initialEntries: [`/sign-in${search}`] });
  render(
    <MantineProvider env="test">
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('Sign-in with single sign-on', () => {
  it('offers the provider beside the password form, returning to the page asked for', async () => {
    renderSignIn('?next=%2Fdemo%2Fmodel', { password: true, sso: { name: 'Acme SSO', start_url: START } });
    const button = await screen.findByRole('link', { name: 'Sign in with Acme SSO' });
    expect(button).toHaveAttribute('href', `${START}?next=%2Fdemo%2Fmodel`);
    expect(await screen.findByLabelText(/Password/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows only the provider under OIDC_ONLY, and the refusal the callback named', async () => {
    renderSignIn('?sso_error=not_mapped', { password: false, sso: { name: 'Acme SSO', start_url: START } });
    const button = await screen.findByRole('link', { name: 'Sign in with Acme SSO' });
    expect(button).toHaveAttribute('href', START);
    expect(await screen.findByText('This Quire signs people in with Acme SSO only.')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Password/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Sign-in with Acme SSO refused');
    expect(alert).toHaveTextContent(SSO_REFUSALS.not_mapped);
    expect(alert).toHaveTextContent('no access to any workspace');
  });

  it('words every refusal reason, and an unknown one as a failure', async () => {
    renderSignIn('?sso_error=something-new', { password: true, sso: { name: 'Acme SSO', start_url: START } });
    expect(await screen.findByRole('alert')).toHaveTextContent(SSO_REFUSALS.failed);
    expect(Object.keys(SSO_REFUSALS).sort()).toEqual(['email_unverified', 'expired', 'failed', 'not_mapped', 'provider_error']);
  });

  it('shows the password form alone without single sign-on', async () => {
    renderSignIn('', { password: true, sso: null });
    expect(await screen.findByLabelText(/Password/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Sign in with/ })).toBeNull();
  });
});
