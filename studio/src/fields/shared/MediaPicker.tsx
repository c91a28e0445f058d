/**
 * A dialog to choose media for a field: the media library's own browser (search by name or alt
 * text, type and folder filters, grid or list; screens/media/MediaBrowser.tsx) in a modal. Picking
 * one (media fields, rich-text embeds): an asset is a button "Choose <alt text or file name>" and
 * choosing closes the dialog. Picking several (media lists): buttons toggle (aria-pressed) and
 * "Add N" adds them in the order chosen. "Upload a file" sends a new file to the library (roles
 * with media:write) and chooses it at once; a refusal (too large, not an image, video or PDF)
 * shows its message and trace id. With `kinds` (a field's `media_kinds` rule) the browser lists
 * only assets of those kinds, the file dialog asks for them, and an upload of another kind stays
 * in the library but is not chosen (the field would refuse it), with a message saying why.
 */
import { useState } from 'react';
import { Alert, Button, FileButton, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ErrorAlert } from '../../components/ErrorAlert';
import { MediaBrowser, MediaThumb } from '../../screens/media/MediaBrowser';
import { kindsText } from '../field-meta';
import { useFieldSources, type MediaKind, type MediaSummary } from '../sources';
import { assetKindOf } from '../../../../src/modules/media/kinds.js';

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
  /** only these kinds may be chosen (the field's `media_kinds`); absent: any */
  kinds?: readonly MediaKind[] | null;
}

/** What the file dialog asks for, per kind that can be uploaded (uploads are images, videos or PDFs). */
const ACCEPT: Partial<Record<MediaKind, string>> = { image: 'image/*', video: 'video/*', pdf: 'application/pdf' };

export function MediaPicker({ opened, onClose, onPick, onPickMany, exclude = [], title = 'Choose media', kinds }: MediaPickerProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl">
      {opened ? <PickerBody onClose={onClose} onPick={onPick} onPickMany={onPickMany} exclude={exclude} kinds={kinds ?? undefined} /> : null}
    </Modal>
  );
}

function PickerBody({
  onClose,
  onPick,
  onPickMany,
  exclude,
  kinds,
}: Omit<MediaPickerProps, 'opened' | 'title' | 'kinds'> & { exclude: string[]; kinds?: readonly MediaKind[] }) {
  const sources = useFieldSources();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<MediaSummary[]>([]);
  const [refused, setRefused] = useState<string | null>(null);
  const uploadable = (kinds ?? ['image', 'video', 'pdf']).map((k) => ACCEPT[k]).filter((a): a is string => Boolean(a));
  const uploadMedia = uploadable.length ? sources.uploadMedia : undefined;
  // Asked before the file is chosen: a site shows the alt text to people who cannot see the image.
  const [altText, setAltText] = useState('');
  const upload = useMutation({
    mutationFn: (file: File) => {
      setRefused(null);
      return uploadMedia!(file, altText);
    },
    onSuccess: (media) => {
      void queryClient.invalidateQueries({ queryKey: PICKER_KEY });
      const kind = assetKindOf(media.mimeType);
      if (kinds && !kinds.includes(kind)) {
        setRefused(`${media.name ?? media.label} was added to the library, but this field accepts ${kindsText(kinds)} only.`);
        return;
      }
      onPick(media);
      onClose();
    },
  });
  const toggle = (m: MediaSummary) => setChosen((prev) => (prev.some((c) => c.id === m.id) ? prev.filter((c) => c.id !== m.id) : [...prev, m]));
  return (
    <Stack>
      {uploadMedia ? (
        <Group align="flex-end">
          <TextInput
            label="Alt text of the upload"
            description="What the image shows, for people who cannot see it (empty only for a decorative image)"
            value={altText}
            onChange={(e) => setAltText(e.currentTarget.value)}
            maxLength={1000}
            style={{ flex: '1 1 16rem' }}
          />
          <FileButton onChange={(file) => file && upload.mutate(file)} accept={uploadable.join(',')}>
            {(props) => (
              <Button {...props} variant="light" loading={upload.isPending}>
                Upload a file
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {kinds ? `${capitalized(kindsText(kinds.filter((k) => ACCEPT[k])))}` : 'Images, videos or PDFs'}, up to 10 MB.
          </Text>
        </Group>
      ) : null}
      <ErrorAlert error={upload.error} title="The file was not uploaded" />
      {refused ? (
        <Alert color="orange" title="Not chosen">
          {refused}
        </Alert>
      ) : null}
      <MediaBrowser
        sources={sources}
        queryKey={PICKER_KEY}
        exclude={exclude}
        kinds={kinds}
        // The name holds what the button shows, the file name (axe label-content-name-mismatch).
        // (axe leaves out words in parentheses when it compares them)
        itemLabel={(m) => (m.name && m.name !== m.label ? `Choose ${m.label}, ${m.name}` : `Choose ${m.label}`)}
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

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
