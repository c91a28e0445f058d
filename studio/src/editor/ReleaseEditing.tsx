/**
 * Releases in the entry and page editors (docs/studio.md "Releases"; docs/releases.md):
 *
 * - useReleaseVariant(): in the header's release perspective, whether the item opens its release
 *   version (a `publish` item of the chosen release) and whether that version may be edited (the
 *   release is open or failed);
 * - ReleaseBanner: says which copy the form edits in a release perspective (the release version,
 *   or the working copy of an item the release leaves alone, with **Add to release**);
 * - ReleaseActions: **Add to release…** (an open or failed release, or a new one) and **Schedule
 *   unpublish…** (a release of one `unpublish` item, scheduled).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Button, Group, Modal, NativeSelect, Paper, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery } from '@tanstack/react-query';
import type { Release, ReleaseItem } from '../api/types';
import { useInvalidate, useWsKey } from '../app/queries';
import { isEditableRelease, itemInRelease, useReleasePerspective, type ReleasePerspective } from '../app/release-perspective';
import { useWorkspace } from '../app/workspace';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { addItem, createRelease, listEditableReleases, scheduleUnpublish } from '../screens/releases/api';
import { LazyScheduleDialog } from './LazyScheduleDialog';

/** An entry or a page, as the release actions name it. */
export interface ReleaseTarget {
  kind: ReleaseItem['kind'];
  /** unknown before the item is read (the editor's route names it by slug) */
  id?: string;
  slug: string;
  /** an entry's content type slug */
  type?: string;
  /** its display name, e.g. “Autumn sale” */
  title: string;
}

export interface ReleaseVariant {
  perspective: ReleasePerspective;
  /** the item in the chosen release, if any */
  item: ReleaseItem | null;
  /** the release whose version the editor opens and writes (`?release=`), or null: the working copy */
  releaseId: string | null;
  /** the release version cannot change (the release is scheduled) */
  readOnly: boolean;
}

export function useReleaseVariant(target: Omit<ReleaseTarget, 'title'>): ReleaseVariant {
  const perspective = useReleasePerspective();
  const item = itemInRelease(perspective.items, target);
  const variant = perspective.release && item?.action === 'publish' ? perspective.release : null;
  return { perspective, item, releaseId: variant?.id ?? null, readOnly: !!variant && !isEditableRelease(variant) };
}

export function ReleaseBanner({ variant, target }: { variant: ReleaseVariant; target: ReleaseTarget }) {
  const { workspace, can } = useWorkspace();
  const invalidate = useInvalidate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const release = variant.perspective.release;
  if (!release) return null;
  const releaseLink = (
    // The alerts' tinted backgrounds leave too little contrast for the link colour: the text's own, underlined.
    <Anchor component={Link} to={`/${workspace.slug}/releases/${release.id}`} fw={600} c="inherit" underline="always">
      {release.title}
    </Anchor>
  );
  const add = async () => {
    if (!target.id) return;
    setBusy(true);
    setError(null);
    try {
      await addItem(release.id, { kind: target.kind, id: target.id, action: 'publish' });
      await invalidate('releases');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  if (variant.releaseId) {
    return (
      <Alert color="violet" variant="light" title="Editing the release version" role="status">
        <Stack gap={4}>
          <Text size="sm">
            You are in the release {releaseLink}: this form shows its version of {target.title}
            {variant.readOnly
              ? `. The release is ${release.status}, so its versions cannot change; unschedule it to edit them.`
              : ', and edits are saved to it. The working copy and what readers get stay as they are until the release is published.'}
          </Text>
          <Text size="sm" c="dimmed">
            The live preview shows the release version (the built-in preview).
          </Text>
        </Stack>
      </Alert>
    );
  }
  const unpublishing = variant.item?.action === 'unpublish';
  return (
    <Alert color="yellow" variant="light" title={unpublishing ? 'The release unpublishes this item' : 'Not in this release'} role="status">
      <Stack gap="xs">
        <Text size="sm">
          You are in the release {releaseLink}, which {unpublishing ? 'unpublishes' : 'does not hold'} {target.title}. This form edits the working copy.
        </Text>
        {can('content:write') && isEditableRelease(release) && target.id ? (
          <Group>
            <Button size="xs" color="violet" loading={busy} onClick={() => void add()}>
              {unpublishing ? 'Publish it in this release instead' : 'Add to this release'}
            </Button>
          </Group>
        ) : null}
        <ErrorAlert error={error} title="It was not added" />
      </Stack>
    </Alert>
  );
}

function AddToReleaseDialog({ target, onClose }: { target: ReleaseTarget; onClose: () => void }) {
  const key = useWsKey();
  const invalidate = useInvalidate();
  const { workspace } = useWorkspace();
  const perspective = useReleasePerspective();
  const releases = useQuery({ queryKey: key('releases', 'list', 'editable'), queryFn: listEditableReleases });
  const [choice, setChoice] = useState<string>('');
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [added, setAdded] = useState<Release | null>(null);
  const options = releases.data ?? [];
  const chosen = choice || (options[0]?.id ?? 'new');
  const submit = async () => {
    if (!target.id) return;
    setBusy(true);
    setError(null);
    try {
      const release = chosen === 'new' ? await createRelease({ title: title.trim() }) : options.find((r) => r.id === chosen)!;
      await addItem(release.id, { kind: target.kind, id: target.id, action: 'publish' });
      await invalidate('releases');
      setAdded(release);
      notifications.show({ color: 'green', message: `Added to ${release.title}` });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title={`Add ${target.title} to a release`} centered>
      {added ? (
        <Stack>
          <Text size="sm">
            {target.title} is in {added.title}, with a release version copied from the working copy. Edit that version in the release perspective; the working
            copy goes on as before.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" component={Link} to={`/${workspace.slug}/releases/${added.id}`}>
              Open the release
            </Button>
            <Button
              onClick={() => {
                perspective.set(added.id);
                onClose();
              }}
            >
              Edit the release version
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">The release gets its own version of {target.title}, copied from the working copy now, which goes live when the release does.</Text>
          <ErrorAlert error={releases.error} title="The releases could not be loaded" />
          {releases.isPending ? <Loading label="Loading releases" /> : null}
          {releases.isPending ? null : (
            <NativeSelect
              label="Release"
              value={chosen}
              onChange={(e) => setChoice(e.currentTarget.value)}
              data={[
                ...options.map((r) => ({ value: r.id, label: r.status === 'open' ? r.title : `${r.title} (${r.status})` })),
                { value: 'new', label: 'A new release…' },
              ]}
              data-autofocus
            />
          )}
          {chosen === 'new' && !releases.isPending ? (
            <TextInput label="Title of the new release" required value={title} maxLength={200} onChange={(e) => setTitle(e.currentTarget.value)} />
          ) : null}
          <ErrorAlert error={error} title="It was not added" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={() => void submit()} loading={busy} disabled={releases.isPending || (chosen === 'new' && !title.trim())}>
              Add to release
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** The editors' release actions, below the status bar: by role (content:write adds, content:publish schedules an unpublish). */
export function ReleaseActions({ target, status }: { target: ReleaseTarget; status: string }) {
  const { can, workspace } = useWorkspace();
  const invalidate = useInvalidate();
  const [dialog, setDialog] = useState<'add' | 'unpublish' | null>(null);
  const [scheduled, setScheduled] = useState<Release | null>(null);
  if (!can('content:write') || !target.id) return null;
  const canUnpublish = can('content:publish') && (status === 'published' || status === 'scheduled');
  return (
    <Paper withBorder p="sm" component="section" aria-label="Releases">
      <Stack gap="xs">
        <Group gap="xs">
          <Button size="xs" variant="default" onClick={() => setDialog('add')}>
            Add to release…
          </Button>
          {canUnpublish ? (
            <Button size="xs" variant="default" onClick={() => setDialog('unpublish')}>
              Schedule unpublish…
            </Button>
          ) : null}
        </Group>
        {scheduled ? (
          <Text size="xs" c="dimmed">
            Unpublish scheduled:{' '}
            <Anchor component={Link} to={`/${workspace.slug}/releases/${scheduled.id}`} size="xs">
              {scheduled.title}
            </Anchor>
          </Text>
        ) : null}
      </Stack>
      {dialog === 'add' ? <AddToReleaseDialog target={target} onClose={() => setDialog(null)} /> : null}
      <LazyScheduleDialog
        opened={dialog === 'unpublish'}
        onClose={() => setDialog(null)}
        what={`unpublishing ${target.title}`}
        verb="Unpublish"
        note="Readers stop getting it at that time (its working copy is kept). It is a release of this one item, listed under Releases, where it can be cancelled."
        onSchedule={async (at) => {
          setScheduled(await scheduleUnpublish({ kind: target.kind, id: target.id!, title: target.title }, at));
          await invalidate('releases');
        }}
      />
    </Paper>
  );
}
