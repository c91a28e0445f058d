/**
 * Settings › People: the workspace's members and pending invitations (GET /users, any member).
 * Owners and admins invite (the one-time link shown with a copy button when it was not e-mailed),
 * cancel pending invitations, change roles and remove people (with confirmation); only owners
 * grant or take the owner role, and the server keeps the last owner. A pending invitation is not
 * a member yet: its role is changed by inviting again.
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailX, IconUserMinus, IconUserPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Role } from '../../api/session';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert, errorMessage } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { useInvalidate, useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { InviteDialog, useRoleOptions, type Member } from './InviteDialog';
import { ScrollTable } from '../../components/ScrollTable';

export default function PeopleTab() {
  const { administers, managesOwners, session } = useWorkspace();
  const wsKey = useWsKey();
  const invalidate = useInvalidate();
  const people = useQuery({ queryKey: wsKey('users'), queryFn: async () => (await api<Member[]>('/users')).data });
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [changing, setChanging] = useState<number | null>(null);
  const options = useRoleOptions();
  // A custom role's member carries its id: show its name where the list knows it.
  const roleLabel = (role: string) => options.find((o) => o.value === role)?.label ?? role;

  const changeRole = async (member: Member, role: Role) => {
    setChanging(member.id);
    try {
      await api(`/users/${member.id}`, { method: 'PATCH', body: { role } });
      await invalidate('users');
      notifications.show({ color: 'teal', message: `${member.email} is now ${roleLabel(role)}` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'The role was not changed', message: errorMessage(err), autoClose: 10_000 });
    } finally {
      setChanging(null);
    }
  };

  const canEdit = (m: Member) => administers && (managesOwners || m.role !== 'owner');
  const isMember = (m: Member) => m.id !== null && m.id !== session.user.id;

  const cancelInvitation = async (m: Member) => {
    try {
      await api(`/users/invitations/${m.invitation_id}`, { method: 'DELETE' });
      await invalidate('users');
      notifications.show({ color: 'teal', message: `Invitation of ${m.email} cancelled` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'The invitation was not cancelled', message: errorMessage(err), autoClose: 10_000 });
    }
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" maw={640}>
          Owners and admins manage settings, keys and people; editors write and publish; authors write; viewers read.
        </Text>
        {administers ? (
          <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
            Invite person
          </Button>
        ) : null}
      </Group>
      {people.isPending ? <Loading /> : null}
      <ErrorAlert error={people.error} title="The people could not be loaded" />
      {people.data ? (
        <ScrollTable minWidth={640} label={'People'}>
          <Table striped aria-label="People">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Person</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                {administers ? <Table.Th>Actions</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {people.data.map((m) => (
                <Table.Tr key={m.invitation_id ?? m.id}>
                  <Table.Td>
                    <Text size="sm">{m.email}</Text>
                    {m.name ? (
                      <Text size="xs" c="dimmed">
                        {m.name}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    {canEdit(m) && isMember(m) ? (
                      <Select
                        aria-label={`Role of ${m.email}`}
                        size="xs"
                        w={120}
                        allowDeselect={false}
                        data={options}
                        value={m.role}
                        disabled={changing === m.id}
                        onChange={(v) => v && v !== m.role && void changeRole(m, v as Role)}
                      />
                    ) : (
                      <Badge variant="light">{roleLabel(m.role)}</Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="outline" color={m.status === 'active' ? 'green' : m.status === 'pending' ? 'yellow' : 'gray'}>
                      {m.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {m.status === 'pending' && m.expires_at ? (
                      <Text size="sm" c="dimmed">
                        invited, until {formatDateTime(m.expires_at)}
                      </Text>
                    ) : m.last_sign_in_at ? (
                      formatDateTime(m.last_sign_in_at)
                    ) : (
                      'never'
                    )}
                  </Table.Td>
                  {administers ? (
                    <Table.Td>
                      {canEdit(m) && isMember(m) ? (
                        <ActionIcon variant="subtle" color="red" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m)}>
                          <IconUserMinus size={16} aria-hidden />
                        </ActionIcon>
                      ) : null}
                      {canEdit(m) && m.invitation_id ? (
                        <ActionIcon variant="subtle" color="red" aria-label={`Cancel the invitation of ${m.email}`} onClick={() => void cancelInvitation(m)}>
                          <IconMailX size={16} aria-hidden />
                        </ActionIcon>
                      ) : null}
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      ) : null}
      <InviteDialog opened={inviting} onClose={() => setInviting(false)} />
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove ${removing?.email ?? ''}?`}
        confirmLabel="Remove person"
        onConfirm={async () => {
          if (!removing) return;
          await api(`/users/${removing.id}`, { method: 'DELETE' });
          await invalidate('users');
          notifications.show({ color: 'teal', message: `${removing.email} removed` });
        }}
      >
        They lose access to this workspace at once: their Studio sessions end and the management keys they created stop working. Their content stays.
      </ConfirmDialog>
    </Stack>
  );
}
