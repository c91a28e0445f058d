/**
 * The history panel of the entry and page editors (D72): versions newest first with action, time
 * and author, the published one marked "live", 20 a page. "View" opens the caller's version
 * dialog (a diff against the working copy, with Restore), so each editor shows its own kind of
 * difference while the list stays one component.
 */
import { useState, type ReactNode } from 'react';
import { Badge, Button, Group, Modal, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PageMeta, Version } from '../api/types';
import { useWsKey } from '../app/queries';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatDateTime } from '../components/format';
import { useMemberNames } from '../screens/entries/members';
import { ScrollTable } from '../components/ScrollTable';

export interface VersionListProps {
  /** cache key parts naming the record, e.g. ['entry', type, slug] */
  keyParts: unknown[];
  /** one page (20) of versions, newest first */
  list: (page: number) => Promise<{ items: Version[]; meta: PageMeta }>;
  publishedVersion: number | null;
  /** bumps when the record changes, to refetch the list */
  stamp: string;
  /** the dialog of one version; `close` hides it */
  renderVersion: (version: number, record: Version | undefined, close: () => void) => ReactNode;
}

export function VersionList({ keyParts, list: load, publishedVersion, stamp, renderVersion }: VersionListProps) {
  const key = useWsKey();
  const nameOf = useMemberNames();
  const [page, setPage] = useState(1);
  const [viewing, setViewing] = useState<number | null>(null);
  const list = useQuery({ queryKey: key('versions', ...keyParts, page, stamp), queryFn: () => load(page) });
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
                {v.version === publishedVersion ? (
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
      {viewing !== null
        ? renderVersion(
            viewing,
            list.data?.items.find((v) => v.version === viewing),
            () => setViewing(null),
          )
        : null}
    </Paper>
  );
}

/** Runs a restore for a version dialog: busy while it runs, the refusal kept to show, closes on success. */
export function useRestore(onRestore: (version: number) => Promise<void>, version: number, onClose: () => void) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const restore = async () => {
    setBusy(true);
    setError(null);
    try {
      await onRestore(version);
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, restore };
}

/** One difference between a version and the working copy. */
export interface DiffTableRow {
  key: string;
  /** the field (or block and field) that differs */
  what: string;
  locale: string | null;
  kind: 'added' | 'removed' | 'changed' | 'moved';
  before: string;
  after: string;
}

const KIND_COLORS: Record<DiffTableRow['kind'], string> = { added: '#1e6b30', removed: 'red.9', changed: 'blue.9', moved: 'violet.9' };

/**
 * The dialog of one version: its differences with the working copy (`rows`; null while loading),
 * Close, and "Restore version N" for roles that may write.
 */
export function VersionDialog(props: {
  version: number;
  record: Version | undefined;
  loadError: unknown;
  rows: DiffTableRow[] | null;
  canRestore: boolean;
  busy: boolean;
  restoreError: unknown;
  onRestore: () => void;
  onClose: () => void;
}) {
  const { rows } = props;
  return (
    <Modal opened onClose={props.onClose} title={`Version ${props.version}${props.record ? ` (${props.record.action})` : ''}`} size="xl">
      <Stack>
        <ErrorAlert error={props.loadError} title="The version could not be loaded" />
        {rows ? (
          rows.length ? (
            <ScrollTable minWidth={520} label={`Differences between version ${props.version} and the working copy`}>
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
                    <Table.Tr key={r.key}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {r.what}
                        </Text>
                        <Group gap={4}>
                          {r.locale ? (
                            <Badge size="xs" variant="outline">
                              {r.locale}
                            </Badge>
                          ) : null}
                          <Badge size="xs" variant="filled" color={KIND_COLORS[r.kind]}>
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
            </ScrollTable>
          ) : (
            <Text size="sm">This version holds the same content as the working copy.</Text>
          )
        ) : (
          <Text size="sm">Loading version…</Text>
        )}
        <ErrorAlert error={props.restoreError} title="Could not restore" />
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            Close
          </Button>
          {props.canRestore ? (
            <Button onClick={props.onRestore} loading={props.busy} disabled={!rows}>
              Restore version {props.version}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}
