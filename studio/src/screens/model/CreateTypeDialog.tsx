/**
 * The "Create content type" dialog (POST /content-types): name, slug (derived from the name
 * until edited), description, icon, block type (fixed once created) and orderable. Opens the new
 * type's editor to add fields.
 */
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Button, Group, Modal, Select, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { api } from '../../api/client';
import type { ContentType, CreateContentTypeInput } from '../../api/types';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useInvalidate } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { slugify } from './field-types';
import { TYPE_ICONS } from './icons';

export function CreateTypeDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { workspace } = useWorkspace();
  const navigate = useNavigate();
  const invalidate = useInvalidate();
  const [name, setName] = useState('');
  const [slug, setSlug] = useState('');
  const [slugEdited, setSlugEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [icon, setIcon] = useState<string | null>(null);
  const [isBlock, setIsBlock] = useState(false);
  const [orderable, setOrderable] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const close = () => {
    setName('');
    setSlug('');
    setSlugEdited(false);
    setDescription('');
    setIcon(null);
    setIsBlock(false);
    setOrderable(false);
    setError(null);
    onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body: CreateContentTypeInput = { name: name.trim(), slug: slug || slugify(name), is_block: isBlock, orderable };
    if (description.trim()) body.description = description.trim();
    if (icon) body.icon = icon;
    try {
      const res = await api<ContentType>('/content-types', { method: 'POST', body });
      await invalidate('content-types');
      close();
      navigate(`/${workspace.slug}/model/${res.data.slug}`);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Create content type" centered size="lg">
      <form onSubmit={(e) => void submit(e)}>
        <Stack>
          <TextInput
            label="Name"
            required
            placeholder="Blog post"
            value={name}
            data-autofocus
            onChange={(e) => {
              const value = e.currentTarget.value;
              setName(value);
              if (!slugEdited) setSlug(slugify(value));
            }}
          />
          <TextInput
            label="Slug"
            description="Used in API URLs; lowercase letters, digits and hyphens. It cannot be changed later."
            value={slug}
            onChange={(e) => {
              setSlug(e.currentTarget.value);
              setSlugEdited(true);
            }}
          />
          <Textarea label="Description" autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
          <Select label="Icon" placeholder="No icon" clearable searchable data={TYPE_ICONS} value={icon} onChange={setIcon} />
          <Switch
            label="Block type"
            description="Blocks are the parts pages are built from; a block type has no entries of its own. This cannot be changed later."
            checked={isBlock}
            onChange={(e) => setIsBlock(e.currentTarget.checked)}
          />
          <Switch
            label="Orderable"
            description="Editors can put entries in a manual order."
            checked={orderable}
            onChange={(e) => setOrderable(e.currentTarget.checked)}
          />
          <ErrorAlert error={error} title="The content type was not created" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={busy} disabled={!name.trim()}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
