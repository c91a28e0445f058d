/**
 * Settings › General: the workspace's name and preview URL template (PATCH /workspace). The
 * template is an http(s) URL with {type}, {slug}, {id}, {locale} and {token} placeholders; empty
 * means no preview link.
 */
import { useState, type FormEvent } from 'react';
import { Button, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { api } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { useInvalidate, useWorkspaceSettings, type WorkspaceSettings } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { useQueryClient } from '@tanstack/react-query';
import { sessionQuery } from '../../app/session';

function GeneralForm({ settings }: { settings: WorkspaceSettings }) {
  const { administers } = useWorkspace();
  const invalidate = useInvalidate();
  const client = useQueryClient();
  const [name, setName] = useState(settings.name);
  const [template, setTemplate] = useState(settings.preview_url_template ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api<WorkspaceSettings>('/workspace', { method: 'PATCH', body: { name: name.trim(), preview_url_template: template.trim() || null } });
      await invalidate('workspace');
      // The workspace's name also shows in the session's workspace list (switcher, header).
      await client.invalidateQueries({ queryKey: sessionQuery.queryKey });
      notifications.show({ color: 'teal', message: 'Settings saved' });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack maw={640}>
        <TextInput label="Workspace name" required value={name} onChange={(e) => setName(e.currentTarget.value)} readOnly={!administers} />
        <TextInput label="Slug" value={settings.slug} readOnly description="Part of every Studio address; it cannot be changed." />
        <TextInput
          label="Preview URL template"
          placeholder="https://www.example.com/preview/{type}/{slug}?locale={locale}&token={token}"
          value={template}
          onChange={(e) => setTemplate(e.currentTarget.value)}
          readOnly={!administers}
          description={
            <Text span size="xs">
              “Open preview” in the entry editor opens this address. Placeholders: <Code>{'{type}'}</Code> <Code>{'{slug}'}</Code> <Code>{'{id}'}</Code>{' '}
              <Code>{'{locale}'}</Code> <Code>{'{token}'}</Code> (a preview token). Leave empty for no preview.
            </Text>
          }
        />
        <ErrorAlert error={error} title="The settings were not saved" />
        {administers ? (
          <Group>
            <Button type="submit" loading={busy}>
              Save settings
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

export default function GeneralTab() {
  const settings = useWorkspaceSettings();
  if (settings.isPending) return <Loading />;
  if (settings.error) return <ErrorAlert error={settings.error} title="The settings could not be loaded" />;
  return <GeneralForm key={settings.data.updated_at} settings={settings.data} />;
}
