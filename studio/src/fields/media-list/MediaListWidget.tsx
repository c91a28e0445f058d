/** `media_list`: asset ids in order (D30): add several from the library at once, reorder (drag or buttons), remove. */
import { useState } from 'react';
import { Button, Group, Input, Stack, Text } from '@mantine/core';
import { mediaKindsOf, rulesHint } from '../field-meta';
import { MediaPicker, MediaThumb } from '../shared/MediaPicker';
import { shortId, useMediaLookup } from '../shared/lookups';
import { SortableList } from '../shared/SortableList';
import type { MediaSummary } from '../sources';
import type { FieldWidgetProps } from '../types';

export function MediaListWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string[]>) {
  const ids = Array.isArray(value) ? value : [];
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Map<string, MediaSummary>>(() => new Map());
  const lookup = useMediaLookup(ids);
  const name = label ?? field.label;
  const mediaOf = (id: string) => lookup.get(id) ?? picked.get(id);
  const labelOf = (id: string) => mediaOf(id)?.label ?? shortId(id);
  return (
    <Input.Wrapper label={name} withAsterisk={field.required} description={description ?? rulesHint(field)} error={error} labelElement="div">
      <Stack gap="xs" mt={4}>
        {ids.length ? (
          <SortableList
            aria-label={name}
            ids={ids}
            labelOf={labelOf}
            readOnly={readOnly}
            onChange={(next) => onChange(next.length ? next : null)}
            renderItem={(id) => (
              <Group gap="xs" wrap="nowrap">
                <MediaThumb media={mediaOf(id)} size={48} />
                <Text size="sm" truncate>
                  {labelOf(id)}
                </Text>
              </Group>
            )}
          />
        ) : (
          <Text size="sm" c="dimmed">
            No media chosen
          </Text>
        )}
        {!readOnly ? (
          <Group>
            <Button variant="default" size="xs" onClick={() => setOpen(true)} aria-label={`Add media to ${name}`}>
              Add media
            </Button>
          </Group>
        ) : null}
      </Stack>
      <MediaPicker
        opened={open}
        onClose={() => setOpen(false)}
        exclude={ids}
        title={`Add media to ${name}`}
        kinds={mediaKindsOf(field)}
        onPick={(m) => {
          setPicked((prev) => new Map(prev).set(m.id, m));
          onChange([...ids, m.id]);
        }}
        onPickMany={(list) => {
          setPicked((prev) => new Map([...prev, ...list.map((m) => [m.id, m] as const)]));
          onChange([...ids, ...list.map((m) => m.id)]);
        }}
      />
    </Input.Wrapper>
  );
}
