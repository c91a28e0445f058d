/**
 * Settings › Webhooks (owners and admins, D82): the workspace's webhooks with what they receive;
 * add one (its signing secret shown once), edit, enable or disable, send a ping, delete; and per
 * webhook its delivery log, newest first: each event's status and attempts (HTTP status,
 * duration, the start of the answer or the error), with a manual retry.
 */
import { Fragment, useState } from 'react';
import { ActionIcon, Badge, Button, Code, Group, Paper, Stack, Switch, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconRefresh, IconSend, IconTrash, IconWebhook } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Webhook, WebhookDelivery } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { useInvalidate, useWsKey } from '../../app/queries';
import { WebhookDialog } from './WebhookDialog';
import { ScrollTable } from '../../components/ScrollTable';

const STATUS_COLORS: Record<WebhookDelivery['status'], string> = { pending: 'yellow', delivered: 'green', failed: 'red' };

/** One line about an attempt: its HTTP status and time, or why it failed. */
function attemptSummary(a: WebhookDelivery['attempts'][number]): string {
  const took = a.duration_ms !== null ? ` in ${a.duration_ms} ms` : '';
  if (a.status_code !== null) return `HTTP ${a.status_code}${took}`;
  if (a.error) return `${a.error}${took}`;
  return a.finished_at ? 'no answer' : 'under way';
}

function Deliveries({ webhook }: { webhook: Webhook }) {
  const wsKey = useWsKey();
  const invalidate = useInvalidate();
  const deliveries = useQuery({
    queryKey: wsKey('webhooks', webhook.id, 'deliveries'),
    queryFn: async () => (await api<WebhookDelivery[]>(`/webhooks/${webhook.id}/deliveries?limit=20`)).data,
    // Pending deliveries change on their own (the worker retries them).
    refetchInterval: (q) => (q.state.data?.some((d) => d.status === 'pending') ? 3000 : false),
  });
  const [retrying, setRetrying] = useState<string | null>(null);
  const retry = async (d: WebhookDelivery) => {
    setRetrying(d.id);
    try {
      const res = await api<WebhookDelivery>(`/webhooks/${webhook.id}/deliveries/${d.id}/retry`, { method: 'POST' });
      notifications.show({ color: res.data.status === 'delivered' ? 'teal' : 'orange', message: `Retry: ${res.data.status}` });
    } catch (err) {
      notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The retry failed' });
    } finally {
      setRetrying(null);
      await invalidate('webhooks', webhook.id, 'deliveries');
    }
  };

  if (deliveries.isPending) return <Loading />;
  if (deliveries.error) return <ErrorAlert error={deliveries.error} title="The delivery log could not be loaded" />;
  if (deliveries.data.length === 0) return <Text c="dimmed">No deliveries yet. Send a ping to try the receiver.</Text>;
  return (
    <ScrollTable minWidth={640} label={`Deliveries of ${webhook.url}`}>
      <Table aria-label={`Deliveries of ${webhook.url}`} verticalSpacing={4}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Event</Table.Th>
            <Table.Th>Status</Table.Th>
            <Table.Th>Attempts</Table.Th>
            <Table.Th>Created</Table.Th>
            <Table.Th>Actions</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.data.map((d) => (
            <Fragment key={d.id}>
              <Table.Tr>
                <Table.Td>
                  <Code>{d.event_type}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[d.status]} variant="light">
                    {d.status}
                  </Badge>
                  {d.status === 'pending' && d.next_attempt_at ? (
                    <Text size="xs" c="dimmed">
                      next try {formatDateTime(d.next_attempt_at)}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Stack gap={2}>
                    {d.attempts.slice(0, 3).map((a) => (
                      <Text key={a.number} size="xs" title={a.response_excerpt ?? undefined}>
                        #{a.number}: {attemptSummary(a)}
                      </Text>
                    ))}
                    {d.attempts.length > 3 ? (
                      <Text size="xs" c="dimmed">
                        and {d.attempts.length - 3} earlier
                      </Text>
                    ) : null}
                  </Stack>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(d.created_at)}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="light"
                    leftSection={<IconRefresh size={14} aria-hidden />}
                    loading={retrying === d.id}
                    onClick={() => void retry(d)}
                    aria-label={`Retry ${d.event_type} delivery`}
                  >
                    Retry
                  </Button>
                </Table.Td>
              </Table.Tr>
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

function WebhookCard({ webhook, onEdit, onDelete }: { webhook: Webhook; onEdit: () => void; onDelete: () => void }) {
  const invalidate = useInvalidate();
  const [showLog, setShowLog] = useState(false);
  const [pinging, setPinging] = useState(false);
  const [toggling, setToggling] = useState(false);

  const ping = async () => {
    setPinging(true);
    try {
      const res = await api<WebhookDelivery>(`/webhooks/${webhook.id}/ping`, { method: 'POST' });
      const last = res.data.attempts[0];
      notifications.show({
        color: res.data.status === 'delivered' ? 'teal' : 'red',
        message: `Ping ${res.data.status}${last ? `: ${attemptSummary(last)}` : ''}`,
      });
      setShowLog(true);
    } catch (err) {
      notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The ping failed' });
    } finally {
      setPinging(false);
      await invalidate('webhooks', webhook.id, 'deliveries');
    }
  };

  const toggle = async (enabled: boolean) => {
    setToggling(true);
    try {
      await api(`/webhooks/${webhook.id}`, { method: 'PATCH', body: { enabled } });
      await invalidate('webhooks');
    } catch (err) {
      notifications.show({ color: 'red', message: err instanceof Error ? err.message : 'The webhook was not changed' });
    } finally {
      setToggling(false);
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Text fw={600} ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {webhook.url}
            </Text>
            {webhook.description ? (
              <Text size="sm" c="dimmed">
                {webhook.description}
              </Text>
            ) : null}
          </Stack>
          <Group gap="xs">
            <Switch
              label="Enabled"
              checked={webhook.enabled}
              disabled={toggling}
              onChange={(e) => void toggle(e.currentTarget.checked)}
              aria-label={`Enable ${webhook.url}`}
            />
            <Button size="xs" variant="light" leftSection={<IconSend size={14} aria-hidden />} loading={pinging} onClick={() => void ping()}>
              Send ping
            </Button>
            <Tooltip label="Edit">
              <ActionIcon variant="subtle" aria-label={`Edit webhook ${webhook.url}`} onClick={onEdit}>
                <IconEdit size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
            <Tooltip label="Delete">
              <ActionIcon variant="subtle" color="red" aria-label={`Delete webhook ${webhook.url}`} onClick={onDelete}>
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Group gap={4}>
          {webhook.events.map((e) => (
            <Badge key={e} variant="outline" size="sm" tt="none">
              {e}
            </Badge>
          ))}
          <Text size="xs" c="dimmed" ml="xs">
            {webhook.content_types.length ? `types: ${webhook.content_types.join(', ')}` : 'all content types'}
          </Text>
        </Group>
        <Group>
          <Button size="compact-sm" variant="subtle" onClick={() => setShowLog((v) => !v)} aria-expanded={showLog}>
            {showLog ? 'Hide deliveries' : 'Show deliveries'}
          </Button>
        </Group>
        {showLog ? <Deliveries webhook={webhook} /> : null}
      </Stack>
    </Paper>
  );
}

export default function WebhooksTab() {
  const wsKey = useWsKey();
  const invalidate = useInvalidate();
  const webhooks = useQuery({ queryKey: wsKey('webhooks'), queryFn: async () => (await api<Webhook[]>('/webhooks?limit=100')).data });
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" maw={640}>
          Webhooks tell your site or build system when content changes: Quire POSTs a signed JSON event to each URL (retried for 24 hours when the receiver
          fails), so a static site can rebuild or a cache can drop what changed.
        </Text>
        <Button leftSection={<IconWebhook size={16} aria-hidden />} onClick={() => setEditing('new')}>
          Add webhook
        </Button>
      </Group>
      {webhooks.isPending ? <Loading /> : null}
      <ErrorAlert error={webhooks.error} title="The webhooks could not be loaded" />
      {webhooks.data ? (
        webhooks.data.length === 0 ? (
          <Text c="dimmed">No webhooks yet.</Text>
        ) : (
          webhooks.data.map((w) => <WebhookCard key={w.id} webhook={w} onEdit={() => setEditing(w)} onDelete={() => setDeleting(w)} />)
        )
      ) : null}
      {editing !== null ? (
        <WebhookDialog key={editing === 'new' ? 'new' : editing.id} opened onClose={() => setEditing(null)} webhook={editing === 'new' ? null : editing} />
      ) : null}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        onConfirm={async () => {
          if (!deleting) return;
          await api(`/webhooks/${deleting.id}`, { method: 'DELETE' });
          await invalidate('webhooks');
          notifications.show({ color: 'teal', message: 'Webhook deleted' });
        }}
      >
        {deleting?.url} receives no more events, and its delivery log is deleted with it.
      </ConfirmDialog>
    </Stack>
  );
}
