/** `relation`: one entry id (D30) of the allowed types (the field's `options`), searched by title. */
import { useState } from 'react';
import { Badge, Button, Group, Input, Text } from '@mantine/core';
import { fieldOptions } from '../field-meta';
import { EntryPicker } from '../shared/EntryPicker';
import { shortId, useEntryLookup } from '../shared/lookups';
import type { EntrySummary } from '../sources';
import type { FieldWidgetProps } from '../types';

export function RelationWidget({ field, value, onChange, readOnly, error, description, label }: FieldWidgetProps<string>) {
  const types = fieldOptions(field);
  const [open, setOpen] = useState(false);
  const [picked, setPicked] = useState<EntrySummary | null>(null);
  const lookup = useEntryLookup(value ? [value] : [], types);
  const name = label ?? field.label;
  const entry = value ? (lookup.get(value) ?? (picked?.id === value ? picked : undefined)) : undefined;
  return (
    <Input.Wrapper label={name} withAsterisk={field.required} description={description} error={error} labelElement="div">
      <Group mt={4} gap="sm">
        {value ? (
          <Group gap="xs" role="group" aria-label={`${name}: ${entry?.label ?? shortId(value)}`}>
            <Text size="sm" fw={500}>
              {entry?.label ?? shortId(value)}
            </Text>
            {entry ? (
              <Badge variant="light" color="gray">
                {entry.type}
              </Badge>
            ) : null}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No entry chosen
          </Text>
        )}
        {!readOnly ? (
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => setOpen(true)} aria-label={`${value ? 'Replace' : 'Choose'} entry for ${name}`}>
              {value ? 'Replace' : 'Choose entry'}
            </Button>
            {value ? (
              <Button variant="subtle" color="red" size="xs" onClick={() => onChange(null)} aria-label={`Remove entry from ${name}`}>
                Remove
              </Button>
            ) : null}
          </Group>
        ) : null}
      </Group>
      <EntryPicker
        opened={open}
        onClose={() => setOpen(false)}
        types={types}
        title={`Choose entry for ${name}`}
        onPick={(e) => {
          setPicked(e);
          onChange(e.id);
        }}
      />
    </Input.Wrapper>
  );
}
