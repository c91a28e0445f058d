/** Names of the workspace's members by user id (GET /users), for "updated by" and history. */
import { useQuery } from '@tanstack/react-query';
import { useWsKey } from '../../app/queries';
import { listMembers } from './api';

export function useMemberNames(): (id: number | null | undefined) => string {
  const key = useWsKey();
  const q = useQuery({ queryKey: key('users'), queryFn: listMembers, staleTime: 60_000 });
  const names = new Map((q.data ?? []).map((m) => [m.id, m.name || m.email]));
  return (id) => (id === null || id === undefined ? '—' : (names.get(id) ?? `user ${id}`));
}
