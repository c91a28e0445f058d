/**
 * The status bar of the entry and page editors: status and "changed" badges (D70), the autosave
 * state, and the actions the role allows (D12): Publish or "Publish changes" (D71), Unpublish,
 * Archive and Schedule for content:publish; Duplicate, Open preview (unless `withPreview` is false)
 * and Delete for content:write. Which state actions show follows D20's transitions from the
 * current status. `publishBlocked` (the item's review workflow is not in its publish stage, D130)
 * disables Publish and Schedule and says why.
 */
import { Anchor, Badge, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconCheck, IconExternalLink } from '@tabler/icons-react';
import { formatDateTime } from '../components/format';
import { StatusBadge } from '../components/StatusBadge';
import type { SaveState } from './autosave';
import { setPublishWithoutAsking, usePublishWithoutAsking } from './publish-confirm';

export type StatusAction = 'publish' | 'unpublish' | 'archive' | 'schedule' | 'duplicate' | 'delete' | 'preview';

/** What the bar reads of an entry or a page (management records). */
export interface Publishable {
  status: string;
  has_pending_changes?: boolean;
  publish_at: string | null;
  published_at: string | null;
}

export function SaveIndicator({ state }: { state: SaveState }) {
  const text = { saved: 'Saved', dirty: 'Unsaved changes', saving: 'Saving…', error: 'Not saved', conflict: 'Not saved: conflict' }[state];
  return (
    <Group gap={4} role="status" aria-live="polite" aria-label={`Save state: ${text}`}>
      {state === 'saving' ? <Loader size={12} /> : state === 'saved' ? <IconCheck size={14} color="var(--mantine-color-green-7)" /> : null}
      <Text size="sm" c={state === 'error' || state === 'conflict' ? 'red' : 'dimmed'}>
        {text}
      </Text>
    </Group>
  );
}

export function StatusActions({
  item: entry,
  saveState,
  canPublish,
  canWrite,
  busy,
  onAction,
  withPreview = true,
  publishBlocked = null,
}: {
  item: Publishable;
  saveState: SaveState;
  canPublish: boolean;
  canWrite: boolean;
  busy: StatusAction | null;
  onAction: (action: StatusAction) => void;
  withPreview?: boolean;
  /** why Publish and Schedule are unavailable now (the workflow's stage, WORKFLOW_STAGE); null: they are not held back */
  publishBlocked?: string | null;
}) {
  const s = entry.status;
  const withoutAsking = usePublishWithoutAsking();
  const publishLabel = s === 'published' ? 'Publish changes' : 'Publish';
  const canPublishNow = s !== 'published' || entry.has_pending_changes;
  const button = (action: StatusAction, label: string, props: Record<string, unknown> = {}) => (
    <Button
      key={action}
      size="xs"
      loading={busy === action}
      disabled={(busy !== null && busy !== action) || (publishBlocked !== null && (action === 'publish' || action === 'schedule'))}
      aria-describedby={publishBlocked !== null && (action === 'publish' || action === 'schedule') ? 'publish-blocked-note' : undefined}
      onClick={() => onAction(action)}
      {...props}
    >
      {label}
    </Button>
  );
  return (
    <Paper withBorder p="sm" component="section" aria-label="Status and actions">
      <Stack gap="xs">
        <Group justify="space-between">
          <StatusBadge status={s} pendingChanges={entry.has_pending_changes} />
          <SaveIndicator state={saveState} />
        </Group>
        <Text size="xs" c="dimmed">
          {s === 'scheduled' && entry.publish_at ? `Publishes ${formatDateTime(entry.publish_at)}. ` : ''}
          {entry.published_at ? `Published ${formatDateTime(entry.published_at)}. ` : ''}
          {s === 'published' && entry.has_pending_changes ? 'Readers see the published version until you publish the changes.' : ''}
        </Text>
        {canPublish ? (
          <Group gap="xs">
            {canPublishNow ? button('publish', publishLabel) : null}
            {s === 'published' || s === 'scheduled' ? button('unpublish', 'Unpublish', { variant: 'default' }) : null}
            {s !== 'archived' ? button('archive', 'Archive', { variant: 'default' }) : null}
            {s !== 'published' ? button('schedule', s === 'scheduled' ? 'Reschedule' : 'Schedule', { variant: 'default' }) : null}
          </Group>
        ) : null}
        {canPublish && publishBlocked !== null && canPublishNow ? (
          <Text size="xs" fw={500} id="publish-blocked-note">
            {publishBlocked}
          </Text>
        ) : null}
        {canPublish && canPublishNow && withoutAsking ? (
          <Text size="xs" c="dimmed">
            Publishes without showing what goes live.{' '}
            <Anchor component="button" size="xs" onClick={() => setPublishWithoutAsking(false)}>
              Ask again
            </Anchor>
          </Text>
        ) : null}
        {canWrite ? (
          <Group gap="xs">
            {withPreview ? button('preview', 'Open preview', { variant: 'light', rightSection: <IconExternalLink size={14} /> }) : null}
            {button('duplicate', 'Duplicate', { variant: 'default' })}
            {button('delete', 'Delete', { variant: 'light', color: 'red' })}
          </Group>
        ) : null}
        {!canWrite ? (
          <Badge variant="light" color="gray">
            Read-only: your role cannot change content
          </Badge>
        ) : null}
      </Stack>
    </Paper>
  );
}
