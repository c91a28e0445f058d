/**
 * The notification bell in the Studio's header (D132; docs/studio.md "Comments, notifications and
 * who else is here"): the number of unread notifications on it, and a popover listing the newest
 * (who, what, which entry or page) with "Mark all read". A click on one marks it read and opens its
 * entry or page. The list follows the event stream's `notification` frames while the stream is
 * open, and is read again every 30 s otherwise.
 */
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { ActionIcon, Button, Group, Indicator, Popover, ScrollArea, Stack, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { personName } from '../api/comments';
import { useStudioEvents } from '../api/events';
import { listNotifications, markNotificationsRead, notificationLink, type StudioNotification } from '../api/notifications';
import { ErrorAlert } from '../components/ErrorAlert';
import { formatDateTime } from '../components/format';
import { useWsKey } from './queries';
import { useWorkspace } from './workspace';

/** The query key of the person's notifications (the event stream invalidates it). */
export const NOTIFICATIONS_KEY = 'notifications';

export function NotificationBell() {
  const { workspace } = useWorkspace();
  const key = useWsKey();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [opened, setOpened] = useState(false);
  const headingId = useId();
  // The event stream's notification frames make the list stale (api/events.ts); without the stream it is polled.
  const live = useStudioEvents().status === 'open';
  const q = useQuery({ queryKey: key(NOTIFICATIONS_KEY), queryFn: () => listNotifications(20), refetchInterval: live ? false : 30_000 });
  const refresh = () => client.invalidateQueries({ queryKey: key(NOTIFICATIONS_KEY) });
  const markAll = useMutation({ mutationFn: () => markNotificationsRead({ all: true }), onSuccess: refresh });
  const unread = q.data?.unread ?? 0;

  const openOne = async (n: StudioNotification) => {
    setOpened(false);
    if (!n.read) {
      // Shown read at once; the list is read again after the server agrees.
      client.setQueryData(key(NOTIFICATIONS_KEY), (old: typeof q.data) =>
        old ? { unread: Math.max(0, old.unread - 1), items: old.items.map((x) => (x.id === n.id ? { ...x, read: true } : x)) } : old,
      );
      void markNotificationsRead({ ids: [n.id] }).finally(() => void refresh());
    }
    const to = notificationLink(workspace.slug, n);
    if (to) void navigate(to);
  };

  // The count is drawn on the bell; the button's name says it (the Popover's target must be the button itself).
  return (
    <Indicator
      label={unread > 99 ? '99+' : unread}
      size={16}
      disabled={unread === 0}
      color="red.8"
      offset={4}
      attributes={{ indicator: { 'aria-hidden': true } }}
    >
      <Popover opened={opened} onChange={setOpened} position="bottom-end" width={360} shadow="md" trapFocus returnFocus onOpen={() => void refresh()}>
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={unread ? `Notifications: ${unread} unread` : 'Notifications'}
            data-testid="notification-bell"
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={20} aria-hidden />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} role="dialog" aria-labelledby={headingId} data-testid="notification-popover">
          <Group justify="space-between" px="sm" py="xs" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
            <Text fw={600} size="sm" id={headingId}>
              Notifications
            </Text>
            <Button size="compact-xs" variant="subtle" disabled={unread === 0} loading={markAll.isPending} onClick={() => markAll.mutate()}>
              Mark all read
            </Button>
          </Group>
          <ErrorAlert error={q.error ?? markAll.error} title="Notifications could not be loaded" />
          <ScrollArea.Autosize mah={420} type="auto">
            {q.data && q.data.items.length === 0 ? (
              <Text size="sm" c="dimmed" p="sm">
                Nothing yet. You are told here when someone assigns you, mentions you or asks for your review.
              </Text>
            ) : null}
            <Stack gap={0} component="ul" aria-label="Newest notifications" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {(q.data?.items ?? []).map((n) => (
                <li key={n.id}>
                  <UnstyledButton
                    onClick={() => void openOne(n)}
                    px="sm"
                    py="xs"
                    w="100%"
                    data-testid={`notification-${n.id}`}
                    style={{
                      display: 'block',
                      borderBottom: '1px solid var(--mantine-color-gray-2)',
                      background: n.read ? undefined : 'var(--mantine-color-blue-0)',
                    }}
                  >
                    <Group gap={6} wrap="nowrap" align="flex-start">
                      {!n.read ? (
                        <span
                          aria-hidden
                          style={{ width: 8, height: 8, marginTop: 6, flex: 'none', borderRadius: 4, background: 'var(--mantine-color-blue-8)' }}
                        />
                      ) : null}
                      <Stack gap={2} style={{ minWidth: 0 }}>
                        <Text size="sm" fw={n.read ? 400 : 600}>
                          {!n.read ? <VisuallyHidden>Unread: </VisuallyHidden> : null}
                          {n.actor ? `${personName(n.actor)} ` : ''}
                          {n.actor ? n.message : n.message.charAt(0).toUpperCase() + n.message.slice(1)}
                        </Text>
                        {n.item?.title || n.release ? (
                          <Text size="xs" truncate>
                            {n.item ? (n.item.title ?? n.item.slug) : (n.release?.name ?? 'a release')}
                          </Text>
                        ) : null}
                        <Text size="xs" c="dimmed" component="time" dateTime={n.created_at}>
                          {formatDateTime(n.created_at)}
                        </Text>
                      </Stack>
                    </Group>
                  </UnstyledButton>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
