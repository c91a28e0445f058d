/** A person's initials in a circle, their name (or e-mail address) in a tooltip and as the accessible name. */
import { Avatar, Tooltip } from '@mantine/core';
import { personName, type CommentPerson } from '../../api/comments';

/** "Ada Lovelace" → "AL"; "ada@example.com" → "A". */
export function initials(p: CommentPerson): string {
  const words = (p.name?.trim() || p.email.split('@')[0] || '?').split(/[\s._-]+/).filter(Boolean);
  return ((words[0]?.[0] ?? '?') + (p.name && words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '')).toUpperCase();
}

const COLORS = ['blue', 'teal', 'grape', 'orange', 'cyan', 'pink', 'indigo', 'green'];

/** `decorative`: the name is written beside it, so the avatar is hidden from screen readers and the tab order. */
export function PersonAvatar({
  person,
  size = 'sm',
  note,
  decorative,
}: {
  person: CommentPerson;
  size?: 'xs' | 'sm' | 'md';
  note?: string;
  decorative?: boolean;
}) {
  const name = personName(person) + (note ? ` (${note})` : '');
  if (decorative)
    return (
      <Avatar size={size} radius="xl" color={COLORS[person.id % COLORS.length]} variant="filled" autoContrast aria-hidden>
        {initials(person)}
      </Avatar>
    );
  return (
    <Tooltip label={name} withArrow openDelay={150}>
      <Avatar size={size} radius="xl" color={COLORS[person.id % COLORS.length]} variant="filled" autoContrast role="img" aria-label={name} tabIndex={0}>
        {initials(person)}
      </Avatar>
    </Tooltip>
  );
}
