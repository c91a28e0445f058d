/**
 * Settings › Roles (owners and admins, D120): the five built-in roles, read-only, with what they
 * may do, and the workspace's custom roles, which can be created, edited and deleted (a role held
 * by a member or a pending invitation cannot be: the server's 409 is shown in the dialog).
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconShieldPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { useInvalidate, useWsKey } from '../../app/queries';
import type { Permission } from '../../../../src/modules/access/permission-rules';
import type { RoleWire } from '../../../../src/modules/access/custom-roles';
import { RESOURCE_LABELS, RoleDialog } from './RoleDialog';

/** One line per permission: "Entries: read, update (locales de; own items only)". */
export function describePermission(p: Permission): string {
  const limits = [
    p.content_types?.length ? `types ${p.content_types.join(', ')}` : null,
    p.locales?.length ? `locales ${p.locales.join(', ')}` : null,
    p.deny_fields?.length ? `read-only ${p.deny_fields.join(', ')}` : null,
    p.own_only ? 'own items only' : null,
  ].filter((x): x is string => x !== null);
  return `${RESOURCE_LABELS[p.resource]}: ${p.actions.join(', ') || 'nothing'}${limits.length ? ` (${limits.join('; ')})` : ''}`;
}

export default function RolesTab() {
  const wsKey = useWsKey();
  const invalidate = useInvalidate();
  const roles = useQuery({ queryKey: wsKey('roles'), queryFn: async () => (await api<RoleWire[]>('/roles')).data });
  const [editing, setEditing] = useState<RoleWire | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RoleWire | null>(null);

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" maw={640}>
          A role says what its members, and the API keys they create, may do: per resource and action, narrowed to content types, to the locales they may write,
          with read-only fields, or to their own items. The five built-in roles cannot be changed.
        </Text>
        <Button leftSection={<IconShieldPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          Create role
        </Button>
      </Group>
      {roles.isPending ? <Loading /> : null}
      <ErrorAlert error={roles.error} title="The roles could not be loaded" />
      {roles.data ? (
        <ScrollTable minWidth={640} label="Roles">
          <Table aria-label="Roles" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Role</Table.Th>
                <Table.Th>May</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {roles.data.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Text fw={600} size="sm">
                        {r.name}
                      </Text>
                      {r.preset ? (
                        <Badge size="sm" variant="light" color="gray">
                          built-in
                        </Badge>
                      ) : null}
                    </Group>
                    {r.description ? (
                      <Text size="xs" c="dimmed">
                        {r.description}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={0}>
                      {r.permissions.length === 0 ? <Text size="xs">nothing</Text> : null}
                      {r.permissions.map((p, i) => (
                        <Text key={i} size="xs">
                          {describePermission(p)}
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    {r.preset ? (
                      <Text size="xs" c="dimmed">
                        read-only
                      </Text>
                    ) : (
                      <Group gap={4} wrap="nowrap">
                        <Tooltip label="Edit">
                          <ActionIcon variant="subtle" aria-label={`Edit role ${r.name}`} onClick={() => setEditing(r)}>
                            <IconEdit size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label="Delete">
                          <ActionIcon variant="subtle" color="red" aria-label={`Delete role ${r.name}`} onClick={() => setDeleting(r)}>
                            <IconTrash size={16} aria-hidden />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      ) : null}
      {editing !== null ? (
        <RoleDialog key={editing === 'new' ? 'new' : editing.id} opened onClose={() => setEditing(null)} role={editing === 'new' ? null : editing} />
      ) : null}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this role?"
        confirmLabel="Delete role"
        onConfirm={async () => {
          if (!deleting) return;
          await api(`/roles/${deleting.id}`, { method: 'DELETE' });
          await invalidate('roles');
          notifications.show({ color: 'teal', message: 'Role deleted' });
        }}
      >
        {deleting?.name} can only be deleted when no member or pending invitation holds it.
      </ConfirmDialog>
    </Stack>
  );
}
