/**
 * Settings › Audit log (owners and admins, D122): who did what in the workspace, newest first
 * (GET /audit-log). Filters by actor, action (exact or `entry.*`), target and a date range, sent
 * when the form is applied; "Load more" follows `meta.next_cursor`, which is bound to those
 * filters. Changed field names are shown, never values (the server stores none).
 */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Code, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { AuditEntry, PageMeta } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { useWsKey } from '../../app/queries';
import { useMemberNames } from '../entries/members';

interface Filters {
  actor: string;
  action: string;
  target: string;
  /** `YYYY-MM-DD` of the browser's calendar; empty: no bound. */
  from: string;
  to: string;
}

const EMPTY: Filters = { actor: '', action: '', target: '', from: '', to: '' };

const COLUMNS = ['Time', 'Actor', 'Action', 'Target', 'Changed', 'From'];

/** Local midnight of `day` (a `YYYY-MM-DD`) plus `days`, as an ISO instant; undefined for an empty day. */
function dayStart(day: string, days = 0): string | undefined {
  if (!day) return undefined;
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y, m - 1, d + days).toISOString();
}

/** The query of a filter set: `to` includes its whole day (the API's `to` is exclusive). */
export function auditQuery(f: Filters): Record<string, string | undefined> {
  return {
    actor: f.actor.trim() || undefined,
    action: f.action.trim() || undefined,
    target: f.target.trim() || undefined,
    from: dayStart(f.from),
    to: dayStart(f.to, 1),
  };
}

function actorText(a: AuditEntry['actor']): string {
  if (a.type === 'system') return a.label ? `System (${a.label})` : 'System';
  if (a.type === 'key') return `Key ${a.label ?? a.id ?? ''}`.trim();
  return a.label ?? `User ${a.id ?? ''}`.trim();
}

export default function AuditLogTab() {
  const wsKey = useWsKey();
  const nameOf = useMemberNames();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const log = useInfiniteQuery({
    queryKey: wsKey('audit-log', applied),
    initialPageParam: null as string | null,
    queryFn: async ({ pageParam }) =>
      api<AuditEntry[], PageMeta>('/audit-log', { query: { ...auditQuery(applied), limit: 50, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.meta?.next_cursor ?? null,
  });
  const rows = log.data?.pages.flatMap((p) => p.data) ?? [];
  const set = (key: keyof Filters) => (e: { currentTarget: { value: string } }) => setDraft({ ...draft, [key]: e.currentTarget.value });
  const apply = (e: FormEvent) => {
    e.preventDefault();
    setApplied(draft);
  };

  return (
    <Stack>
      <Text size="sm" maw={720}>
        Every change, sign-in and setting in this workspace, with who did it and from where. Rows are kept for the retention the server is configured with.
      </Text>
      <form onSubmit={apply} aria-label="Filter the audit log">
        <Group align="flex-end" wrap="wrap">
          <TextInput label="Actor" description="user:ID, key:ID or system" value={draft.actor} onChange={set('actor')} w={180} />
          <TextInput label="Action" description="entry.updated or entry.*" value={draft.action} onChange={set('action')} w={180} />
          <TextInput label="Target" description="kind:ID, e.g. entry:…" value={draft.target} onChange={set('target')} w={220} />
          <TextInput label="From" description="first day" type="date" value={draft.from} onChange={set('from')} w={160} />
          <TextInput label="To" description="last day" type="date" value={draft.to} onChange={set('to')} w={160} />
          <Button type="submit" leftSection={<IconFilter size={16} aria-hidden />}>
            Apply filters
          </Button>
          <Button
            variant="default"
            onClick={() => {
              setDraft(EMPTY);
              setApplied(EMPTY);
            }}
          >
            Clear
          </Button>
        </Group>
      </form>
      {log.isPending ? <Loading /> : null}
      <ErrorAlert error={log.error} title="The audit log could not be loaded" />
      {log.data && rows.length === 0 ? <Text c="dimmed">No entries match these filters.</Text> : null}
      {rows.length > 0 ? (
        <ScrollTable minWidth={900} label="Audit log">
          <Table striped aria-label="Audit log" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((c) => (
                  <Table.Th key={c}>{c}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td title={r.at}>{formatDateTime(r.at)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{actorText(r.actor)}</Text>
                    {r.actor.type === 'key' && r.actor.user_id !== null ? (
                      <Text size="xs" c="dimmed">
                        created by {nameOf(r.actor.user_id)}
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={r.action.endsWith('failed') ? 'red' : 'gray'} tt="none">
                      {r.action}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {r.target.kind} {r.target.slug ?? r.target.id ?? ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>{r.changed_fields?.length ? <Code>{r.changed_fields.join(', ')}</Code> : null}</Table.Td>
                  <Table.Td>
                    <Text size="xs" title={r.user_agent ?? undefined}>
                      {r.ip ?? '—'}
                    </Text>
                    {r.request_id ? (
                      <Text size="xs" c="dimmed">
                        {r.request_id}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      ) : null}
      {log.hasNextPage ? (
        <Group>
          <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
