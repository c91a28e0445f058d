/**
 * Comments, presence and others' changes of an open entry or page, for its editor in a few lines
 * (docs/studio.md "Comments, notifications and who else is here"):
 *
 *   const collab = useItemCollab({ kind: 'entry', id, path, what: 'entry', locale, enabled, onReload });
 *   header actions: {collab.header}   — who else is here, the "Comments" button (all threads), the comment panel
 *   under the title: {collab.notice}  — "Ada changed this entry — Reload" (left out while a 412 conflict shows)
 *   around the form: <CommentsContext.Provider value={collab.scope}> — each field's comment button
 *
 * `enabled` is false where comments do not apply (a release's version of the item).
 */
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Group } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { openCounts, useItemComments } from '../../api/comments';
import { useWorkspace } from '../../app/workspace';
import { CommentPanel } from '../comments/CommentPanel';
import type { CommentAnchor, CommentsScope } from '../comments/context';
import { EditorPeople } from './EditorPeople';
import { ItemChangedNotice, type ItemChange } from './ItemChangedNotice';

export interface ItemCollabOptions {
  kind: 'entry' | 'page';
  /** the item's id (presence and the event stream name items by id) */
  id: string;
  /** the item's path under /api/v1/manage (entryPath, pagePath) */
  path: string;
  /** "entry" or "page", for the words */
  what: string;
  /** the locale the editor shows: comments on localized fields carry it */
  locale: string;
  enabled: boolean;
  /** takes the server's copy (the editor's reload after a 412) */
  onReload: () => void;
}

export interface ItemCollab {
  scope: CommentsScope | null;
  header: ReactNode;
  notice: ReactNode;
}

export function useItemCollab(o: ItemCollabOptions): ItemCollab {
  const { session } = useWorkspace();
  const comments = useItemComments(o.enabled ? o.path : null);
  const [opened, setOpened] = useState(false);
  const [anchor, setAnchor] = useState<CommentAnchor | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [change, setChange] = useState<ItemChange | null>(null);
  const people: { id: number; email: string; name: string | null }[] = [];
  // Field labels as the form last showed them; read when the panel lists all threads.
  const labels = useRef(new Map<string, string>());
  const name = useCallback((field: string, label: string) => void labels.current.set(field, label), []);
  const counts = useMemo(() => openCounts(comments.data ?? []), [comments.data]);
  const open = useCallback((a: CommentAnchor) => {
    setAnchor(a);
    setShowAll(false);
    setOpened(true);
  }, []);
  const scope = useMemo<CommentsScope | null>(() => (o.enabled ? { counts, locale: o.locale, open, name } : null), [o.enabled, counts, o.locale, open, name]);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const labelOf = (field: string | null, locale: string | null) => {
    if (field === null) return `The whole ${o.what}`;
    const label = labels.current.get(field) ?? field;
    return locale ? `${label} (${locale})` : label;
  };

  const header = o.enabled ? (
    <Group gap="xs" wrap="nowrap">
      <EditorPeople people={people} me={session.user.id} what={o.what} />
      <Button
        variant="default"
        size="xs"
        leftSection={<IconMessageCircle size={16} aria-hidden />}
        aria-label={total ? `Comments: ${total} open` : 'Comments'}
        data-testid="item-comments-button"
        onClick={() => {
          setAnchor(null);
          setShowAll(true);
          setOpened(true);
        }}
      >
        Comments{total ? ` (${total})` : ''}
      </Button>
      <CommentPanel
        opened={opened}
        onClose={() => setOpened(false)}
        item={o.path}
        what={o.what}
        comments={comments.data}
        loadError={comments.error}
        anchor={anchor}
        showAll={showAll}
        onShowAll={setShowAll}
        labelOf={labelOf}
      />
    </Group>
  ) : null;

  const notice =
    o.enabled && change ? (
      <ItemChangedNotice
        change={change}
        what={o.what}
        onDismiss={() => setChange(null)}
        onReload={() => {
          setChange(null);
          o.onReload();
        }}
      />
    ) : null;
  return { scope, header, notice };
}
