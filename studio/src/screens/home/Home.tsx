/**
 * Workspace home (/studio/:workspace): GET /overview. Counts per content type (by state, each
 * linking to its entries), pages (linking to the pages list), the 20 most recent changes and the
 * 20 soonest scheduled publications; each row links to its entry or page under the title the
 * overview gives it (an entry's display value, a page's SEO title, else the slug).
 */
import { Link } from 'react-router';
import { Anchor, Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import type { Overview, OverviewCounts as Counts } from '../../api/types';

function CountLine({ counts }: { counts: Counts }) {
  return (
    <Group gap={6}>
      <Badge variant="light" color="green">
        {counts.published} published
      </Badge>
      <Badge variant="light" color="gray">
        {counts.draft} draft
      </Badge>
      {counts.scheduled ? (
        <Badge variant="light" color="blue">
          {counts.scheduled} scheduled
        </Badge>
      ) : null}
      {counts.archived ? (
        <Badge variant="light" color="dark">
          {counts.archived} archived
        </Badge>
      ) : null}
    </Group>
  );
}

export default function Home() {
  const { workspace } = useWorkspace();
  const key = useWsKey();
  // Read again whenever home opens (the cached answer shows meanwhile): an item edited a moment ago
  // is listed with its new title and version, which no save invalidates here.
  const overview = useQuery({ queryKey: key('overview'), queryFn: async () => (await api<Overview>('/overview')).data, staleTime: 0 });
  const base = `/${workspace.slug}`;
  const itemLink = (item: { kind: string; slug: string; title: string; content_type: string | null }) =>
    item.kind === 'entry' && item.content_type ? (
      <Anchor component={Link} to={`${base}/content/${item.content_type}/${item.slug}`}>
        {item.title}
      </Anchor>
    ) : item.kind === 'page' ? (
      <Anchor component={Link} to={`${base}/pages/${item.slug}`}>
        {item.title}
      </Anchor>
    ) : (
      <Text span>{item.title}</Text>
    );

  return (
    <>
      <PageHeader
        title={workspace.name}
        description={`You are ${workspace.role === 'admin' || workspace.role === 'owner' ? 'an' : 'a'} ${workspace.role} here.`}
      />
      {overview.isPending ? <Loading /> : null}
      <ErrorAlert error={overview.error} title="The overview could not be loaded" />
      {overview.data ? (
        <Stack gap="xl">
          <section aria-labelledby="home-content">
            <Title order={2} size="h3" id="home-content" mb="sm">
              Content
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {overview.data.content_types
                .filter((t) => !t.is_block)
                .map((t) => (
                  <Card withBorder key={t.id} padding="md">
                    <Group justify="space-between" mb="xs" wrap="nowrap">
                      <Anchor component={Link} to={`${base}/content/${t.slug}`} fw={600}>
                        {t.name}
                      </Anchor>
                      <Text size="sm" c="dimmed">
                        {t.counts.total} {t.counts.total === 1 ? 'entry' : 'entries'}
                      </Text>
                    </Group>
                    <CountLine counts={t.counts} />
                  </Card>
                ))}
              <Card withBorder padding="md">
                <Group justify="space-between" mb="xs">
                  <Anchor component={Link} to={`${base}/pages`} fw={600}>
                    Pages
                  </Anchor>
                  <Text size="sm" c="dimmed">
                    {overview.data.pages.total} {overview.data.pages.total === 1 ? 'page' : 'pages'}
                  </Text>
                </Group>
                <CountLine counts={overview.data.pages} />
              </Card>
            </SimpleGrid>
            {overview.data.content_types.every((t) => t.is_block) ? (
              <Text mt="sm" size="sm">
                No content types yet.{' '}
                <Anchor component={Link} to={`${base}/model`}>
                  Model your content
                </Anchor>{' '}
                to start writing.
              </Text>
            ) : null}
          </section>

          <section aria-labelledby="home-scheduled">
            <Title order={2} size="h3" id="home-scheduled" mb="sm">
              Scheduled publications
            </Title>
            {overview.data.scheduled.length === 0 ? (
              <Text size="sm" c="dimmed">
                Nothing is scheduled.
              </Text>
            ) : (
              <ScrollTable minWidth={420} label="Scheduled publications">
                <Table aria-label="Scheduled publications">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Item</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Publishes at</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {overview.data.scheduled.map((s) => (
                      <Table.Tr key={`${s.kind}:${s.id}`}>
                        <Table.Td>{itemLink(s)}</Table.Td>
                        <Table.Td>{s.content_type ?? 'page'}</Table.Td>
                        <Table.Td>{formatDateTime(s.publish_at)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
            )}
          </section>

          <section aria-labelledby="home-recent">
            <Title order={2} size="h3" id="home-recent" mb="sm">
              Recent changes
            </Title>
            {overview.data.recent.length === 0 ? (
              <Text size="sm" c="dimmed">
                No changes yet.
              </Text>
            ) : (
              <ScrollTable minWidth={560} label="Recent changes">
                <Table aria-label="Recent changes">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Item</Table.Th>
                      <Table.Th>Type</Table.Th>
                      <Table.Th>Change</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>When</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {overview.data.recent.map((r) => (
                      <Table.Tr key={`${r.kind}:${r.id}:${r.version}`}>
                        <Table.Td>{itemLink(r)}</Table.Td>
                        <Table.Td>{r.content_type ?? 'page'}</Table.Td>
                        <Table.Td>
                          {r.action} (v{r.version})
                        </Table.Td>
                        <Table.Td>
                          <StatusBadge status={r.status} />
                        </Table.Td>
                        <Table.Td>{formatDateTime(r.created_at)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
            )}
          </section>
        </Stack>
      ) : null}
    </>
  );
}
