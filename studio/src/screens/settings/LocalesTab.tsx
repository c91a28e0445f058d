/**
 * Settings › Locales: the workspace's locales and its default (PATCH /workspace with `locales`
 * and `default_locale`). Removing a locale asks first; the default locale cannot be removed
 * (make another one the default first). The server checks the codes and answers in the envelope.
 */
import { useState, type FormEvent } from 'react';
import { ActionIcon, Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { api } from '../../api/client';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { useInvalidate, useWorkspaceSettings, type WorkspaceSettings } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';

export default function LocalesTab() {
  const { administers } = useWorkspace();
  const settings = useWorkspaceSettings();
  const invalidate = useInvalidate();
  const [newLocale, setNewLocale] = useState('');
  const [removing, setRemoving] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  if (settings.isPending) return <Loading />;
  if (settings.error) return <ErrorAlert error={settings.error} title="The locales could not be loaded" />;
  const { locales, default_locale: defaultLocale } = settings.data;

  const patch = async (body: Partial<Pick<WorkspaceSettings, 'locales' | 'default_locale'>>, message: string) => {
    setBusy(true);
    setError(null);
    try {
      await api('/workspace', { method: 'PATCH', body });
      await invalidate('workspace');
      notifications.show({ color: 'teal', message });
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const code = newLocale.trim();
    if (!code) return;
    if (await patch({ locales: [...locales, code] }, `Locale ${code} added`)) setNewLocale('');
  };

  return (
    <Stack maw={640}>
      <Text size="sm">
        Entries are written in the default locale; localizable fields can be translated into the others, and readers asking for a missing translation get the
        default locale's value.
      </Text>
      <Table>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Locale</Table.Th>
            <Table.Th>Role</Table.Th>
            {administers ? <Table.Th>Actions</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {locales.map((l) => (
            <Table.Tr key={l}>
              <Table.Td>
                <Text ff="monospace">{l}</Text>
              </Table.Td>
              <Table.Td>{l === defaultLocale ? <Badge variant="light">default</Badge> : <Text size="sm">translation</Text>}</Table.Td>
              {administers ? (
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove locale ${l}`}
                    disabled={l === defaultLocale || busy}
                    title={l === defaultLocale ? 'The default locale cannot be removed' : undefined}
                    onClick={() => setRemoving(l)}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {administers ? (
        <>
          <Select
            label="Default locale"
            allowDeselect={false}
            data={locales}
            value={defaultLocale}
            disabled={busy}
            onChange={(v) => v && v !== defaultLocale && void patch({ default_locale: v }, `Default locale is now ${v}`)}
          />
          <form onSubmit={(e) => void add(e)}>
            <Group align="flex-end">
              <TextInput
                label="New locale"
                placeholder="fr or pt-BR"
                value={newLocale}
                onChange={(e) => setNewLocale(e.currentTarget.value)}
                style={{ flex: 1 }}
              />
              <Button type="submit" loading={busy} disabled={!newLocale.trim()}>
                Add locale
              </Button>
            </Group>
          </form>
        </>
      ) : null}
      <ErrorAlert error={error} title="The locales were not changed" />
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title={`Remove locale ${removing ?? ''}?`}
        confirmLabel="Remove locale"
        onConfirm={async () => {
          await api('/workspace', { method: 'PATCH', body: { locales: locales.filter((l) => l !== removing) } });
          await invalidate('workspace');
          notifications.show({ color: 'teal', message: `Locale ${removing} removed` });
        }}
      >
        Readers can no longer ask for this locale, and editors can no longer write it. What the server keeps of existing translations is described in the API
        guide; this cannot be undone from the Studio.
      </ConfirmDialog>
    </Stack>
  );
}
