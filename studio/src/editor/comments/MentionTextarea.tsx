/**
 * The comment composer's text box with @-mentions: typing "@" and a few letters of a member's name
 * or e-mail address lists the matching members of the workspace (GET /users); ↑/↓ pick one, Enter
 * or Tab (or a click) puts "@email " in its place. The server turns `@email` tokens of members into
 * mentions and notifies them (docs/studio.md "Comments, notifications and who else is here").
 * Ctrl+Enter (⌘+Enter) sends.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Combobox, Text, Textarea, useCombobox } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Member } from '../../api/types';
import { useWsKey } from '../../app/queries';
import { listMembers } from '../../screens/entries/api';

export interface MentionTextareaProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit?: () => void;
  placeholder?: string;
  autoFocus?: boolean;
  error?: string | null;
  disabled?: boolean;
}

/** The "@query" being typed just before the caret, or null. */
export function mentionAt(text: string, caret: number): { start: number; query: string } | null {
  const m = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  return m ? { start: caret - m[2]!.length - 1, query: m[2]!.toLowerCase() } : null;
}

/** Members whose name or e-mail address contains `query` (pending invitations left out), at most 8. */
export function matchingMembers(members: readonly Member[], query: string): Member[] {
  return members
    .filter((m) => m.id !== null && m.status !== 'pending')
    .filter((m) => m.email.toLowerCase().includes(query) || (m.name ?? '').toLowerCase().includes(query))
    .slice(0, 8);
}

export function MentionTextarea({ label, value, onChange, onSubmit, placeholder, autoFocus, error, disabled }: MentionTextareaProps) {
  const key = useWsKey();
  const members = useQuery({ queryKey: key('users'), queryFn: listMembers, staleTime: 60_000 });
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const combobox = useCombobox();
  const [focused, setFocused] = useState(false);
  // Escape closes the list of the mention being typed (by where it starts) until another one begins.
  const [dismissed, setDismissed] = useState<number | null>(null);
  const typed = mentionAt(value, caret);
  const mention = typed && typed.start !== dismissed ? typed : null;
  const options = mention && focused ? matchingMembers(members.data ?? [], mention.query) : [];
  const open = options.length > 0;
  const { openDropdown, closeDropdown } = combobox;
  useEffect(() => (open ? openDropdown() : closeDropdown()), [open, openDropdown, closeDropdown]);

  const pick = (email: string) => {
    if (!mention) return;
    const before = value.slice(0, mention.start);
    const after = value.slice(caret);
    const inserted = `@${email} `;
    const next = before + inserted + after.replace(/^\s+/, '');
    onChange(next);
    const at = before.length + inserted.length;
    setCaret(at);
    requestAnimationFrame(() => ref.current?.setSelectionRange(at, at));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') {
      e.preventDefault();
      onSubmit?.();
      return;
    }
    if (!open) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      combobox.selectNextOption();
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      combobox.selectPreviousOption();
    } else if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      if (combobox.getSelectedOptionIndex() === -1) combobox.selectFirstOption();
      combobox.clickSelectedOption();
    } else if (e.key === 'Escape') {
      // Closes the list, not the panel around it.
      e.stopPropagation();
      setDismissed(mention?.start ?? null);
    }
  };

  return (
    <Combobox store={combobox} onOptionSubmit={pick} position="top-start" withinPortal={false}>
      <Combobox.Target withKeyboardNavigation={false}>
        <Textarea
          ref={ref}
          label={label}
          placeholder={placeholder}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={10000}
          value={value}
          error={error}
          disabled={disabled}
          data-autofocus={autoFocus || undefined}
          onChange={(e) => {
            onChange(e.currentTarget.value);
            setCaret(e.currentTarget.selectionStart);
          }}
          onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!open}>
        <Combobox.Options aria-label="Members to mention">
          {options.map((m) => (
            <Combobox.Option value={m.email} key={m.email}>
              <Text size="sm">{m.name || m.email}</Text>
              {m.name ? (
                <Text size="xs" c="dimmed">
                  {m.email}
                </Text>
              ) : null}
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
