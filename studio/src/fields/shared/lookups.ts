/** Labels of the entries and media a field refers to, fetched once per set of ids. */
import { useQuery } from '@tanstack/react-query';
import { useFieldSources, type EntrySummary, type MediaSummary } from '../sources';

export function useEntryLookup(ids: string[], types: string[]): Map<string, EntrySummary> {
  const sources = useFieldSources();
  const sorted = [...ids].sort();
  const q = useQuery({
    queryKey: ['entries-by-id', sorted, types],
    queryFn: () => sources.entriesByIds(sorted, types),
    enabled: ids.length > 0,
    staleTime: 30_000,
  });
  return new Map((q.data ?? []).map((e) => [e.id, e]));
}

export function useMediaLookup(ids: string[]): Map<string, MediaSummary> {
  const sources = useFieldSources();
  const sorted = [...ids].sort();
  const q = useQuery({ queryKey: ['media-by-id', sorted], queryFn: () => sources.mediaByIds(sorted), enabled: ids.length > 0, staleTime: 30_000 });
  return new Map((q.data ?? []).map((m) => [m.id, m]));
}

/** A short readable form of an id, for items whose title is not known. */
export function shortId(id: string): string {
  return id.length > 12 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id;
}
