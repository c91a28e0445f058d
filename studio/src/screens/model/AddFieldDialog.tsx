/**
 * The "Add field" dialog (POST /content-types/{slug}/fields): label, name (derived from the label
 * until edited), field type (all of D30), the flags the type accepts, select choices, relation
 * target types, the kinds of asset a media field accepts and validations. Name, type, required, unique and localizable are final, and the
 * form says so.
 */
import { useState, type FormEvent } from 'react';
import { Button, Checkbox, Fieldset, Group, Modal, MultiSelect, NumberInput, Select, SimpleGrid, Stack, TagsInput, Text, TextInput } from '@mantine/core';
import { ASSET_KINDS, type AssetKind } from '../../../../src/modules/media/kinds.js';
import { KIND_LABELS } from '../../fields/field-meta';
import { api } from '../../api/client';
import type { ContentType } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { BlockUsageWarning } from './BlockUsage';
import { useInvalidate } from '../../app/queries';
import { buildFieldInput, capabilities, emptyDraft, fieldNameFrom, FIELD_TYPES, type FieldDraft, type FieldType } from './field-types';

export function AddFieldDialog({ type, allTypes, opened, onClose }: { type: ContentType; allTypes: ContentType[]; opened: boolean; onClose: () => void }) {
  const invalidate = useInvalidate();
  const [draft, setDraft] = useState<FieldDraft>(emptyDraft);
  const [nameEdited, setNameEdited] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const set = (patch: Partial<FieldDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const can = capabilities(draft.field_type);

  const close = () => {
    setDraft(emptyDraft());
    setNameEdited(false);
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api(`/content-types/${type.slug}/fields`, { method: 'POST', body: buildFieldInput(draft) });
      await invalidate('content-types');
      close();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const num = (v: string | number) => (v === '' ? '' : Number(v));
  const entryTypes = allTypes.filter((t) => !t.is_block);

  return (
    <Modal opened={opened} onClose={close} title={`Add a field to ${type.name}`} centered size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <BlockUsageWarning type={type} action="change" />
          <SimpleGrid cols={{ base: 1, xs: 2 }}>
            <TextInput
              label="Label"
              required
              data-autofocus
              value={draft.label}
              onChange={(e) => {
                const label = e.currentTarget.value;
                set(nameEdited ? { label } : { label, name: fieldNameFrom(label) });
              }}
            />
            <TextInput
              label="Field name"
              required
              description="The key in the API's data; final"
              value={draft.name}
              onChange={(e) => {
                set({ name: e.currentTarget.value });
                setNameEdited(true);
              }}
            />
          </SimpleGrid>
          <Select
            label="Field type"
            description="Final once the field exists"
            allowDeselect={false}
            searchable
            data={FIELD_TYPES.map((t) => ({ value: t.value, label: `${t.label} — ${t.description}` }))}
            value={draft.field_type}
            onChange={(v) => v && set({ field_type: v as FieldType, options: [] })}
          />
          <Fieldset legend="Options" variant="unstyled">
            <Text size="xs" c="dimmed">
              Required, unique and localizable are final; filterable and sortable can change later
            </Text>
            <SimpleGrid cols={{ base: 1, xs: 2 }} mt={6} spacing={6}>
              <Checkbox label="Required" checked={draft.required} onChange={(e) => set({ required: e.currentTarget.checked })} />
              <Checkbox label="Localizable" checked={draft.localizable} onChange={(e) => set({ localizable: e.currentTarget.checked })} />
              {can.unique ? <Checkbox label="Unique" checked={draft.is_unique} onChange={(e) => set({ is_unique: e.currentTarget.checked })} /> : null}
              {can.filterable ? (
                <Checkbox label="Filterable" checked={draft.filterable} onChange={(e) => set({ filterable: e.currentTarget.checked })} />
              ) : null}
              {can.sortable ? <Checkbox label="Sortable" checked={draft.sortable} onChange={(e) => set({ sortable: e.currentTarget.checked })} /> : null}
            </SimpleGrid>
          </Fieldset>
          {can.choices ? (
            <TagsInput
              label="Choices"
              required
              description="Type a choice and press Enter"
              value={draft.options}
              onChange={(options) => set({ options })}
              clearable
            />
          ) : null}
          {can.targets ? (
            <MultiSelect
              label="Allowed target types"
              description="Leave empty to allow entries of any content type"
              data={entryTypes.map((t) => ({ value: t.slug, label: t.name }))}
              value={draft.options}
              onChange={(options) => set({ options })}
              searchable
              clearable
            />
          ) : null}
          {can.mediaKinds ? (
            <Checkbox.Group
              label="Accepted kinds"
              description="Only assets of the ticked kinds can be chosen; none ticked: any kind. Final once the field exists."
              value={draft.media_kinds}
              onChange={(v) => set({ media_kinds: v as AssetKind[] })}
            >
              <Group mt={6} gap="md">
                {ASSET_KINDS.map((k) => (
                  <Checkbox key={k} value={k} label={KIND_LABELS[k]} />
                ))}
              </Group>
            </Checkbox.Group>
          ) : null}
          {can.minMax || can.length || can.pattern ? (
            <Stack gap={6}>
              <Text size="sm" fw={500}>
                Validations
              </Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }}>
                {can.minMax ? (
                  <>
                    <NumberInput label={can.minMaxMeaning === 'value' ? 'Minimum' : 'Minimum items'} value={draft.min} onChange={(v) => set({ min: num(v) })} />
                    <NumberInput label={can.minMaxMeaning === 'value' ? 'Maximum' : 'Maximum items'} value={draft.max} onChange={(v) => set({ max: num(v) })} />
                  </>
                ) : null}
                {can.length ? (
                  <>
                    <NumberInput label="Minimum length" min={0} allowDecimal={false} value={draft.min_length} onChange={(v) => set({ min_length: num(v) })} />
                    <NumberInput label="Maximum length" min={0} allowDecimal={false} value={draft.max_length} onChange={(v) => set({ max_length: num(v) })} />
                  </>
                ) : null}
              </SimpleGrid>
              {can.pattern ? (
                <TextInput
                  label="Pattern"
                  placeholder="^[A-Z]{3}-\d+$"
                  description="A regular expression (RE2: no lookaround or backreferences) that must be found in the value; anchor with ^…$"
                  value={draft.pattern}
                  onChange={(e) => set({ pattern: e.currentTarget.value })}
                />
              ) : null}
            </Stack>
          ) : null}
          <ErrorAlert error={error} title="The field was not added" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!draft.name}>
              Add field
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
