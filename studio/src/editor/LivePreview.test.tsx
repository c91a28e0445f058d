/**
 * The live preview pane in jsdom: the frame gets the template filled in with a fresh token; after
 * an autosave a front end that announced it listens receives the update event (and no reload),
 * one that did not is reloaded; messages from other windows are ignored; without a template the
 * pane shows the built-in preview and says where to set one; a front end that loads without
 * saying it listens gets a line that it may not be running, with a switch to the built-in preview.
 */
import { useState } from 'react';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, renderScreen } from '../app/test-utils';
import { LivePreview, useLivePreviewPane } from './LivePreview';

const TARGET = { kind: 'entry' as const, id: 'e1', type: 'post', slug: 'hello' };
const TEMPLATE = 'http://site.test/api/preview?type={type}&slug={slug}&locale={locale}&token={token}';

/** The pane with a "save" button standing for an autosave (a new `updated_at`). */
function Harness({ template, mint }: { template: string | null; mint: () => Promise<{ token: string; expires_at: string }> }) {
  const [savedAt, setSavedAt] = useState('2026-11-25T10:00:00.000Z');
  return (
    <>
      <button type="button" onClick={() => setSavedAt('2026-11-25T10:00:05.000Z')}>
        save
      </button>
      <LivePreview target={TARGET} locale="de" template={template} savedAt={savedAt} mint={mint} builtin={<p>built-in rendering</p>} onClose={() => {}} />
    </>
  );
}

function show(template: string | null = TEMPLATE) {
  const mint = vi.fn(async () => ({ token: 'tok.en', expires_at: new Date(Date.now() + 48 * 3600_000).toISOString() }));
  renderScreen(<Harness template={template} mint={mint} />, '/demo/content/post/hello', '/demo/content/post/hello', 'editor');
  return { mint };
}

/** An editor's use of the pane hook: its save announces the new `updated_at` before the editor's state has it. */
function EditorHarness({ mint }: { mint: () => Promise<{ token: string; expires_at: string }> }) {
  const [savedAt, setSavedAt] = useState('2026-11-25T10:00:00.000Z');
  const live = useLivePreviewPane({ target: TARGET, locale: 'de', template: TEMPLATE, savedAt, mint, builtin: <p>b</p> });
  const onSaved = () => {
    live.saved('2026-11-25T10:00:07.000Z');
    setSavedAt('2026-11-25T10:00:07.000Z');
  };
  return (
    <>
      <button type="button" onClick={onSaved}>
        save
      </button>
      <span data-saved-at>{savedAt}</span>
      {live.pane}
    </>
  );
}

const autosave = () => fireEvent.click(screen.getByRole('button', { name: 'save' }));

const frame = () => document.querySelector<HTMLIFrameElement>('iframe[data-preview-frame]');
const state = () => document.querySelector('[data-preview-state]')?.getAttribute('data-preview-state');

function fromFrame(data: unknown, source: Window | null = frame()?.contentWindow ?? null) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin: 'http://site.test', source }));
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('LivePreview', () => {
  it('hands a click-to-edit request from its own frame to the editor, and ignores one from elsewhere (D141)', async () => {
    const onEdit = vi.fn();
    const mint = vi.fn(async () => ({ token: 't', expires_at: new Date(Date.now() + 3600_000).toISOString() }));
    renderScreen(
      <LivePreview target={TARGET} locale="en" template={TEMPLATE} savedAt="x" mint={mint} builtin={<p>b</p>} onClose={() => {}} onEdit={onEdit} />,
      '/demo/content/post/hello',
      '/demo/content/post/hello',
      'editor',
    );
    await waitFor(() => expect(frame()).not.toBeNull());
    const edit = { type: 'quire:edit', kind: 'entry', id: 'e1', field: 'title', locale: 'de', href: 'http://localhost/studio/demo/content/post/hello' };
    fromFrame(edit, window);
    expect(onEdit).not.toHaveBeenCalled();
    fromFrame(edit);
    expect(onEdit).toHaveBeenCalledWith(edit);
  });

  it('frames the filled template with a minted token', async () => {
    fakeApi(() => null);
    const { mint } = show();
    await waitFor(() => expect(frame()).not.toBeNull());
    expect(mint).toHaveBeenCalledTimes(1);
    expect(frame()!.getAttribute('src')).toBe('http://site.test/api/preview?type=post&slug=hello&locale=de&token=tok.en');
    expect(frame()!.getAttribute('sandbox')).not.toContain('allow-top-navigation');
  });

  it('posts the update event to a listening front end after an autosave, and shows its confirmation', async () => {
    fakeApi(() => null);
    show();
    await waitFor(() => expect(frame()).not.toBeNull());
    const first = frame()!;
    const post = vi.spyOn(first.contentWindow!, 'postMessage');
    fromFrame({ type: 'quire:preview-ready' });
    expect(state()).toBe('listening');
    // A message from another window changes nothing.
    fromFrame({ type: 'quire:preview-ready' }, window);

    autosave();
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post).toHaveBeenCalledWith(
      { type: 'quire:update', kind: 'entry', id: 'e1', slug: 'hello', locale: 'de', updated_at: '2026-11-25T10:00:05.000Z' },
      'http://site.test',
    );
    fromFrame({ type: 'quire:preview-updated', id: 'e1', updated_at: '2026-11-25T10:00:05.000Z' });
    expect(screen.getByText(/Live: updates in place, last at/)).toBeTruthy();
    // Updated in place: the same frame, not a reloaded one.
    expect(frame()).toBe(first);
  });

  it('posts the update as the save is announced, before the editor re-renders, and once only', async () => {
    fakeApi(() => null);
    window.localStorage.setItem('quire:live-preview', '1');
    const mint = vi.fn(async () => ({ token: 'tok.en', expires_at: new Date(Date.now() + 48 * 3600_000).toISOString() }));
    renderScreen(<EditorHarness mint={mint} />, '/demo/content/post/hello', '/demo/content/post/hello', 'editor');
    await waitFor(() => expect(frame()).not.toBeNull());
    const post = vi.spyOn(frame()!.contentWindow!, 'postMessage');
    fromFrame({ type: 'quire:preview-ready' });
    let shownWhenPosted: string | null | undefined = null;
    post.mockImplementation(() => {
      shownWhenPosted = document.querySelector('[data-saved-at]')?.textContent;
    });
    autosave();
    // The old savedAt was still on screen: the message went out before React rendered the save.
    expect(shownWhenPosted).toBe('2026-11-25T10:00:00.000Z');
    expect(document.querySelector('[data-saved-at]')?.textContent).toBe('2026-11-25T10:00:07.000Z');
    expect(post).toHaveBeenCalledWith(
      { type: 'quire:update', kind: 'entry', id: 'e1', slug: 'hello', locale: 'de', updated_at: '2026-11-25T10:00:07.000Z' },
      'http://site.test',
    );
    // The new savedAt that follows announces nothing again.
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(post).toHaveBeenCalledTimes(1);
    window.localStorage.removeItem('quire:live-preview');
  });

  it('reloads a front end that does not listen', async () => {
    fakeApi(() => null);
    show();
    await waitFor(() => expect(frame()).not.toBeNull());
    const first = frame();
    autosave();
    await waitFor(() => expect(frame()).not.toBe(first));
    expect(state()).toBe('reloading');
  });

  it('without a template, shows the built-in preview, says where to set one and mints nothing', async () => {
    fakeApi(() => null);
    const { mint } = show(null);
    expect(await screen.findByText('built-in rendering')).toBeTruthy();
    expect(screen.getByText(/set the workspace's preview URL template/)).toBeTruthy();
    expect(state()).toBe('builtin');
    expect(frame()).toBeNull();
    expect(mint).not.toHaveBeenCalled();
  });

  it('says the site may not be running when the frame loads without a listener, and switches to the built-in preview in one click', async () => {
    fakeApi(() => null);
    show();
    await waitFor(() => expect(frame()).not.toBeNull());
    expect(screen.queryByText(/may not be running/)).toBeNull();
    fireEvent.load(frame()!);
    expect(await screen.findByText(/The front end at http:\/\/site\.test may not be running/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Use the built-in preview' }));
    expect(await screen.findByText('built-in rendering')).toBeTruthy();
    expect(state()).toBe('builtin');
    expect(frame()).toBeNull();
  });

  it('says nothing of the kind to a front end that listens', async () => {
    fakeApi(() => null);
    show();
    await waitFor(() => expect(frame()).not.toBeNull());
    fromFrame({ type: 'quire:preview-ready' });
    fireEvent.load(frame()!);
    await new Promise((r) => setTimeout(r, 3100));
    expect(screen.queryByText(/may not be running/)).toBeNull();
  });

  it('with a template, switches between the site and the built-in preview', async () => {
    fakeApi(() => null);
    show();
    await waitFor(() => expect(frame()).not.toBeNull());
    fireEvent.click(screen.getByRole('radio', { name: 'Built-in' }));
    expect(await screen.findByText('built-in rendering')).toBeTruthy();
    expect(frame()).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Site' }));
    await waitFor(() => expect(frame()).not.toBeNull());
  });
});
