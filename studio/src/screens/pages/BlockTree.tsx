/**
 * The block tree of the page editor (docs/pages.md "Blocks in a write"; D25). Rows are shown in
 * tree order, indented by level; each row is a block with its type, a summary, its fields (the
 * entry editor's form and widgets, studio/src/fields, so a block edits exactly like an entry,
 * translations and fallbacks included) and a menu of actions.
 *
 * Moving blocks: drag a row's handle (the horizontal distance sets the level: one step right
 * nests it under the block above), or with the keyboard focus the handle, Space, arrows, Space
 * (dnd-kit's KeyboardSensor); every move is also in the row's menu: Move up, Move down, Indent
 * (into the block above), Outdent (out of its parent) and Move to… (any block that can hold it,
 * or the top level). Rows collapse and expand (a collapsed row hides its fields and children).
 * Adding a block, indenting or moving is not offered past 10 levels or 1,000 blocks; the reason
 * is shown instead.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { ActionIcon, Badge, Box, Button, Group, Menu, Modal, NativeSelect, Paper, Stack, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMediaQuery } from '@mantine/hooks';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragStartEvent,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  IconArrowBarToRight,
  IconArrowDown,
  IconArrowUp,
  IconChevronDown,
  IconChevronRight,
  IconCopy,
  IconDots,
  IconGripVertical,
  IconIndentDecrease,
  IconIndentIncrease,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import type { ContentType } from '../../api/types';
import { dndAccessibility } from '../../components/dnd';
import { EntryForm } from '../entries/EntryForm';
import { FieldPrefixContext } from '../../editor/comments/context';
import { mapErrors, summarize } from '../entries/model';
import {
  canAddUnder,
  duplicateBlock,
  flatten,
  indent,
  insertBlock,
  isRefusal,
  locate,
  moveBlock,
  moveDown,
  moveTargets,
  moveUp,
  newBlockId,
  outdent,
  projectDrop,
  removeBlock,
  updateBlock,
  type BlockNode,
  type TreeRefusal,
} from './tree';

const SUMMARY_TYPES = new Set(['text', 'textarea', 'select', 'email', 'url', 'number', 'integer']);

/** The accessible name of a block: its type's name and its first short value, e.g. Hero “Welcome”. */
export function blockLabel(node: BlockNode, type: ContentType | undefined, ordinal: number): string {
  const name = type?.name ?? node.type;
  const field = [...(type?.fields ?? [])].sort((a, b) => a.sort_order - b.sort_order).find((f) => SUMMARY_TYPES.has(f.field_type) && node.data[f.name]);
  if (!field) return `${name} #${ordinal}`;
  return `${name} “${summarize(field, node.data[field.name], 40)}”`;
}

export interface BlockTreeProps {
  blocks: BlockNode[];
  /** the workspace's block types */
  types: ContentType[];
  locale: string;
  defaultLocale: string;
  readOnly: boolean;
  /** bumped when the tree is replaced from outside: widgets start afresh */
  revision: number;
  /** API errors by block id, paths relative to the block (`data.title`) */
  errors: Map<string, { path: string; message: string }[]>;
  onChange: (blocks: BlockNode[]) => void;
  /** blocks to show, outermost first (a block and its ancestors): each is expanded, at every new request */
  reveal?: { ids: string[] } | null;
}

/**
 * The row whose top edge is nearest the dragged row's top edge. Rows differ in height (an open
 * block shows its fields), so centres mislead: a tall row moved by the keyboard onto a short one
 * would still be "closest" to itself.
 */
const closestTop: CollisionDetection = ({ collisionRect, droppableContainers, droppableRects }) =>
  droppableContainers
    .map((c) => {
      const rect = droppableRects.get(c.id);
      return rect ? { id: c.id, data: { droppableContainer: c, value: Math.abs(rect.top - collisionRect.top) } } : null;
    })
    .filter((c) => c !== null)
    .sort((a, b) => a.data.value - b.data.value);

function refuse(r: TreeRefusal) {
  notifications.show({ color: 'orange', title: 'Not possible', message: r.refused });
}

function AddBlockMenu({
  types,
  label,
  refusal,
  onPick,
  variant = 'light',
}: {
  types: ContentType[];
  label: string;
  refusal: TreeRefusal | null;
  onPick: (type: ContentType) => void;
  variant?: string;
}) {
  // A long block label ("Add block inside Feature grid “What we care about”") is cut with an
  // ellipsis instead of widening the page on a phone; the full text stays the accessible name.
  const fit = { root: { maxWidth: '100%' }, inner: { minWidth: 0 }, label: { minWidth: 0 } };
  const text = <span style={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{label}</span>;
  if (refusal)
    return (
      <Group gap="xs">
        <Button size="xs" variant={variant} leftSection={<IconPlus size={14} aria-hidden />} disabled styles={fit} title={label}>
          {text}
        </Button>
        <Text size="xs" c="orange.9" role="note">
          {refusal.refused}
        </Text>
      </Group>
    );
  if (!types.length)
    return (
      <Text size="sm" c="dimmed">
        No block types yet: create one in the content model (a content type marked as a block type).
      </Text>
    );
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Button size="xs" variant={variant} leftSection={<IconPlus size={14} aria-hidden />} style={{ alignSelf: 'flex-start' }} styles={fit} title={label}>
          {text}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Block type</Menu.Label>
        {types.map((t, i) => (
          // The first item takes the focus when the menu opens (the theme drops Mantine's placeholder).
          <Menu.Item key={t.slug} onClick={() => onPick(t)} data-autofocus={i === 0 || undefined}>
            {t.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

type BlockError = { path: string; message: string };
const NO_ERRORS: BlockError[] = [];

interface BlockFieldsProps {
  node: BlockNode;
  type: ContentType;
  label: string;
  locale: string;
  defaultLocale: string;
  readOnly: boolean;
  errors: BlockError[];
  revision: number;
  /** a field's new value in a locale, for the block `id` (a stable function) */
  onField: (id: string, locale: string, name: string, value: unknown) => void;
}

/**
 * A block's fields, re-rendered only when its own props change: typing in one block leaves the
 * other blocks' widgets alone. Re-rendering every widget of a ten-block page took 50–80 ms a key,
 * and the framed live preview (same renderer thread) waited behind it.
 */
const BlockFields = memo(function BlockFields({ node, type, label, locale, defaultLocale, readOnly, errors, revision, onField }: BlockFieldsProps) {
  const mapped = useMemo(
    () =>
      mapErrors(
        errors,
        defaultLocale,
        type.fields.map((f) => f.name),
      ),
    [errors, defaultLocale, type],
  );
  const prefix = useMemo(() => ({ path: `blocks.${node.id}.`, label: `${label} › ` }), [node.id, label]);
  const onChange = useCallback((l: string, name: string, value: unknown) => onField(node.id, l, name, value), [onField, node.id]);
  return (
    <>
      {mapped.other.length ? (
        <Text size="sm" c="red.8" role="alert">
          {mapped.other.map((e) => `${e.path ? `${e.path}: ` : ''}${e.message}`).join('; ')}
        </Text>
      ) : null}
      {type.fields.length ? (
        <FieldPrefixContext.Provider value={prefix}>
          <EntryForm
            fields={type.fields}
            draft={node}
            locale={locale}
            defaultLocale={defaultLocale}
            readOnly={readOnly}
            errors={mapped.byField}
            revision={revision}
            onChange={onChange}
          />
        </FieldPrefixContext.Provider>
      ) : (
        <Text size="sm" c="dimmed">
          This block type has no fields.
        </Text>
      )}
    </>
  );
});

/** What a row does to the tree; one stable object, so a row re-renders only when its own props change. */
interface RowActions {
  /** applies `op` to the tree as last rendered (a refusal is shown, nothing changes) */
  edit: (op: (tree: BlockNode[]) => BlockNode[] | TreeRefusal) => void;
  field: BlockFieldsProps['onField'];
  /** adds a block of type `t` inside `parentId`, expands it and focuses the new block */
  addInside: (parentId: string, t: ContentType) => void;
  toggle: (id: string) => void;
  moveTo: (id: string) => void;
}

interface RowProps {
  node: BlockNode;
  depth: number;
  parentId: string | null;
  types: ContentType[];
  locale: string;
  defaultLocale: string;
  readOnly: boolean;
  revision: number;
  errors: BlockError[];
  label: string;
  collapsed: boolean;
  indentPx: number;
  /** first or last among its siblings */
  first: boolean;
  last: boolean;
  /** why no block can be added inside it (null: one can) */
  addRefused: string | null;
  focusOnMount: boolean;
  actions: RowActions;
}

/**
 * One block of the tree: its header (drag handle, label, badges, the ⋯ menu) and, expanded, its
 * fields and "Add block inside". Memoized with its props all primitives, shared blocks or stable
 * functions: typing in one block re-renders that block's row and its ancestors' only.
 */
const BlockRow = memo(function BlockRow(props: RowProps) {
  const { node, depth, parentId, label, types, locale, defaultLocale, readOnly, collapsed, first, last, errors, actions } = props;
  const type = types.find((t) => t.slug === node.type);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: node.id, disabled: readOnly });
  const rowRef = useRef<HTMLLIElement | null>(null);
  const { focusOnMount } = props;
  useEffect(() => {
    if (!focusOnMount) return;
    // After the type menu has closed and handed the focus back to its button; not when the
    // editor has gone on to a field by then (a slow render): that would take the focus, and the
    // text being typed, away from it.
    const timer = setTimeout(() => {
      const active = document.activeElement;
      if (active instanceof HTMLElement && active.matches('input, textarea, [contenteditable="true"]')) return;
      const row = rowRef.current;
      (
        row?.querySelector<HTMLElement>('input, textarea, [contenteditable="true"]') ?? row?.querySelector<HTMLElement>('button[aria-label^="Actions"]')
      )?.focus();
    }, 50);
    return () => clearTimeout(timer);
  }, [focusOnMount]);
  // The menu's first enabled item takes the focus when it opens (WAI-ARIA menu button).
  const firstEnabled = !first ? 'up' : !last ? 'down' : parentId !== null ? 'outdent' : 'move';
  const fallsBack = locale !== defaultLocale && type?.fields.some((f) => f.localizable) && !Object.keys(node.translations[locale] ?? {}).length;
  return (
    <li
      ref={(el) => {
        setNodeRef(el);
        rowRef.current = el;
      }}
      style={{
        listStyle: 'none',
        marginLeft: depth * props.indentPx,
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.6 : 1,
      }}
      data-block={node.id}
    >
      <Paper withBorder p={6} style={{ borderLeft: depth ? '3px solid var(--mantine-color-blue-2)' : undefined }}>
        <Group gap={4} wrap="nowrap" align="center">
          {!readOnly ? (
            <ActionIcon variant="subtle" color="gray" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag ${label}`}>
              <IconGripVertical size={16} />
            </ActionIcon>
          ) : null}
          <ActionIcon
            variant="subtle"
            color="gray"
            aria-expanded={!collapsed}
            aria-label={`${collapsed ? 'Expand' : 'Collapse'} ${label}`}
            onClick={() => actions.toggle(node.id)}
          >
            {collapsed ? <IconChevronRight size={16} /> : <IconChevronDown size={16} />}
          </ActionIcon>
          <Box style={{ flex: 1, minWidth: 0 }}>
            <Text size="sm" fw={500} truncate>
              <VisuallyHidden>Level {depth + 1}: </VisuallyHidden>
              {label}
            </Text>
          </Box>
          {collapsed && node.children.length ? (
            <Badge size="xs" variant="light" color="gray">
              {node.children.length} inside
            </Badge>
          ) : null}
          {fallsBack ? (
            <Badge size="xs" color="yellow.4" variant="filled" autoContrast visibleFrom="xs">
              falls back to {defaultLocale}
            </Badge>
          ) : null}
          {errors.length ? (
            <Badge size="xs" color="red.9" variant="filled">
              needs attention
            </Badge>
          ) : null}
          {!readOnly ? (
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${label}`}>
                  <IconDots size={16} />
                </ActionIcon>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item
                  leftSection={<IconArrowUp size={14} />}
                  disabled={first}
                  onClick={() => actions.edit((t) => moveUp(t, node.id))}
                  data-autofocus={firstEnabled === 'up' || undefined}
                >
                  Move up
                </Menu.Item>
                <Menu.Item
                  leftSection={<IconArrowDown size={14} />}
                  disabled={last}
                  onClick={() => actions.edit((t) => moveDown(t, node.id))}
                  data-autofocus={firstEnabled === 'down' || undefined}
                >
                  Move down
                </Menu.Item>
                <Menu.Item leftSection={<IconIndentIncrease size={14} />} disabled={first} onClick={() => actions.edit((t) => indent(t, node.id))}>
                  Indent (into the block above)
                </Menu.Item>
                <Menu.Item
                  leftSection={<IconIndentDecrease size={14} />}
                  disabled={parentId === null}
                  onClick={() => actions.edit((t) => outdent(t, node.id))}
                  data-autofocus={firstEnabled === 'outdent' || undefined}
                >
                  Outdent (out of its parent)
                </Menu.Item>
                <Menu.Item
                  leftSection={<IconArrowBarToRight size={14} />}
                  onClick={() => actions.moveTo(node.id)}
                  data-autofocus={firstEnabled === 'move' || undefined}
                >
                  Move to…
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item
                  leftSection={<IconCopy size={14} />}
                  onClick={() =>
                    actions.edit((t) => {
                      const r = duplicateBlock(t, node.id);
                      return isRefusal(r) ? r : r.nodes;
                    })
                  }
                >
                  Duplicate
                </Menu.Item>
                <Menu.Item leftSection={<IconTrash size={14} />} color="red.9" onClick={() => actions.edit((t) => removeBlock(t, node.id))}>
                  Remove{node.children.length ? ` (with ${node.children.length} inside)` : ''}
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          ) : null}
        </Group>
        {!collapsed ? (
          <Stack gap="sm" px={{ base: 4, sm: 'sm' }} pt="xs" pb={4}>
            {type ? (
              <BlockFields
                node={node}
                type={type}
                label={label}
                locale={locale}
                defaultLocale={defaultLocale}
                readOnly={readOnly}
                errors={errors}
                revision={props.revision}
                onField={actions.field}
              />
            ) : (
              <Text size="sm" c="orange.9">
                Unknown block type “{node.type}”.
              </Text>
            )}
            {!readOnly ? (
              <AddBlockMenu
                types={types}
                label={`Add block inside ${label}`}
                variant="subtle"
                refusal={props.addRefused === null ? null : { refused: props.addRefused }}
                onPick={(t) => actions.addInside(node.id, t)}
              />
            ) : null}
          </Stack>
        ) : null}
      </Paper>
    </li>
  );
});

function MoveToDialog({
  blocks,
  id,
  labelOf,
  onMove,
  onClose,
}: {
  blocks: BlockNode[];
  id: string;
  labelOf: (n: BlockNode) => string;
  onMove: (parentId: string | null) => void;
  onClose: () => void;
}) {
  const at = locate(blocks, id);
  const targets = useMemo(() => moveTargets(blocks, id), [blocks, id]);
  const [value, setValue] = useState('');
  if (!at) return null;
  return (
    <Modal opened onClose={onClose} title={`Move ${labelOf(at.node)}`} centered>
      <Stack>
        <NativeSelect
          label="Into"
          description="The block goes last among the chosen parent's blocks. Parents that would nest it deeper than 10 levels are not listed."
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          data={targets.map((t) => ({
            value: t.parentId ?? '',
            label: t.node ? `${'– '.repeat(t.level - 1)}${labelOf(t.node)}` : 'Top level of the page',
          }))}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={() => onMove(value || null)}>Move</Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function BlockTree(props: BlockTreeProps) {
  const { blocks, types, readOnly, onChange } = props;
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [dragging, setDragging] = useState<string | null>(null);
  const [moving, setMoving] = useState<string | null>(null);
  // A block just added gets the focus (its first field, else its row's menu), so keyboard users go on typing.
  const [fresh, setFresh] = useState<string | null>(null);
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const indentPx = phone ? 12 : 28;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // While a block is dragged its descendants travel with it, hidden.
  const hidden = useMemo(() => (dragging ? new Set([...collapsed, dragging]) : collapsed), [collapsed, dragging]);
  const rows = useMemo(() => flatten(blocks, hidden), [blocks, hidden]);
  const labels = useMemo(() => {
    const out = new Map<string, string>();
    flatten(blocks, new Set()).forEach((r, i) =>
      out.set(
        r.node.id,
        blockLabel(
          r.node,
          types.find((t) => t.slug === r.node.type),
          i + 1,
        ),
      ),
    );
    return out;
  }, [blocks, types]);
  const labelOf = (n: BlockNode) => labels.get(n.id) ?? n.type;
  const labelOfId = (id: string | number) => labels.get(String(id)) ?? 'block';

  const apply = (next: BlockNode[] | TreeRefusal) => (isRefusal(next) ? refuse(next) : onChange(next));
  // The rows' actions read the tree as last rendered, through a ref set at each commit (before the
  // next key can arrive), so they stay the same functions and the rows' memo holds.
  const latest = useRef({ blocks, apply, defaultLocale: props.defaultLocale });
  useLayoutEffect(() => {
    latest.current = { blocks, apply, defaultLocale: props.defaultLocale };
  });
  const expand = useCallback(
    (id: string) =>
      setCollapsed((c) => {
        const n = new Set(c);
        n.delete(id);
        return n;
      }),
    [],
  );
  const actions = useMemo<RowActions>(
    () => ({
      edit: (op) => latest.current.apply(op(latest.current.blocks)),
      field: (id, l, name, value) => {
        const { blocks: tree, apply: applyNow, defaultLocale: fallback } = latest.current;
        applyNow(
          updateBlock(tree, id, (b) =>
            l === fallback
              ? { ...b, data: { ...b.data, [name]: value } }
              : { ...b, translations: { ...b.translations, [l]: { ...b.translations[l], [name]: value } } },
          ),
        );
      },
      addInside: (parentId, t) => {
        const child: BlockNode = { id: newBlockId(), type: t.slug, data: {}, translations: {}, children: [] };
        const next = insertBlock(latest.current.blocks, parentId, child);
        latest.current.apply(next);
        if (isRefusal(next)) return;
        expand(parentId);
        setFresh(child.id);
      },
      toggle: (id) =>
        setCollapsed((c) => {
          const n = new Set(c);
          if (n.has(id)) n.delete(id);
          else n.add(id);
          return n;
        }),
      moveTo: (id) => setMoving(id),
    }),
    [expand],
  );
  // dnd-kit's sortable context changes (and every row with it) when its item list does: the same ids keep the same list.
  const idList = rows.map((r) => r.node.id).join('\n');
  const ids = useMemo(() => (idList ? idList.split('\n') : []), [idList]);
  // A refused field's block is opened, with every block around it (field-errors.ts focuses it).
  const { reveal } = props;
  const [revealed, setRevealed] = useState(reveal);
  if (reveal !== revealed) {
    setRevealed(reveal);
    if (reveal && reveal.ids.some((id) => collapsed.has(id))) setCollapsed(new Set([...collapsed].filter((id) => !reveal.ids.includes(id))));
  }

  const onDragEnd = ({ active, over, delta }: DragEndEvent) => {
    setDragging(null);
    if (!over) return;
    const levels = Math.round(delta.x / indentPx);
    if (active.id === over.id && levels === 0) return;
    const target = projectDrop(rows, String(active.id), String(over.id), levels);
    if (!target) return;
    const at = locate(blocks, String(active.id));
    if (at && at.parentId === target.parentId && at.index === target.index) return;
    if (target.parentId) expand(target.parentId);
    apply(moveBlock(blocks, String(active.id), target.parentId, target.index));
  };
  const rootRefusal = canAddUnder(blocks, null);
  const addRoot = (t: ContentType) => {
    const node: BlockNode = { id: newBlockId(), type: t.slug, data: {}, translations: {}, children: [] };
    const next = insertBlock(blocks, null, node);
    apply(next);
    if (!isRefusal(next)) setFresh(node.id);
  };

  return (
    <Stack gap="xs" component="section" aria-label="Blocks">
      {!readOnly && blocks.length ? (
        <Text size="xs" c="dimmed">
          Drag a block by its handle (drag right to nest it under the block above), or focus the handle and use Space and the arrow keys; the ⋯ menu moves,
          indents, duplicates and removes blocks.
        </Text>
      ) : null}
      {blocks.length === 0 ? <Text size="sm">This page has no blocks yet.</Text> : null}
      <DndContext
        sensors={sensors}
        collisionDetection={closestTop}
        onDragStart={({ active }: DragStartEvent) => setDragging(String(active.id))}
        onDragCancel={() => setDragging(null)}
        onDragEnd={onDragEnd}
        accessibility={dndAccessibility(labelOfId, 'block')}
      >
        <SortableContext items={ids} strategy={verticalListSortingStrategy}>
          <ul aria-label="Block tree" style={{ padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
            {rows.map((row) => {
              const at = locate(blocks, row.node.id);
              const addRefusal = canAddUnder(blocks, row.node.id);
              return (
                <BlockRow
                  key={row.node.id}
                  node={row.node}
                  depth={row.depth}
                  parentId={row.parentId}
                  types={types}
                  locale={props.locale}
                  defaultLocale={props.defaultLocale}
                  readOnly={readOnly}
                  revision={props.revision}
                  errors={props.errors.get(row.node.id) ?? NO_ERRORS}
                  label={labelOf(row.node)}
                  collapsed={collapsed.has(row.node.id)}
                  indentPx={indentPx}
                  first={!at || at.index === 0}
                  last={!at || at.index === at.siblings.length - 1}
                  addRefused={addRefusal === true ? null : addRefusal.refused}
                  focusOnMount={fresh === row.node.id}
                  actions={actions}
                />
              );
            })}
          </ul>
        </SortableContext>
      </DndContext>
      {!readOnly ? <AddBlockMenu types={types} label="Add block" refusal={rootRefusal === true ? null : rootRefusal} onPick={addRoot} /> : null}
      {moving ? (
        <MoveToDialog
          blocks={blocks}
          id={moving}
          labelOf={labelOf}
          onClose={() => setMoving(null)}
          onMove={(parentId) => {
            const target = parentId ? locate(blocks, parentId) : null;
            const next = moveBlock(blocks, moving, parentId, target ? target.node.children.length : blocks.length);
            apply(next);
            if (parentId) expand(parentId);
            setMoving(null);
          }}
        />
      ) : null}
    </Stack>
  );
}
