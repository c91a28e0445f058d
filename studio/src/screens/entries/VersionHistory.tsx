/**
 * The history of an entry (D72) on the shared version list (editor/VersionHistory): "View" shows
 * a version field by field against the current working copy, and "Restore" makes it the working
 * copy again (a new `restore` version; status unchanged).
 */
import { Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Field, Version } from '../../api/types';
import { useWsKey } from '../../app/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useRestore, VersionList } from '../../editor/VersionHistory';
import { getVersion, listVersions } from './api';
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
  return (
    <VersionList
      keyParts={['entry', props.type, props.slug]}
      list={(page) => listVersions(props.type, props.slug, page)}
      publishedVersion={props.publishedVersion}
      stamp={props.stamp}
      renderVersion={(version, record, close) => <VersionDialog {...props} version={version} record={record} onClose={close} />}
    />
  );
}

function VersionDialog(props: VersionHistoryProps & { version: number; record: Version | undefined; onClose: () => void }) {
  const key = useWsKey();
  const { busy, error, restore } = useRestore(props.onRestore, props.version, props.onClose);
  const q = useQuery({ queryKey: key('version', props.type, props.slug, props.version), queryFn: () => getVersion(props.type, props.slug, props.version) });
  const before = q.data ? draftOf(q.data.entry) : null;
  const ids = referencedIds(props.fields, before ? [before, props.current] : []);
  const types = props.fields.filter((f) => f.field_type === 'relation' || f.field_type === 'relation_list').flatMap((f) => fieldOptions(f));
  const entries = useEntryLookup(ids.entries, [...new Set(types)]);
  const media = useMediaLookup(ids.media);
  const nameOf = (id: string) => entries.get(id)?.label ?? media.get(id)?.label;
  const rows = before ? diffDrafts(props.fields, props.locales, props.defaultLocale, before, props.current, nameOf) : [];
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
