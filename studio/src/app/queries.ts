/**
 * Queries several screens share, keyed by workspace id (a switch of workspace never shows the
 * other workspace's cache): the content types with their fields, and the workspace settings.
 * Writes invalidate these keys (useInvalidate).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import type { ContentType, PageMeta, WorkspaceSettings } from '../api/types';
import { useWorkspace } from './workspace';

export type { WorkspaceSettings } from '../api/types';

/** Every content type of the workspace (all pages of GET /content-types, 100 at a time), ordered by name. */
export async function fetchAllContentTypes(): Promise<ContentType[]> {
  const all: ContentType[] = [];
  for (let page = 1; page <= 1000; page += 1) {
    const res = await api<ContentType[], PageMeta>('/content-types', { query: { page, limit: 100 } });
    all.push(...res.data);
    if (!res.meta.total_pages || page >= res.meta.total_pages) break;
  }
  return all;
}

/** ['ws', workspaceId, ...parts]: the cache key of a workspace's data. */
export function useWsKey(): (...parts: unknown[]) => unknown[] {
  const { workspace } = useWorkspace();
  return (...parts) => ['ws', workspace.id, ...parts];
}

export function useContentTypes() {
  const key = useWsKey();
  return useQuery({ queryKey: key('content-types'), queryFn: fetchAllContentTypes });
}

export function useWorkspaceSettings() {
  const key = useWsKey();
  return useQuery({ queryKey: key('workspace'), queryFn: async () => (await api<WorkspaceSettings>('/workspace')).data });
}

/** Invalidates the given parts of this workspace's cache (e.g. invalidate('content-types')). */
export function useInvalidate(): (...parts: unknown[]) => Promise<void> {
  const client = useQueryClient();
  const key = useWsKey();
  return (...parts) => client.invalidateQueries({ queryKey: key(...parts) });
}
