/**
 * The detail panel of one asset (a drawer over the library): preview, name, title, description, alt text, folder
 * (typing a new path moves the file there and creates the folder), focal point with crop
 * previews, the file's facts and URL; Save sends the changed fields in one PUT. Delete first
 * asks the server where the asset is used (GET /media/{id}/usage) and lists those entries and
 * pages in the warning. Roles without media:write see the same panel read-only.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Anchor, Autocomplete, Button, Drawer, Group, List, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { MediaAsset } from '../../api/types';
import { useWorkspace } from '../../app/workspace';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDateTime } from '../../components/format';
import { Loading } from '../../components/Loading';
import { assetUsage, deleteAsset, getAsset, updateAsset, type MediaChanges } from './api';
import { CropPreviews, FocalPointEditor } from './FocalPoint';
import type { Focal } from './focal';
import { folderProblem } from './folders';
import { formatBytes, kindLabel, MediaThumb } from './MediaBrowser';
import { mediaSummary } from '../../fields/api-sources';

export interface AssetDetailProps {
  id: string | null;
  onClose: () => void;
  /** folder paths to suggest */
  folders: string[];
  /** after a save or a delete: refresh the lists */
  onChanged: () => void;
}

export function AssetDetail({ id, onClose, folders, onChanged }: AssetDetailProps) {
  const phone = useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
  const asset = useQuery({ queryKey: ['media-asset', id], queryFn: () => getAsset(id!), enabled: Boolean(id) });
  return (
    <Drawer
      opened={Boolean(id)}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'xl'}
      title="Asset details"
      closeButtonProps={{ 'aria-label': 'Close asset details' }}
    >
      {asset.isPending && id ? <Loading label="Loading the asset" /> : null}
      <ErrorAlert error={asset.error} title="The asset could not be loaded" />
      {asset.data ? (
        <AssetForm key={`${asset.data.id}:${asset.data.updated_at}`} asset={asset.data} folders={folders} onChanged={onChanged} onDeleted={onClose} />
      ) : null}
    </Drawer>
  );
}

function focalOf(a: MediaAsset): Focal | null {
  return a.focal_x !== null && a.focal_y !== null ? { x: a.focal_x, y: a.focal_y } : null;
}

/** The fields of `draft` that differ from `asset`. */
export function changesOf(
  asset: MediaAsset,
  draft: { name: string; title: string; description: string; alt: string; folder: string; focal: Focal | null },
): MediaChanges {
  const out: MediaChanges = {};
  if (draft.name.trim() && draft.name.trim() !== asset.original_name) out.original_name = draft.name.trim();
  // Blank text is no text: null, as the server reads it.
  const text = (value: string) => (value.trim() ? value : null);
  if (text(draft.title) !== asset.title) out.title = text(draft.title);
  if (text(draft.description) !== asset.description) out.description = text(draft.description);
  const alt = text(draft.alt);
  if (alt !== asset.alt_text) out.alt_text = alt;
  const folder = draft.folder.trim() || null;
  if (folder !== asset.folder) out.folder = folder;
  const saved = focalOf(asset);
  if ((draft.focal?.x ?? null) !== (saved?.x ?? null) || (draft.focal?.y ?? null) !== (saved?.y ?? null)) {
    out.focal_x = draft.focal?.x ?? null;
    out.focal_y = draft.focal?.y ?? null;
  }
  return out;
}

function AssetForm({ asset, folders, onChanged, onDeleted }: { asset: MediaAsset; folders: string[]; onChanged: () => void; onDeleted: () => void }) {
  const { can } = useWorkspace();
  const readOnly = !can('media:write');
  const [name, setName] = useState(asset.original_name);
  const [title, setTitle] = useState(asset.title ?? '');
  const [description, setDescription] = useState(asset.description ?? '');
  const [alt, setAlt] = useState(asset.alt_text ?? '');
  const [folder, setFolder] = useState(asset.folder ?? '');
  const [focal, setFocal] = useState<Focal | null>(focalOf(asset));
  const [deleting, setDeleting] = useState(false);
  const folderError = folderProblem(folder.trim());
  const changes = changesOf(asset, { name, title, description, alt, folder, focal });
  const dirty = Object.keys(changes).length > 0;
  const save = useMutation({
    mutationFn: () => updateAsset(asset.id, changes),
    onSuccess: () => {
      notifications.show({ color: 'green', message: 'Asset saved' });
      onChanged();
    },
  });
  const isImage = asset.mime_type.startsWith('image/');
  return (
    <Stack gap="md">
      {isImage ? (
        <FocalPointEditor asset={asset} value={focal} onChange={setFocal} readOnly={readOnly} />
      ) : (
        <Group>
          <MediaThumb media={mediaSummary(asset)} size={96} />
        </Group>
      )}
      {isImage ? <CropPreviews asset={asset} draft={focal} /> : null}
      <TextInput
        label="Name"
        description="The file name people see and search for"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        readOnly={readOnly}
        maxLength={255}
      />
      <TextInput
        label="Title"
        description="Shown with the asset, e.g. as a caption; delivered with it"
        value={title}
        onChange={(e) => setTitle(e.currentTarget.value)}
        readOnly={readOnly}
        maxLength={1000}
      />
      <Textarea
        label="Description"
        description="A longer text about the asset: credits, context, licence"
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        readOnly={readOnly}
        autosize
        minRows={2}
        maxRows={8}
        maxLength={10000}
      />
      <Textarea
        label="Alt text"
        description="Describes the image for people who cannot see it"
        value={alt}
        onChange={(e) => setAlt(e.currentTarget.value)}
        readOnly={readOnly}
        autosize
        minRows={2}
        maxLength={1000}
      />
      <Autocomplete
        label="Folder"
        description="Empty: top level. A new path (e.g. blog/2026) creates the folder; saving moves the file."
        data={folders}
        value={folder}
        onChange={setFolder}
        error={folderError}
        readOnly={readOnly}
      />
      <ErrorAlert error={save.error} title="The asset was not saved" />
      {!readOnly ? (
        <Group justify="space-between">
          <Button onClick={() => save.mutate()} disabled={!dirty || Boolean(folderError)} loading={save.isPending}>
            Save
          </Button>
          <Button color="red" variant="light" onClick={() => setDeleting(true)}>
            Delete asset
          </Button>
        </Group>
      ) : null}
      <Stack gap={4}>
        <Text size="sm">
          {kindLabel(asset.mime_type)} · {formatBytes(asset.size)}
          {asset.width && asset.height ? ` · ${asset.width} × ${asset.height} px` : ''} · added {formatDateTime(asset.created_at)}
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Anchor href={asset.url} target="_blank" rel="noreferrer" size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0, flex: 1 }}>
            {asset.url}
          </Anchor>
          <CopyButton value={asset.url} label="Copy URL" />
        </Group>
      </Stack>
      <DeleteAssetDialog
        asset={asset}
        opened={deleting}
        onClose={() => setDeleting(false)}
        onDeleted={() => {
          onChanged();
          onDeleted();
        }}
      />
    </Stack>
  );
}

/** "Used by 2 entries and 1 page", leaving out a count of zero. */
export function usedBy(entries: number, pages: number): string {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const parts = [entries ? plural(entries, 'entry', 'entries') : '', pages ? plural(pages, 'page', 'pages') : ''].filter(Boolean);
  return `Used by ${parts.join(' and ')}`;
}

function DeleteAssetDialog({ asset, opened, onClose, onDeleted }: { asset: MediaAsset; opened: boolean; onClose: () => void; onDeleted: () => void }) {
  const { workspace } = useWorkspace();
  const usage = useQuery({ queryKey: ['media-usage', asset.id], queryFn: () => assetUsage(asset.id), enabled: opened, staleTime: 0 });
  const used = usage.data ? usage.data.entries.length + usage.data.pages.length : 0;
  return (
    <ConfirmDialog
      opened={opened}
      onClose={onClose}
      title={`Delete ${asset.original_name}?`}
      confirmLabel="Delete asset"
      onConfirm={async () => {
        await deleteAsset(asset.id);
        notifications.show({ message: `${asset.original_name} deleted` });
        onDeleted();
      }}
    >
      <Stack gap="xs">
        <Text size="sm">The file and its resized versions are removed; its URL stops working.</Text>
        {usage.isPending ? <Text size="sm">Checking where this asset is used…</Text> : null}
        <ErrorAlert error={usage.error} title="Where the asset is used could not be checked" />
        {usage.data && used === 0 ? <Text size="sm">No entry or page uses this asset.</Text> : null}
        {usage.data && used > 0 ? (
          <Alert color="orange" title={usedBy(usage.data.entries.length, usage.data.pages.length)}>
            <Text size="sm" mb={4}>
              These will show no media where this asset was:
            </Text>
            <List size="sm" aria-label="Where the asset is used">
              {usage.data.entries.map((e) => (
                <List.Item key={e.id}>
                  <Anchor component={Link} to={`/${workspace.slug}/content/${e.content_type}/${e.slug}`} size="sm" c="dark.8" underline="always">
                    {e.title ?? e.slug}
                  </Anchor>{' '}
                  ({e.content_type} entry)
                </List.Item>
              ))}
              {usage.data.pages.map((p) => (
                <List.Item key={p.id}>
                  {p.title} (page /{p.slug})
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
      </Stack>
    </ConfirmDialog>
  );
}
