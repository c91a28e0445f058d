/**
 * The upload area in jsdom with a fake uploader: several files chosen at once upload in parallel
 * (at most three at a time) with a progress bar each; a refused file shows the server's message
 * and trace id on its own row while the others finish; files go to the folder given; an image
 * without alt text asks for it on its row until it is saved.
 */
import { capabilitiesOf } from '../../../../src/modules/access/authorize.js';
import { MantineProvider } from '@mantine/core';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import type { SessionInfo, SessionWorkspace } from '../../api/session';
import type { MediaAsset } from '../../api/types';
import { WorkspaceContext, workspaceContextValue } from '../../app/workspace';
import type { UploadOptions } from './upload';
import { PARALLEL_UPLOADS, UploadPanel } from './UploadPanel';

const workspace: SessionWorkspace = { id: 'ws-1', slug: 'demo', name: 'Demo', role: 'author', capabilities: capabilitiesOf('author') };
const session: SessionInfo = { user: { id: 1, email: 'a@example.com', name: null }, workspaces: [workspace], csrf_token: 'csrf-1' };

const asset = (id: string, name: string, alt: string | null = null) => ({ id, original_name: name, mime_type: 'image/png', alt_text: alt }) as MediaAsset;

describe('upload panel', () => {
  it('uploads several files with progress each, three at a time, and shows a refusal on its own row', async () => {
    const pending = new Map<string, { options: UploadOptions; resolve: (a: MediaAsset) => void; reject: (e: unknown) => void }>();
    const upload = vi.fn(
      (file: File, options: UploadOptions) =>
        new Promise<MediaAsset>((resolve, reject) => {
          pending.set(file.name, { options, resolve, reject });
        }),
    );
    const onUploaded = vi.fn();
    const saveAltText = vi.fn(async (id: string, alt: string) => ({ ...asset(id, 'a.png'), alt_text: alt }));
    render(
      <MantineProvider>
        <WorkspaceContext.Provider value={workspaceContextValue(session, workspace)}>
          <UploadPanel folder="blog" folders={['blog']} onUploaded={onUploaded} upload={upload} saveAltText={saveAltText} />
        </WorkspaceContext.Provider>
      </MantineProvider>,
    );
    const files = ['a.png', 'b.png', 'c.png', 'huge.png'].map((n) => new File(['x'], n, { type: 'image/png' }));
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    expect(input).toHaveAttribute('multiple');
    await userEvent.upload(input, files);
    expect(upload).toHaveBeenCalledTimes(PARALLEL_UPLOADS);
    expect(pending.get('a.png')?.options).toMatchObject({ folder: 'blog', csrfToken: 'csrf-1' });
    const rows = screen.getByRole('list', { name: 'Uploads' });
    expect(within(rows).getAllByRole('listitem')).toHaveLength(4);
    expect(within(rows).getByText('Waiting')).toBeInTheDocument();
    act(() => pending.get('a.png')!.options.onProgress?.(0.4));
    expect(screen.getByRole('progressbar', { name: 'Upload of a.png' })).toHaveAttribute('aria-valuenow', '40');
    await act(async () => pending.get('a.png')!.resolve(asset('m1', 'a.png')));
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(4));
    await act(async () => pending.get('huge.png')!.reject(new ApiError(413, 'PAYLOAD_TOO_LARGE', 'The file is larger than 10 MB', null, 'req_9')));
    await act(async () => {
      pending.get('b.png')!.resolve(asset('m2', 'b.png'));
      pending.get('c.png')!.resolve(asset('m3', 'c.png', 'Third'));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('The file is larger than 10 MB (trace id req_9)');
    expect(onUploaded).toHaveBeenCalledTimes(3);
    expect(within(rows).getAllByText('Uploaded')).toHaveLength(3);
    // Images uploaded without alt text ask for it on their row; one that has it does not.
    expect(screen.getByRole('textbox', { name: 'Alt text of a.png' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Alt text of c.png' })).toBeNull();
    await userEvent.type(screen.getByRole('textbox', { name: 'Alt text of a.png' }), 'A red square');
    await userEvent.click(within(rows).getAllByRole('button', { name: 'Save alt text' })[0]);
    expect(saveAltText).toHaveBeenCalledWith('m1', 'A red square');
    await waitFor(() => expect(screen.queryByRole('textbox', { name: 'Alt text of a.png' })).toBeNull());
    expect(onUploaded).toHaveBeenCalledTimes(4);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss huge.png' }));
    expect(screen.queryByRole('alert')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear finished uploads' }));
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
  });
});
