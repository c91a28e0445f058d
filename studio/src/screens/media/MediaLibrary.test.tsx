/**
 * The Media screen in jsdom against a fake management API: the list with search (sent as
 * `search`), type and folder filters (`folder=` for the top level) and the list view; the detail
 * panel setting a focal point by clicking the image and by number inputs and saving it in one
 * PUT with a renamed file and a new folder, and editing the title and description; the delete warning listing the entries and pages that
 * use the asset before DELETE; a viewer gets no upload area and a read-only panel.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionWorkspace } from '../../api/session';
import type { MediaAsset } from '../../api/types';
import { renderScreen } from '../../app/test-utils';
import MediaLibrary from './MediaLibrary';

if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

const asset = (id: string, name: string, mime: string, extra: Partial<MediaAsset> = {}): MediaAsset => ({
  id,
  workspace_id: 'ws-1',
  url: `http://quire.test/media/files/ws-1/${id}.${name.split('.').pop()}`,
  mime_type: mime,
  width: mime.startsWith('image/') ? 800 : null,
  height: mime.startsWith('image/') ? 400 : null,
  alt_text: null,
  title: null,
  description: null,
  focal_x: null,
  focal_y: null,
  filename: `${id}.png`,
  original_name: name,
  folder: null,
  size: 2048,
  uploaded_by: 1,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  ...extra,
});
const TEAM = asset('m-team', 'team.png', 'image/png', { alt_text: 'The team', title: 'Team' });
const REPORT = asset('m-report', 'report.pdf', 'application/pdf', { folder: 'docs/2026' });

let calls: { method: string; url: string; body: unknown }[] = [];

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(input, 'http://studio.test');
      const path = url.pathname.replace('/api/v1/manage', '');
      const method = init.method ?? 'GET';
      calls.push({ method, url: `${path}${url.search}`, body: init.body ? JSON.parse(String(init.body)) : undefined });
      const ok = (data: unknown, meta: unknown = null) => new Response(JSON.stringify({ success: true, message: 'Success', data, meta }), { status: 200 });
      if (path === '/media' && method === 'GET') {
        const search = url.searchParams.get('search')?.toLowerCase();
        const items = [TEAM, REPORT].filter((m) => !search || m.original_name.includes(search));
        return ok(items, { page_size: 24, total_data: items.length, current_page: 1, total_pages: 1 });
      }
      if (path === '/media/folders') return ok([{ folder: 'docs/2026', count: 1 }]);
      if (path === '/media/m-team' && method === 'GET') return ok(TEAM);
      if (path === '/media/m-team' && method === 'PUT')
        return ok({ ...TEAM, ...(JSON.parse(String(init.body)) as object), updated_at: '2026-11-24T09:00:00.000Z' });
      if (path === '/media/m-team' && method === 'DELETE') return ok(null);
      if (path === '/media/m-team/usage')
        return ok({
          entries: [{ id: 'e1', content_type: 'post', slug: 'hello', title: 'Cover story' }],
          pages: [{ id: 'p1', slug: 'landing', title: 'Landing' }],
        });
      return new Response(JSON.stringify({ success: false, message: 'no fake', code: 'NOT_FOUND', data: null, traceId: 'req_x' }), { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const renderAs = (role: SessionWorkspace['role'], at = '/demo/media') => renderScreen(<MediaLibrary />, '/:workspace/media', at, role);

const lists = () => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/media?')).map((c) => c.url);

async function choose(label: string, option: string | RegExp) {
  await userEvent.click(screen.getByRole('combobox', { name: label }));
  await userEvent.click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('media library screen', () => {
  it('lists, searches and filters by type, folder and missing alt text, in a grid or a table', async () => {
    renderAs('editor');
    const grid = await screen.findByRole('list', { name: 'Media' });
    await within(grid).findByRole('button', { name: 'Open team.png' });
    expect(within(grid).getByRole('button', { name: 'Open report.pdf' })).toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Search media' }), 'team');
    await waitFor(() => expect(lists().at(-1)).toBe('/media?page=1&limit=24&search=team'));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open report.pdf' })).toBeNull());
    await userEvent.clear(screen.getByRole('textbox', { name: 'Search media' }));
    await choose('Type', 'Other files');
    await waitFor(() => expect(lists().at(-1)).toBe('/media?page=1&limit=24&type=other'));
    await choose('Type', 'All types');
    await choose('Folder', 'No folder (top level)');
    await waitFor(() => expect(lists().at(-1)).toBe('/media?page=1&limit=24&folder='));
    await choose('Folder', /2026 \(1\)/);
    await waitFor(() => expect(lists().at(-1)).toBe('/media?page=1&limit=24&folder=docs%2F2026'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Missing alt text' }));
    await waitFor(() => expect(lists().at(-1)).toBe('/media?page=1&limit=24&folder=docs%2F2026&missing_alt=true'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Missing alt text' }));
    expect(screen.getByRole('combobox', { name: 'Upload to folder' })).toHaveValue('docs/2026');
    await userEvent.click(screen.getByRole('radio', { name: 'List' }));
    const table = await screen.findByRole('table', { name: 'Media' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Preview', 'Name', 'Type', 'Size', 'Folder', 'Added']);
  });

  it('sets the focal point by clicking the image or typing it, and saves name, folder and point in one PUT', async () => {
    renderAs('editor', '/demo/media?asset=m-team');
    const panel = await screen.findByRole('dialog', { name: 'Asset details' });
    const image = await within(panel).findByTestId('focal-image');
    vi.spyOn(image, 'getBoundingClientRect').mockReturnValue({
      left: 10,
      top: 20,
      width: 200,
      height: 100,
      right: 210,
      bottom: 120,
      x: 10,
      y: 20,
      toJSON: () => ({}),
    });
    fireEvent.click(image, { clientX: 60, clientY: 95 });
    expect(within(panel).getByRole('textbox', { name: 'Focal point from the left (%)' })).toHaveValue('25');
    expect(within(panel).getByRole('textbox', { name: 'Focal point from the top (%)' })).toHaveValue('75');
    expect(within(panel).getByText(/unsaved focal point/, { selector: 'p' })).toBeInTheDocument();
    const top = within(panel).getByRole('textbox', { name: 'Focal point from the top (%)' });
    await userEvent.clear(top);
    await userEvent.type(top, '40');
    const name = within(panel).getByRole('textbox', { name: /^Name/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'crew.png');
    await userEvent.type(within(panel).getByRole('combobox', { name: /^Folder/ }), 'about/team');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ original_name: 'crew.png', folder: 'about/team', focal_x: 0.25, focal_y: 0.4 }),
    );
  });

  it('edits the title and description in the panel and saves them in one PUT (blank clears)', async () => {
    renderAs('editor', '/demo/media?asset=m-team');
    const panel = await screen.findByRole('dialog', { name: 'Asset details' });
    const title = await within(panel).findByRole('textbox', { name: /^Title/ });
    expect(title).toHaveValue('Team');
    const description = within(panel).getByRole('textbox', { name: /^Description/ });
    expect(description).toHaveValue('');
    await userEvent.clear(title);
    await userEvent.type(title, 'Our team');
    await userEvent.type(description, 'On the roof{enter}Summer 2026');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ title: 'Our team', description: 'On the roof\nSummer 2026' }));
  });

  it('refuses a folder path the server would refuse before sending it', async () => {
    renderAs('editor', '/demo/media?asset=m-team');
    const panel = await screen.findByRole('dialog', { name: 'Asset details' });
    await userEvent.type(await within(panel).findByRole('combobox', { name: /^Folder/ }), 'About Us');
    expect(within(panel).getByText(/Use lowercase letters/)).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Save' })).toBeDisabled();
  });

  it('warns before a delete with the entries and pages that use the asset', async () => {
    renderAs('editor', '/demo/media?asset=m-team');
    const panel = await screen.findByRole('dialog', { name: 'Asset details' });
    await userEvent.click(await within(panel).findByRole('button', { name: 'Delete asset' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete team.png?' });
    const where = await within(dialog).findByRole('list', { name: 'Where the asset is used' });
    expect(within(dialog).getByText('Used by 1 entry and 1 page')).toBeInTheDocument();
    expect(
      within(where)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Cover story (post entry)', 'Landing (page /landing)']);
    expect(within(where).getByRole('link', { name: 'Cover story' })).toHaveAttribute('href', '/demo/content/post/hello');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete asset' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE' && c.url === '/media/m-team')).toBe(true));
  });

  it('shows a viewer no upload area and a read-only panel', async () => {
    renderAs('viewer', '/demo/media?asset=m-team');
    const panel = await screen.findByRole('dialog', { name: 'Asset details' });
    expect(await within(panel).findByRole('textbox', { name: /^Alt text/ })).toHaveAttribute('readonly');
    expect(within(panel).getByRole('textbox', { name: /^Title/ })).toHaveAttribute('readonly');
    expect(within(panel).getByRole('textbox', { name: /^Description/ })).toHaveAttribute('readonly');
    expect(within(panel).queryByRole('button', { name: 'Save' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Delete asset' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Choose files' })).toBeNull();
  });
});
