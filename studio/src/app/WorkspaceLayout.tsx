/**
 * The session gate and shell of every /studio/:workspace route. It reads GET /session: without a
 * session (401) it sends the person to /sign-in with a return path; it finds the workspace named
 * by the URL's slug among their memberships, hands its id and the CSRF token to the API client,
 * and provides WorkspaceContext (useWorkspace()) to the screens it renders in its Outlet.
 */
import { Suspense, useMemo } from 'react';
import { Navigate, Outlet, useLocation, useParams, Link } from 'react-router';
import { Anchor, Button, Container, List, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ApiError, setCsrfToken, setWorkspaceId } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { rememberWorkspace, sessionQuery } from './session';
import { StudioShell } from './StudioShell';
import { WorkspaceContext, workspaceContextValue } from './workspace';

export function WorkspaceLayout() {
  const { workspace: slug } = useParams();
  const location = useLocation();
  const session = useQuery(sessionQuery);
  const membership = session.data?.workspaces.find((w) => w.slug === slug) ?? null;
  const value = useMemo(() => (session.data && membership ? workspaceContextValue(session.data, membership) : null), [session.data, membership]);

  if (session.isPending) return <Loading label="Checking your session" />;
  if (session.error) {
    if (session.error instanceof ApiError && session.error.status === 401) {
      const next = encodeURIComponent(location.pathname + location.search);
      return <Navigate to={`/sign-in?next=${next}`} replace />;
    }
    return (
      <Container size="sm" py="xl">
        <ErrorAlert error={session.error} title="The Studio could not load your session" />
        <Button mt="md" onClick={() => void session.refetch()}>
          Try again
        </Button>
      </Container>
    );
  }
  if (!value) {
    return (
      <Container size="sm" py="xl" component="main">
        <Stack>
          <Title order={1}>Workspace not found</Title>
          <Text>
            You ({session.data.user.email}) are not a member of a workspace named “{slug}”.
          </Text>
          {session.data.workspaces.length ? (
            <List>
              {session.data.workspaces.map((w) => (
                <List.Item key={w.id}>
                  <Anchor component={Link} to={`/${w.slug}`}>
                    {w.name}
                  </Anchor>
                </List.Item>
              ))}
            </List>
          ) : null}
        </Stack>
      </Container>
    );
  }
  // Set before the screens below render and start their requests (module state of the client).
  setCsrfToken(session.data.csrf_token);
  setWorkspaceId(value.workspace.id);
  rememberWorkspace(value.workspace.slug);
  return (
    <WorkspaceContext.Provider value={value}>
      <StudioShell>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </StudioShell>
    </WorkspaceContext.Provider>
  );
}
