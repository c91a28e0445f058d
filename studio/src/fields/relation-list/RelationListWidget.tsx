/**
 * `relation_list`: entry ids in order (D30) of the allowed types: add through a search, reorder
 * by drag (mouse or keyboard) or the move buttons, remove.
 */
import { useState } from 'react';
import { Badge, Button, Group, Input, Stack, Text } from '@mantine/core';
import { fieldOptions, rulesHint } from '../field-meta';
import { EntryPicker } from '../shared/EntryPicker';
import { shortId, useEntryLookup } from '../shared/lookups';
import { SortableList } from '../shared/SortableList';
import type { EntrySummary } from '../sources';
import type { FieldWidgetProps } from '../types';

export function RelationListWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string[]>) {
  const ids = Array.isArray(value) ? value : [];
  const types = fieldOptions(field);
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<Map<string, EntrySummary>>(() => new Map());
  const lookup = useEntryLookup(ids, types);
  const name = label ?? field.label;
  const entryOf = (id: string) => lookup.get(id) ?? picked.get(id);
  const labelOf = (id: string) => entryOf(id)?.label ?? shortId(id);
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
                <Text size="sm" truncate>
                  {labelOf(id)}
                </Text>
                {entryOf(id) ? (
                  <Badge variant="light" color="gray">
                    {entryOf(id)?.type}
                  </Badge>
                ) : null}
              </Group>
            )}
          />
        ) : (
          <Text size="sm" c="dimmed">
            No entries chosen
          </Text>
        )}
        {!readOnly ? (
          <Group>
            <Button variant="default" size="xs" onClick={() => setOpen(true)} aria-label={`Add entry to ${name}`}>
              Add entry
            </Button>
          </Group>
        ) : null}
      </Stack>
      <EntryPicker
        opened={open}
        onClose={() => setOpen(false)}
        types={types}
        exclude={ids}
        title={`Add entry to ${name}`}
        onPick={(e) => {
          setPicked((prev) => new Map(prev).set(e.id, e));
          onChange([...ids, e.id]);
        }}
      />
    </Input.Wrapper>
  );
}
