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
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Button, Group } from '@mantine/core';
import { IconMessageCircle } from '@tabler/icons-react';
import { api } from '../../api/client';
import { openCounts, useItemComments } from '../../api/comments';
import { usePresence, useStudioEvent, useStudioEvents, type StudioEvent } from '../../api/events';
import { useWorkspace } from '../../app/workspace';
import { useMemberNames } from '../../screens/entries/members';
import { LazyCommentPanel } from '../comments/LazyCommentPanel';
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
  /** reads the item's state again without touching the form (its workflow panel after someone moved it) */
  onRefresh: () => void;
  /** the ETag the editor last saved or read: an item frame for it is the editor's own save */
  etag: () => string | null;
}

/** How long after an item frame the editor compares ETags: its own save's answer may come after the frame. */
export const OWN_SAVE_GRACE_MS = 1500;

type ItemFrame = Extract<StudioEvent, { type: 'item' }>['data'];

export interface ItemCollab {
  scope: CommentsScope | null;
  header: ReactNode;
  notice: ReactNode;
}

export function useItemCollab(o: ItemCollabOptions): ItemCollab {
  const { session } = useWorkspace();
  const me = session.user.id;
  const nameOf = useMemberNames();
  // The event stream refreshes the comments (comment frames) and the notifications; without it they are polled.
  const { status } = useStudioEvents();
  const comments = useItemComments(o.enabled ? o.path : null, status === 'open');
  const presence = usePresence(o.enabled ? { kind: o.kind, id: o.id } : null);
  const [opened, setOpened] = useState(false);
  const [anchor, setAnchor] = useState<CommentAnchor | null>(null);
  const [showAll, setShowAll] = useState(false);
  const [change, setChange] = useState<ItemChange | null>(null);
  const people = presence.others;

  // Someone else's change of this item (docs/studio.md "Comments, notifications and who else is here").
  const latest = useRef(o);
  useEffect(() => {
    latest.current = o;
  });
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const pending = timers.current;
    return () => pending.forEach(clearTimeout);
  }, []);
  const onItem = (f: ItemFrame) => {
    if (f.by !== null) {
      // Workflow activity names who acted: the person's own is never news; another's refreshes the panel at once.
      if (f.by === me) return;
      setChange({ by: nameOf(f.by), type: f.type, stage: f.stage?.name ?? null, soft: true });
      latest.current.onRefresh();
      return;
    }
    if (/\.deleted$/.test(f.type)) return setChange({ by: null, type: f.type, stage: null, soft: false });
    // Change events do not say who: the item is read once the editor's own save has had time to
    // answer, and an ETag the editor already holds is its own save.
    const t = setTimeout(() => {
      timers.current.delete(t);
      void api<{ updated_by?: number | null; page?: { updated_by?: number | null } }>(latest.current.path)
        .then((res) => {
          if (res.etag !== null && res.etag === latest.current.etag()) return;
          const by = res.data.updated_by ?? res.data.page?.updated_by ?? null;
          setChange({ by: by === me ? 'You (in another tab or through the API)' : by === null ? null : nameOf(by), type: f.type, stage: null, soft: false });
        })
        .catch(() => {});
    }, OWN_SAVE_GRACE_MS);
    timers.current.add(t);
  };
  useStudioEvent((e) => {
    if (!latest.current.enabled || e.type !== 'item') return;
    if (e.data.item.kind === latest.current.kind && e.data.item.id === latest.current.id) onItem(e.data);
  });
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

  // A notification about a comment links here with ?comment=<id>: the panel opens on its thread.
  const [search] = useSearchParams();
  const asked = o.enabled ? search.get('comment') : null;
  const [shown, setShown] = useState<string | null>(null);
  if (asked && asked !== shown && comments.data) {
    setShown(asked);
    const c = comments.data.find((x) => x.id === asked);
    const root = c?.parent_id ? (comments.data.find((x) => x.id === c.parent_id) ?? c) : c;
    if (root) {
      setAnchor(root.field ? { field: root.field, locale: root.locale } : null);
      setShowAll(!root.field);
      setOpened(true);
    }
  }

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
      <LazyCommentPanel
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
        onReload={
          change.soft
            ? undefined
            : () => {
                setChange(null);
                o.onReload();
              }
        }
      />
    ) : null;
  return { scope, header, notice };
}
