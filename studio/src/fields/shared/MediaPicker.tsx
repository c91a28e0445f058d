/**
 * A dialog to choose a media asset from the workspace's library (GET /media, newest first) with
 * thumbnails; each asset is a button named "Choose <alt text or file name>".
 */
import { useState } from 'react';
import { Button, Image, Modal, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
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
  const items = (results.data?.items ?? []).filter((m) => !exclude.includes(m.id));
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl">
      <Stack>
        <ErrorAlert error={results.error} title="Media could not be loaded" />
        {results.isPending ? <Text size="sm">Loading media…</Text> : null}
        {!results.isPending && !items.length ? <Text size="sm">No media in this workspace yet: upload files in Media.</Text> : null}
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
