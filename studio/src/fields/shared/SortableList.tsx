/**
 * A reorderable list of ids for media_list and relation_list: drag with the mouse or the
 * keyboard (dnd-kit: focus a handle, Space to lift, arrows to move, Space to drop), or use the
 * "Move up" / "Move down" buttons. Every control is named after the item it acts on.
 */
import type { ReactNode } from 'react';
import { ActionIcon, Group, Paper } from '@mantine/core';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconX } from '@tabler/icons-react';

export interface SortableListProps {
  ids: string[];
  /** the accessible name of item `id` (its title, or its id when unknown) */
  labelOf: (id: string) => string;
  renderItem: (id: string) => ReactNode;
  onChange: (ids: string[]) => void;
  readOnly?: boolean;
  /** accessible name of the list */
  'aria-label': string;
}

function Row({ id, index, count, props }: { id: string; index: number; count: number; props: SortableListProps }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id, disabled: props.readOnly });
  const label = props.labelOf(id);
  const move = (to: number) => props.onChange(arrayMove(props.ids, index, to));
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      p={6}
      style={{ transform: CSS.Transform.toString(transform), transition, opacity: isDragging ? 0.6 : 1, listStyle: 'none' }}
    >
      <Group gap="xs" wrap="nowrap">
        {!props.readOnly ? (
          <ActionIcon variant="subtle" color="gray" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Drag ${label}`}>
            <IconGripVertical size={16} />
          </ActionIcon>
        ) : null}
        <div style={{ flex: 1, minWidth: 0 }}>{props.renderItem(id)}</div>
        {!props.readOnly ? (
          <Group gap={2} wrap="nowrap">
            <ActionIcon variant="subtle" aria-label={`Move ${label} up`} disabled={index === 0} onClick={() => move(index - 1)}>
              <IconArrowUp size={16} />
            </ActionIcon>
            <ActionIcon variant="subtle" aria-label={`Move ${label} down`} disabled={index === count - 1} onClick={() => move(index + 1)}>
              <IconArrowDown size={16} />
            </ActionIcon>
            <ActionIcon variant="subtle" color="red" aria-label={`Remove ${label}`} onClick={() => props.onChange(props.ids.filter((x) => x !== id))}>
              <IconX size={16} />
            </ActionIcon>
          </Group>
        ) : null}
      </Group>
    </Paper>
  );
}

export function SortableList(props: SortableListProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = props.ids.indexOf(String(active.id));
    const to = props.ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) props.onChange(arrayMove(props.ids, from, to));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={props.ids} strategy={verticalListSortingStrategy}>
        <ul aria-label={props['aria-label']} style={{ padding: 0, margin: 0, display: 'flex', flexDirection: 'column', gap: 6 }}>
          {props.ids.map((id, i) => (
            <Row key={id} id={id} index={i} count={props.ids.length} props={props} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}
