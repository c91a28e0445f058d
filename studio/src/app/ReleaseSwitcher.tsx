/**
 * The header's release switcher (docs/studio.md "Releases"): "Working copies", or one of the
 * releases that are not live yet (open, failed, scheduled). Choosing a release puts the editors in
 * its perspective (release-perspective.ts); the select is tinted while one is chosen, so the
 * header says so on every screen.
 */
import { useEffect } from 'react';
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { listReleasesIn } from '../screens/releases/api';
import { useWsKey } from './queries';
import { PERSPECTIVE_STATUSES, useReleasePerspective } from './release-perspective';

export function ReleaseSwitcher() {
  const key = useWsKey();
  const perspective = useReleasePerspective();
  // Asked per status, so published releases, however many, never crowd the ones not live yet out of a page.
  const releases = useQuery({ queryKey: key('releases', 'list', 'perspectives'), queryFn: () => listReleasesIn(PERSPECTIVE_STATUSES) });
  const choices = [...(releases.data ?? [])];
  // The chosen release shows even before the list has it (a new release, or a list still loading).
  if (perspective.release && !choices.some((r) => r.id === perspective.release!.id)) choices.unshift(perspective.release);
  const active = !!perspective.id;
  const { dropped, set } = perspective;
  // A release that was deleted or published meanwhile is forgotten, so it is not asked for again.
  useEffect(() => {
    if (dropped) set(null);
  }, [dropped, set]);
  return (
    <NativeSelect
      aria-label="Release perspective"
      size="xs"
      w={{ base: 150, xs: 220 }}
      value={perspective.id ?? ''}
      data={[
        { value: '', label: 'Working copies' },
        ...choices.map((r) => ({ value: r.id, label: `Release: ${r.title}${r.status === 'open' ? '' : ` (${r.status})`}` })),
      ]}
      onChange={(e) => perspective.set(e.currentTarget.value || null)}
      styles={active ? { input: { borderColor: 'var(--mantine-color-violet-7)', background: 'var(--mantine-color-violet-0)', fontWeight: 600 } } : undefined}
    />
  );
}
