/**
 * Calls of review workflows (D130; docs/workflow.md), shared by Settings › Workflows, the entry
 * and page editors and their lists: the workflows of the workspace, and an item's stage,
 * approvals, change requests and assignees. `item` is an entry's or page's path under
 * /api/v1/manage (entryPath in screens/entries/api.ts, pagePath in screens/pages/api.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { useWsKey } from '../app/queries';
import { api } from './client';
import type { Workflow, WorkflowInput, WorkflowState } from './types';

export async function listWorkflows(): Promise<Workflow[]> {
  return (await api<Workflow[]>('/workflows')).data;
}

export async function createWorkflow(body: WorkflowInput): Promise<Workflow> {
  return (await api<Workflow>('/workflows', { method: 'POST', body })).data;
}

export async function updateWorkflow(id: string, body: WorkflowInput): Promise<Workflow> {
  return (await api<Workflow>(`/workflows/${encodeURIComponent(id)}`, { method: 'PATCH', body })).data;
}

export async function deleteWorkflow(id: string): Promise<void> {
  await api<null>(`/workflows/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** The workspace's workflows (any member may read them); an empty list when none. */
export function useWorkflows() {
  const key = useWsKey();
  return useQuery({ queryKey: key('workflows'), queryFn: listWorkflows, staleTime: 30_000 });
}

/** The workflow covering a content type (its slug), or pages (`'pages'`); null when none does. */
export function workflowCovering(workflows: Workflow[] | undefined, what: string | 'pages'): Workflow | null {
  return (workflows ?? []).find((w) => (what === 'pages' ? w.pages : w.content_types.includes(what))) ?? null;
}

/** POST {item}/stage: moves the item to a stage (by id), with an optional comment. */
export async function moveToStage(item: string, stage: string, comment?: string): Promise<WorkflowState> {
  return (await api<WorkflowState>(`${item}/stage`, { method: 'POST', body: { stage, comment: comment || undefined } })).data;
}

/** POST {item}/approve: approves the working copy (not its last editor; twice is a no-op). */
export async function approveItem(item: string): Promise<WorkflowState> {
  return (await api<WorkflowState>(`${item}/approve`, { method: 'POST' })).data;
}

/** POST {item}/request-changes: a comment saying what to change; withdraws one's own approval. */
export async function requestChanges(item: string, comment: string): Promise<WorkflowState> {
  return (await api<WorkflowState>(`${item}/request-changes`, { method: 'POST', body: { comment } })).data;
}

/** PATCH {item}/assignees: replaces the assignees (user ids). */
export async function setAssignees(item: string, assignees: number[]): Promise<WorkflowState> {
  return (await api<WorkflowState>(`${item}/assignees`, { method: 'PATCH', body: { assignees } })).data;
}
