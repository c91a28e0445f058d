/**
 * Settings › People in jsdom with a fake API: a pending invitation is listed as pending with its
 * expiry, no role menu and no "remove" (it is not a member yet), and an owner or admin cancels it
 * with DELETE /users/invitations/{id}; members keep their role menu and removal.
 */
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Member } from '../../api/types';
import { fakeApi, ok, renderScreen } from '../../app/test-utils';
import PeopleTab from './PeopleTab';

if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

const T = '2026-11-25T09:00:00.000Z';
const me: Member = {
  id: 1,
  invitation_id: null,
  email: 'a@example.com',
  name: null,
  role: 'owner',
  status: 'active',
  created_at: T,
  last_sign_in_at: T,
  expires_at: null,
};
const member: Member = { ...me, id: 2, email: 'bo@example.com', role: 'editor' };
const pending: Member = {
  id: null,
  invitation_id: '01a2e000-0000-7000-8000-000000000001',
  email: 'nia@example.com',
  name: 'Nia',
  role: 'author',
  status: 'pending',
  created_at: T,
  last_sign_in_at: null,
  expires_at: '2026-11-28T09:00:00.000Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('People tab', () => {
  it('lists a pending invitation as pending and cancels it; members keep role and removal', async () => {
    let people = [me, member, pending];
    const calls = fakeApi((c) => {
      if (c.method === 'GET' && c.path === '/users') return ok(people);
      if (c.method === 'DELETE' && c.path === `/users/invitations/${pending.invitation_id}`) {
        people = [me, member];
        return ok(null);
      }
      return null;
    });
    renderScreen(<PeopleTab />, '/:workspace/settings/people', '/demo/settings/people', 'owner');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'People' });
    const row = within(table).getByText('nia@example.com').closest('tr')!;
    expect(within(row).getByText('pending')).toBeTruthy();
    expect(within(row).getByText(/invited, until/)).toBeTruthy();
    expect(within(row).queryByLabelText('Role of nia@example.com')).toBeNull();
    expect(within(row).queryByLabelText('Remove nia@example.com')).toBeNull();
    expect(within(table).getAllByLabelText('Role of bo@example.com').length).toBeGreaterThan(0);
    expect(within(table).getByLabelText('Remove bo@example.com')).toBeTruthy();
    expect(within(table).queryByLabelText('Cancel the invitation of bo@example.com')).toBeNull();

    await user.click(within(row).getByLabelText('Cancel the invitation of nia@example.com'));
    await screen.findByText('Invitation of nia@example.com cancelled');
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/users/invitations/${pending.invitation_id}`]);
    expect(within(table).queryByText('nia@example.com')).toBeNull();
  });
});

describe('People tab with custom roles (D120)', () => {
  it("offers the workspace's custom roles by name and sends the role's id", async () => {
    const translator = { id: '01a2e000-0000-7000-8000-0000000000aa', name: 'Translator', description: '', preset: false, permissions: [] };
    let people = [me, { ...member, role: translator.id }];
    const calls = fakeApi((c) => {
      if (c.method === 'GET' && c.path === '/users') return ok(people);
      if (c.method === 'GET' && c.path === '/roles') return ok([translator]);
      if (c.method === 'PATCH' && c.path === '/users/2') {
        people = [me, { ...member, role: 'viewer' }];
        return ok(people[1]);
      }
      return null;
    });
    renderScreen(<PeopleTab />, '/:workspace/settings/people', '/demo/settings/people', 'owner');
    const user = userEvent.setup();
    const table = await screen.findByRole('table', { name: 'People' });
    const select = (await within(table).findAllByLabelText('Role of bo@example.com'))[0] as HTMLInputElement;
    await vi.waitFor(() => expect(select.value).toBe('Translator'));
    await user.click(select);
    await user.click(await screen.findByRole('option', { name: 'viewer', hidden: true }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'viewer' }));
  });
});
