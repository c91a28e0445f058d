/**
 * The content type screen in jsdom with a fake API: a block type shows where it is used
 * (block-usage) and, for a role without schema:write, no add, edit, reorder or delete controls,
 * with read-only details; an admin sees them and the fields in their order. The add-field dialog
 * offers a media field's accepted kinds (sent as `validation.media_kinds`), the edit dialog shows
 * them read-only.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionWorkspace } from '../../api/session';
import { fakeApi, ok, okList, renderScreen } from '../../app/test-utils';
import TypeEditor from './TypeEditor';

const field = (id: string, name: string, label: string, field_type: string, sort_order: number) => ({
  id,
  content_type_id: 't-hero',
  name,
  label,
  field_type,
  required: false,
  is_unique: false,
  localizable: false,
  filterable: false,
  sortable: false,
  sort_order,
  options: null,
  validation: null,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  index_build: null,
});
const HERO = {
  id: 't-hero',
  workspace_id: 'ws-1',
  name: 'Hero',
  slug: 'hero',
  description: 'Top of a page',
  icon: null,
  display_field: null,
  is_block: true,
  orderable: false,
  fields: [field('f1', 'heading', 'Heading', 'text', 0), field('f2', 'image', 'Image', 'media', 1)],
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
};

// Mantine's autosizing Textarea listens to document.fonts, which jsdom lacks.
if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });

beforeEach(() => {
  fakeApi(({ path }) => {
    if (path === '/content-types/hero') return ok(HERO);
    if (path === '/content-types') return okList([HERO]);
    if (path === '/content-types/hero/block-usage')
      return ok({
        count: 3,
        is_block: true,
        pages: [
          { slug: 'home', status: 'published' },
          { slug: 'about', status: 'draft' },
        ],
      });
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

const renderAs = (role: SessionWorkspace['role']) => renderScreen(<TypeEditor />, '/:workspace/model/:type', '/demo/model/hero', role);

describe('content type screen', () => {
  it('shows a block type read-only to an editor, with where it is used', async () => {
    renderAs('editor');
    await screen.findByRole('heading', { name: 'Hero', level: 1 });
    expect(await screen.findByText('3 blocks on 2 pages:')).toBeInTheDocument();
    expect(screen.getByText('home', { selector: 'code' })).toBeInTheDocument();
    const list = screen.getByRole('list', { name: 'Fields of Hero' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('Heading'), expect.stringContaining('Image')]);
    for (const name of ['Add field', 'Save details', 'Delete block type', 'Reorder field Heading', 'Edit field Heading']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    expect(screen.getByRole('button', { name: 'Impact of changing field Heading' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Name/)).toHaveAttribute('readonly');
  });

  it('gives an admin the controls to change the model', async () => {
    renderAs('admin');
    await screen.findByRole('heading', { name: 'Hero', level: 1 });
    for (const name of ['Add field', 'Save details', 'Delete block type', 'Reorder field Heading', 'Edit field Image']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    expect(screen.getByLabelText(/^Name/)).not.toHaveAttribute('readonly');
  });

  it('shows a field whose index is being built, then the flag on once the build is done', async () => {
    const build = {
      filterable: true,
      sortable: false,
      is_unique: false,
      indexes_built: 0,
      indexes_total: 1,
      error: null,
      started_at: HERO.created_at,
      updated_at: HERO.created_at,
    };
    let reads = 0;
    fakeApi(({ path }) => {
      if (path === '/content-types/hero') {
        reads += 1;
        const heading =
          reads === 1 ? { ...HERO.fields[0], index_build: { ...build, state: 'building' } } : { ...HERO.fields[0], filterable: true, index_build: null };
        return ok({ ...HERO, is_block: false, fields: [heading, { ...HERO.fields[1], index_build: { ...build, state: 'failed', error: 'disk full' } }] });
      }
      if (path === '/content-types') return okList([HERO]);
      if (path === '/content-types/hero/block-usage') return ok({ count: 0, is_block: false, pages: [] });
      return null;
    });
    renderAs('admin');
    expect(await screen.findByText(/Building its index \(0 of 1 done\): filterable turns on when it is ready/)).toBeInTheDocument();
    expect(screen.getByText(/could not be built, so the field stayed as it was: disk full/)).toBeInTheDocument();
    // The screen looks again while a build runs, and shows the flag once it is on.
    await screen.findByText('filterable', {}, { timeout: 5000 });
    expect(screen.queryByText(/Building its index/)).toBeNull();
  });

  it('adds a media field accepting the kinds ticked, and shows them read-only when editing', async () => {
    const calls = fakeApi(({ path, method }) => {
      if (path === '/content-types/hero' && method === 'GET')
        return ok({ ...HERO, fields: [HERO.fields[0], { ...HERO.fields[1], validation: '{"media_kinds":["image","pdf"]}' }] });
      if (path === '/content-types') return okList([HERO]);
      if (path === '/content-types/hero/block-usage') return ok({ count: 0, is_block: true, pages: [] });
      if (path === '/content-types/hero/fields' && method === 'POST') return ok(field('f3', 'clips', 'Clips', 'media_list', 2));
      return null;
    });
    renderAs('admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit field Image' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit field Image' });
    expect(within(edit).getByText(/Accepted kinds: images or PDFs \(set when the field was created/)).toBeInTheDocument();
    await userEvent.click(within(edit).getByRole('button', { name: 'Cancel' }));

    await userEvent.click(screen.getByRole('button', { name: 'Add field' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a field to Hero' });
    // A text field has no kinds to choose.
    expect(within(dialog).queryByRole('group', { name: /Accepted kinds/ })).toBeNull();
    await userEvent.type(within(dialog).getByRole('textbox', { name: /^Label/ }), 'Clips');
    await userEvent.click(within(dialog).getByRole('combobox', { name: /^Field type/ }));
    await userEvent.click(await screen.findByRole('option', { name: /^Media list/, hidden: true }));
    const kinds = within(dialog).getByRole('group', { name: /Accepted kinds/ });
    expect(
      within(kinds)
        .getAllByRole('checkbox')
        .map((c) => c.getAttribute('value')),
    ).toEqual(['image', 'video', 'pdf', 'other']);
    await userEvent.click(within(kinds).getByRole('checkbox', { name: 'Videos' }));
    await userEvent.click(within(kinds).getByRole('checkbox', { name: 'Images' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add field' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        name: 'clips',
        label: 'Clips',
        field_type: 'media_list',
        validation: { media_kinds: ['image', 'video'] },
      }),
    );
  });
});
