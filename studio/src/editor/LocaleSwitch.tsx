/**
 * The locale switcher of the entry and page editors: the default locale first (marked
 * "default"), then the workspace's other locales. Hidden when the workspace has one locale.
 */
import { Group, SegmentedControl, Text } from '@mantine/core';
import type { WorkspaceSettings } from '../api/types';

export function LocaleSwitch({ settings, locale, onChange }: { settings: WorkspaceSettings; locale: string; onChange: (l: string) => void }) {
  const ordered = [settings.default_locale, ...settings.locales.filter((l) => l !== settings.default_locale)];
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
        data={ordered.map((l) => ({ value: l, label: l === settings.default_locale ? `${l} (default)` : l }))}
      />
    </Group>
  );
}
