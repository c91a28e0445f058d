/**
 * Who else has this entry or page open (D133 presence): their initials in the editor's header,
 * names in a tooltip and as each avatar's accessible name; the signed-in person is left out.
 */
import { Avatar, Group, Tooltip } from '@mantine/core';
import { personName, type CommentPerson } from '../../api/comments';
import { PersonAvatar } from './PersonAvatar';

const SHOWN = 4;

export function EditorPeople({ people, me, what }: { people: readonly CommentPerson[]; me: number; what: string }) {
  const others = people.filter((p) => p.id !== me);
  if (!others.length) return null;
  const rest = others.slice(SHOWN);
  return (
    <Group gap={4} role="group" aria-label={`Also editing this ${what}: ${others.map(personName).join(', ')}`} data-testid="editor-people">
      <Avatar.Group spacing="xs">
        {others.slice(0, SHOWN).map((p) => (
          <PersonAvatar key={p.id} person={p} />
        ))}
        {rest.length ? (
          <Tooltip label={rest.map(personName).join(', ')} withArrow>
            <Avatar size="sm" radius="xl" role="img" aria-label={`and ${rest.length} more: ${rest.map(personName).join(', ')}`} tabIndex={0}>
              +{rest.length}
            </Avatar>
          </Tooltip>
        ) : null}
      </Avatar.Group>
    </Group>
  );
}
