/**
 * The fields of a content type in order, reorderable by drag and drop with the mouse or the
 * keyboard (dnd-kit: focus a handle, Space to lift, arrows to move, Space to drop, Escape to
 * cancel). A drop saves the whole order (PATCH …/fields/reorder, D34); the new order shows at
 * once and goes back, with the API's message, if the server refuses.
 */
import { useState } from 'react';
import { ActionIcon, Badge, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconGripVertical, IconPencil } from '@tabler/icons-react';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { api } from '../../api/client';
import type { ContentType, Field } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useInvalidate } from '../../app/queries';
import { fieldTypeLabel, moveItem, parseJsonText } from './field-types';

interface RowProps {
  field: Field;
  isDisplay: boolean;
  canWrite: boolean;
  onEdit: (f: Field) => void;
  onImpact: (f: Field) => void;
}

function summary(field: Field): string[] {
  const parts: string[] = [];
  const options = parseJsonText<string[]>(field.options, []);
  if (options.length) parts.push(field.field_type.startsWith('relation') ? `targets: ${options.join(', ')}` : `choices: ${options.join(', ')}`);
  const validation = parseJsonText<Record<string, unknown>>(field.validation, {});
  for (const [k, v] of Object.entries(validation)) parts.push(`${k} ${String(v)}`);
  return parts;
}

function FieldRow({ field, isDisplay, canWrite, onEdit, onImpact }: RowProps) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: field.id, disabled: !canWrite });
  const flags = (['required', 'is_unique', 'localizable', 'filterable', 'sortable'] as const).filter((k) => field[k]);
  return (
    <Paper
      component="li"
      ref={setNodeRef}
      withBorder
      p="xs"
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        opacity: isDragging ? 0.7 : 1,
        listStyle: 'none',
        position: 'relative',
        zIndex: isDragging ? 2 : undefined,
      }}
    >
      <Group wrap="nowrap" gap="xs" align="flex-start">
        {canWrite ? (
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            aria-label={`Reorder field ${field.label}`}
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <IconGripVertical size={18} aria-hidden />
          </ActionIcon>
        ) : null}
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6}>
            <Text fw={600}>{field.label}</Text>
            <Text ff="monospace" size="xs" c="dimmed">
              {field.name}
            </Text>
            <Badge size="sm" variant="light">
              {fieldTypeLabel(field.field_type)}
            </Badge>
            {isDisplay ? (
              <Badge size="sm" variant="outline" color="teal">
                display field
              </Badge>
            ) : null}
          </Group>
          {flags.length ? (
            <Group gap={4}>
              {flags.map((f) => (
                <Badge key={f} size="xs" variant="dot" color="gray">
                  {f === 'is_unique' ? 'unique' : f}
                </Badge>
              ))}
            </Group>
          ) : null}
          <IndexBuildNote field={field} />
          {summary(field).length ? (
            <Text size="xs" c="dimmed">
              {summary(field).join(' · ')}
            </Text>
          ) : null}
        </Stack>
        <Group gap={4} wrap="nowrap">
          {canWrite ? (
            <Tooltip label="Edit label, filterable, sortable">
              <ActionIcon variant="subtle" aria-label={`Edit field ${field.label}`} onClick={() => onEdit(field)}>
                <IconPencil size={16} aria-hidden />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Tooltip label="Deletion and localization impact">
            <ActionIcon variant="subtle" color="orange" aria-label={`Impact of changing field ${field.label}`} onClick={() => onImpact(field)}>
              <IconAlertTriangle size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Group>
    </Paper>
  );
}

export function FieldList({
  type,
  canWrite,
  onEdit,
  onImpact,
}: {
  type: ContentType;
  canWrite: boolean;
  onEdit: (f: Field) => void;
  onImpact: (f: Field) => void;
}) {
  const invalidate = useInvalidate();
  const [pending, setPending] = useState<string[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = new Map(type.fields.map((f) => [f.id, f]));
  const order = pending ?? type.fields.map((f) => f.id);
  const fields = order.map((id) => byId.get(id)).filter((f): f is Field => Boolean(f));
  const label = (id: unknown) => byId.get(String(id))?.label ?? 'field';

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const next = moveItem(order, order.indexOf(String(active.id)), order.indexOf(String(over.id)));
    setPending(next);
    setError(null);
    try {
      await api(`/content-types/${type.slug}/fields/reorder`, { method: 'PATCH', body: { order: next } });
      await invalidate('content-types');
    } catch (err) {
      setError(err);
    } finally {
      setPending(null);
    }
  };

  if (type.fields.length === 0) return <Text c="dimmed">No fields yet.</Text>;
  return (
    <>
      <DndContext
        sensors={sensors}
        collisionDetection={closestCenter}
        onDragEnd={(e) => void onDragEnd(e)}
        accessibility={{
          screenReaderInstructions: { draggable: 'To reorder a field, press Space to lift it, the arrow keys to move it, Space to drop it, Escape to cancel.' },
          announcements: {
            onDragStart: ({ active }) => `Lifted ${label(active.id)}.`,
            onDragOver: ({ active, over }) => (over ? `${label(active.id)} is over ${label(over.id)}.` : `${label(active.id)} is no longer over a field.`),
            onDragEnd: ({ active, over }) => (over ? `${label(active.id)} dropped at the place of ${label(over.id)}.` : `${label(active.id)} dropped.`),
            onDragCancel: ({ active }) => `Reordering ${label(active.id)} cancelled.`,
          },
        }}
      >
        <SortableContext items={order} strategy={verticalListSortingStrategy}>
          <Stack component="ol" gap={6} p={0} m={0} aria-label={`Fields of ${type.name}`}>
            {fields.map((f) => (
              <FieldRow key={f.id} field={f} isDisplay={type.display_field === f.name} canWrite={canWrite} onEdit={onEdit} onImpact={onImpact} />
            ))}
          </Stack>
        </SortableContext>
      </DndContext>
      <ErrorAlert error={error} title="The new field order was not saved" />
    </>
  );
}

/**
 * A field whose filterable, sortable or unique flag waits for its index (a big type: the index is
 * built in the background and the flag turns on when it is ready), or whose build failed.
 */
function IndexBuildNote({ field }: { field: Field }) {
  const build = field.index_build;
  if (!build) return null;
  const flags = (['filterable', 'sortable', 'is_unique'] as const).filter((f) => build[f]).map((f) => (f === 'is_unique' ? 'unique' : f));
  if (build.state === 'building')
    return (
      <Text size="xs" c="blue.8" role="status">
        Building its index ({build.indexes_built} of {build.indexes_total} done): {flags.join(', ')} turns on when it is ready. Reads go on meanwhile.
      </Text>
    );
  return (
    <Text size="xs" c="red.8" role="alert">
      The index for {flags.join(', ')} could not be built, so the field stayed as it was{build.error ? `: ${build.error}` : '.'}
    </Text>
  );
}
