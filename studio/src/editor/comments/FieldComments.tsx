/**
 * A field with its comment button: the field (a widget, an SEO input) on the left and, beside its
 * label, a small button with the number of open threads on it that opens the comment panel on
 * that field (and the locale being edited, when the field is localized). Outside an editor that
 * provides comments (CommentsContext) it renders the field alone.
 */
import { useContext, useEffect, type ReactNode } from 'react';
import { Box, Button, Group } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { anchorKey } from '../../api/comments';
import { FieldPrefixContext, useCommentsScope } from './context';

export interface FieldCommentsProps {
  /** the field's path inside its item or block (an entry field's name, `seo.title`) */
  field: string;
  /** the field's label as the form shows it, without the locale */
  label: string;
  /** localized fields carry the locale being edited in their comments */
  localized: boolean;
  children: ReactNode;
}

export function FieldComments({ field, label, localized, children }: FieldCommentsProps) {
  const scope = useCommentsScope();
  if (!scope) return <>{children}</>;
  return (
    <Group align="flex-start" gap={4} wrap="nowrap">
      <Box style={{ flex: 1, minWidth: 0 }}>{children}</Box>
      <FieldCommentButton field={field} label={label} localized={localized} />
    </Group>
  );
}

/**
 * The comment button alone, for a field shown without a form control of its own around it (a
 * page's title in the editor's heading, its slug beside "Rename"). Nothing outside CommentsContext.
 */
export function FieldCommentButton({ field, label, localized }: Omit<FieldCommentsProps, 'children'>) {
  const scope = useCommentsScope();
  const prefix = useContext(FieldPrefixContext);
  const path = `${prefix.path}${field}`;
  const fullLabel = `${prefix.label}${label}`;
  const name = scope?.name;
  useEffect(() => name?.(path, fullLabel), [name, path, fullLabel]);
  if (!scope) return null;
  const locale = localized ? scope.locale : null;
  const count = scope.counts.get(anchorKey(path, locale)) ?? 0;
  const shownLabel = locale ? `${fullLabel} (${locale})` : fullLabel;
  return (
    <Button
      variant={count ? 'light' : 'subtle'}
      color={count ? 'blue' : 'gray'}
      size="compact-xs"
      px={4}
      leftSection={<IconMessageCircle size={15} aria-hidden />}
      aria-label={count ? `Comments on ${shownLabel}: ${count} open` : `Comment on ${shownLabel}`}
      data-testid={`comments-${path}`}
      onClick={() => scope.open({ field: path, locale, label: shownLabel })}
      styles={{ section: count ? undefined : { marginInlineEnd: 0 } }}
    >
      {count ? count : null}
    </Button>
  );
}
