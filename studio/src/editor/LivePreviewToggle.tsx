/** The editor header's switch that opens and closes the live preview (LivePreview.tsx). */
import { Button } from '@mantine/core';
import { IconLayoutSidebarRight } from '@tabler/icons-react';

export function LivePreviewToggle({ open, onChange }: { open: boolean; onChange: (open: boolean) => void }) {
  return (
    <Button
      variant={open ? 'filled' : 'default'}
      leftSection={<IconLayoutSidebarRight size={16} aria-hidden />}
      aria-pressed={open}
      onClick={() => onChange(!open)}
    >
      Live preview
    </Button>
  );
}
