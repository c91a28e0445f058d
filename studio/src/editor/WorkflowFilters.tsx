/**
 * The review workflow in the entries and pages lists (D130; docs/studio.md "Review workflows"):
 * an item's stage as a badge with its assignees, and the stage and assignee filters whose values
 * the lists keep in the address (`?stage=<id>`, `?assignee=me|<user id>`).
 */
import { Badge, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Workflow } from '../api/types';
import { useWsKey } from '../app/queries';
import { listMembers } from '../screens/entries/api';
import { workflowOf } from './workflow-state';

/** An item's review stage as a badge, with who is assigned (entries and pages lists, D130). */
export function StageBadge({ item, inline = false }: { item: object; inline?: boolean }) {
  const state = workflowOf(item);
  if (!state) return null;
  if (inline) {
    return (
      <Badge
        variant="light"
        color="violet"
        title={state.assignees.length ? `Assigned to ${state.assignees.map((a) => a.name || a.email).join(', ')}` : undefined}
      >
        {state.stage.name}
      </Badge>
    );
  }
  return (
    <Stack gap={2}>
      <Badge variant="light" color="violet" style={{ alignSelf: 'flex-start' }}>
        {state.stage.name}
      </Badge>
      {state.assignees.length ? (
        <Text size="xs" c="dimmed">
          {state.assignees.map((a) => a.name || a.email).join(', ')}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The stage and assignee filters of a list whose items a workflow covers; `onChange(param, value)`. */
export function WorkflowFilters({
  workflow,
  stage,
  assignee,
  onChange,
}: {
  workflow: Workflow;
  stage: string;
  assignee: string;
  onChange: (param: 'stage' | 'assignee', value: string) => void;
}) {
  const key = useWsKey();
  const members = useQuery({ queryKey: key('users'), queryFn: listMembers, staleTime: 60_000 });
  const people = (members.data ?? []).filter((m) => m.id !== null && m.status !== 'pending');
  return (
    <>
      <Select
        label="Stage"
        data={[{ value: '', label: 'Any stage' }, ...workflow.stages.map((s) => ({ value: s.id, label: s.name }))]}
        value={workflow.stages.find((s) => s.id === stage || s.name === stage)?.id ?? ''}
        onChange={(v) => onChange('stage', v ?? '')}
        allowDeselect={false}
        w={180}
      />
      <Select
        label="Assignee"
        data={[
          { value: '', label: 'Anyone' },
          { value: 'me', label: 'Assigned to me' },
          ...people.map((m) => ({ value: String(m.id), label: m.name || m.email })),
          ...(assignee && assignee !== 'me' && !people.some((m) => String(m.id) === assignee) ? [{ value: assignee, label: `user ${assignee}` }] : []),
        ]}
        value={assignee}
        onChange={(v) => onChange('assignee', v ?? '')}
        allowDeselect={false}
        searchable
        w={200}
      />
    </>
  );
}
