/** An unknown Studio URL inside a workspace. */
import { Link } from 'react-router';
import { Anchor, Text } from '@mantine/core';
import { PageHeader } from '../components/PageHeader';
import { useWorkspace } from './workspace';

export default function NotFound() {
  const { workspace } = useWorkspace();
  return (
    <>
      <PageHeader title="Page not found" />
      <Text>
        This address is not a screen of the Studio.{' '}
        <Anchor component={Link} to={`/${workspace.slug}`}>
          Go to the workspace home
        </Anchor>
        .
      </Text>
    </>
  );
}
