/**
 * Entries of one content type (route /studio/:workspace/content/:type): display value, slug,
 * status with the "changed" badge (D70), last update and who made it; search on the display field
 * and slug (debounced), status filter, sort (dates, slug, position, sortable fields); keyset
 * pagination with `meta.next_cursor` when the server gives one, pages otherwise; row selection
 * with bulk publish, unpublish, archive, schedule and delete, reported item by item (D23). When a
 * review workflow covers the type (D130): a Stage column, and filters by stage and assignee
 * (`?stage=`, `?assignee=me|<id>`), kept in the address like the others.
 */
import '@mantine/dates/styles.css';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { Anchor, Badge, Button, Checkbox, Group, Paper, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import type { BulkResult, ContentType } from '../../api/types';
import { useWorkflows, workflowCovering } from '../../api/workflows';
import { StageBadge, WorkflowFilters } from '../../editor/WorkflowFilters';
import { useContentTypes, useInvalidate, useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { bulkAction, listEntries, type StateVerb } from './api';
import { BulkResultDialog } from './BulkResultDialog';
import { useMemberNames } from './members';
import { displayValue } from './model';
import { LazyScheduleDialog } from '../../editor/LazyScheduleDialog';
import { ScrollTable } from '../../components/ScrollTable';

const PAGE_SIZE = 25;
const STATUSES = ['draft', 'scheduled', 'published', 'archived'];

function sortOptions(ct: ContentType): { value: string; label: string }[] {
  const options = [
    { value: 'updated_at:desc', label: 'Recently updated' },
    { value: 'created_at:desc', label: 'Newest first' },
    { value: 'created_at:asc', label: 'Oldest first' },
    { value: 'published_at:desc', label: 'Recently published' },
    { value: 'slug:asc', label: 'Slug A–Z' },
    { value: 'slug:desc', label: 'Slug Z–A' },
  ];
  if (ct.orderable) options.unshift({ value: 'position:asc', label: 'Manual order' });
  for (const f of ct.fields.filter((x) => x.sortable)) {
    options.push({ value: `${f.name}:asc`, label: `${f.label} ↑` }, { value: `${f.name}:desc`, label: `${f.label} ↓` });
  }
  return options;
}

export default function EntriesListScreen() {
  const { type = '' } = useParams();
  const types = useContentTypes();
  const ct = types.data?.find((t) => t.slug === type);
  if (types.isPending) return <Loading label="Loading content types" />;
  if (types.error) return <ErrorAlert error={types.error} title="Content types could not be loaded" />;
  if (!ct) return <ErrorAlert error={new Error(`There is no content type '${type}' in this workspace.`)} title="Not found" />;
  return <EntriesTable key={ct.slug} ct={ct} />;
}

function EntriesTable({ ct }: { ct: ContentType }) {
  const { can, workspace } = useWorkspace();
  const navigate = useNavigate();
  const key = useWsKey();
  const invalidate = useInvalidate();
  const nameOf = useMemberNames();
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const workflows = useWorkflows();
  const workflow = workflowCovering(workflows.data, ct.slug);
  const stage = workflow ? (params.get('stage') ?? '') : '';
  const assignee = workflow ? (params.get('assignee') ?? '') : '';
  const sort = params.get('sort') ?? (ct.orderable ? 'position:asc' : 'updated_at:desc');
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  // Where this page starts: an offset page, or a cursor (the cursors of earlier pages are kept for
  // "Previous"). A change of filter, sort or search starts again at page 1.
  const filterKey = JSON.stringify([status, sort, debouncedSearch, stage, assignee]);
  const [stored, setPosition] = useState<{ key: string; page: number; cursors: (string | null)[] }>({ key: filterKey, page: 1, cursors: [null] });
  const position = stored.key === filterKey ? stored : { key: filterKey, page: 1, cursors: [null] };
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [bulk, setBulk] = useState<{ action: StateVerb | 'delete'; result: BulkResult | null; labels: Map<string, string> } | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'schedule' | null>(null);
  const [bulkError, setBulkError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
    setSelected(new Set());
  };

  const cursor = position.cursors[position.page - 1] ?? undefined;
  const query = {
    limit: PAGE_SIZE,
    status: status || undefined,
    sort,
    search: debouncedSearch || undefined,
    page: position.page,
    cursor,
    stage: stage || undefined,
    assignee: assignee || undefined,
  };
  // The workflows first: a ?stage= or ?assignee= in the address applies only when one covers the type.
  const list = useQuery({
    queryKey: key('entries', ct.slug, query),
    queryFn: () => listEntries(ct.slug, query),
    placeholderData: keepPreviousData,
    enabled: !workflows.isPending,
  });
  const items = useMemo(() => list.data?.items ?? [], [list.data]);
  const meta = list.data?.meta;
  const hasNext = meta?.next_cursor ? true : meta?.total_pages ? position.page < meta.total_pages : false;
  const next = () =>
    setPosition(() => {
      const cursors = [...position.cursors];
      cursors[position.page] = meta?.next_cursor ?? null;
      return { key: filterKey, page: position.page + 1, cursors };
    });
  const labels = new Map(items.map((e) => [e.id, displayValue(e, ct)]));
  const allSelected = items.length > 0 && items.every((e) => selected.has(e.id));
  const toggle = (id: string) =>
    setSelected((prev) => {
      const s = new Set(prev);
      if (s.has(id)) s.delete(id);
      else s.add(id);
      return s;
    });

  const runBulk = async (action: StateVerb | 'delete', publishAt?: string) => {
    setBusy(true);
    setBulkError(null);
    const ids = [...selected];
    try {
      const result = await bulkAction(ct.slug, action, ids, publishAt);
      setBulk({ action, result, labels: new Map(ids.map((id) => [id, labels.get(id) ?? id])) });
      setSelected(new Set(result.failed.map((f) => f.id)));
      await invalidate('entries', ct.slug);
    } catch (err) {
      setBulkError(err);
      throw err;
    } finally {
      setBusy(false);
    }
  };

  const canPublish = can('content:publish');
  const canWrite = can('content:write');
  const base = `/${workspace.slug}/content/${ct.slug}`;

  return (
    <Stack>
      <PageHeader
        title={ct.name}
        description={ct.description ?? undefined}
        actions={
          canWrite ? (
            <Button component={Link} to={`${base}/new`} leftSection={<IconPlus size={16} />}>
              New entry
            </Button>
          ) : null
        }
      />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label="Search"
          placeholder={ct.display_field ? `${ct.fields.find((f) => f.name === ct.display_field)?.label ?? ct.display_field} or slug` : 'Slug'}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          maxLength={200}
          style={{ flex: '1 1 220px' }}
        />
        <Select
          label="Status"
          data={[{ value: '', label: 'Any status' }, ...STATUSES.map((s) => ({ value: s, label: s }))]}
          value={status}
          onChange={(v) => setParam('status', v ?? '')}
          allowDeselect={false}
          w={160}
        />
        {workflow ? <WorkflowFilters workflow={workflow} stage={stage} assignee={assignee} onChange={setParam} /> : null}
        <Select label="Sort" data={sortOptions(ct)} value={sort} onChange={(v) => setParam('sort', v ?? '')} allowDeselect={false} w={200} />
      </Group>

      {selected.size && (canPublish || canWrite) ? (
        <Paper withBorder p="xs" role="region" aria-label="Bulk actions">
          <Group gap="xs">
            <Text size="sm" fw={500}>
              {selected.size} selected
            </Text>
            {canPublish ? (
              <>
                <Button size="xs" loading={busy} onClick={() => void runBulk('publish').catch(() => {})}>
                  Publish
                </Button>
                <Button size="xs" variant="default" loading={busy} onClick={() => void runBulk('unpublish').catch(() => {})}>
                  Unpublish
                </Button>
                <Button size="xs" variant="default" loading={busy} onClick={() => void runBulk('archive').catch(() => {})}>
                  Archive
                </Button>
                <Button size="xs" variant="default" onClick={() => setConfirm('schedule')}>
                  Schedule…
                </Button>
              </>
            ) : null}
            {canWrite ? (
              <Button size="xs" color="red" variant="light" onClick={() => setConfirm('delete')}>
                Delete
              </Button>
            ) : null}
            <Button size="xs" variant="subtle" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </Group>
        </Paper>
      ) : null}
      <ErrorAlert error={bulkError} title="The bulk action failed" />
      <ErrorAlert error={list.error} title="Entries could not be loaded" />

      {list.isPending ? (
        <Loading label="Loading entries" />
      ) : (
        <ScrollTable minWidth={640} label={`${ct.name} entries`}>
          <Table striped highlightOnHover aria-label={`${ct.name} entries`}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label="Select all entries on this page"
                    checked={allSelected}
                    indeterminate={!allSelected && items.some((e) => selected.has(e.id))}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((e) => e.id)))}
                  />
                </Table.Th>
                <Table.Th>Title</Table.Th>
                <Table.Th>Slug</Table.Th>
                <Table.Th>Status</Table.Th>
                {workflow ? <Table.Th>Stage</Table.Th> : null}
                <Table.Th>Updated</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <Checkbox aria-label={`Select ${labels.get(e.id)}`} checked={selected.has(e.id)} onChange={() => toggle(e.id)} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={`${base}/${e.slug}`} fw={500}>
                      {labels.get(e.id)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c="dimmed" ff="monospace">
                      {e.slug}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={e.status} pendingChanges={e.has_pending_changes} />
                    {e.status === 'scheduled' && e.publish_at ? (
                      <Text size="xs" c="dimmed">
                        {formatDateTime(e.publish_at)}
                      </Text>
                    ) : null}
                  </Table.Td>
                  {workflow ? (
                    <Table.Td>
                      <StageBadge item={e} />
                    </Table.Td>
                  ) : null}
                  <Table.Td>
                    <Text size="sm">{formatDateTime(e.updated_at)}</Text>
                    <Text size="xs" c="dimmed">
                      by {nameOf(e.updated_by)}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {!items.length ? (
            <Text c="dimmed" ta="center" py="lg">
              {debouncedSearch || status || stage || assignee ? 'No entries match.' : 'No entries yet.'}
              {canWrite && !debouncedSearch && !status && !stage && !assignee ? (
                <>
                  {' '}
                  <Anchor component="button" onClick={() => void navigate(`${base}/new`)}>
                    Create the first one
                  </Anchor>
                </>
              ) : null}
            </Text>
          ) : null}
        </ScrollTable>
      )}

      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite">
          {meta?.total_data !== undefined ? `${meta.total_data} entr${meta.total_data === 1 ? 'y' : 'ies'}` : `${items.length} shown`}
          {meta?.total_pages ? ` · page ${position.page} of ${Math.max(meta.total_pages, 1)}` : ` · page ${position.page}`}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" disabled={position.page === 1} onClick={() => setPosition({ ...position, page: position.page - 1 })}>
            Previous page
          </Button>
          <Button variant="default" size="xs" disabled={!hasNext || list.isFetching} onClick={next}>
            Next page
          </Button>
          {list.isFetching && !list.isPending ? <Badge variant="light">Loading…</Badge> : null}
        </Group>
      </Group>

      <ConfirmDialog
        opened={confirm === 'delete'}
        onClose={() => setConfirm(null)}
        title={`Delete ${selected.size} entr${selected.size === 1 ? 'y' : 'ies'}?`}
        confirmLabel="Delete"
        onConfirm={() => runBulk('delete')}
      >
        The selected entries, their translations and their history are deleted for good. Relations pointing at them resolve to nothing.
      </ConfirmDialog>
      <LazyScheduleDialog
        opened={confirm === 'schedule'}
        onClose={() => setConfirm(null)}
        what={`${selected.size} entr${selected.size === 1 ? 'y' : 'ies'}`}
        onSchedule={(at) => runBulk('schedule', at)}
      />
      <BulkResultDialog result={bulk?.result ?? null} action={bulk?.action ?? ''} labelOf={(id) => bulk?.labels.get(id) ?? id} onClose={() => setBulk(null)} />
    </Stack>
  );
}
