/**
 * One release (route /studio/:workspace/releases/:id; docs/studio.md "Releases", docs/releases.md):
 * its status and times, why a scheduled publication failed, and its items (each linking to its
 * editor, with its action, its status now, a conflict mark when it was published after its release
 * version was copied, **Changes** against the published version, **Remove**). Actions by role and
 * status: **Validate** (the publication's checks, GET …/validation), **Preview in the editors**
 * (the header's release perspective), **Publish now**, **Schedule** / **Reschedule**,
 * **Unschedule**, **Revert** (a conflict lists the items published again since and offers to
 * revert anyway) and **Delete**. Refusals show the server's message and every problem it lists.
 */
import '@mantine/dates/styles.css';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Alert, Anchor, Badge, Button, Group, List, Paper, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import type { ReleaseItem } from '../../api/types';
import { useContentTypes, useInvalidate, useWsKey } from '../../app/queries';
import { isEditableRelease, useReleasePerspective } from '../../app/release-perspective';
import { useWorkspace } from '../../app/workspace';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { ScrollTable } from '../../components/ScrollTable';
import { StatusBadge } from '../../components/StatusBadge';
import { LazyScheduleDialog } from '../../editor/LazyScheduleDialog';
import { deleteRelease, getRelease, listItems, publishRelease, removeItem, revertRelease, scheduleRelease, unscheduleRelease, validateRelease } from './api';
import { ItemDiffDialog } from './ItemDiff';
import { ReleaseStatusBadge, releaseWhen } from './ReleaseStatusBadge';

type Dialog = 'publish' | 'schedule' | 'revert' | 'force-revert' | 'delete' | null;

/** "entry 'spring-sale' (Post) › data.title" for a problem's path `entry.<id>.data.title`. */
export function problemLabel(path: string, items: readonly ReleaseItem[], typeName: (slug: string | null) => string): string {
  const [kind, id, ...rest] = path.split('.');
  const item = items.find((i) => i.kind === kind && i.id === id);
  if (!item) return path;
  const what = item.kind === 'page' ? `Page ${item.slug}` : `${typeName(item.content_type)} ${item.slug}`;
  return rest.length ? `${what} › ${rest.join('.')}` : what;
}

function ProblemList({
  problems,
  items,
  typeName,
  label,
}: {
  problems: { path: string; message: string }[];
  items: ReleaseItem[];
  typeName: (s: string | null) => string;
  label: string;
}) {
  return (
    <List size="sm" spacing={2} aria-label={label}>
      {problems.map((p, i) => (
        <List.Item key={`${p.path}:${i}`}>
          <Text span size="sm" fw={600}>
            {problemLabel(p.path, items, typeName)}
          </Text>
          : {p.message}
        </List.Item>
      ))}
    </List>
  );
}

export default function ReleaseDetail() {
  const { id = '' } = useParams();
  const { workspace, can } = useWorkspace();
  const navigate = useNavigate();
  const key = useWsKey();
  const invalidate = useInvalidate();
  const types = useContentTypes();
  const perspective = useReleasePerspective();
  const release = useQuery({ queryKey: key('releases', id), queryFn: () => getRelease(id), retry: false });
  const items = useQuery({ queryKey: key('releases', id, 'items'), queryFn: () => listItems(id), retry: false });
  const [dialog, setDialog] = useState<Dialog>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [validation, setValidation] = useState<{ valid: boolean; problems: { path: string; message: string }[] } | null>(null);
  const [diffOf, setDiffOf] = useState<ReleaseItem | null>(null);
  const [conflicts, setConflicts] = useState<{ path: string; message: string }[]>([]);

  if (release.error) return <ErrorAlert error={release.error} title="The release could not be loaded" />;
  if (release.isPending) return <Loading label="Loading release" />;
  const r = release.data;
  const list = items.data ?? [];
  const typeName = (slug: string | null) => types.data?.find((t) => t.slug === slug)?.name ?? slug ?? 'Entry';
  const editable = isEditableRelease(r);
  const canWrite = can('content:write');
  const canPublish = can('content:publish');
  const live = r.status === 'published';
  const base = `/${workspace.slug}`;
  const editorOf = (i: ReleaseItem) => (i.kind === 'page' ? `${base}/pages/${i.slug}` : `${base}/content/${i.content_type}/${i.slug}`);
  const itemTitle = (i: ReleaseItem) => (i.kind === 'page' ? `page ${i.slug}` : `${typeName(i.content_type)} ${i.slug}`);

  const refresh = async () => {
    await invalidate('releases');
    await invalidate('entry');
    await invalidate('page');
  };
  /** Runs a release action: the refusal stays on screen (with every problem the server lists). */
  const run = async (name: string, fn: () => Promise<unknown>, done: string) => {
    setBusy(name);
    setError(null);
    try {
      await fn();
      notifications.show({ color: 'green', message: done });
      setValidation(null);
      await refresh();
    } catch (err) {
      setError(err);
      throw err;
    } finally {
      setBusy(null);
    }
  };
  const validate = async () => {
    setBusy('validate');
    setError(null);
    try {
      setValidation(await validateRelease(id));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const revert = async (force: boolean) => {
    try {
      await run('revert', () => revertRelease(id, force), 'Release reverted');
      setConflicts([]);
    } catch (err) {
      // Items published again since: list them and offer to revert anyway.
      if (err instanceof ApiError && err.code === 'RELEASE_CONFLICT') {
        setConflicts(err.errors ?? []);
        setError(null);
        setDialog('force-revert');
        return;
      }
      throw err;
    }
  };
  const errorProblems = error instanceof ApiError && error.errors?.length ? error.errors : null;

  return (
    <Stack>
      <PageHeader
        title={r.title}
        description={
          <Group gap="xs" component="span">
            <Anchor component={Link} to={`${base}/releases`} size="sm">
              ← All releases
            </Anchor>
            <ReleaseStatusBadge release={r} />
            <Text span size="sm" c="dimmed">
              {releaseWhen(r)}
            </Text>
          </Group>
        }
        actions={
          !live ? (
            perspective.id === r.id ? (
              <Button variant="light" color="violet" onClick={() => perspective.set(null)}>
                Leave the release perspective
              </Button>
            ) : (
              <Button variant="light" color="violet" onClick={() => perspective.set(r.id)}>
                Preview in the editors
              </Button>
            )
          ) : null
        }
      />
      {r.description ? <Text size="sm">{r.description}</Text> : null}
      {r.status === 'failed' && r.failure?.length ? (
        <Alert color="red" title="Its scheduled publication was refused" role="alert">
          <Stack gap="xs">
            <Text size="sm">Nothing of it went live. Fix these, then publish or schedule it again.</Text>
            <ProblemList problems={r.failure} items={list} typeName={typeName} label="Why the publication failed" />
          </Stack>
        </Alert>
      ) : null}

      {!live || (canPublish && !r.reverted_at) ? (
        <Paper withBorder p="sm" component="section" aria-label="Release actions">
          <Group gap="xs">
            {!live ? (
              <Button size="xs" variant="default" loading={busy === 'validate'} onClick={() => void validate()}>
                Validate
              </Button>
            ) : null}
            {canPublish && !live ? (
              <Button size="xs" disabled={list.length === 0} loading={busy === 'publish'} onClick={() => setDialog('publish')}>
                Publish now
              </Button>
            ) : null}
            {canPublish && !live ? (
              <Button size="xs" variant="default" disabled={list.length === 0} onClick={() => setDialog('schedule')}>
                {r.status === 'scheduled' ? 'Reschedule' : 'Schedule'}
              </Button>
            ) : null}
            {canPublish && r.status === 'scheduled' ? (
              <Button
                size="xs"
                variant="default"
                loading={busy === 'unschedule'}
                onClick={() => void run('unschedule', () => unscheduleRelease(id), 'Schedule cancelled').catch(() => {})}
              >
                Unschedule
              </Button>
            ) : null}
            {canPublish && live && !r.reverted_at ? (
              <Button size="xs" variant="default" loading={busy === 'revert'} onClick={() => setDialog('revert')}>
                Revert
              </Button>
            ) : null}
            {canWrite && !live ? (
              <Button size="xs" variant="light" color="red" onClick={() => setDialog('delete')}>
                Delete release
              </Button>
            ) : null}
          </Group>
        </Paper>
      ) : null}

      {validation ? (
        validation.valid ? (
          <Alert color="green" title="Ready to publish" role="status">
            Every item passes the checks of a publication (required fields, unique values, relations that stay visible).
          </Alert>
        ) : (
          <Alert
            color="red"
            title={`It cannot be published yet: ${validation.problems.length} problem${validation.problems.length === 1 ? '' : 's'}`}
            role="alert"
          >
            <ProblemList problems={validation.problems} items={list} typeName={typeName} label="What keeps the release from going live" />
          </Alert>
        )
      ) : null}
      {error ? (
        errorProblems ? (
          <Alert color="red" title={error instanceof Error ? error.message : 'The action failed'} role="alert">
            <ProblemList problems={errorProblems} items={list} typeName={typeName} label="Problems" />
          </Alert>
        ) : (
          <ErrorAlert error={error} title="The action failed" />
        )
      ) : null}

      <Stack gap="xs" component="section" aria-labelledby="release-items">
        <Text id="release-items" fw={600} size="lg" component="h2">
          Items ({list.length})
        </Text>
        {items.error ? <ErrorAlert error={items.error} title="The items could not be loaded" /> : null}
        {items.isPending ? <Loading label="Loading items" /> : null}
        {items.data && list.length === 0 ? (
          <Text c="dimmed" size="sm">
            No items yet. Open an entry or a page and use <b>Add to release</b>.
          </Text>
        ) : null}
        {list.length > 0 ? (
          <ScrollTable minWidth={720} label="Items of the release">
            <Table aria-label="Items of the release" verticalSpacing={4}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Item</Table.Th>
                  <Table.Th>Type</Table.Th>
                  <Table.Th>In this release</Table.Th>
                  <Table.Th>Status now</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.map((i) => (
                  <Table.Tr key={`${i.kind}:${i.id}`}>
                    <Table.Td>
                      <Anchor component={Link} to={editorOf(i)}>
                        {i.slug}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{i.kind === 'page' ? 'Page' : typeName(i.content_type)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <Badge variant="light" color={i.action === 'publish' ? 'green' : 'red'}>
                          {i.action}
                        </Badge>
                        {i.conflict && !live ? (
                          <Badge
                            variant="outline"
                            color="orange"
                            title="Published after its release version was copied: publishing the release replaces that publication"
                          >
                            conflict
                          </Badge>
                        ) : null}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={i.status} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        {!live ? (
                          <Button size="compact-xs" variant="light" onClick={() => setDiffOf(i)} aria-label={`Changes of ${itemTitle(i)}`}>
                            Changes
                          </Button>
                        ) : null}
                        {canWrite && editable ? (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="red"
                            loading={busy === `remove:${i.id}`}
                            aria-label={`Remove ${itemTitle(i)} from the release`}
                            onClick={() => void run(`remove:${i.id}`, () => removeItem(id, i.kind, i.id), `Removed ${i.slug} from the release`).catch(() => {})}
                          >
                            Remove
                          </Button>
                        ) : null}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        ) : null}
        {list.some((i) => i.conflict) && !live ? (
          <Text size="sm" c="dimmed">
            A conflict: the item was published after its release version was copied. Publishing the release replaces that publication with the release version;
            review its changes first (to start again from the working copy, remove the item and add it again).
          </Text>
        ) : null}
      </Stack>

      <ConfirmDialog
        opened={dialog === 'publish'}
        onClose={() => setDialog(null)}
        title={`Publish “${r.title}” now?`}
        confirmLabel="Publish release"
        danger={false}
        onConfirm={async () => {
          setDialog(null);
          await run('publish', () => publishRelease(id), `Published ${list.length} item${list.length === 1 ? '' : 's'}`).catch(() => {});
        }}
      >
        {`All ${list.length} item${list.length === 1 ? '' : 's'} go live at one instant, or none if any is refused (the refusal lists every problem).`}
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog === 'revert'}
        // A refusal for items published again since has opened the next dialog: the closing leaves it open.
        onClose={() => setDialog((d) => (d === 'revert' ? null : d))}
        title={`Revert “${r.title}”?`}
        confirmLabel="Revert release"
        onConfirm={() => revert(false)}
      >
        Each item gets back what readers had before the release, at one instant: its previous published version, or unpublished if the release first published
        it. A release can be reverted once.
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog === 'force-revert'}
        onClose={() => setDialog(null)}
        title="Some items were published again since"
        confirmLabel="Revert anyway"
        onConfirm={() => revert(true)}
      >
        <Stack gap="xs">
          <Text size="sm">Reverting replaces these newer publications too:</Text>
          <ProblemList problems={conflicts} items={list} typeName={typeName} label="Items published again since the release" />
        </Stack>
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title={`Delete “${r.title}”?`}
        confirmLabel="Delete release"
        onConfirm={async () => {
          await deleteRelease(id);
          if (perspective.id === id) perspective.set(null);
          await invalidate('releases');
          void navigate(`${base}/releases`, { replace: true });
        }}
      >
        The release, its items and their release versions are discarded. The entries and pages themselves, their working copies and what readers get stay as
        they are.
      </ConfirmDialog>
      <LazyScheduleDialog
        opened={dialog === 'schedule'}
        onClose={() => setDialog(null)}
        what={`“${r.title}”`}
        note="Every item goes live at that time, all or nothing, as the release is then; until then it can still be changed."
        onSchedule={(at) => run('schedule', () => scheduleRelease(id, at), 'Release scheduled')}
      />
      {diffOf ? <ItemDiffDialog releaseId={id} item={diffOf} title={itemTitle(diffOf)} onClose={() => setDiffOf(null)} /> : null}
    </Stack>
  );
}
