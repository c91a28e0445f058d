/**
 * Settings › API keys (owners and admins, D91): the workspace's keys; create one with its class,
 * environment (delivery), content-type whitelist, scopes (management) and expiry, its value shown
 * ONCE in a dialog with a copy button; revoke with confirmation (DELETE /api-keys/{id}, at once).
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate, formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { useInvalidate, useWsKey } from '../../app/queries';
import { CreateKeyDialog, type ApiKey } from './CreateKeyDialog';
import { ScrollTable } from '../../components/ScrollTable';

function keyState(key: ApiKey): { label: string; color: string } {
  if (key.revoked_at) return { label: 'revoked', color: 'red' };
  if (key.expires_at && new Date(key.expires_at).getTime() < Date.now()) return { label: 'expired', color: 'orange' };
  return { label: 'active', color: 'green' };
}

export default function ApiKeysTab() {
  const wsKey = useWsKey();
  const invalidate = useInvalidate();
  const keys = useQuery({ queryKey: wsKey('api-keys'), queryFn: async () => (await api<ApiKey[]>('/api-keys')).data });
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" maw={640}>
          Delivery keys read published content (production) or drafts too (preview) on <code>/api/v1/public</code>; management keys write through{' '}
          <code>/api/v1/manage</code> with the scopes you give them. A key&apos;s value is shown once, when it is created.
        </Text>
        <Button leftSection={<IconKey size={16} aria-hidden />} onClick={() => setCreating(true)}>
          Create API key
        </Button>
      </Group>
      {keys.isPending ? <Loading /> : null}
      <ErrorAlert error={keys.error} title="The keys could not be loaded" />
      {keys.data ? (
        keys.data.length === 0 ? (
          <Text c="dimmed">No keys yet.</Text>
        ) : (
          <ScrollTable minWidth={760} label={'API keys'}>
            <Table striped aria-label="API keys">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Class</Table.Th>
                  <Table.Th>Access</Table.Th>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Created</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th>State</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.map((k) => {
                  const state = keyState(k);
                  return (
                    <Table.Tr key={k.id}>
                      <Table.Td>{k.name}</Table.Td>
                      <Table.Td>
                        {k.key_class}
                        {k.environment ? ` (${k.environment})` : ''}
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs">{k.key_class === 'management' ? k.scopes.join(', ') || 'no scopes' : 'read'}</Text>
                        <Text size="xs" c="dimmed">
                          {k.content_types?.length ? `types: ${k.content_types.join(', ')}` : 'all types'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text ff="monospace" size="xs">
                          {k.key_hint}
                        </Text>
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} title={formatDateTime(k.created_at)}>
                        {formatDate(k.created_at)}
                      </Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }} title={k.expires_at ? formatDateTime(k.expires_at) : undefined}>
                        {k.expires_at ? formatDate(k.expires_at) : 'never'}
                      </Table.Td>
                      <Table.Td style={{ minWidth: 120 }}>
                        <Badge color={state.color} variant="light">
                          {state.label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {k.revoked_at ? null : (
                          <ActionIcon variant="subtle" color="red" aria-label={`Revoke key ${k.name}`} onClick={() => setRevoking(k)}>
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )
      ) : null}
      <CreateKeyDialog opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke key “${revoking?.name ?? ''}”?`}
        confirmLabel="Revoke key"
        onConfirm={async () => {
          if (!revoking) return;
          await api(`/api-keys/${revoking.id}`, { method: 'DELETE' });
          await invalidate('api-keys');
          notifications.show({ color: 'teal', message: `Key “${revoking.name}” revoked` });
        }}
      >
        Requests with this key are refused (401) from now on. This cannot be undone; create a new key to give access again.
      </ConfirmDialog>
    </Stack>
  );
}
