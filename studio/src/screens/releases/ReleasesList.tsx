/**
 * Releases (route /studio/:workspace/releases; docs/studio.md "Releases", docs/releases.md): the
 * workspace's releases, newest first, with their status, item count and times, narrowed by
 * status; **New release** (content:write) asks for a title and a description and opens the new
 * release. A release opens its screen (ReleaseDetail).
 */
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Anchor, Button, Group, Modal, NativeSelect, Stack, Table, Text, TextInput, Textarea } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import type { Release } from '../../api/types';
import { useInvalidate, useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ScrollTable } from '../../components/ScrollTable';
import { createRelease, listReleases } from './api';
import { ReleaseStatusBadge, releaseWhen } from './ReleaseStatusBadge';

const LIMIT = 25;

function NewReleaseDialog({ onClose }: { onClose: () => void }) {
  const { workspace } = useWorkspace();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const release = await createRelease({ title: title.trim(), description: description.trim() || null });
      await invalidate('releases');
      void navigate(`/${workspace.slug}/releases/${release.id}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  const fieldError = (name: string) => (error instanceof ApiError ? error.errors?.find((e) => e.path === `body.${name}`)?.message : undefined);
  return (
    <Modal opened onClose={onClose} title="New release" centered>
      <Stack>
        <Text size="sm">
          A release groups changes to entries and pages that go live together. Add items from their editors (Add to release), edit their release versions, then
          publish or schedule the release.
        </Text>
        <TextInput
          label="Title"
          required
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          error={fieldError('title')}
          maxLength={200}
          data-autofocus
        />
        <Textarea
          label="Description"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={fieldError('description')}
          autosize
          minRows={2}
        />
        {!fieldError('title') && !fieldError('description') ? <ErrorAlert error={error} title="The release was not created" /> : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => void submit()} loading={busy} disabled={!title.trim()}>
            Create release
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export default function ReleasesList() {
  const { workspace, can } = useWorkspace();
  const key = useWsKey();
  const [status, setStatus] = useState<'' | Release['status']>('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const list = useQuery({ queryKey: key('releases', 'list', status, page), queryFn: () => listReleases({ page, limit: LIMIT, status: status || undefined }) });
  const base = `/${workspace.slug}/releases`;
  return (
    <Stack>
      <PageHeader
        title="Releases"
        description="Changes to entries and pages that go live together, at once or at a scheduled time, and can be reverted."
        actions={can('content:write') ? <Button onClick={() => setCreating(true)}>New release</Button> : null}
      />
      <NativeSelect
        label="Status"
        w={200}
        value={status}
        onChange={(e) => {
          setStatus(e.currentTarget.value as typeof status);
          setPage(1);
        }}
        data={[
          { value: '', label: 'All' },
          { value: 'open', label: 'Open' },
          { value: 'scheduled', label: 'Scheduled' },
          { value: 'published', label: 'Published' },
          { value: 'failed', label: 'Failed' },
        ]}
      />
      {list.error ? <ErrorAlert error={list.error} title="The releases could not be loaded" /> : null}
      {list.isPending ? <Loading label="Loading releases" /> : null}
      {list.data && list.data.items.length === 0 ? (
        <Text c="dimmed">{status ? `No ${status} releases.` : 'No releases yet. Create one, then add entries and pages to it from their editors.'}</Text>
      ) : null}
      {list.data && list.data.items.length > 0 ? (
        <ScrollTable minWidth={640} label="Releases">
          <Table aria-label="Releases" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Release</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Items</Table.Th>
                <Table.Th>When</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.items.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`${base}/${r.id}`} fw={600}>
                      {r.title}
                    </Anchor>
                    {r.description ? (
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {r.description}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <ReleaseStatusBadge release={r} />
                    </Group>
                  </Table.Td>
                  <Table.Td>{r.items_count}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{releaseWhen(r) || `Created ${formatDateTime(r.created_at)}`}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      ) : null}
      {list.data?.meta.total_pages && list.data.meta.total_pages > 1 ? (
        <Group justify="space-between">
          <Text size="sm" c="dimmed" aria-live="polite">
            Page {page} of {list.data.meta.total_pages}
          </Text>
          <Group gap="xs">
            <Button variant="default" size="xs" disabled={page === 1} onClick={() => setPage(page - 1)}>
              Previous page
            </Button>
            <Button variant="default" size="xs" disabled={page >= list.data.meta.total_pages} onClick={() => setPage(page + 1)}>
              Next page
            </Button>
          </Group>
        </Group>
      ) : null}
      {creating ? <NewReleaseDialog onClose={() => setCreating(false)} /> : null}
    </Stack>
  );
}
