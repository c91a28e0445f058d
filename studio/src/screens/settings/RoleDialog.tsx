/**
 * The permission editor of a custom role (D120), for a new role (POST /roles) and for changing
 * one (PATCH /roles/{id}): name, description and a list of permissions, each a resource, its
 * actions and the limits that resource takes (content types, locales and read-only fields for
 * entries; own items only for entries, pages, media and releases). The server checks every name
 * again and its refusal (with the path of each problem) is shown in the dialog.
 */
import { useState, type FormEvent } from 'react';
import { ActionIcon, Button, Checkbox, Group, Modal, MultiSelect, Paper, Select, Stack, Switch, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { api } from '../../api/client';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useContentTypes, useInvalidate, useWorkspaceSettings } from '../../app/queries';
import {
  actionsOf,
  LIMITS_OF,
  RESOURCES,
  type Permission,
  type PermissionAction,
  type PermissionResource,
} from '../../../../src/modules/access/permission-rules';
import type { RoleWire } from '../../../../src/modules/access/custom-roles';

export const RESOURCE_LABELS: Record<PermissionResource, string> = {
  entries: 'Entries',
  pages: 'Pages',
  media: 'Media',
  releases: 'Releases',
  content_types: 'Content types',
  webhooks: 'Webhooks',
};

/** The permission as the form holds it: every limit present, empty meaning "no limit". */
interface Row {
  resource: PermissionResource;
  actions: PermissionAction[];
  content_types: string[];
  locales: string[];
  deny_fields: string[];
  own_only: boolean;
}

function rowOf(p: Permission): Row {
  return {
    resource: p.resource,
    actions: [...p.actions],
    content_types: [...(p.content_types ?? [])],
    locales: [...(p.locales ?? [])],
    deny_fields: [...(p.deny_fields ?? [])],
    own_only: p.own_only === true,
  };
}

/** The wire permission of a row: only the limits it sets, only those its resource takes. */
export function permissionOf(r: Row): Permission {
  const limits = LIMITS_OF[r.resource];
  return {
    resource: r.resource,
    actions: r.actions.filter((a) => actionsOf(r.resource).includes(a)),
    ...(limits.has('content_types') && r.content_types.length ? { content_types: r.content_types } : {}),
    ...(limits.has('locales') && r.locales.length ? { locales: r.locales } : {}),
    ...(limits.has('deny_fields') && r.deny_fields.length ? { deny_fields: r.deny_fields } : {}),
    ...(limits.has('own_only') && r.own_only ? { own_only: true } : {}),
  };
}

function PermissionEditor({ row, index, onChange, onRemove }: { row: Row; index: number; onChange: (r: Row) => void; onRemove: () => void }) {
  const types = useContentTypes();
  const settings = useWorkspaceSettings();
  const limits = LIMITS_OF[row.resource];
  const entryTypes = (types.data ?? []).filter((t) => !t.is_block);
  const chosen = row.content_types.length ? entryTypes.filter((t) => row.content_types.includes(t.slug)) : entryTypes;
  const fieldNames = [...new Set(chosen.flatMap((t) => t.fields.map((f) => f.name)))];
  const label = `Permission ${index + 1}`;
  return (
    <Paper withBorder p="sm" radius="md" role="group" aria-label={label}>
      <Stack gap="xs">
        <Group justify="space-between" align="end">
          <Select
            label="Resource"
            data={RESOURCES.map((r) => ({ value: r, label: RESOURCE_LABELS[r] }))}
            value={row.resource}
            allowDeselect={false}
            onChange={(v) => v && onChange({ ...row, resource: v as PermissionResource })}
          />
          <ActionIcon variant="subtle" color="red" aria-label={`Remove permission ${index + 1}`} onClick={onRemove}>
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
        <Checkbox.Group label="Actions" value={row.actions} onChange={(v) => onChange({ ...row, actions: v as PermissionAction[] })}>
          <Group gap="md" mt={4}>
            {actionsOf(row.resource).map((a) => (
              <Checkbox key={a} value={a} label={a} />
            ))}
          </Group>
        </Checkbox.Group>
        {limits.has('content_types') ? (
          <MultiSelect
            label="Only these content types"
            description="Empty: every type. Other types cannot be seen."
            data={entryTypes.map((t) => ({ value: t.slug, label: t.name }))}
            value={row.content_types}
            onChange={(v) => onChange({ ...row, content_types: v })}
            clearable
          />
        ) : null}
        {limits.has('locales') ? (
          <MultiSelect
            label="May write only these locales"
            description="Empty: every locale. The default locale is written through the entry's main values."
            data={settings.data?.locales ?? []}
            value={row.locales}
            onChange={(v) => onChange({ ...row, locales: v })}
            clearable
          />
        ) : null}
        {limits.has('deny_fields') ? (
          <MultiSelect
            label="Read-only fields"
            description="Readable, but a write may not change them."
            data={fieldNames}
            value={row.deny_fields}
            onChange={(v) => onChange({ ...row, deny_fields: v })}
            clearable
          />
        ) : null}
        {limits.has('own_only') ? (
          <Switch
            label="Only items they created (update, delete, publish)"
            checked={row.own_only}
            onChange={(e) => onChange({ ...row, own_only: e.currentTarget.checked })}
          />
        ) : null}
      </Stack>
    </Paper>
  );
}

export function RoleDialog({ opened, onClose, role }: { opened: boolean; onClose: () => void; role: RoleWire | null }) {
  const invalidate = useInvalidate();
  const [name, setName] = useState(role?.name ?? '');
  const [description, setDescription] = useState(role?.description ?? '');
  const [rows, setRows] = useState<Row[]>(role ? role.permissions.map(rowOf) : [rowOf({ resource: 'entries', actions: ['read'] })]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { name: name.trim(), description: description.trim(), permissions: rows.map(permissionOf) };
      if (role) await api<RoleWire>(`/roles/${role.id}`, { method: 'PATCH', body });
      else await api<RoleWire>('/roles', { method: 'POST', body });
      await invalidate('roles');
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const title = role ? `Edit role ${role.name}` : 'Create role';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={60} />
          <TextInput label="Description" value={description} onChange={(e) => setDescription(e.currentTarget.value)} maxLength={500} />
          <Text fw={600} size="sm">
            Permissions
          </Text>
          <Text size="xs" c="dimmed">
            A request is allowed when one permission allows all of it.
          </Text>
          {rows.map((r, i) => (
            <PermissionEditor
              key={i}
              row={r}
              index={i}
              onChange={(next) => setRows(rows.map((x, j) => (j === i ? next : x)))}
              onRemove={() => setRows(rows.filter((_, j) => j !== i))}
            />
          ))}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => setRows([...rows, rowOf({ resource: 'entries', actions: ['read'] })])}
            >
              Add permission
            </Button>
          </Group>
          <ErrorAlert error={error} title="The role was not saved" />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {role ? 'Save role' : 'Create role'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
