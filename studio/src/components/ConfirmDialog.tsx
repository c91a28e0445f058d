/**
 * A confirmation dialog for destructive actions (revoke a key, remove a person, delete a type):
 * states what happens, shows the API's refusal (ErrorAlert) when the action fails, and keeps the
 * dialog open until the action resolves. `onConfirm` may return a promise; a rejection stays in
 * the dialog, a success closes it.
 */
import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { ErrorAlert } from './ErrorAlert';

export interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** what the action does, in plain words */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => unknown | Promise<unknown>;
  /** red confirm button (default true: these dialogs guard destructive actions) */
  danger?: boolean;
}

export function ConfirmDialog({ opened, onClose, title, children, confirmLabel, onConfirm, danger = true }: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const close = () => {
    if (busy) return;
    setError(null);
    onClose();
  };
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
      setBusy(false);
      onClose();
    } catch (err) {
      setBusy(false);
      setError(err);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack>
        {typeof children === 'string' ? <Text size="sm">{children}</Text> : children}
        <ErrorAlert error={error} title="The action failed" />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            Cancel
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={() => void confirm()} loading={busy}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
