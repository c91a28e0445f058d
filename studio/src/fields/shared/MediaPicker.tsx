/**
 * A dialog to choose a media asset from the workspace's library (GET /media, newest first) with
 * thumbnails; each asset is a button named "Choose <alt text or file name>". "Upload a file"
 * sends a new file to the library (roles with media:write) and chooses it at once; a refusal
 * (too large, not an image, video or PDF) shows its message and trace id.
 */
import { useState } from 'react';
import { Button, FileButton, Group, Image, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { IconFile } from '@tabler/icons-react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useFieldSources, type MediaSummary } from '../sources';

export function MediaThumb({ media, size = 64 }: { media: MediaSummary | undefined; size?: number }) {
  if (media?.thumbnailUrl) return <Image src={media.thumbnailUrl} alt={media.label} w={size} h={size} fit="cover" radius="sm" />;
  return <IconFile size={size * 0.6} aria-label={media ? media.label : 'Unknown media'} />;
}

export interface MediaPickerProps {
  opened: boolean;
  onClose: () => void;
  onPick: (media: MediaSummary) => void;
  exclude?: string[];
  title?: string;
}

export function MediaPicker({ opened, onClose, onPick, exclude = [], title = 'Choose media' }: MediaPickerProps) {
  const sources = useFieldSources();
  const [pages, setPages] = useState(1);
  const results = useQuery({
    queryKey: ['picker-media', pages],
    queryFn: async () => {
      const all: MediaSummary[] = [];
      let hasMore = false;
      for (let p = 1; p <= pages; p++) {
        const page = await sources.listMedia(p);
        all.push(...page.items);
        hasMore = page.hasMore;
      }
      return { items: all, hasMore };
    },
    enabled: opened,
  });
  const queryClient = useQueryClient();
  const uploadMedia = sources.uploadMedia;
  const upload = useMutation({
    mutationFn: (file: File) => uploadMedia!(file),
    onSuccess: (media) => {
      void queryClient.invalidateQueries({ queryKey: ['picker-media'] });
      onPick(media);
      onClose();
    },
  });
  const items = (results.data?.items ?? []).filter((m) => !exclude.includes(m.id));
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl">
      <Stack>
        <ErrorAlert error={results.error} title="Media could not be loaded" />
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
        {results.isPending ? <Text size="sm">Loading media…</Text> : null}
        {!results.isPending && !items.length ? <Text size="sm">No media in this workspace yet.</Text> : null}
        <SimpleGrid cols={{ base: 2, sm: 4 }} role="list" aria-label="Media library">
          {items.map((m) => (
            <UnstyledButton
              key={m.id}
              role="listitem"
              aria-label={`Choose ${m.label}`}
              onClick={() => {
                onPick(m);
                onClose();
              }}
              style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4 }}
            >
              <MediaThumb media={m} size={96} />
              <Text size="xs" lineClamp={1}>
                {m.label}
              </Text>
            </UnstyledButton>
          ))}
        </SimpleGrid>
        {results.data?.hasMore ? (
          <Button variant="default" onClick={() => setPages((p) => p + 1)}>
            Load more
          </Button>
        ) : null}
      </Stack>
    </Modal>
  );
}
