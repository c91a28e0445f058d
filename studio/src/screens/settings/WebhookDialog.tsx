/**
 * The webhook form (D82), for a new webhook (POST /webhooks) and for changing one (PATCH
 * /webhooks/{id}): URL, description, the events it receives (`*`, a whole kind such as
 * `entry.*`, or single types), the content types it is limited to, and whether it is enabled.
 * A new webhook's signing secret (`whsec_…`) is shown once, with a copy button, like a key.
 */
import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, MultiSelect, Stack, Switch, Text, TextInput } from '@mantine/core';
import { api } from '../../api/client';
import type { CreatedWebhook, Webhook } from '../../api/types';
import { ShownOnceDialog } from '../../components/ShownOnceDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useContentTypes, useInvalidate } from '../../app/queries';
import { EVENT_TYPES } from '../../../../src/modules/webhooks/events';

const KIND_LABELS: Record<string, string> = { entry: 'Entries', page: 'Pages', media: 'Media', content_type: 'Content types' };

/** Actions several kinds have (`published`, `stage_changed`, …): a `*.<action>` pattern receives that action of each. */
const SHARED_ACTIONS = [
  ...new Set(
    Object.values(EVENT_TYPES)
      .flat()
      .map((t) => t.slice(t.lastIndexOf('.') + 1)),
  ),
].filter((action) => Object.values(EVENT_TYPES).filter((types) => types.some((t) => t.endsWith(`.${action}`))).length > 1);

/**
 * The choices of the events select: everything, each kind as a whole, an action of every kind
 * (`*.stage_changed`, which the server accepts as a pattern), then each type by kind.
 */
export const EVENT_CHOICES = [
  { group: 'All', items: [{ value: '*', label: '* (every event)' }] },
  {
    group: 'Whole kinds',
    items: Object.keys(EVENT_TYPES).map((kind) => ({ value: `${kind}.*`, label: `${kind}.* (${KIND_LABELS[kind] ?? kind}, every event)` })),
  },
  { group: 'Every kind', items: SHARED_ACTIONS.map((action) => ({ value: `*.${action}`, label: `*.${action} (every kind)` })) },
  ...Object.entries(EVENT_TYPES).map(([kind, types]) => ({ group: KIND_LABELS[kind] ?? kind, items: types.map((t) => ({ value: t, label: t })) })),
];

export function WebhookDialog({ opened, onClose, webhook }: { opened: boolean; onClose: () => void; webhook: Webhook | null }) {
  const types = useContentTypes();
  const invalidate = useInvalidate();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [events, setEvents] = useState<string[]>(webhook?.events ?? ['entry.published', 'entry.unpublished', 'entry.deleted']);
  const [contentTypes, setContentTypes] = useState<string[]>(webhook?.content_types ?? []);
  const [enabled, setEnabled] = useState(webhook?.enabled ?? true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);

  const close = () => {
    setCreated(null);
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { url: url.trim(), description: description.trim() || null, events, content_types: contentTypes, enabled };
      if (webhook) {
        await api<Webhook>(`/webhooks/${webhook.id}`, { method: 'PATCH', body });
        await invalidate('webhooks');
        close();
      } else {
        const res = await api<CreatedWebhook>('/webhooks', { method: 'POST', body });
        await invalidate('webhooks');
        setCreated(res.data);
      }
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  if (created) {
    return (
      <ShownOnceDialog
        opened={opened}
        onClose={close}
        title="Webhook created"
        warningTitle="Copy the signing secret now"
        label="Signing secret"
        value={created.secret}
        copyLabel="Copy secret"
      >
        Your receiver verifies each request with this secret (Standard Webhooks signatures). It is shown only now; if it is lost, delete the webhook and create
        another.
      </ShownOnceDialog>
    );
  }

  const entryTypes = (types.data ?? []).filter((t) => !t.is_block);
  return (
    <Modal opened={opened} onClose={close} title={webhook ? 'Edit webhook' : 'Add webhook'} centered size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput
            label="URL"
            required
            type="url"
            placeholder="https://site.example/api/revalidate"
            description="Quire POSTs a JSON event here, signed with the webhook's secret"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            data-autofocus
          />
          <TextInput label="Description" placeholder="Rebuild the website" value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <MultiSelect
            label="Events"
            required
            description="A whole kind (entry.*), an action of every kind (*.stage_changed) or single events; * sends everything"
            data={EVENT_CHOICES}
            value={events}
            onChange={setEvents}
            searchable
            clearable
          />
          <MultiSelect
            label="Content types"
            description="Entry and content type events of these types only; leave empty for all"
            placeholder={contentTypes.length ? undefined : 'All content types'}
            data={entryTypes.map((t) => ({ value: t.slug, label: t.name }))}
            value={contentTypes}
            onChange={setContentTypes}
            searchable
            clearable
          />
          <Switch label="Enabled" description="A disabled webhook receives nothing" checked={enabled} onChange={(e) => setEnabled(e.currentTarget.checked)} />
          <ErrorAlert error={error} title={webhook ? 'The webhook was not changed' : 'The webhook was not created'} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!url.trim() || events.length === 0}>
              {webhook ? 'Save webhook' : 'Add webhook'}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            Failed deliveries are retried with backoff for 24 hours; each attempt is listed under the webhook.
          </Text>
        </Stack>
      </form>
    </Modal>
  );
}
