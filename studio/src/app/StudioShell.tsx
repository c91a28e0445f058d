/**
 * The Studio's frame (Mantine AppShell): a header with the menu button (below 768 px), the
 * product name and the workspace switcher (when the person belongs to several), and a navbar with
 * Home, Content (one link per entry type), Pages, Media, Releases, Content model, Settings, GraphQL explorer, and the signed-in person's
 * email, role and Sign out. The header also holds the notification bell (NotificationBell) and the release switcher (ReleaseSwitcher: the editors' release perspective). On phones the navbar is a drawer that closes after navigating.
 */
import { useEffect, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { AppShell, Badge, Burger, Button, Group, NativeSelect, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useDisclosure, useMediaQuery, useReducedMotion } from '@mantine/hooks';
import { IconBrandGraphql, IconDatabase, IconFiles, IconHome, IconLayoutList, IconLogout, IconPhoto, IconRocket, IconSettings } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { signOut } from '../api/session';
import { setCsrfToken, setWorkspaceId } from '../api/client';
import { notifications } from '@mantine/notifications';
import { errorMessage } from '../components/ErrorAlert';
import { useContentTypes } from './queries';
import { NotificationBell } from './NotificationBell';
import { ReleaseSwitcher } from './ReleaseSwitcher';
import { useWorkspace } from './workspace';

export function StudioShell({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // Below 768 px the closed navbar only slides out of view: hide it from keyboard and screen readers too.
  const reduceMotion = useReducedMotion();
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const { session, workspace } = useWorkspace();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const types = useContentTypes();
  const base = `/${workspace.slug}`;

  // A navigation closes the phone drawer.
  useEffect(() => close(), [location.pathname, close]);

  const is = (path: string, exact = false) => (exact ? location.pathname === path : location.pathname === path || location.pathname.startsWith(`${path}/`));
  const link = (to: string, label: string, icon: ReactNode, exact = false) => (
    <NavLink key={to} component={Link} to={to} label={label} leftSection={icon} active={is(to, exact)} aria-current={is(to, exact) ? 'page' : undefined} />
  );

  const doSignOut = async () => {
    try {
      await signOut();
    } catch (err) {
      notifications.show({ color: 'red', title: 'Sign-out failed', message: errorMessage(err) });
      return;
    }
    setCsrfToken(null);
    setWorkspaceId(null);
    client.clear();
    navigate('/sign-in', { replace: true });
  };

  const entryTypes = (types.data ?? []).filter((t) => !t.is_block);

  return (
    <AppShell
      transitionDuration={reduceMotion ? 0 : 200}
      header={{ height: 56 }}
      navbar={{ width: 260, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            {/* On a phone the two selects (release, workspace) take the header's width; Home is in the navigation. */}
            <Text
              fw={700}
              component={Link}
              to={base}
              style={{ textDecoration: 'none', color: 'inherit' }}
              visibleFrom={session.workspaces.length > 1 ? 'xs' : undefined}
            >
              Quire Studio
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <NotificationBell />
            <ReleaseSwitcher />
            {session.workspaces.length > 1 ? (
              <NativeSelect
                aria-label="Workspace"
                size="xs"
                w={{ base: 110, xs: 180 }}
                value={workspace.slug}
                data={session.workspaces.map((w) => ({ value: w.slug, label: w.name }))}
                onChange={(e) => navigate(`/${e.currentTarget.value}`)}
              />
            ) : (
              <Text size="sm" c="dimmed" truncate visibleFrom="sm">
                {workspace.name}
              </Text>
            )}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Studio" style={phone && !opened ? { visibility: 'hidden' } : undefined}>
        <AppShell.Section grow component={ScrollArea}>
          {link(base, 'Home', <IconHome size={18} aria-hidden />, true)}
          <NavLink label="Content" leftSection={<IconDatabase size={18} aria-hidden />} defaultOpened childrenOffset={28}>
            {entryTypes.length === 0 ? (
              <Text size="xs" c="dimmed" px="sm" py={4}>
                {types.isPending ? 'Loading…' : 'No content types yet'}
              </Text>
            ) : (
              entryTypes.map((t) => link(`${base}/content/${t.slug}`, t.name, null))
            )}
          </NavLink>
          {link(`${base}/pages`, 'Pages', <IconFiles size={18} aria-hidden />)}
          {link(`${base}/media`, 'Media', <IconPhoto size={18} aria-hidden />)}
          {link(`${base}/releases`, 'Releases', <IconRocket size={18} aria-hidden />)}
          {link(`${base}/model`, 'Content model', <IconLayoutList size={18} aria-hidden />)}
          {link(`${base}/settings`, 'Settings', <IconSettings size={18} aria-hidden />)}
          {link(`${base}/graphql`, 'GraphQL explorer', <IconBrandGraphql size={18} aria-hidden />)}
        </AppShell.Section>
        <AppShell.Section>
          <Stack gap={6} p="xs" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
            <Text size="sm" truncate title={session.user.email}>
              {session.user.email}
            </Text>
            <Group justify="space-between" wrap="nowrap">
              <Badge variant="light" aria-label={`Role: ${workspace.role}`}>
                {workspace.role}
              </Badge>
              <Button size="xs" variant="subtle" leftSection={<IconLogout size={16} aria-hidden />} onClick={() => void doSignOut()}>
                Sign out
              </Button>
            </Group>
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>{children}</AppShell.Main>
    </AppShell>
  );
}
