/**
 * A dialog to choose media for a field: the media library's own browser (search by name or alt
 * text, type and folder filters, grid or list; screens/media/MediaBrowser.tsx) in a modal. Picking
 * one (media fields, rich-text embeds): an asset is a button "Choose <alt text or file name>" and
 * choosing closes the dialog. Picking several (media lists): buttons toggle (aria-pressed) and
 * "Add N" adds them in the order chosen. "Upload a file" sends a new file to the library (roles
 * with media:write) and chooses it at once; a refusal (too large, not an image, video or PDF)
 * shows its message and trace id.
 */
import { useState } from 'react';
import { Button, FileButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorAlert } from '../../components/ErrorAlert';
import { MediaBrowser, MediaThumb } from '../../screens/media/MediaBrowser';
import { useFieldSources, type MediaSummary } from '../sources';

export { MediaThumb };

const PICKER_KEY = ['picker-media'] as const;

export interface MediaPickerProps {
  opened: boolean;
  onClose: () => void;
  /** one asset chosen (single picking, and each upload) */
  onPick: (media: MediaSummary) => void;
  /** several at once: set to pick several; `onPick` then receives uploads only */
  onPickMany?: (media: MediaSummary[]) => void;
  exclude?: string[];
  title?: string;
}

export function MediaPicker({ opened, onClose, onPick, onPickMany, exclude = [], title = 'Choose media' }: MediaPickerProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl">
      {opened ? <PickerBody onClose={onClose} onPick={onPick} onPickMany={onPickMany} exclude={exclude} /> : null}
    </Modal>
  );
}

function PickerBody({ onClose, onPick, onPickMany, exclude }: Omit<MediaPickerProps, 'opened' | 'title'> & { exclude: string[] }) {
  const sources = useFieldSources();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<MediaSummary[]>([]);
  const uploadMedia = sources.uploadMedia;
  const upload = useMutation({
    mutationFn: (file: File) => uploadMedia!(file),
    onSuccess: (media) => {
      void queryClient.invalidateQueries({ queryKey: PICKER_KEY });
      onPick(media);
      onClose();
    },
  });
  const toggle = (m: MediaSummary) => setChosen((prev) => (prev.some((c) => c.id === m.id) ? prev.filter((c) => c.id !== m.id) : [...prev, m]));
  return (
    <Stack>
      {uploadMedia ? (
        <Group>
          <FileButton onChange={(file) => file && upload.mutate(file)} accept="image/*,video/*,application/pdf">
            {(props) => (
              <Button {...props} variant="light" loading={upload.isPending}>
                Upload a file
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            Images, videos or PDFs, up to 10 MB.
          </Text>
        </Group>
      ) : null}
      <ErrorAlert error={upload.error} title="The file was not uploaded" />
      <MediaBrowser
        sources={sources}
        queryKey={PICKER_KEY}
        exclude={exclude}
        itemLabel={(m) => `Choose ${m.label}`}
        selected={onPickMany ? new Set(chosen.map((c) => c.id)) : undefined}
        onActivate={(m) => {
          if (onPickMany) toggle(m);
          else {
            onPick(m);
            onClose();
          }
        }}
      />
      {onPickMany ? (
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            disabled={!chosen.length}
            onClick={() => {
              onPickMany(chosen);
              onClose();
            }}
          >
            {chosen.length ? `Add ${chosen.length} selected` : 'Add selected'}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
