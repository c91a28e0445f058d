import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { capabilitiesOf } from '../../../src/modules/access/authorize.js';
import { fakeApi, ok } from '../app/test-utils';
import { WorkspaceContext, workspaceContextValue } from '../app/workspace';
import { usePresence, useStudioEvents } from './events';
import type { SessionInfo, SessionWorkspace } from './session';

const ann = { id: 1, email: 'ann@example.com', name: 'Ann' };
const bob = { id: 2, email: 'bob@example.com', name: null };
const item = { kind: 'entry' as const, id: 'e1', content_type: 'post', slug: 'hello' };

function wrapper(client: QueryClient) {
  const workspace: SessionWorkspace = { id: 'ws-1', slug: 'demo', name: 'Demo', role: 'editor', capabilities: capabilitiesOf('editor') };
  const session: SessionInfo = { user: ann, workspaces: [workspace], csrf_token: 'c' };
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <WorkspaceContext.Provider value={workspaceContextValue(session, workspace)}>{children}</WorkspaceContext.Provider>
    </QueryClientProvider>
  );
}

describe('useStudioEvents and usePresence', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('open one stream, say which item the tab shows, give the people on it and make changed lists stale', async () => {
    const frames = [
      `event: hello\ndata: ${JSON.stringify({ stream: 's1', user: ann })}\n\n`,
      `event: item\ndata: ${JSON.stringify({ item, type: 'entry.updated', by: null, version: 3 })}\n\n`,
      `event: presence\ndata: ${JSON.stringify({ item: { kind: 'entry', id: 'e1' }, people: [ann, bob] })}\n\n`,
    ];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = fakeApi((call) => {
      if (call.method === 'GET' && call.path === '/events') {
        const encoder = new TextEncoder();
        let i = 0;
        // hello at once; the rest once the presence PUT was answered.
        const body = {
          getReader: () => ({
            read: async () => {
              if (i === 1) await gate;
              if (i < frames.length) return { done: false, value: encoder.encode(frames[i++]) };
              return new Promise(() => {});
            },
          }),
        };
        return { status: 200, ok: true, body } as unknown as Response;
      }
      if (call.method === 'PUT' && call.path === '/events/s1/presence') return ok({ people: [ann] });
      if (call.path === '/content-types/post/entries') return ok([]);
      return null;
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    let reads = 0;
    const { result, rerender, unmount } = renderHook(
      ({ shown }: { shown: { kind: 'entry'; id: string } | null }) => {
        const events = useStudioEvents();
        const presence = usePresence(shown);
        const list = useQuery({ queryKey: ['ws', 'ws-1', 'entries', 'post', { page: 1 }], queryFn: async () => [] as unknown[] });
        const one = useQuery({ queryKey: ['ws', 'ws-1', 'entry', 'post', 'hello', null], queryFn: async () => ({ read: (reads += 1) }) });
        return { events, presence, list, one };
      },
      { wrapper: wrapper(client), initialProps: { shown: { kind: 'entry', id: 'e1' } } },
    );
    await waitFor(() => expect(result.current.events.streamId).toBe('s1'));
    await waitFor(() => expect(result.current.presence.people).toEqual([ann]));
    expect(result.current.presence.others).toEqual([]);
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ item: { kind: 'entry', id: 'e1' } });
    await waitFor(() => expect(result.current.list.isSuccess).toBe(true));
    const fetchedAt = result.current.list.dataUpdatedAt;
    act(() => release());
    await waitFor(() => expect(result.current.presence.others).toEqual([bob]));
    // The item frame made the type's lists stale: the active one was read again.
    await waitFor(() => expect(client.getQueryState(['ws', 'ws-1', 'entries', 'post', { page: 1 }])!.dataUpdatedAt).toBeGreaterThanOrEqual(fetchedAt));
    expect(client.getQueryState(['ws', 'ws-1', 'entries', 'post', { page: 1 }])!.dataUpdateCount).toBeGreaterThanOrEqual(2);
    // The open item's own read is only marked stale (the editor keeps its form): not read again.
    expect(client.getQueryState(['ws', 'ws-1', 'entry', 'post', 'hello', null])!.isInvalidated).toBe(true);
    expect(reads).toBe(1);
    // One stream for both hooks.
    expect(calls.filter((c) => c.method === 'GET' && c.path === '/events')).toHaveLength(1);
    // The editor closes (the layout stays): the tab says it shows nothing.
    rerender({ shown: null });
    await waitFor(() => expect(calls.filter((c) => c.method === 'PUT').at(-1)?.body).toEqual({ item: null }));
    expect(result.current.presence.people).toEqual([]);
    unmount();
  });
});
