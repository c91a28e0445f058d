/**
 * Settings › Roles in jsdom against a fake management API: the built-in roles are listed
 * read-only with what they may do; creating a role sends the permissions the editor shows (the
 * limits an entries permission takes, own items only); editing PATCHes; deleting asks first and a
 * 409 ROLE_IN_USE stays in the dialog.
 */
import { PRESET_ROLES } from '../../../../src/modules/access/roles.js';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, ok, okList, refusal, renderScreen, type FakeCall } from '../../app/test-utils';
import type { RoleWire } from '../../../../src/modules/access/custom-roles';
import RolesTab from './RolesTab';

if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

const presets: RoleWire[] = PRESET_ROLES.map((r) => ({
  id: r.name,
  name: r.name,
  description: '',
  preset: true,
  permissions: r.permissions.map((p) => ({ ...p })),
}));
let custom: RoleWire[] = [];
let calls: FakeCall[] = [];
let inUse = false;

beforeEach(() => {
  custom = [];
  inUse = false;
  calls = fakeApi(({ method, path, body }) => {
    if (path === '/content-types')
      return okList([
        { id: 't1', slug: 'blog-post', name: 'Blog post', is_block: false, fields: [{ name: 'title' }, { name: 'internal_note' }] },
        { id: 't2', slug: 'news', name: 'News', is_block: false, fields: [{ name: 'title' }] },
      ]);
    if (path === '/workspace') return ok({ id: 'ws-1', name: 'Demo', slug: 'demo', locales: ['en', 'de'], default_locale: 'en' });
    if (path === '/roles' && method === 'GET') return ok([...presets, ...custom]);
    if (path === '/roles' && method === 'POST') {
      custom = [{ id: 'r1', preset: false, ...(body as object) } as RoleWire];
      return ok(custom[0]);
    }
    if (path === '/roles/r1' && method === 'PATCH') {
      custom = [{ ...custom[0], ...(body as object) }];
      return ok(custom[0]);
    }
    if (path === '/roles/r1' && method === 'DELETE') {
      if (inUse) return refusal(409, 'ROLE_IN_USE', "The role 'Freelancer' is held by 1 member(s) and 0 pending invitation(s): give them another role first");
      custom = [];
      return ok(null);
    }
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

const renderTab = () => renderScreen(<RolesTab />, '/:workspace/settings/roles', '/demo/settings/roles', 'admin');

describe('roles settings', () => {
  it('lists the built-in roles read-only with what they may do', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'Roles' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0].textContent)).toEqual([
      'ownerbuilt-in',
      'adminbuilt-in',
      'editorbuilt-in',
      'authorbuilt-in',
      'viewerbuilt-in',
    ]);
    const author = rows[3];
    expect(within(author).getByText('Entries: read, create, update, delete')).toBeInTheDocument();
    expect(within(author).getByText('read-only')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /Edit role|Delete role/ })).toBeNull();
  });

  it('creates a role from the permission editor, edits it, and shows a 409 when deleting a role in use', async () => {
    renderTab();
    await screen.findByRole('table', { name: 'Roles' });
    await userEvent.click(screen.getByRole('button', { name: 'Create role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create role' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Freelancer');
    const perm = within(dialog).getByRole('group', { name: 'Permission 1' });
    for (const a of ['create', 'update', 'publish']) await userEvent.click(within(perm).getByRole('checkbox', { name: a }));
    await userEvent.click(within(perm).getByRole('combobox', { name: /Only these content types/ }));
    await userEvent.click(await screen.findByRole('option', { name: 'Blog post', hidden: true }));
    await userEvent.click(within(perm).getByRole('switch', { name: /Only items they created/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create role' }));

    await waitFor(() => expect(calls.find((c) => c.method === 'POST' && c.path === '/roles')).toBeTruthy());
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      name: 'Freelancer',
      description: '',
      permissions: [{ resource: 'entries', actions: ['read', 'create', 'update', 'publish'], content_types: ['blog-post'], own_only: true }],
    });
    expect(await screen.findByText('Entries: read, create, update, publish (types blog-post; own items only)')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Edit role Freelancer' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit role Freelancer' });
    await userEvent.type(within(edit).getByRole('textbox', { name: 'Description' }), 'Blog only');
    await userEvent.click(within(edit).getByRole('button', { name: 'Save role' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toMatchObject({ name: 'Freelancer', description: 'Blog only' }));

    inUse = true;
    await userEvent.click(await screen.findByRole('button', { name: 'Delete role Freelancer' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this role?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete role' }));
    expect(await within(confirm).findByText(/is held by 1 member/)).toBeInTheDocument();
    inUse = false;
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete role' }));
    await waitFor(() => expect(screen.queryByText('Freelancer')).toBeNull());
  });
});
