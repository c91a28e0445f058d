/**
 * Uploading to the library: drop files on the area or choose them with the file dialog (several
 * at once). Each file is its own POST /media/upload with a progress bar; three run at a time, the
 * rest wait. A refused file (413 over 10 MB, 415 not an image, video or PDF, 400) shows the
 * server's message and trace id on its own row while the others go on. Files go into the folder
 * given (a new path creates the folder). An uploaded image without alt text asks for it on its
 * row (saved with PUT /media/{id}).
 */
import { useRef, useState, type DragEvent } from 'react';
import { Autocomplete, Box, Button, CloseButton, FileButton, Group, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import type { MediaAsset } from '../../api/types';
import { useWorkspace } from '../../app/workspace';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../components/ErrorAlert';
import { folderProblem } from './folders';
import { uploadWithProgress } from './upload';
import { updateAsset } from './api';

const defaultSaveAltText = (id: string, altText: string) => updateAsset(id, { alt_text: altText });

/** How many uploads run at once. */
export const PARALLEL_UPLOADS = 3;

interface UploadItem {
  key: number;
  file: File;
  folder: string;
  state: 'waiting' | 'uploading' | 'done' | 'failed';
  progress: number;
  error?: unknown;
  /** the stored asset, once uploaded */
  asset?: MediaAsset;
}

export interface UploadPanelProps {
  /** the folder new files go to by default ('' top level) */
  folder: string;
  folders: string[];
  /** after each stored file, and after its alt text is saved */
  onUploaded: (asset: MediaAsset) => void;
  /** the uploader, replaceable in tests */
  upload?: typeof uploadWithProgress;
  /** PUT of an asset's alt text, replaceable in tests */
  saveAltText?: (id: string, altText: string) => Promise<MediaAsset>;
}

/**
 * Asks for an uploaded image's alt text (what it shows, for people who cannot see it) on its row,
 * until it is saved; the row can be left as it is for a decorative image.
 */
function AltTextPrompt({
  asset,
  save,
  onSaved,
}: {
  asset: MediaAsset;
  save: (id: string, altText: string) => Promise<MediaAsset>;
  onSaved: (asset: MediaAsset) => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const name = asset.original_name ?? asset.filename;
  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      onSaved(await save(asset.id, text.trim()));
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group gap="xs" align="flex-end" mt={4} wrap="wrap">
      <TextInput
        size="xs"
        label={`Alt text of ${name}`}
        description="What the image shows, for people who cannot see it"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && text.trim()) void submit();
        }}
        error={error ? errorMessage(error) : undefined}
        maxLength={1000}
        style={{ flex: '1 1 16rem' }}
      />
      <Button size="xs" variant="light" onClick={() => void submit()} loading={busy} disabled={!text.trim()}>
        Save alt text
      </Button>
    </Group>
  );
}

export function UploadPanel({ folder: defaultFolder, folders, onUploaded, upload = uploadWithProgress, saveAltText = defaultSaveAltText }: UploadPanelProps) {
  const { session } = useWorkspace();
  const [items, setItems] = useState<UploadItem[]>([]);
  const [folder, setFolder] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const next = useRef(1);
  const running = useRef(0);
  const queue = useRef<UploadItem[]>([]);
  const target = (folder ?? defaultFolder).trim();
  const folderError = folderProblem(target);

  const patch = (key: number, change: Partial<UploadItem>) => setItems((all) => all.map((i) => (i.key === key ? { ...i, ...change } : i)));

  const pump = () => {
    while (running.current < PARALLEL_UPLOADS && queue.current.length) {
      const item = queue.current.shift()!;
      running.current += 1;
      patch(item.key, { state: 'uploading' });
      upload(item.file, { folder: item.folder, csrfToken: session.csrf_token, onProgress: (p) => patch(item.key, { progress: p }) })
        .then((asset) => {
          patch(item.key, { state: 'done', progress: 1, asset });
          onUploaded(asset);
        })
        .catch((error: unknown) => patch(item.key, { state: 'failed', error }))
        .finally(() => {
          running.current -= 1;
          pump();
        });
    }
  };

  const add = (files: File[]) => {
    if (!files.length || folderError) return;
    const added = files.map((file) => ({ key: next.current++, file, folder: target, state: 'waiting' as const, progress: 0 }));
    setItems((all) => [...added, ...all.filter((i) => i.state !== 'done')]);
    queue.current.push(...added);
    pump();
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    add([...e.dataTransfer.files]);
  };

  const finished = items.filter((i) => i.state === 'done').length;
  return (
    <Stack gap="xs">
      <Box
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        p="md"
        style={{
          border: `2px dashed var(--mantine-color-${over ? 'blue-6' : 'gray-4'})`,
          borderRadius: 'var(--mantine-radius-md)',
          background: over ? 'var(--mantine-color-blue-0)' : undefined,
        }}
      >
        <Group gap="md" align="flex-end" wrap="wrap">
          <Stack gap={4} style={{ flex: '1 1 14rem' }}>
            <Group gap="xs" wrap="nowrap">
              <IconUpload size={20} aria-hidden />
              <Text size="sm" fw={500}>
                Drop files here to upload them
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              Images, videos or PDFs, up to 10 MB each; several at once.
            </Text>
          </Stack>
          <Autocomplete
            label="Upload to folder"
            placeholder="Top level"
            data={folders}
            value={folder ?? defaultFolder}
            onChange={setFolder}
            error={folderError}
            w={220}
          />
          <FileButton onChange={add} accept="image/*,video/*,application/pdf" multiple>
            {(props) => (
              <Button {...props} disabled={Boolean(folderError)}>
                Choose files
              </Button>
            )}
          </FileButton>
        </Group>
      </Box>
      {items.length ? (
        <Stack gap={6} component="ul" aria-label="Uploads" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((i) => (
            <Box component="li" key={i.key}>
              <Group gap="xs" wrap="nowrap" justify="space-between">
                <Text size="sm" truncate style={{ minWidth: 0 }}>
                  {i.file.name}
                </Text>
                <Group gap={4} wrap="nowrap">
                  <Text size="xs" c={i.state === 'failed' ? 'red.8' : 'dimmed'}>
                    {i.state === 'waiting'
                      ? 'Waiting'
                      : i.state === 'uploading'
                        ? `${Math.round(i.progress * 100)} %`
                        : i.state === 'done'
                          ? 'Uploaded'
                          : 'Failed'}
                  </Text>
                  {i.state === 'failed' ? (
                    <CloseButton size="sm" aria-label={`Dismiss ${i.file.name}`} onClick={() => setItems((all) => all.filter((x) => x.key !== i.key))} />
                  ) : null}
                </Group>
              </Group>
              {i.state === 'failed' ? (
                <Text size="xs" c="red.8" role="alert">
                  {errorMessage(i.error)}
                  {i.error instanceof ApiError && i.error.traceId ? ` (trace id ${i.error.traceId})` : ''}
                </Text>
              ) : (
                <Progress value={i.progress * 100} size="sm" aria-label={`Upload of ${i.file.name}`} color={i.state === 'done' ? 'green' : 'blue'} />
              )}
              {i.asset && i.asset.mime_type.startsWith('image/') && !i.asset.alt_text ? (
                <AltTextPrompt
                  asset={i.asset}
                  save={saveAltText}
                  onSaved={(asset) => {
                    patch(i.key, { asset });
                    onUploaded(asset);
                  }}
                />
              ) : null}
            </Box>
          ))}
        </Stack>
      ) : null}
      {finished ? (
        <Group gap="xs">
          <Text size="xs" c="dimmed" aria-live="polite">
            {finished} uploaded
          </Text>
          <Button variant="subtle" size="compact-xs" onClick={() => setItems((all) => all.filter((i) => i.state !== 'done'))}>
            Clear finished uploads
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
