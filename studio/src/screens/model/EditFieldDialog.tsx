/**
 * The "Edit field" dialog (PATCH …/fields/{fieldId}): label, filterable and sortable, the only
 * things of a field that can change (turning filterable/sortable on or off builds or drops its
 * index); the rest, the accepted kinds of a media field too, is shown read-only with the reason.
 */
import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Switch, Text, TextInput } from '@mantine/core';
import { api } from '../../api/client';
import type { ContentType, Field } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { BlockUsageWarning } from './BlockUsage';
import { useInvalidate } from '../../app/queries';
import { capabilities, fieldTypeLabel } from './field-types';
import { kindsText, mediaKindsOf } from '../../fields/field-meta';

export function EditFieldDialog({ type, field, onClose }: { type: ContentType; field: Field; onClose: () => void }) {
  const invalidate = useInvalidate();
  const [label, setLabel] = useState(field.label);
  const [filterable, setFilterable] = useState(field.filterable);
  const [sortable, setSortable] = useState(field.sortable);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const can = capabilities(field.field_type);
  const kinds = mediaKindsOf(field);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    if (label.trim() !== field.label) body.label = label.trim();
    if (filterable !== field.filterable) body.filterable = filterable;
    if (sortable !== field.sortable) body.sortable = sortable;
    if (Object.keys(body).length === 0) return onClose();
    setBusy(true);
    setError(null);
    try {
      await api(`/content-types/${type.slug}/fields/${field.id}`, { method: 'PATCH', body });
      await invalidate('content-types');
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={`Edit field ${field.label}`} centered>
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <BlockUsageWarning type={type} action="change" />
          <TextInput label="Label" required value={label} onChange={(e) => setLabel(e.currentTarget.value)} data-autofocus />
          {can.filterable ? (
            <Switch
              label="Filterable"
              description="Readers may filter entries by this field"
              checked={filterable}
              onChange={(e) => setFilterable(e.currentTarget.checked)}
            />
          ) : null}
          {can.sortable ? (
            <Switch
              label="Sortable"
              description="Readers may sort entries by this field"
              checked={sortable}
              onChange={(e) => setSortable(e.currentTarget.checked)}
            />
          ) : null}
          {can.mediaKinds ? (
            <Text size="sm">
              Accepted kinds: {kinds ? kindsText(kinds) : 'any kind of file'} (set when the field was created; it cannot change, as entries hold assets under
              the rule)
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            Name <code>{field.name}</code>, type {fieldTypeLabel(field.field_type)}, required ({field.required ? 'yes' : 'no'}), unique (
            {field.is_unique ? 'yes' : 'no'}) and localizable ({field.localizable ? 'yes' : 'no'}) are fixed: changing them would rewrite existing entries.
          </Text>
          <ErrorAlert error={error} title="The field was not changed" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Save field
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
