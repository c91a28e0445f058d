/**
 * /studio/:workspace/model/:type: one content type. Its details (name, description, icon,
 * display field, orderable: PATCH /content-types/{slug}), its fields (add, edit, reorder by drag
 * and drop, impact reports), where a block type is used (block-usage), and deleting the type when
 * it is empty (409 CONTENT_TYPE_NOT_EMPTY is shown in the dialog). Read-only without schema:write.
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Anchor, Badge, Button, Code, Group, Paper, Select, Stack, Switch, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ContentType, Field } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { useContentTypes, useInvalidate, useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { AddFieldDialog } from './AddFieldDialog';
import { BlockUsage, BlockUsageWarning } from './BlockUsage';
import { EditFieldDialog } from './EditFieldDialog';
import { FieldImpactDialog } from './FieldImpactDialog';
import { FieldList } from './FieldList';
import { TYPE_ICONS } from './icons';

const DISPLAY_TYPES = new Set(['text', 'textarea', 'email', 'url', 'select', 'number', 'integer', 'date', 'datetime']);

function DetailsForm({ type, canWrite }: { type: ContentType; canWrite: boolean }) {
  const invalidate = useInvalidate();
  const [name, setName] = useState(type.name);
  const [description, setDescription] = useState(type.description ?? '');
  const [icon, setIcon] = useState<string | null>(type.icon);
  const [displayField, setDisplayField] = useState<string | null>(type.display_field);
  const [orderable, setOrderable] = useState(type.orderable);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    if (name.trim() !== type.name) body.name = name.trim();
    if ((description.trim() || null) !== type.description) body.description = description.trim() || null;
    if (icon !== type.icon) body.icon = icon;
    if (displayField !== type.display_field && displayField) body.display_field = displayField;
    if (orderable !== type.orderable) body.orderable = orderable;
    if (Object.keys(body).length === 0) return;
    setBusy(true);
    setError(null);
    try {
      await api(`/content-types/${type.slug}`, { method: 'PATCH', body });
      await invalidate('content-types');
      notifications.show({ color: 'teal', message: `${name.trim()} saved` });
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  const icons = type.icon && !TYPE_ICONS.includes(type.icon) ? [type.icon, ...TYPE_ICONS] : TYPE_ICONS;
  return (
    <form onSubmit={(e) => void submit(e)} aria-labelledby="type-details">
      <Stack>
        <Title order={2} size="h3" id="type-details">
          Details
        </Title>
        <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} readOnly={!canWrite} />
        <Textarea label="Description" autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} readOnly={!canWrite} />
        <Select label="Icon" placeholder="No icon" clearable searchable data={icons} value={icon} onChange={setIcon} readOnly={!canWrite} />
        {!type.is_block ? (
          <>
            <Select
              label="Display field"
              description="Names entries in lists and derives their slugs"
              placeholder={type.fields.length ? 'Choose a field' : 'Add a text field first'}
              data={type.fields.filter((f) => DISPLAY_TYPES.has(f.field_type)).map((f) => ({ value: f.name, label: `${f.label} (${f.name})` }))}
              value={displayField}
              onChange={setDisplayField}
              readOnly={!canWrite}
            />
            <Switch
              label="Orderable"
              description="Editors can put entries in a manual order"
              checked={orderable}
              onChange={(e) => setOrderable(e.currentTarget.checked)}
              disabled={!canWrite}
            />
          </>
        ) : null}
        <ErrorAlert error={error} title="The content type was not saved" />
        {canWrite ? (
          <Group>
            <Button type="submit" loading={busy}>
              Save details
            </Button>
          </Group>
        ) : null}
      </Stack>
    </form>
  );
}

export default function TypeEditor() {
  const { type: slug } = useParams();
  const { workspace, can } = useWorkspace();
  const navigate = useNavigate();
  const key = useWsKey();
  const invalidate = useInvalidate();
  const all = useContentTypes();
  const type = useQuery({
    queryKey: key('content-types', slug),
    queryFn: async () => (await api<ContentType>(`/content-types/${slug}`)).data,
    // While an index is being built the field's flags are about to change: look again every 2 s.
    refetchInterval: (q) => (q.state.data?.fields.some((f) => f.index_build?.state === 'building') ? 2000 : false),
  });
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<Field | null>(null);
  const [impact, setImpact] = useState<Field | null>(null);
  const [deleting, setDeleting] = useState(false);
  const canWrite = can('schema:write');

  if (type.isPending) return <Loading />;
  if (type.error)
    return (
      <>
        <PageHeader title="Content type" />
        <ErrorAlert error={type.error} title="The content type could not be loaded" />
        <Anchor component={Link} to={`/${workspace.slug}/model`}>
          Back to the content model
        </Anchor>
      </>
    );
  const t = type.data;
  return (
    <>
      <Anchor component={Link} to={`/${workspace.slug}/model`} size="sm">
        ← Content model
      </Anchor>
      <PageHeader
        title={t.name}
        description={
          <>
            <Code>{t.slug}</Code> · {t.is_block ? 'block type' : 'content type'} · {t.fields.length} {t.fields.length === 1 ? 'field' : 'fields'}
          </>
        }
        actions={
          !t.is_block ? (
            <Button variant="light" component={Link} to={`/${workspace.slug}/content/${t.slug}`}>
              Open entries
            </Button>
          ) : (
            <Badge variant="light">block type</Badge>
          )
        }
      />
      <Stack gap="xl">
        <section aria-labelledby="type-fields">
          <Group justify="space-between" mb="sm">
            <Title order={2} size="h3" id="type-fields">
              Fields
            </Title>
            {canWrite ? (
              <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
                Add field
              </Button>
            ) : null}
          </Group>
          {canWrite && t.fields.length > 1 ? (
            <Text size="xs" c="dimmed" mb="xs">
              Drag a field by its handle to reorder, or focus the handle and use Space and the arrow keys.
            </Text>
          ) : null}
          <FieldList type={t} canWrite={canWrite} onEdit={setEditing} onImpact={setImpact} />
        </section>
        <Paper withBorder p="md">
          <DetailsForm key={t.updated_at} type={t} canWrite={canWrite} />
        </Paper>
        {t.is_block ? <BlockUsage type={t} /> : null}
        {canWrite ? (
          <section aria-labelledby="type-delete">
            <Title order={2} size="h3" id="type-delete" mb="xs">
              Delete
            </Title>
            <Text size="sm" mb="sm">
              Only an empty {t.is_block ? 'block type (used by no page)' : 'content type (without entries)'} can be deleted.
            </Text>
            <Button color="red" variant="outline" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)}>
              Delete {t.is_block ? 'block type' : 'content type'}
            </Button>
          </section>
        ) : null}
      </Stack>
      {adding ? <AddFieldDialog type={t} allTypes={all.data ?? []} opened onClose={() => setAdding(false)} /> : null}
      {editing ? <EditFieldDialog type={t} field={editing} onClose={() => setEditing(null)} /> : null}
      {impact ? <FieldImpactDialog type={t} field={impact} onClose={() => setImpact(null)} /> : null}
      <ConfirmDialog
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={`Delete ${t.name}?`}
        confirmLabel="Delete"
        onConfirm={async () => {
          await api(`/content-types/${t.slug}`, { method: 'DELETE' });
          await invalidate('content-types');
          notifications.show({ color: 'teal', message: `${t.name} deleted` });
          navigate(`/${workspace.slug}/model`);
        }}
      >
        <Stack gap="sm">
          <Text size="sm">
            {`The type “${t.name}” and its ${t.fields.length} fields will be removed. If it still holds entries (or, for a block type, pages use it), Quire refuses and says how many.`}
          </Text>
          {deleting ? <BlockUsageWarning type={t} action="delete" /> : null}
        </Stack>
      </ConfirmDialog>
    </>
  );
}
