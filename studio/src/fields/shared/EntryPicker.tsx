/**
 * A dialog to choose an entry of the allowed types (a relation's `options`; every entry type when
 * empty): a search box (display value or slug, debounced) and a list of results, each a button
 * named "Choose <title>". Used by the relation widgets and the rich-text entry commands.
 */
import { useState } from 'react';
import { Badge, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFieldSources, type EntrySummary } from '../sources';

export interface EntryPickerProps {
  opened: boolean;
  onClose: () => void;
  onPick: (entry: EntrySummary) => void;
  types: string[];
  /** ids not to offer again (already in a list) */
  exclude?: string[];
  title?: string;
}

export function EntryPicker({ opened, onClose, onPick, types, exclude = [], title = 'Choose an entry' }: EntryPickerProps) {
  const sources = useFieldSources();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const results = useQuery({
    queryKey: ['picker-entries', types, debounced],
    queryFn: () => sources.searchEntries(types, debounced),
    enabled: opened,
  });
  const items = (results.data ?? []).filter((e) => !exclude.includes(e.id));
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <Stack>
        <TextInput label="Search entries" placeholder="Title or slug" value={search} onChange={(e) => setSearch(e.currentTarget.value)} data-autofocus />
        {types.length ? (
          <Text size="xs" c="dimmed">
            Types: {types.join(', ')}
          </Text>
        ) : null}
        <ErrorAlert error={results.error} title="Entries could not be loaded" />
        {results.isPending ? <Text size="sm">Searching…</Text> : null}
        {!results.isPending && !items.length ? <Text size="sm">No entries found.</Text> : null}
        <Stack gap={4} role="list" aria-label="Search results">
          {items.map((e) => (
            <Group key={e.id} role="listitem" justify="space-between" wrap="nowrap">
              <Button
                variant="subtle"
                justify="flex-start"
                style={{ flex: 1 }}
                aria-label={`Choose ${e.label}`}
                onClick={() => {
                  onPick(e);
                  onClose();
                }}
              >
                {e.label}
              </Button>
              <Group gap={4} wrap="nowrap">
                <Badge variant="light" color="gray">
                  {e.type}
                </Badge>
                <Badge variant="light">{e.status}</Badge>
              </Group>
            </Group>
          ))}
        </Stack>
      </Stack>
    </Modal>
  );
}
