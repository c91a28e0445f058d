/**
 * /studio/:workspace/model: the content types and the block types (D32) of the workspace, each
 * linking to its editor, with "Create content type" for roles holding schema:write.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Badge, Button, Stack, Table, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import type { ContentType } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useContentTypes } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { CreateTypeDialog } from './CreateTypeDialog';
import { ScrollTable } from '../../components/ScrollTable';

function TypeTable({ types, label }: { types: ContentType[]; label: string }) {
  const { workspace } = useWorkspace();
  if (types.length === 0) return <Text c="dimmed">None yet.</Text>;
  return (
    <ScrollTable minWidth={480} label={label}>
      <Table striped aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Slug</Table.Th>
            <Table.Th>Fields</Table.Th>
            <Table.Th>Description</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {types.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td>
                <Anchor component={Link} to={`/${workspace.slug}/model/${t.slug}`} fw={600}>
                  {t.name}
                </Anchor>
                {t.orderable ? (
                  <Badge ml="xs" size="xs" variant="outline">
                    orderable
                  </Badge>
                ) : null}
              </Table.Td>
              <Table.Td>
                <Text ff="monospace" size="sm">
                  {t.slug}
                </Text>
              </Table.Td>
              <Table.Td>{t.fields.length}</Table.Td>
              <Table.Td>
                <Text size="sm" lineClamp={2}>
                  {t.description}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

export default function ModelList() {
  const { can } = useWorkspace();
  const types = useContentTypes();
  const [creating, setCreating] = useState(false);
  const canWrite = can('schema:write');
  return (
    <>
      <PageHeader
        title="Content model"
        description="Content types define the entries you write; block types define the blocks pages are built from."
        actions={
          canWrite ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              Create content type
            </Button>
          ) : null
        }
      />
      {types.isPending ? <Loading /> : null}
      <ErrorAlert error={types.error} title="The content model could not be loaded" />
      {types.data ? (
        <Stack gap="xl">
          <section aria-labelledby="model-entry-types">
            <Title order={2} size="h3" id="model-entry-types" mb="sm">
              Content types
            </Title>
            <TypeTable types={types.data.filter((t) => !t.is_block)} label="Content types" />
          </section>
          <section aria-labelledby="model-block-types">
            <Title order={2} size="h3" id="model-block-types" mb="sm">
              Block types
            </Title>
            <TypeTable types={types.data.filter((t) => t.is_block)} label="Block types" />
          </section>
        </Stack>
      ) : null}
      {canWrite ? <CreateTypeDialog opened={creating} onClose={() => setCreating(false)} /> : null}
    </>
  );
}
