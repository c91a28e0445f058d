/**
 * The locale switcher of the entry and page editors: the default locale first (marked
 * "default"), then the workspace's other locales. Hidden when the workspace has one locale.
 * `writable` (a role's locales, D120; null or absent: all) keeps only the locales the person may
 * write, and the default locale, marked read-only when it is not one of them, to read from.
 */
import { Group, SegmentedControl, Text } from '@mantine/core';
import type { WorkspaceSettings } from '../api/types';

export function LocaleSwitch({
  settings,
  locale,
  onChange,
  writable = null,
}: {
  settings: WorkspaceSettings;
  locale: string;
  onChange: (l: string) => void;
  writable?: readonly string[] | null;
}) {
  const others = settings.locales.filter((l) => l !== settings.default_locale && (writable === null || writable.includes(l)));
  const ordered = [settings.default_locale, ...others];
  const label = (l: string) => (l === settings.default_locale ? `${l} (default${writable === null || writable.includes(l) ? '' : ', read-only'})` : l);
  if (ordered.length < 2) return null;
  return (
    <Group gap="xs">
      <Text size="sm" id="locale-label">
        Locale
      </Text>
      <SegmentedControl
        aria-labelledby="locale-label"
        size="xs"
        value={locale}
        onChange={onChange}
        data={ordered.map((l) => ({ value: l, label: label(l) }))}
      />
    </Group>
  );
}
