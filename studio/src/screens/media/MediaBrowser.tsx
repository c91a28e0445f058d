/**
 * The media library's browser, one component with two uses: the Media screen (activating an asset
 * opens its details) and the media field pickers (activating chooses it, or toggles it when
 * picking several). It searches by name, alt text, title and description (debounced), filters by
 * kind (only the accepted kinds when a field's rule limits them) and folder,
 * shows a grid of thumbnails or a table, and pages through GET /media (newest first). Data comes
 * from the field sources (api-sources.ts in the Studio, a fake in tests), so both uses page,
 * search and filter through the same calls.
 */
import { useState, type ReactNode } from 'react';
import {
  Button,
  Checkbox,
  Group,
  Image,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { IconCheck, IconFile, IconFileTypePdf, IconMovie, IconSearch } from '@tabler/icons-react';
import { ErrorAlert } from '../../components/ErrorAlert';
import { formatDate } from '../../components/format';
import { KIND_LABELS } from '../../fields/field-meta';
import type { FieldSources, MediaKind, MediaSummary } from '../../fields/sources';
import { ASSET_KINDS } from '../../../../src/modules/media/kinds.js';
import { ALL_FOLDERS, folderOptions } from './folders';
import { ScrollTable } from '../../components/ScrollTable';

export type MediaView = 'grid' | 'list';

const LIST_COLUMNS = ['Name', 'Type', 'Size', 'Folder', 'Added'];

/** The type filter's choices: every kind, or the accepted ones of a field's rule. */
function typeOptions(kinds: readonly MediaKind[] | undefined): { value: string; label: string }[] {
  const shown = ASSET_KINDS.filter((k) => !kinds || kinds.includes(k));
  return [{ value: '', label: kinds ? 'All accepted types' : 'All types' }, ...shown.map((k) => ({ value: k, label: KIND_LABELS[k] }))];
}

/** "1.2 MB", "840 KB", "12 B". */
export function formatBytes(n: number | undefined): string {
  if (n === undefined) return '';
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KB`;
  return `${n} B`;
}

/** "PNG", "MP4", "PDF": the subtype of a MIME type, for people. */
export function kindLabel(mime: string): string {
  const sub = mime.split('/')[1] ?? mime;
  return (sub.split('+')[0] ?? sub).toUpperCase();
}

/** A thumbnail (the server's transform of an image) or a type icon; `decorative` when named around it. */
export function MediaThumb({ media, size = 64, decorative = false }: { media: MediaSummary | undefined; size?: number; decorative?: boolean }) {
  if (media?.thumbnailUrl) return <Image src={media.thumbnailUrl} alt={decorative ? '' : media.label} w={size} h={size} fit="cover" radius="sm" />;
  const Icon = media?.mimeType.startsWith('video/') ? IconMovie : media?.mimeType === 'application/pdf' ? IconFileTypePdf : IconFile;
  return <Icon size={size * 0.6} aria-hidden={decorative || undefined} aria-label={decorative ? undefined : media ? media.label : 'Unknown media'} />;
}

export interface MediaBrowserProps {
  sources: Pick<FieldSources, 'listMedia' | 'mediaFolders'>;
  /** cache key of the lists (invalidate it after a write) */
  queryKey: readonly unknown[];
  /** the accessible name of an asset's button ("Open team.png", "Choose Team photo") */
  itemLabel: (media: MediaSummary) => string;
  onActivate: (media: MediaSummary) => void;
  /** picking several: the chosen ids (buttons say aria-pressed) */
  selected?: ReadonlySet<string>;
  /** ids not to offer (already in the field) */
  exclude?: readonly string[];
  /** only assets of these kinds (a media field's `media_kinds`); absent: every kind */
  kinds?: readonly MediaKind[];
  defaultView?: MediaView;
  /** called when the folder filter changes: a path, '' for the top level, undefined for all */
  onFolderChange?: (folder: string | undefined) => void;
  /** above the filters (e.g. the upload area) */
  children?: ReactNode;
}

export function MediaBrowser({
  sources,
  queryKey,
  itemLabel,
  onActivate,
  selected,
  exclude = [],
  kinds,
  defaultView = 'grid',
  onFolderChange,
  children,
}: MediaBrowserProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [type, setType] = useState('');
  // assets a site would show to nobody who cannot see them (GET /media?missing_alt=true)
  const [missingAlt, setMissingAlt] = useState(false);
  const [folder, setFolder] = useState(ALL_FOLDERS);
  const [view, setView] = useState<MediaView>(defaultView);
  const [page, setPage] = useState(1);
  const folderFilter = folder === ALL_FOLDERS ? undefined : folder;
  const list = useQuery({
    queryKey: [...queryKey, 'list', { page, search: debounced.trim(), type, folder, kinds, missingAlt }],
    queryFn: () => sources.listMedia(page, type ? (type as MediaKind) : kinds, { search: debounced, folder: folderFilter, missingAlt }),
    placeholderData: keepPreviousData,
  });
  const mediaFolders = sources.mediaFolders;
  const folders = useQuery({ queryKey: [...queryKey, 'folders'], queryFn: () => mediaFolders!(), enabled: Boolean(mediaFolders) });
  const items = (list.data?.items ?? []).filter((m) => !exclude.includes(m.id));
  const filtered = Boolean(debounced.trim() || type || folderFilter !== undefined || missingAlt);
  const reset = () => setPage(1);
  const pressed = (m: MediaSummary) => (selected ? selected.has(m.id) : undefined);

  return (
    <Stack gap="sm">
      {children}
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search media"
          placeholder="Name, alt text or title"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            reset();
          }}
          style={{ flex: '1 1 12rem' }}
        />
        <Select
          label="Type"
          data={typeOptions(kinds)}
          value={type}
          onChange={(v) => {
            setType(v ?? '');
            reset();
          }}
          allowDeselect={false}
          w={kinds ? 190 : 130}
        />
        {mediaFolders ? (
          <Select
            label="Folder"
            data={folderOptions(folders.data ?? [])}
            value={folder}
            onChange={(v) => {
              const next = v ?? ALL_FOLDERS;
              setFolder(next);
              onFolderChange?.(next === ALL_FOLDERS ? undefined : next);
              reset();
            }}
            allowDeselect={false}
            searchable
            w={200}
          />
        ) : null}
        <Checkbox
          label="Missing alt text"
          checked={missingAlt}
          onChange={(e) => {
            setMissingAlt(e.currentTarget.checked);
            reset();
          }}
          mb={8}
        />
        <div>
          <Text size="sm" fw={500} id="media-view-label" mb={2}>
            View
          </Text>
          <SegmentedControl
            aria-labelledby="media-view-label"
            value={view}
            onChange={(v) => setView(v as MediaView)}
            data={[
              { value: 'grid', label: 'Grid' },
              { value: 'list', label: 'List' },
            ]}
          />
        </div>
      </Group>
      <ErrorAlert error={list.error} title="Media could not be loaded" />
      {list.isPending ? <Text size="sm">Loading media…</Text> : null}
      {!list.isPending && !items.length ? <Text size="sm">{filtered ? 'No media match these filters.' : 'No media in this workspace yet.'}</Text> : null}
      {items.length && view === 'grid' ? (
        <SimpleGrid component="ul" cols={{ base: 2, xs: 3, sm: 4, lg: 6 }} spacing="sm" aria-label="Media" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {items.map((m) => (
            <li key={m.id}>
              <UnstyledButton
                aria-label={itemLabel(m)}
                aria-pressed={pressed(m)}
                onClick={() => onActivate(m)}
                p={6}
                w="100%"
                style={{
                  display: 'flex',
                  flexDirection: 'column',
                  alignItems: 'center',
                  gap: 4,
                  borderRadius: 'var(--mantine-radius-sm)',
                  outline: pressed(m) ? '2px solid var(--mantine-color-blue-6)' : undefined,
                }}
              >
                <div style={{ position: 'relative', width: 96, height: 96, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                  <MediaThumb media={m} size={96} decorative />
                  {pressed(m) ? (
                    <IconCheck
                      size={20}
                      aria-hidden
                      style={{ position: 'absolute', top: 2, right: 2, background: 'var(--mantine-color-blue-6)', color: 'white', borderRadius: 10 }}
                    />
                  ) : null}
                </div>
                <Text size="xs" lineClamp={1} maw="100%" aria-hidden>
                  {m.name ?? m.label}
                </Text>
              </UnstyledButton>
            </li>
          ))}
        </SimpleGrid>
      ) : null}
      {items.length && view === 'list' ? (
        <ScrollTable minWidth={560} label={'Media'}>
          <Table verticalSpacing={4} aria-label="Media">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <VisuallyHidden>Preview</VisuallyHidden>
                </Table.Th>
                {LIST_COLUMNS.map((c) => (
                  <Table.Th key={c}>{c}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((m) => (
                <Table.Tr key={m.id}>
                  <Table.Td w={56}>
                    <MediaThumb media={m} size={40} decorative />
                  </Table.Td>
                  <Table.Td>
                    <Button variant="subtle" size="compact-sm" aria-label={itemLabel(m)} aria-pressed={pressed(m)} onClick={() => onActivate(m)}>
                      {pressed(m) ? <IconCheck size={14} aria-hidden style={{ marginRight: 4 }} /> : null}
                      {m.name ?? m.label}
                    </Button>
                  </Table.Td>
                  <Table.Td>{kindLabel(m.mimeType)}</Table.Td>
                  <Table.Td>{formatBytes(m.size)}</Table.Td>
                  <Table.Td>{m.folder ?? '—'}</Table.Td>
                  <Table.Td>{formatDate(m.createdAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      ) : null}
      {page > 1 || list.data?.hasMore ? (
        <Group justify="center" gap="sm">
          <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
            Previous page
          </Button>
          <Text size="sm" aria-live="polite">
            Page {page}
          </Text>
          <Button variant="default" size="xs" disabled={!list.data?.hasMore} onClick={() => setPage((p) => p + 1)}>
            Next page
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}
