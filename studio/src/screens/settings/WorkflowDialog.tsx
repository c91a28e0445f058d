/**
 * The editor of a review workflow (D130), for a new one (POST /workflows) and for changing one
 * (PATCH /workflows/{id}): its name, the content types and whether pages go through it, its
 * stages in order (name, approvals needed to move on, roles that may move items into it) and the
 * stage in which items may be published. Kept stages are sent with their id, new ones without;
 * the publish stage by id, or by name for a new stage. The server checks everything again and its
 * refusal (with the path of each problem) stays in the dialog (docs/studio.md "Review workflows").
 */
import { useState, type FormEvent } from 'react';
import { ActionIcon, Button, Group, Modal, MultiSelect, NumberInput, Paper, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { Workflow, WorkflowInput, WorkflowStageInput } from '../../api/types';
import { createWorkflow, updateWorkflow } from '../../api/workflows';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useContentTypes, useInvalidate, useWsKey } from '../../app/queries';
import type { RoleWire } from '../../../../src/modules/access/custom-roles';

/** A stage as the form holds it: `key` is stable across edits (the id, or a local one). */
interface StageRow extends WorkflowStageInput {
  key: string;
}

let nextKey = 0;
const newStage = (name = ''): StageRow => ({ key: `new-${(nextKey += 1)}`, name, required_approvals: 0, roles: null });

/** Where a new workflow starts: the three stages most teams begin with. */
function starterStages(): StageRow[] {
  return [newStage('Draft'), { ...newStage('Review'), required_approvals: 1 }, newStage('Ready to publish')];
}

/** The wire body of the form: stage ids kept, the publish stage by id or (new stage) by name. */
export function workflowInputOf(name: string, contentTypes: string[], pages: boolean, stages: StageRow[], publishKey: string | null): WorkflowInput {
  const publish = stages.find((s) => s.key === publishKey) ?? stages[stages.length - 1];
  return {
    name: name.trim(),
    content_types: contentTypes,
    pages,
    stages: stages.map((s) => ({
      ...(s.id ? { id: s.id } : {}),
      name: s.name.trim(),
      required_approvals: s.required_approvals,
      roles: s.roles && s.roles.length ? s.roles : null,
    })),
    publish_stage: publish ? (publish.id ?? publish.name.trim()) : '',
  };
}

function StageEditor(props: {
  stage: StageRow;
  index: number;
  count: number;
  roles: { value: string; label: string }[];
  onChange: (s: StageRow) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { stage, index, count } = props;
  const label = `Stage ${index + 1}`;
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={label}>
      <Stack gap="xs">
        <Group justify="space-between" align="end" wrap="nowrap">
          <TextInput
            label={`${label} name`}
            required
            value={stage.name}
            maxLength={60}
            onChange={(e) => props.onChange({ ...stage, name: e.currentTarget.value })}
            style={{ flex: 1 }}
          />
          <Group gap={2} wrap="nowrap">
            <ActionIcon variant="subtle" aria-label={`Move stage ${index + 1} up`} disabled={index === 0} onClick={() => props.onMove(index - 1)}>
              <IconArrowUp size={16} aria-hidden />
            </ActionIcon>
            <ActionIcon variant="subtle" aria-label={`Move stage ${index + 1} down`} disabled={index === count - 1} onClick={() => props.onMove(index + 1)}>
              <IconArrowDown size={16} aria-hidden />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove stage ${index + 1}`} disabled={count === 1} onClick={props.onRemove}>
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        </Group>
        <NumberInput
          label="Approvals needed to move on"
          description="By people other than the item's last editor; moving back needs none"
          min={0}
          max={20}
          allowDecimal={false}
          allowNegative={false}
          value={stage.required_approvals}
          onChange={(v) => props.onChange({ ...stage, required_approvals: typeof v === 'number' ? v : Number(v) || 0 })}
          w={360}
        />
        <MultiSelect
          label="Roles that may move items into this stage"
          description="Empty: every role that may change the item. Owners always may."
          data={props.roles}
          value={stage.roles ?? []}
          onChange={(v) => props.onChange({ ...stage, roles: v.length ? v : null })}
          clearable
        />
      </Stack>
    </Paper>
  );
}

export function WorkflowDialog({
  opened,
  onClose,
  workflow,
  taken,
}: {
  opened: boolean;
  onClose: () => void;
  workflow: Workflow | null;
  /** what other workflows already cover: content type slugs, and `pages` */
  taken: { contentTypes: Map<string, string>; pages: string | null };
}) {
  const invalidate = useInvalidate();
  const wsKey = useWsKey();
  const types = useContentTypes();
  const roles = useQuery({ queryKey: wsKey('roles'), queryFn: async () => (await api<RoleWire[]>('/roles')).data });
  const [name, setName] = useState(workflow?.name ?? '');
  const [contentTypes, setContentTypes] = useState<string[]>(workflow?.content_types ?? []);
  const [pages, setPages] = useState(workflow?.pages ?? false);
  const [stages, setStages] = useState<StageRow[]>(() => (workflow ? workflow.stages.map((s) => ({ ...s, key: s.id })) : starterStages()));
  const [publishKey, setPublishKey] = useState<string | null>(() => (workflow ? workflow.publish_stage : null));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const typeOptions = (types.data ?? [])
    .filter((t) => !t.is_block)
    .map((t) => {
      const other = taken.contentTypes.get(t.slug);
      return { value: t.slug, label: other ? `${t.name} (in ${other})` : t.name, disabled: !!other };
    });
  const roleOptions = (roles.data ?? []).map((r) => ({ value: r.id, label: r.name }));
  // The publish stage the form shows: the one chosen, else the last stage.
  const publish = stages.find((s) => s.key === publishKey) ?? stages[stages.length - 1];

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = workflowInputOf(name, contentTypes, pages, stages, publish?.key ?? null);
      if (workflow) await updateWorkflow(workflow.id, body);
      else await createWorkflow(body);
      await invalidate('workflows');
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const move = (from: number, to: number) => {
    const next = [...stages];
    const [s] = next.splice(from, 1);
    next.splice(to, 0, s);
    setStages(next);
  };
  const title = workflow ? `Edit workflow ${workflow.name}` : 'Create workflow';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={100} />
          <MultiSelect
            label="Content types"
            description="Entries of these types go through this workflow. A type belongs to one workflow at most."
            data={typeOptions}
            value={contentTypes}
            onChange={setContentTypes}
            clearable
            searchable
          />
          <Switch
            label={taken.pages ? `Pages (in ${taken.pages})` : 'Pages'}
            description="Pages go through this workflow"
            checked={pages}
            disabled={!!taken.pages}
            onChange={(e) => setPages(e.currentTarget.checked)}
          />
          <Text fw={600} size="sm">
            Stages
          </Text>
          <Text size="xs" c="dimmed">
            In order: new items start in the first stage. Moving on from a stage needs its approvals; removing a stage moves its items to the first.
          </Text>
          {stages.map((s, i) => (
            <StageEditor
              key={s.key}
              stage={s}
              index={i}
              count={stages.length}
              roles={roleOptions}
              onChange={(next) => setStages(stages.map((x) => (x.key === s.key ? next : x)))}
              onMove={(to) => move(i, to)}
              onRemove={() => setStages(stages.filter((x) => x.key !== s.key))}
            />
          ))}
          <Group>
            <Button variant="light" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setStages([...stages, newStage()])}>
              Add stage
            </Button>
          </Group>
          <Select
            label="Publish stage"
            description="Items may be published, scheduled or released only in this stage."
            data={stages.map((s, i) => ({ value: s.key, label: s.name.trim() || `Stage ${i + 1}` }))}
            value={publish?.key ?? null}
            onChange={(v) => v && setPublishKey(v)}
            allowDeselect={false}
            required
          />
          <ErrorAlert error={error} title="The workflow was not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {workflow ? 'Save workflow' : 'Create workflow'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
