/**
 * /studio/:workspace/pages: the workspace's pages in navigation order (D34), each with its title
 * (SEO title, else the slug), slug and state badges (D20, "changed" for unpublished edits, D71).
 * The order changes by dragging a row's handle (mouse, or keyboard: focus the handle, Space,
 * arrows, Space) or with the Move up / Move down buttons; the new order is saved at once with
 * PATCH /pages/reorder (every page id). Roles with content:write create pages (a title and a slug
 * derived from it), duplicate and delete them (asks first). When a review workflow covers pages
 * (D130), each page shows its stage, and the list filters by stage and assignee (`?stage=`,
 * `?assignee=me|<id>`, kept in the address); a filtered list is not reordered.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ActionIcon, Anchor, Button, Code, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconArrowDown, IconArrowUp, IconCopy, IconGripVertical, IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Page } from '../../api/types';
import { useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { dndAccessibility } from '../../components/dnd';
import { ErrorAlert, errorMessage } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { StatusBadge } from '../../components/StatusBadge';
import { slugify } from '../model/field-types';
import { useWorkflows, workflowCovering } from '../../api/workflows';
import { StageBadge, WorkflowFilters } from '../../editor/WorkflowFilters';
import { createPage, deletePage, duplicatePage, listAllPages, pageTitle, reorderPages } from './api';

function PageRow(props: {
  page: Page;
  index: number;
  count: number;
  canWrite: boolean;
  /** may drag and move (not in a filtered list) */
  canReorder: boolean;
  onMove: (from: number, to: number) => void;
  onDuplicate: (p: Page) => void;
  onDelete: (p: Page) => void;
}) {
  const { page: p, index, count, canWrite, canReorder } = props;
  const { workspace } = useWorkspace();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: p.id, disabled: !canReorder });
  const title = pageTitle(p);
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      p="xs"
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1, listStyle: 'none' }}
    >
      <Group gap="xs" wrap="nowrap" align="center">
        {canReorder ? (
          <ActionIcon variant="subtle" color="gray" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag ${title}`}>
            <IconGripVertical size={16} />
          </ActionIcon>
        ) : null}
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to={`/${workspace.slug}/pages/${p.slug}`} fw={500} style={{ overflowWrap: 'anywhere' }}>
              {title}
            </Anchor>
            <StatusBadge status={p.status} pendingChanges={p.has_pending_changes} />
            <StageBadge item={p} inline />
          </Group>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            <Code>/{p.slug}</Code> · updated {formatDateTime(p.updated_at)}
          </Text>
        </Stack>
        {canWrite ? (
          <Group gap={2} wrap="nowrap">
            {canReorder ? (
              <>
                <ActionIcon variant="subtle" aria-label={`Move ${title} up`} disabled={index === 0} onClick={() => props.onMove(index, index - 1)}>
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon variant="subtle" aria-label={`Move ${title} down`} disabled={index === count - 1} onClick={() => props.onMove(index, index + 1)}>
                  <IconArrowDown size={16} />
                </ActionIcon>
              </>
            ) : null}
            <ActionIcon variant="subtle" aria-label={`Duplicate ${title}`} onClick={() => props.onDuplicate(p)}>
              <IconCopy size={16} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={`Delete ${title}`} onClick={() => props.onDelete(p)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ) : null}
      </Group>
    </Paper>
  );
}

function CreatePageDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { workspace } = useWorkspace();
  const navigate = useNavigate();
  const client = useQueryClient();
  const key = useWsKey();
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const page = await createPage({ slug: slug || slugify(title), seo: title.trim() ? { title: title.trim() } : undefined });
      await client.invalidateQueries({ queryKey: key('pages') });
      void navigate(`/${workspace.slug}/pages/${page.slug}`);
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title="New page" centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput
            label="Title"
            description="The page's SEO title"
            value={title}
            data-autofocus
            onChange={(e) => {
              const value = e.currentTarget.value;
              setTitle(value);
              if (!slugEdited) setSlug(slugify(value));
            }}
          />
          <TextInput
            label="Slug"
            description="The page's address; it can be renamed later"
            required
            value={slug}
            onChange={(e) => {
              setSlug(e.currentTarget.value);
              setSlugEdited(true);
            }}
          />
          <ErrorAlert error={error} title="The page was not created" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!slug.trim()}>
              Create page
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

export default function PagesList() {
  const { workspace, can } = useWorkspace();
  const navigate = useNavigate();
  const client = useQueryClient();
  const key = useWsKey();
  const [params, setParams] = useSearchParams();
  const workflows = useWorkflows();
  const workflow = workflowCovering(workflows.data, 'pages');
  const stage = workflow ? (params.get('stage') ?? '') : '';
  const assignee = workflow ? (params.get('assignee') ?? '') : '';
  const filtered = !!(stage || assignee);
  const filters = { stage: stage || undefined, assignee: assignee || undefined };
  // The unfiltered list keeps key('pages') (the order is written into it at once); a filtered one a key of its own.
  const pages = useQuery({
    queryKey: filtered ? key('pages', filters) : key('pages'),
    queryFn: () => listAllPages(filters),
    // The workflows first: a ?stage= or ?assignee= in the address applies only when one covers the pages.
    enabled: !workflows.isPending,
  });
  const setParam = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Page | null>(null);
  const canWrite = can('content:write');
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  const move = async (from: number, to: number) => {
    const list = pages.data ?? [];
    if (to < 0 || to >= list.length || from === to) return;
    const next = arrayMove(list, from, to);
    client.setQueryData(key('pages'), next);
    try {
      await reorderPages(next.map((p) => p.id));
      notifications.show({ color: 'teal', message: `${pageTitle(list[from])} moved to position ${to + 1}` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'The order was not saved', message: errorMessage(err) });
    }
    await client.invalidateQueries({ queryKey: key('pages') });
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    const list = pages.data ?? [];
    if (!over || active.id === over.id) return;
    void move(
      list.findIndex((p) => p.id === active.id),
      list.findIndex((p) => p.id === over.id),
    );
  };
  const duplicate = async (p: Page) => {
    try {
      const copy = await duplicatePage(p.slug);
      await client.invalidateQueries({ queryKey: key('pages') });
      notifications.show({ color: 'teal', message: `Duplicated as ${copy.slug}` });
    } catch (err) {
      notifications.show({ color: 'red', title: 'The page was not duplicated', message: errorMessage(err) });
    }
  };

  const list = pages.data ?? [];
  return (
    <Stack>
      <PageHeader
        title="Pages"
        description="In navigation order: a website's menu reads them in this order."
        actions={
          canWrite ? (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
              New page
            </Button>
          ) : null
        }
      />
      {workflow ? (
        <Group align="flex-end" gap="sm" wrap="wrap">
          <WorkflowFilters workflow={workflow} stage={stage} assignee={assignee} onChange={setParam} />
        </Group>
      ) : null}
      <ErrorAlert error={pages.error} title="The pages could not be loaded" />
      {pages.isPending ? <Loading label="Loading pages" /> : null}
      {pages.data && list.length === 0 ? (
        <Text size="sm">{filtered ? 'No pages match.' : "No pages yet. A page is built from blocks of the workspace's block types."}</Text>
      ) : null}
      {canWrite && list.length > 1 && !filtered ? (
        <Text size="xs" c="dimmed">
          Drag a page by its handle to reorder, or focus the handle and use Space and the arrow keys, or the arrow buttons. The order is saved at once.
        </Text>
      ) : null}
      {list.length ? (
        <DndContext
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={dndAccessibility((id) => pageTitle(list.find((p) => p.id === id) ?? { slug: 'page', seo: { title: null } as Page['seo'] }), 'page')}
        >
          <SortableContext items={list.map((p) => p.id)} strategy={verticalListSortingStrategy}>
            <ul aria-label="Pages in navigation order" style={{ padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
              {list.map((p, i) => (
                <PageRow
                  key={p.id}
                  page={p}
                  index={i}
                  count={list.length}
                  canWrite={canWrite}
                  canReorder={canWrite && !filtered}
                  onMove={(from, to) => void move(from, to)}
                  onDuplicate={(x) => void duplicate(x)}
                  onDelete={setDeleting}
                />
              ))}
            </ul>
          </SortableContext>
        </DndContext>
      ) : null}
      <CreatePageDialog opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`Delete “${deleting ? pageTitle(deleting) : ''}”?`}
        confirmLabel="Delete page"
        onConfirm={async () => {
          if (!deleting) return;
          await deletePage(deleting.slug, null);
          await client.invalidateQueries({ queryKey: key('pages') });
          notifications.show({ color: 'teal', message: `${pageTitle(deleting)} deleted` });
          void navigate(`/${workspace.slug}/pages`);
        }}
      >
        The page, its blocks, their translations and its history are deleted for good; readers get 404 at its address.
      </ConfirmDialog>
    </Stack>
  );
}
