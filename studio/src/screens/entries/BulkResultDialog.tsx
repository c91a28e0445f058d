/** The per-item result of a bulk action (D23): what succeeded, what failed and why. */
import { Badge, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import type { BulkResult } from '../../api/types';

export function BulkResultDialog({
  result,
  action,
  labelOf,
  onClose,
}: {
  result: BulkResult | null;
  action: string;
  labelOf: (id: string) => string;
  onClose: () => void;
}) {
  return (
    <Modal opened={result !== null} onClose={onClose} title={`Bulk ${action}: result`} centered size="lg">
      {result ? (
        <Stack>
          <Group gap="xs">
            <Badge color="#1e6b30" variant="filled">
              {result.succeeded.length} succeeded
            </Badge>
            <Badge color={result.failed.length ? 'red.9' : 'gray.7'} variant="filled">
              {result.failed.length} failed
            </Badge>
          </Group>
          {result.succeeded.length ? (
            <div>
              <Text fw={500} size="sm">
                Succeeded
              </Text>
              <List size="sm" aria-label="Succeeded">
                {result.succeeded.map((s) => (
                  <List.Item key={s.id}>{labelOf(s.id)}</List.Item>
                ))}
              </List>
            </div>
          ) : null}
          {result.failed.length ? (
            <div>
              <Text fw={500} size="sm">
                Failed
              </Text>
              <List size="sm" aria-label="Failed">
                {result.failed.map((f) => (
                  <List.Item key={f.id}>
                    {labelOf(f.id)}:{' '}
                    <Text span c="red" size="sm">
                      {f.reason}
                    </Text>
                  </List.Item>
                ))}
              </List>
            </div>
          ) : null}
          <Group justify="flex-end">
            <Button onClick={onClose}>Close</Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
