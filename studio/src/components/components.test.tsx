/**
 * Shared components: ConfirmDialog keeps a refused action's message and trace id in the dialog
 * and closes only on success; CopyButton puts the value on the clipboard and says so; ErrorAlert
 * lists field errors; StatusBadge names the state and pending changes in words.
 */
import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyButton } from './CopyButton';
import { ErrorAlert } from './ErrorAlert';
import { StatusBadge } from './StatusBadge';

const wrap = (ui: ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

function Harness({ action }: { action: () => Promise<void> }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <p>{open ? 'open' : 'closed'}</p>
      <ConfirmDialog opened={open} onClose={() => setOpen(false)} title="Delete Post?" confirmLabel="Delete" onConfirm={action}>
        It goes for good.
      </ConfirmDialog>
    </>
  );
}

describe('shared components', () => {
  it('ConfirmDialog shows a refusal with its trace id and stays open, then closes on success', async () => {
    const user = userEvent.setup();
    const action = vi
      .fn<() => Promise<void>>()
      .mockRejectedValueOnce(new ApiError(409, 'CONTENT_TYPE_NOT_EMPTY', "content type 'post' holds 2 entries; delete them first", null, 'req_409'))
      .mockResolvedValueOnce();
    wrap(<Harness action={action} />);
    const dialog = await screen.findByRole('dialog', { name: 'Delete Post?' });
    expect(dialog).toHaveTextContent('It goes for good.');
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('holds 2 entries; delete them first');
    expect(alert).toHaveTextContent('req_409');
    expect(screen.getByText('open')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByText('closed')).toBeInTheDocument());
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('CopyButton writes the value to the clipboard and confirms', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(async () => {});
    Object.defineProperty(window, 'isSecureContext', { value: true, configurable: true });
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    wrap(<CopyButton value="svc_live_secret" label="Copy key" />);
    await user.click(screen.getByRole('button', { name: 'Copy key' }));
    expect(writeText).toHaveBeenCalledWith('svc_live_secret');
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('ErrorAlert lists field errors with their paths, and StatusBadge says pending changes in words', () => {
    wrap(
      <>
        <ErrorAlert
          error={new ApiError(400, 'VALIDATION_FAILED', 'Validation failed', [{ path: 'body.name', message: 'must match ^[a-z]' }], 'req_400')}
          title="The field was not added"
        />
        <StatusBadge status="published" pendingChanges />
      </>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('The field was not added');
    expect(alert).toHaveTextContent('body.name must match ^[a-z]');
    expect(alert).toHaveTextContent('req_400');
    expect(screen.getByText('published')).toBeInTheDocument();
    expect(screen.getByText('changed')).toBeInTheDocument();
  });
});
