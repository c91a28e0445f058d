/**
 * Copies a value (an API key, an invitation link) to the clipboard and says so. `label` names the
 * button for assistive technology and tests ("Copy key"); after a copy it reads "Copied".
 * Falls back to selecting through a hidden textarea where the Clipboard API is unavailable
 * (plain http on another host than localhost).
 */
import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

async function writeClipboard(value: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(value);
    return;
  }
  const area = document.createElement('textarea');
  area.value = value;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  document.execCommand('copy');
  area.remove();
}

export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await writeClipboard(value);
    setCopied(true);
    window.setTimeout(() => setCopied(false), 2000);
  };
  return (
    <Button
      variant={copied ? 'filled' : 'light'}
      color={copied ? 'teal' : undefined}
      leftSection={copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
      onClick={() => void copy()}
      aria-live="polite"
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
