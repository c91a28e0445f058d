/**
 * The review workflow of an entry or page in its editor (D130; docs/studio.md "Review
 * workflows"): the stage it is in, its approvals ("1 of 2 approvals"), "Move to stage…" (each
 * other stage, disabled with the reason when the role may not move it there or the approvals to
 * move on are missing; a refusal of the server, 403 or 409, is shown as it came; "Move with a
 * note…" asks for a stage and a comment, sent with the move in one request), "Approve" (not
 * for the working copy's last editor), "Request changes" (a dialog asking what, required) and
 * the assignees (members of the workspace). Pending edits are saved first, since approvals are of
 * the working copy. Its own panel, so the comment and presence controls can sit beside it.
 */
import { useState, type FormEvent } from 'react';
import { Badge, Button, Group, Menu, Modal, MultiSelect, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconChevronDown } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { WorkflowStage, WorkflowState } from '../api/types';
import { approveItem, moveToStage, requestChanges, setAssignees, useWorkflows } from '../api/workflows';
import { useWsKey } from '../app/queries';
import { useWorkspace } from '../app/workspace';
import { ErrorAlert } from '../components/ErrorAlert';
import { listMembers } from '../screens/entries/api';
import { moveBlockedReason, personName } from './workflow-state';

export interface WorkflowBarProps {
  /** the item's workflow state (`workflow` of the entry or page) */
  state: WorkflowState;
  /** the item's path under /api/v1/manage */
  item: string;
  /** may change the item (the workflow's actions need update permission) */
  canWrite: boolean;
  /** saves pending edits first */
  flush?: () => Promise<unknown>;
  onChange: (state: WorkflowState) => void;
}

export function WorkflowBar({ state, item, canWrite, flush, onChange }: WorkflowBarProps) {
  const { session, workspace } = useWorkspace();
  const key = useWsKey();
  const workflows = useWorkflows();
  const members = useQuery({ queryKey: key('users'), queryFn: listMembers, staleTime: 60_000 });
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [requesting, setRequesting] = useState(false);
  const [movingWithNote, setMovingWithNote] = useState(false);
  const workflow = workflows.data?.find((w) => w.id === state.workflow_id);
  const me = session.user.id;
  const approvedByMe = state.approvals.some((a) => a.user.id === me);
  // The server's last editor (the newest content version's author), not `updated_by`, which a
  // publication or a reorder also sets.
  const lastEditor = state.last_editor?.id ?? null;
  const lastEditorIsMe = lastEditor !== null && lastEditor === me;

  const run = async (what: string, call: () => Promise<WorkflowState>, done: string) => {
    setBusy(what);
    setError(null);
    try {
      await flush?.();
      onChange(await call());
      notifications.show({ color: 'green', message: done });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };

  // The other stages, each with the reason it cannot be chosen now (null: it can).
  const targets = (workflow?.stages ?? [])
    .filter((s) => s.id !== state.stage.id)
    .map((stage) => ({ stage, reason: moveBlockedReason(state, workflow?.stages ?? [], stage, workspace.role, lastEditor) }));

  const people = (members.data ?? []).filter((m): m is typeof m & { id: number } => m.id !== null && m.status !== 'pending');
  const assigneeOptions = [
    ...people.map((m) => ({ value: String(m.id), label: m.name || m.email })),
    // Someone assigned who is no longer listed (or before the members load) still shows.
    ...state.assignees.filter((a) => !people.some((m) => m.id === a.id)).map((a) => ({ value: String(a.id), label: personName(a) })),
  ];

  return (
    <Paper withBorder p="sm" component="section" aria-label="Review workflow">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <Text size="sm" fw={600}>
              Stage
            </Text>
            <Badge variant="light" color="violet">
              {state.stage.name}
            </Badge>
          </Group>
          {state.required_approvals > 0 ? (
            <Text size="sm" c={state.approvals.length >= state.required_approvals ? 'teal.8' : 'dimmed'}>
              {state.approvals.length} of {state.required_approvals} approvals
            </Text>
          ) : null}
        </Group>
        {state.approvals.length ? (
          <Text size="xs" c="dimmed">
            Approved by {state.approvals.map((a) => personName(a.user)).join(', ')}
          </Text>
        ) : null}
        {canWrite ? (
          <Group gap="xs">
            <Menu position="bottom-start" withinPortal>
              <Menu.Target>
                <Button size="xs" variant="default" rightSection={<IconChevronDown size={14} aria-hidden />} loading={busy === 'move'} disabled={!workflow}>
                  Move to stage…
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Label>Move to stage</Menu.Label>
                {targets.map(({ stage: s, reason }) => (
                  <Menu.Item key={s.id} disabled={reason !== null} onClick={() => void run('move', () => moveToStage(item, s.id), `Moved to ${s.name}`)}>
                    <Text size="sm">{s.name}</Text>
                    {reason ? (
                      <Text size="xs" c="dimmed">
                        {reason}
                      </Text>
                    ) : null}
                  </Menu.Item>
                ))}
                <Menu.Divider />
                {/* The one-click moves above stay one click; a move that wants a word of explanation goes through a dialog. */}
                <Menu.Item disabled={!targets.some((t) => t.reason === null)} onClick={() => setMovingWithNote(true)}>
                  <Text size="sm">Move with a note…</Text>
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
            {state.required_approvals > 0 && !approvedByMe ? (
              <Button
                size="xs"
                leftSection={<IconCheck size={14} aria-hidden />}
                loading={busy === 'approve'}
                disabled={lastEditorIsMe || busy !== null}
                aria-describedby={lastEditorIsMe ? 'workflow-approve-note' : undefined}
                onClick={() => void run('approve', () => approveItem(item), 'Approved')}
              >
                Approve
              </Button>
            ) : null}
            <Button size="xs" variant="light" color="orange" disabled={busy !== null} onClick={() => setRequesting(true)}>
              Request changes
            </Button>
          </Group>
        ) : null}
        {canWrite && state.required_approvals > 0 && lastEditorIsMe && !approvedByMe ? (
          <Text size="xs" c="dimmed" id="workflow-approve-note">
            You made the latest changes, so someone else approves them.
          </Text>
        ) : null}
        {approvedByMe ? (
          <Text size="xs" c="teal.8">
            You approved this version.
          </Text>
        ) : null}
        <MultiSelect
          label="Assignees"
          size="xs"
          placeholder={state.assignees.length ? undefined : 'Nobody'}
          data={assigneeOptions}
          value={state.assignees.map((a) => String(a.id))}
          readOnly={!canWrite}
          disabled={busy === 'assign'}
          searchable
          onChange={(ids) =>
            void run(
              'assign',
              () =>
                setAssignees(
                  item,
                  ids.map((id) => Number(id)),
                ),
              'Assignees saved',
            )
          }
        />
        <ErrorAlert error={error} title="The workflow action failed" />
      </Stack>
      {movingWithNote ? (
        <MoveWithNoteDialog
          targets={targets}
          current={workflow?.stages.findIndex((s) => s.id === state.stage.id) ?? -1}
          stages={workflow?.stages ?? []}
          onClose={() => setMovingWithNote(false)}
          onSubmit={async (stage, comment) => {
            await flush?.();
            onChange(await moveToStage(item, stage.id, comment));
            notifications.show({ color: 'green', message: `Moved to ${stage.name}` });
          }}
        />
      ) : null}
      <RequestChangesDialog
        opened={requesting}
        onClose={() => setRequesting(false)}
        onSubmit={async (comment) => {
          await flush?.();
          onChange(await requestChanges(item, comment));
          notifications.show({ color: 'orange', message: 'Changes requested' });
        }}
      />
    </Paper>
  );
}

/** "Request changes": what needs to change (required), sent as a comment on the item. */
function RequestChangesDialog({ opened, onClose, onSubmit }: { opened: boolean; onClose: () => void; onSubmit: (comment: string) => Promise<void> }) {
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!comment.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(comment.trim());
      setComment('');
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Request changes" centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <Textarea
            label="What needs to change"
            description="Sent as a comment to the last editor and the assignees; your approval, if any, is withdrawn."
            required
            rows={4}
            maxLength={10000}
            value={comment}
            data-autofocus
            onChange={(e) => setComment(e.currentTarget.value)}
          />
          <ErrorAlert error={error} title="The request was not sent" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="orange" loading={busy} disabled={!comment.trim()}>
              Request changes
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * "Move with a note…": a stage (the other stages, those that cannot be chosen now disabled with
 * the reason; the next one that can preselected) and a note (required), sent as the move's
 * `comment`, which the server records as a comment on the item in the same transaction. A refusal
 * (403, 409) is shown in the dialog as the server said it.
 */
function MoveWithNoteDialog({
  targets,
  stages,
  current,
  onClose,
  onSubmit,
}: {
  targets: { stage: WorkflowStage; reason: string | null }[];
  stages: WorkflowStage[];
  /** the current stage's index in `stages` */
  current: number;
  onClose: () => void;
  onSubmit: (stage: WorkflowStage, comment: string) => Promise<void>;
}) {
  const open = targets.filter((t) => t.reason === null);
  const next = open.find((t) => stages.indexOf(t.stage) > current) ?? open[0];
  const [stageId, setStageId] = useState<string | null>(next?.stage.id ?? null);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const stage = targets.find((t) => t.stage.id === stageId && t.reason === null)?.stage ?? null;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stage || !comment.trim()) return;
    setBusy(true);
    setError(null);
    try {
      await onSubmit(stage, comment.trim());
      onClose();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <Modal opened onClose={onClose} title="Move with a note" centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <Select
            label="Stage"
            required
            allowDeselect={false}
            data={targets.map(({ stage: s, reason }) => ({ value: s.id, label: reason ? `${s.name} (${reason})` : s.name, disabled: reason !== null }))}
            value={stageId}
            onChange={setStageId}
            comboboxProps={{ withinPortal: false }}
          />
          <Textarea
            label="Note"
            description="Saved as a comment on this item with the move; the assignees and the last editor are told of the move."
            required
            rows={4}
            maxLength={10000}
            value={comment}
            data-autofocus
            onChange={(e) => setComment(e.currentTarget.value)}
          />
          <ErrorAlert error={error} title="The item was not moved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!stage || !comment.trim()}>
              {stage ? `Move to ${stage.name}` : 'Move'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
