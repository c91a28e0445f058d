/**
 * The history of an entry (D72): versions newest first with action, status, time and author, the
 * published one marked; "View" shows a version field by field against the current working copy,
 * and "Restore" makes it the working copy again (a new `restore` version; status unchanged).
 */
import { useState } from 'react';
import { Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Field, Version } from '../../api/types';
import { useWsKey } from '../../app/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { getVersion, listVersions } from './api';
import { useMemberNames } from './members';
import { diffDrafts, draftOf, referencedIds, type Draft } from './model';
import { fieldOptions } from '../../fields/field-meta';
import { useEntryLookup, useMediaLookup } from '../../fields/shared/lookups';

export interface VersionHistoryProps {
  type: string;
  slug: string;
  fields: Field[];
  locales: string[];
  defaultLocale: string;
  publishedVersion: number | null;
  current: Draft;
  /** bumps when the entry changes, to refetch the list */
  stamp: string;
  canRestore: boolean;
  onRestore: (version: number) => Promise<void>;
}

export function VersionHistory(props: VersionHistoryProps) {
  const key = useWsKey();
  const nameOf = useMemberNames();
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<number | null>(null);
  const list = useQuery({ queryKey: key('versions', props.type, props.slug, page, props.stamp), queryFn: () => listVersions(props.type, props.slug, page) });
  const totalPages = list.data?.meta.total_pages ?? 1;
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="history-title">
      <Title order={2} size="h5" id="history-title" mb="xs">
        History
      </Title>
      <ErrorAlert error={list.error} title="History could not be loaded" />
      <Stack gap={4}>
        {(list.data?.items ?? []).map((v) => (
          <Group key={v.version} justify="space-between" wrap="nowrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Group gap={4}>
                <Text size="sm" fw={500}>
                  v{v.version} · {v.action}
                </Text>
                {v.version === props.publishedVersion ? (
                  <Badge size="xs" color="#1e6b30" variant="filled">
                    live
                  </Badge>
                ) : null}
              </Group>
              <Text size="xs" c="dimmed">
                {formatDateTime(v.created_at)} · {nameOf(v.created_by)}
              </Text>
            </div>
            <Button
              size="compact-xs"
              variant="default"
              style={{ flexShrink: 0 }}
              onClick={() => setViewing(v.version)}
              aria-label={`View version ${v.version}`}
            >
              View
            </Button>
          </Group>
        ))}
      </Stack>
      {totalPages > 1 ? (
        <Group justify="space-between" mt="xs">
          <Button size="compact-xs" variant="subtle" disabled={page === 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Button size="compact-xs" variant="subtle" disabled={page >= totalPages} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </Group>
      ) : null}
      {viewing !== null ? (
        <VersionDialog {...props} version={viewing} record={list.data?.items.find((v) => v.version === viewing)} onClose={() => setViewing(null)} />
      ) : null}
    </Paper>
  );
}

function VersionDialog(props: VersionHistoryProps & { version: number; record: Version | undefined; onClose: () => void }) {
  const key = useWsKey();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const q = useQuery({ queryKey: key('version', props.type, props.slug, props.version), queryFn: () => getVersion(props.type, props.slug, props.version) });
  const before = q.data ? draftOf(q.data.entry) : null;
  const ids = referencedIds(props.fields, before ? [before, props.current] : []);
  const types = props.fields.filter((f) => f.field_type === 'relation' || f.field_type === 'relation_list').flatMap((f) => fieldOptions(f));
  const entries = useEntryLookup(ids.entries, [...new Set(types)]);
  const media = useMediaLookup(ids.media);
  const nameOf = (id: string) => entries.get(id)?.label ?? media.get(id)?.label;
  const rows = before ? diffDrafts(props.fields, props.locales, props.defaultLocale, before, props.current, nameOf) : [];
  const restore = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.onRestore(props.version);
      props.onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={props.onClose} title={`Version ${props.version}${props.record ? ` (${props.record.action})` : ''}`} size="xl">
      <Stack>
        <ErrorAlert error={q.error} title="The version could not be loaded" />
        {q.data ? (
          rows.length ? (
            <Table.ScrollContainer minWidth={520}>
              <Table aria-label={`Differences between version ${props.version} and the working copy`} verticalSpacing="xs">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>Version {props.version}</Table.Th>
                    <Table.Th>Working copy</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rows.map((r) => (
                    <Table.Tr key={`${r.locale}:${r.field}`}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {r.label}
                        </Text>
                        <Group gap={4}>
                          <Badge size="xs" variant="outline">
                            {r.locale}
                          </Badge>
                          <Badge size="xs" variant="filled" color={r.kind === 'added' ? '#1e6b30' : r.kind === 'removed' ? 'red.9' : 'blue.9'}>
                            {r.kind}
                          </Badge>
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text
                          size="sm"
                          style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}
                          td={r.kind === 'changed' || r.kind === 'removed' ? 'line-through' : undefined}
                        >
                          {r.before}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                          {r.after}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <Text size="sm">This version holds the same content as the working copy.</Text>
          )
        ) : (
          <Text size="sm">Loading version…</Text>
        )}
        <ErrorAlert error={error} title="Could not restore" />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Close
          </Button>
          {props.canRestore ? (
            <Button onClick={() => void restore()} loading={busy} disabled={!q.data}>
              Restore version {props.version}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
