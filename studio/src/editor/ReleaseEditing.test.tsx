/**
 * The release perspective in jsdom with a fake API: the header's switcher offers the releases that
 * are not live yet and puts the editors in one (kept in sessionStorage); the editor's banner then
 * says whether the item's release version is edited or offers to add it; Add to release… adds
 * the item as a `publish` item; Schedule unpublish makes a release of one `unpublish` item and
 * schedules it, deleting it again when the schedule is refused.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Release, ReleaseItem } from '../api/types';
import { ApiError } from '../api/client';
import { ReleaseSwitcher } from '../app/ReleaseSwitcher';
import { fakeApi, ok, okList, refusal, renderScreen, type FakeCall } from '../app/test-utils';
import { scheduleUnpublish } from '../screens/releases/api';
import { ReleaseActions, ReleaseBanner, useReleaseVariant } from './ReleaseEditing';

const R1 = '11111111-1111-4111-8111-111111111111';
const R2 = '22222222-2222-4222-8222-222222222222';
const release = (id: string, title: string, status: Release['status']): Release => ({
  id,
  title,
  description: null,
  status,
  publish_at: null,
  published_at: null,
  reverted_at: null,
  failure: null,
  items_count: 1,
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
  created_by: 1,
});
const inRelease: ReleaseItem = {
  kind: 'entry',
  id: 'e1',
  slug: 'first-post',
  content_type: 'post',
  action: 'publish',
  base_version: 1,
  conflict: false,
  status: 'published',
  created_at: '2026-11-24T08:00:00.000Z',
  updated_at: '2026-11-24T08:00:00.000Z',
};
const RELEASES = [release(R1, 'Autumn launch', 'open'), release(R2, 'Old sale', 'published')];

let calls: FakeCall[] = [];
let items: ReleaseItem[] = [];
beforeEach(() => {
  window.sessionStorage.clear();
  items = [inRelease];
  calls = fakeApi((c) => {
    if (c.path === '/releases' && c.method === 'GET') return okList(RELEASES.filter((r) => !c.query.get('status') || r.status === c.query.get('status')));
    if (c.path === `/releases/${R1}` && c.method === 'GET') return ok(RELEASES[0]);
    if (c.path === `/releases/${R2}` && c.method === 'GET') return ok(RELEASES[1]);
    if (c.path === `/releases/${R2}/items` && c.method === 'GET') return ok([]);
    if (c.path === `/releases/${R1}/items` && c.method === 'GET') return ok(items);
    if (c.path === `/releases/${R1}/items` && c.method === 'POST') {
      const body = c.body as { kind: 'entry'; id: string; action: 'publish' };
      items = [...items, { ...inRelease, ...body, slug: 'second-post' }];
      return ok(items[items.length - 1]);
    }
    return null;
  });
});
afterEach(() => vi.unstubAllGlobals());

/** An editor's top as the entry editor lays it out: the switcher, the banner and the release actions. */
function Editor({ id, slug }: { id: string; slug: string }) {
  const variant = useReleaseVariant({ kind: 'entry', slug, type: 'post' });
  const target = { kind: 'entry' as const, id, slug, type: 'post', title: `“${slug}”` };
  return (
    <>
      <ReleaseSwitcher />
      <p>{variant.releaseId ? `editing the version in ${variant.releaseId}` : 'editing the working copy'}</p>
      <ReleaseBanner variant={variant} target={target} />
      <ReleaseActions target={target} status="published" />
    </>
  );
}
const renderEditor = (slug: string, id: string) => renderScreen(<Editor id={id} slug={slug} />, '/:workspace', '/demo', 'editor');

describe('release perspective', () => {
  it('offers the releases not live yet and, once one is chosen, edits the release version of its items', async () => {
    renderEditor('first-post', 'e1');
    const switcher = screen.getByRole('combobox', { name: 'Release perspective' });
    await within(switcher).findByRole('option', { name: 'Release: Autumn launch' });
    expect(
      within(switcher)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Working copies', 'Release: Autumn launch']);
    expect(screen.getByText('editing the working copy')).toBeInTheDocument();
    await userEvent.selectOptions(switcher, R1);
    expect(window.sessionStorage.getItem('quire.release-perspective.ws-1')).toBe(R1);
    await screen.findByText(`editing the version in ${R1}`);
    expect(screen.getByRole('status', { name: 'Editing the release version' })).toHaveTextContent(/edits are saved to it/);
    await userEvent.selectOptions(switcher, '');
    await screen.findByText('editing the working copy');
    expect(window.sessionStorage.getItem('quire.release-perspective.ws-1')).toBeNull();
  });

  it('forgets a chosen release that went live meanwhile', async () => {
    window.sessionStorage.setItem('quire.release-perspective.ws-1', R2);
    renderEditor('first-post', 'e1');
    await waitFor(() => expect(window.sessionStorage.getItem('quire.release-perspective.ws-1')).toBeNull());
    expect(screen.getByText('editing the working copy')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Release perspective' })).toHaveValue('');
  });

  it('says an item is not in the release, adds it from the banner and then edits its release version', async () => {
    window.sessionStorage.setItem('quire.release-perspective.ws-1', R1);
    renderEditor('second-post', 'e2');
    await screen.findByText('Not in this release');
    await userEvent.click(screen.getByRole('button', { name: 'Add to this release' }));
    await screen.findByText(`editing the version in ${R1}`);
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/releases/${R1}/items`, body: { kind: 'entry', id: 'e2', action: 'publish' } });
  });

  it('adds an item to a release with Add to release…', async () => {
    renderEditor('second-post', 'e2');
    await userEvent.click(screen.getByRole('button', { name: 'Add to release…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add “second-post” to a release' });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Release' })).toHaveValue(R1));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add to release' }));
    await within(dialog).findByRole('button', { name: 'Edit the release version' });
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ kind: 'entry', id: 'e2', action: 'publish' });
  });
});

describe('scheduleUnpublish', () => {
  it('makes a release of one unpublish item and schedules it; a refused schedule deletes it again', async () => {
    const made: FakeCall[] = fakeApi((c) => {
      if (c.path === '/releases' && c.method === 'POST') return ok(release(R2, (c.body as { title: string }).title, 'open'));
      if (c.path === `/releases/${R2}/items`) return ok({ ...inRelease, action: 'unpublish' });
      if (c.path === `/releases/${R2}/schedule`) {
        return (c.body as { publish_at: string }).publish_at < '2026'
          ? refusal(400, 'VALIDATION_FAILED', 'publish_at must be in the future', [{ path: 'body.publish_at', message: 'must be in the future' }])
          : ok({ ...release(R2, 'Unpublish “x”', 'scheduled'), publish_at: (c.body as { publish_at: string }).publish_at });
      }
      if (c.path === `/releases/${R2}` && c.method === 'DELETE') return ok(null);
      return null;
    });
    const done = await scheduleUnpublish({ kind: 'entry', id: 'e1', title: '“x”' }, '2030-01-01T08:00:00.000Z');
    expect(done.status).toBe('scheduled');
    expect(made.map((c) => `${c.method} ${c.path}`)).toEqual([`POST /releases`, `POST /releases/${R2}/items`, `POST /releases/${R2}/schedule`]);
    expect(made[0].body).toEqual({ title: 'Unpublish “x”', description: null });
    expect(made[1].body).toEqual({ kind: 'entry', id: 'e1', action: 'unpublish' });
    made.length = 0;
    await expect(scheduleUnpublish({ kind: 'entry', id: 'e1', title: '“x”' }, '2020-01-01T08:00:00.000Z')).rejects.toBeInstanceOf(ApiError);
    expect(made.map((c) => `${c.method} ${c.path}`)).toEqual([
      `POST /releases`,
      `POST /releases/${R2}/items`,
      `POST /releases/${R2}/schedule`,
      `DELETE /releases/${R2}`,
    ]);
  });
});
