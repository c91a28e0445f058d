/**
 * Settings › Workflows (owners and admins, D130): the workspace's review workflows with what they
 * cover, their stages (approvals required, roles allowed) and publish stage; created and edited
 * in WorkflowDialog, deleted after asking (every item's stage and approvals go with it).
 */
import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Workflow } from '../../api/types';
import { deleteWorkflow, useWorkflows } from '../../api/workflows';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { useContentTypes, useInvalidate, useWsKey } from '../../app/queries';
import type { RoleWire } from '../../../../src/modules/access/custom-roles';
import { WorkflowDialog } from './WorkflowDialog';

export default function WorkflowsTab() {
  const invalidate = useInvalidate();
  const wsKey = useWsKey();
  const workflows = useWorkflows();
  const types = useContentTypes();
  const roles = useQuery({ queryKey: wsKey('roles'), queryFn: async () => (await api<RoleWire[]>('/roles')).data });
  const [editing, setEditing] = useState<Workflow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Workflow | null>(null);
  const typeName = (slug: string) => types.data?.find((t) => t.slug === slug)?.name ?? slug;
  const roleName = (id: string) => roles.data?.find((r) => r.id === id)?.name ?? id;

  // What the other workflows cover: a type, or pages, belongs to one workflow at most.
  const taken = (except: Workflow | null) => {
    const contentTypes = new Map<string, string>();
    let pages: string | null = null;
    for (const w of workflows.data ?? []) {
      if (w.id === except?.id) continue;
      for (const t of w.content_types) contentTypes.set(t, w.name);
      if (w.pages) pages = w.name;
    }
    return { contentTypes, pages };
  };

  return (
    <Stack>
      <Group justify="space-between">
        <Text size="sm" maw={640}>
          A review workflow takes entries of some content types, or pages, through stages such as Draft, Review and Ready. Moving on from a stage can need
          approvals, moving into one can be limited to some roles, and items are published only from the publish stage.
        </Text>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          Create workflow
        </Button>
      </Group>
      {workflows.isPending ? <Loading /> : null}
      <ErrorAlert error={workflows.error} title="The workflows could not be loaded" />
      {workflows.data && workflows.data.length === 0 ? (
        <Text size="sm">No workflows yet: every item can be published by anyone whose role may publish it.</Text>
      ) : null}
      {workflows.data?.length ? (
        <ScrollTable minWidth={640} label="Workflows">
          <Table aria-label="Workflows" verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Workflow</Table.Th>
                <Table.Th>Covers</Table.Th>
                <Table.Th>Stages</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {workflows.data.map((w) => (
                <Table.Tr key={w.id}>
                  <Table.Td>
                    <Text fw={600} size="sm">
                      {w.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{[...w.content_types.map(typeName), ...(w.pages ? ['Pages'] : [])].join(', ') || 'nothing yet'}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={2} component="ol" style={{ margin: 0, paddingInlineStart: 18 }}>
                      {w.stages.map((s) => (
                        <Text key={s.id} size="xs" component="li">
                          <Text span fw={600} size="xs">
                            {s.name}
                          </Text>
                          {s.required_approvals ? ` · ${s.required_approvals} approval${s.required_approvals === 1 ? '' : 's'} to move on` : ''}
                          {s.roles?.length ? ` · moved here by ${s.roles.map(roleName).join(', ')}` : ''}
                          {s.id === w.publish_stage ? (
                            <Badge ml={6} size="xs" variant="light" color="green">
                              publish stage
                            </Badge>
                          ) : null}
                        </Text>
                      ))}
                    </Stack>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Tooltip label="Edit">
                        <ActionIcon variant="subtle" aria-label={`Edit workflow ${w.name}`} onClick={() => setEditing(w)}>
                          <IconEdit size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Delete">
                        <ActionIcon variant="subtle" color="red" aria-label={`Delete workflow ${w.name}`} onClick={() => setDeleting(w)}>
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      ) : null}
      {editing !== null ? (
        <WorkflowDialog
          key={editing === 'new' ? 'new' : editing.id}
          opened
          onClose={() => setEditing(null)}
          workflow={editing === 'new' ? null : editing}
          taken={taken(editing === 'new' ? null : editing)}
        />
      ) : null}
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete this workflow?"
        confirmLabel="Delete workflow"
        onConfirm={async () => {
          if (!deleting) return;
          await deleteWorkflow(deleting.id);
          await invalidate('workflows');
          notifications.show({ color: 'teal', message: 'Workflow deleted' });
        }}
      >
        {deleting ? `${deleting.name} is deleted with every item's stage, approvals and assignees in it; its items can then be published as usual.` : ''}
      </ConfirmDialog>
    </Stack>
  );
}
