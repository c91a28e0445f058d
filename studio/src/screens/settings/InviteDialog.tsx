/**
 * The "Invite person" dialog (POST /users/invitations): email, optional name and role. The
 * invitation is pending until the person accepts it (docs/api.md "Accounts and invitations"). When
 * the server has SMTP the link went to the person's mailbox and is not shown; otherwise the answer
 * carries the one-time link (72 h), shown once with a copy button, for the admin to pass on. The
 * dialog says the same whether the email already has an account or not: the server does not tell.
 */
import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { api } from '../../api/client';
import type { Role } from '../../api/session';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { useQuery } from '@tanstack/react-query';
import { useInvalidate, useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { workspaceCan } from '../../api/session';
import type { RoleWire } from '../../../../src/modules/access/custom-roles';
import type { Invitation } from '../../api/types';

export type { Member } from '../../api/types';

const ROLE_LABELS: Record<Role, string> = { owner: 'owner', admin: 'admin', editor: 'editor', author: 'author', viewer: 'viewer' };

/** The roles a manager may grant: all when the session may manage owners (capability `owners:manage`), else all but owner. */
export function roleOptions(managesOwners: boolean): { value: Role; label: string }[] {
  const roles: Role[] = managesOwners ? ['owner', 'admin', 'editor', 'author', 'viewer'] : ['admin', 'editor', 'author', 'viewer'];
  return roles.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
}

/**
 * The roles a manager may grant, with the workspace's custom roles (D120) after the built-in ones
 * when the session may list them: their value is the role's id, their label its name.
 */
export function useRoleOptions(): { value: string; label: string }[] {
  const { workspace, managesOwners } = useWorkspace();
  const wsKey = useWsKey();
  const roles = useQuery({
    queryKey: wsKey('roles'),
    queryFn: async () => (await api<RoleWire[]>('/roles')).data,
    enabled: workspaceCan(workspace, 'roles:list'),
  });
  const custom = (roles.data ?? []).filter((r) => !r.preset).map((r) => ({ value: r.id, label: r.name }));
  return [...roleOptions(managesOwners), ...custom];
}

export function InviteDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const options = useRoleOptions();
  const invalidate = useInvalidate();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('author');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<Invitation | null>(null);

  const close = () => {
    setEmail('');
    setName('');
    setRole('author');
    setError(null);
    setResult(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await api<Invitation>('/users/invitations', {
        method: 'POST',
        body: { email: email.trim(), role, ...(name.trim() ? { name: name.trim() } : {}) },
      });
      setResult(res.data);
      await invalidate('users');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (result) {
    return (
      <Modal opened={opened} onClose={close} title="Invitation created" centered size="lg" closeOnClickOutside={false}>
        <Stack>
          {result.invitation_url ? (
            <>
              <Text size="sm">
                Send this link to <strong>{result.user.email}</strong>: with it they join as {result.user.role}, choosing a password if they are new to this
                server, or signing in if they already have an account. It works once, until {formatDateTime(result.expires_at)}.
              </Text>
              <Alert color="yellow">This link is shown only now.</Alert>
              <TextInput label="Invitation link" value={result.invitation_url} readOnly onFocus={(e) => e.currentTarget.select()} />
              <Group justify="space-between">
                <CopyButton value={result.invitation_url} label="Copy link" />
                <Button variant="default" onClick={close}>
                  Done
                </Button>
              </Group>
            </>
          ) : (
            <>
              <Text size="sm">
                The invitation was e-mailed to <strong>{result.user.email}</strong>. They join as {result.user.role} when they accept it from the e-mail, until{' '}
                {formatDateTime(result.expires_at)}; until then People lists them as pending.
              </Text>
              <Group justify="flex-end">
                <Button onClick={close}>Done</Button>
              </Group>
            </>
          )}
        </Stack>
      </Modal>
    );
  }

  return (
    <Modal opened={opened} onClose={close} title="Invite a person" centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput label="Email" type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} data-autofocus />
          <TextInput label="Name" description="Optional" value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Select label="Role" allowDeselect={false} data={options} value={role} onChange={(v) => v && setRole(v as Role)} />
          <ErrorAlert error={error} title="The invitation was not created" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!email.trim()}>
              Invite
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
