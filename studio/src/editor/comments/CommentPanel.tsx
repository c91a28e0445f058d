/**
 * The comment panel of an entry or page (D131; docs/studio.md "Comments, notifications and who
 * else is here"): a drawer listing the item's comment threads, newest last, either those on one
 * field (and, for a localized field, the locale being edited) or all of them. A thread is its first
 * comment and the replies; anyone who may read the item replies, resolves and reopens; authors edit
 * their own comments; authors and owners or admins delete (a thread goes with its first comment).
 * The composer at the bottom writes on the field the panel shows, with @-mentions of members.
 */
import { useState } from 'react';
import { Alert, Badge, Button, Drawer, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCheck, IconMessageCircle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { commentsKey, createComment, deleteComment, personName, threadsOf, updateComment, type Comment, type Thread } from '../../api/comments';
import { useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { PersonAvatar } from '../collab/PersonAvatar';
import type { CommentAnchor } from './context';
import { MentionTextarea } from './MentionTextarea';

export interface CommentPanelProps {
  opened: boolean;
  onClose: () => void;
  /** the item's path under /api/v1/manage */
  item: string;
  /** "entry" or "page", for the panel's words */
  what: string;
  comments: Comment[] | undefined;
  loadError: unknown;
  /** the field the panel was opened on; null: all of the item's comments */
  anchor: CommentAnchor | null;
  /** show the whole item (true) or the anchor's field only */
  showAll: boolean;
  onShowAll: (all: boolean) => void;
  /** a field path's label, e.g. "Title (de)", for threads shown under "All" */
  labelOf: (field: string | null, locale: string | null) => string;
}

const inAnchor = (c: Comment, a: CommentAnchor) => c.field === a.field && (a.locale === null || c.locale === a.locale);

export function CommentPanel(props: CommentPanelProps) {
  const { opened, onClose, item, what, comments, loadError, anchor, showAll, onShowAll, labelOf } = props;
  const client = useQueryClient();
  const key = useWsKey();
  const [draft, setDraft] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: key(...commentsKey(item)) });
  const post = useMutation({
    mutationFn: () => createComment(item, { body: draft.trim(), field: showAll ? null : anchor?.field, locale: showAll ? null : anchor?.locale }),
    onSuccess: async () => {
      setDraft('');
      await refresh();
    },
  });
  const all = showAll || !anchor;
  const anchorLabel = anchor ? (anchor.label ?? labelOf(anchor.field, anchor.locale)) : '';
  const threads = threadsOf(comments ?? []).filter((t) => all || inAnchor(t.root, anchor));
  const open = threads.filter((t) => !t.root.resolved).length;
  const where = all ? `this ${what}` : anchorLabel;
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="md" title={<Text fw={600}>Comments on {where}</Text>} data-testid="comment-panel">
      <Stack gap="sm">
        {anchor ? (
          <SegmentedControl
            aria-label="Which comments"
            size="xs"
            value={all ? 'all' : 'field'}
            onChange={(v) => onShowAll(v === 'all')}
            data={[
              { value: 'field', label: anchorLabel },
              { value: 'all', label: `All on this ${what}` },
            ]}
          />
        ) : null}
        <Text size="sm" c="dimmed" role="status">
          {comments === undefined && !loadError
            ? 'Loading comments…'
            : `${threads.length === 0 ? 'No comments' : `${threads.length} thread${threads.length === 1 ? '' : 's'}, ${open} open`} on ${where}`}
        </Text>
        <ErrorAlert error={loadError} title="The comments could not be loaded" />
        <Stack gap="sm" component="ul" aria-label={`Comments on ${where}`} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {threads.map((t) => (
            <li key={t.root.id}>
              <ThreadView thread={t} item={item} fieldLabel={all ? labelOf(t.root.field, t.root.locale) : null} onChanged={refresh} />
            </li>
          ))}
        </Stack>
        <Stack gap={6} component="form" onSubmit={(e) => (e.preventDefault(), draft.trim() && post.mutate())}>
          <MentionTextarea
            label={all ? `New comment on this ${what}` : `New comment on ${anchorLabel}`}
            placeholder="Write a comment; @ mentions a member"
            value={draft}
            onChange={setDraft}
            onSubmit={() => draft.trim() && post.mutate()}
            autoFocus
          />
          <ErrorAlert error={post.error} title="The comment was not posted" />
          <Group justify="flex-end">
            <Button type="submit" size="xs" loading={post.isPending} disabled={!draft.trim()} leftSection={<IconMessageCircle size={14} aria-hidden />}>
              Comment
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Drawer>
  );
}

function ThreadView({ thread, item, fieldLabel, onChanged }: { thread: Thread; item: string; fieldLabel: string | null; onChanged: () => Promise<void> }) {
  const { root, replies } = thread;
  const [replying, setReplying] = useState(false);
  const [reply, setReply] = useState('');
  const resolve = useMutation({ mutationFn: () => updateComment(root.id, { resolved: !root.resolved }), onSuccess: onChanged });
  const post = useMutation({
    mutationFn: () => createComment(item, { body: reply.trim(), field: root.field, locale: root.locale, parent_id: root.id }),
    onSuccess: async () => {
      setReply('');
      setReplying(false);
      await onChanged();
    },
  });
  return (
    <Paper
      withBorder
      p="sm"
      component="article"
      aria-label={`Thread by ${personName(root.author)}${fieldLabel ? ` on ${fieldLabel}` : ''}${root.resolved ? ', resolved' : ''}`}
      data-testid={`comment-thread-${root.id}`}
    >
      <Stack gap="xs">
        {fieldLabel || root.resolved ? (
          <Group gap={6}>
            {fieldLabel ? (
              <Badge size="sm" variant="light" color="gray" autoContrast>
                {fieldLabel}
              </Badge>
            ) : null}
            {root.resolved ? (
              <Badge size="sm" variant="filled" color="teal.9" leftSection={<IconCheck size={12} aria-hidden />}>
                Resolved{root.resolved_by ? ` by ${personName(root.resolved_by)}` : ''}
              </Badge>
            ) : null}
          </Group>
        ) : null}
        <CommentView comment={root} onChanged={onChanged} />
        {replies.map((r) => (
          <div key={r.id} style={{ paddingInlineStart: 20, borderInlineStart: '2px solid var(--mantine-color-gray-3)' }}>
            <CommentView comment={r} onChanged={onChanged} />
          </div>
        ))}
        {replying ? (
          <Stack gap={6} component="form" onSubmit={(e) => (e.preventDefault(), reply.trim() && post.mutate())}>
            <MentionTextarea label={`Reply to ${personName(root.author)}`} value={reply} onChange={setReply} onSubmit={() => reply.trim() && post.mutate()} />
            <ErrorAlert error={post.error} title="The reply was not posted" />
            <Group justify="flex-end" gap="xs">
              <Button size="compact-sm" variant="default" onClick={() => setReplying(false)}>
                Cancel
              </Button>
              <Button size="compact-sm" type="submit" loading={post.isPending} disabled={!reply.trim()}>
                Reply
              </Button>
            </Group>
          </Stack>
        ) : null}
        <ErrorAlert error={resolve.error} title={root.resolved ? 'The thread was not reopened' : 'The thread was not resolved'} />
        <Group gap="xs">
          {!replying ? (
            <Button size="compact-sm" variant="subtle" onClick={() => setReplying(true)}>
              Reply
            </Button>
          ) : null}
          <Button
            size="compact-sm"
            variant="subtle"
            color={root.resolved ? 'gray' : 'teal'}
            c={root.resolved ? 'gray.8' : 'teal.9'}
            loading={resolve.isPending}
            onClick={() => resolve.mutate()}
          >
            {root.resolved ? 'Reopen' : 'Resolve'}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function CommentView({ comment, onChanged }: { comment: Comment; onChanged: () => Promise<void> }) {
  const { session, workspace } = useWorkspace();
  const own = comment.author?.id === session.user.id;
  const mayDelete = own || workspace.role === 'owner' || workspace.role === 'admin';
  const [editing, setEditing] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const edit = useMutation({
    mutationFn: () => updateComment(comment.id, { body: (editing ?? '').trim() }),
    onSuccess: async () => {
      setEditing(null);
      await onChanged();
    },
  });
  const remove = useMutation({ mutationFn: () => deleteComment(comment.id), onSuccess: onChanged });
  const by = personName(comment.author);
  return (
    <Stack gap={4} data-testid={`comment-${comment.id}`}>
      <Group gap="xs" wrap="nowrap">
        {comment.author ? <PersonAvatar person={comment.author} size="xs" decorative /> : null}
        <Text size="sm" fw={600} truncate>
          {by}
        </Text>
        <Text size="xs" c="dimmed" component="time" dateTime={comment.created_at}>
          {formatDateTime(comment.created_at)}
          {comment.edited ? ' · edited' : ''}
        </Text>
      </Group>
      {editing !== null ? (
        <Stack gap={6} component="form" onSubmit={(e) => (e.preventDefault(), editing.trim() && edit.mutate())}>
          <MentionTextarea label="Edit your comment" value={editing} onChange={setEditing} onSubmit={() => editing.trim() && edit.mutate()} autoFocus />
          <ErrorAlert error={edit.error} title="The comment was not changed" />
          <Group justify="flex-end" gap="xs">
            <Button size="compact-sm" variant="default" onClick={() => setEditing(null)}>
              Cancel
            </Button>
            <Button size="compact-sm" type="submit" loading={edit.isPending} disabled={!editing.trim()}>
              Save
            </Button>
          </Group>
        </Stack>
      ) : (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {comment.body}
        </Text>
      )}
      {confirming ? (
        <Alert color="red" variant="light" p="xs" title="Delete this comment?">
          <Stack gap={6}>
            <Text size="sm">{comment.parent_id === null ? 'Its replies are deleted with it.' : 'The reply is deleted for good.'}</Text>
            <ErrorAlert error={remove.error} title="The comment was not deleted" />
            <Group gap="xs">
              <Button size="compact-sm" color="red.8" loading={remove.isPending} onClick={() => remove.mutate()}>
                Delete
              </Button>
              <Button size="compact-sm" variant="default" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </Alert>
      ) : null}
      {editing === null && !confirming && (own || mayDelete) ? (
        <Group gap="xs">
          {own ? (
            <Button size="compact-xs" variant="subtle" color="gray" c="gray.8" aria-label={`Edit comment by ${by}`} onClick={() => setEditing(comment.body)}>
              Edit
            </Button>
          ) : null}
          {mayDelete ? (
            <Button size="compact-xs" variant="subtle" color="red" c="red.9" aria-label={`Delete comment by ${by}`} onClick={() => setConfirming(true)}>
              Delete
            </Button>
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}
