/** /studio/: opens the last used (or first) workspace of the signed-in person, or the sign-in screen. */
import { Navigate } from 'react-router';
import { Container, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../api/client';
import { ErrorAlert } from '../components/ErrorAlert';
import { Loading } from '../components/Loading';
import { defaultWorkspacePath, sessionQuery } from './session';

export function RootRedirect() {
  const session = useQuery(sessionQuery);
  if (session.isPending) return <Loading label="Checking your session" />;
  if (session.error) {
    if (session.error instanceof ApiError && session.error.status === 401) return <Navigate to="/sign-in" replace />;
    return (
      <Container size="sm" py="xl">
        <ErrorAlert error={session.error} title="The Studio could not load your session" />
      </Container>
    );
  }
  const path = defaultWorkspacePath(session.data);
  if (path) return <Navigate to={path} replace />;
  return (
    <Container size="sm" py="xl" component="main">
      <Title order={1}>No workspace yet</Title>
      <Text mt="sm">You ({session.data.user.email}) are not a member of any workspace. Ask an owner or admin to invite you.</Text>
    </Container>
  );
}
