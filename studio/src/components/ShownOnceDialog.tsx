/**
 * A secret shown once (an API key's value, a webhook's signing secret): a warning saying it will
 * not be shown again, the value in a read-only field that selects itself on focus, a copy button
 * and Done. Clicking outside does not close it, so the value is not lost by a stray click.
 */
import type { ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { CopyButton } from './CopyButton';

export interface ShownOnceDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  warningTitle: string;
  /** why and how to store the value, in plain words */
  children: ReactNode;
  /** the field's label, e.g. "Key value" */
  label: string;
  value: string;
  /** the copy button's accessible name, e.g. "Copy key" */
  copyLabel: string;
}

export function ShownOnceDialog({ opened, onClose, title, warningTitle, children, label, value, copyLabel }: ShownOnceDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="lg" closeOnClickOutside={false}>
      <Stack>
        <Alert color="yellow" title={warningTitle}>
          {children}
        </Alert>
        <TextInput label={label} value={value} readOnly ff="monospace" onFocus={(e) => e.currentTarget.select()} />
        <Group justify="space-between">
          <CopyButton value={value} label={copyLabel} />
          <Button variant="default" onClick={onClose}>
            Done
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
