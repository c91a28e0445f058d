/**
 * What a release item changes for readers (the Releases screen's **Changes**): a `publish` item's
 * release version compared with the item's published version field by field and locale by
 * locale (a page: SEO values and blocks added, removed, moved or changed), or everything when
 * nothing is published yet; an `unpublish` item takes the item away from readers.
 */
import { Badge, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ContentType, ReleaseItem } from '../../api/types';
import { useContentTypes, useWorkspaceSettings, useWsKey } from '../../app/queries';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';
import { ScrollTable } from '../../components/ScrollTable';
import { getEntry, getVersion } from '../entries/api';
import { diffDrafts, draftOf, summarize, type Draft } from '../entries/model';
import { getPage, getPageVersion } from '../pages/api';
import { diffPages } from '../pages/diff';
import { draftOfPage, type BlockNode, type PageDraft } from '../pages/tree';

export interface DiffLine {
  what: string;
  locale: string | null;
  kind: 'added' | 'removed' | 'changed' | 'moved';
  before: string;
  after: string;
}

const KIND_COLOR = { added: 'green', removed: 'red', changed: 'blue', moved: 'grape' } as const;
const EMPTY_PAGE: PageDraft = { seo: { title: null, description: null, keywords: [], og_image: null, canonical: null }, seoTranslations: {}, blocks: [] };

/** A block's name in a diff line: its type's name and its first short text value. */
function blockName(node: BlockNode, type: ContentType | undefined): string {
  const name = type?.name ?? node.type;
  const field = type?.fields.find((f) => (f.field_type === 'text' || f.field_type === 'textarea') && node.data[f.name]);
  return field ? `${name} “${summarize(field, node.data[field.name], 40)}”` : name;
}

/** Reads the release version and the published version of `item` and compares them. */
async function loadDiff(releaseId: string, item: ReleaseItem, types: ContentType[], locales: string[], defaultLocale: string): Promise<DiffLine[]> {
  if (item.kind === 'entry') {
    const type = item.content_type ?? '';
    const fields = types.find((t) => t.slug === type)?.fields ?? [];
    const [variant, head] = await Promise.all([getEntry(type, item.slug, releaseId), getEntry(type, item.slug)]);
    const published = head.entry.status === 'published' && head.entry.published_version !== null ? head.entry.published_version : null;
    const before: Draft = published === null ? { data: {}, translations: {} } : draftOf((await getVersion(type, item.slug, published)).entry);
    return diffDrafts(fields, locales, defaultLocale, before, draftOf(variant.entry)).map((r) => ({
      what: r.label,
      locale: r.locale,
      kind: r.kind,
      before: r.before,
      after: r.after,
    }));
  }
  const [variant, head] = await Promise.all([getPage(item.slug, releaseId), getPage(item.slug)]);
  const published = head.detail.page.status === 'published' ? (head.detail.page.published_version ?? null) : null;
  const before = published === null ? EMPTY_PAGE : draftOfPage(await getPageVersion(item.slug, published));
  const typeOf = (slug: string) => types.find((t) => t.slug === slug);
  return diffPages(before, draftOfPage(variant.detail), {
    defaultLocale,
    locales,
    fieldsOf: (t) => typeOf(t)?.fields ?? [],
    labelOf: (n) => blockName(n, typeOf(n.type)),
  });
}

export function ItemDiffDialog({ releaseId, item, title, onClose }: { releaseId: string; item: ReleaseItem; title: string; onClose: () => void }) {
  const key = useWsKey();
  const types = useContentTypes();
  const settings = useWorkspaceSettings();
  const diff = useQuery({
    queryKey: key('releases', releaseId, 'diff', item.kind, item.id),
    queryFn: () => loadDiff(releaseId, item, types.data!, settings.data!.locales, settings.data!.default_locale),
    enabled: item.action === 'publish' && !!types.data && !!settings.data,
    staleTime: 0,
    gcTime: 0,
  });
  const live = item.status === 'published';
  return (
    <Modal opened onClose={onClose} title={`Changes of ${title}`} centered size="xl">
      <Stack>
        {item.action === 'unpublish' ? (
          <Text size="sm">Readers no longer get this {item.kind} once the release goes live: it is unpublished (its working copy is kept).</Text>
        ) : (
          <>
            <Text size="sm">
              {live
                ? 'The release version compared with the published version readers get now:'
                : 'Nothing of it is published now: readers get all of the release version when the release goes live.'}
            </Text>
            <ErrorAlert error={types.error ?? settings.error ?? diff.error} title="The versions could not be compared" />
            {diff.isPending && !diff.error ? <Loading label="Comparing with the published version" /> : null}
            {diff.data && diff.data.length === 0 ? (
              <Text size="sm" c="dimmed">
                No field differs from the published version.
              </Text>
            ) : null}
            {diff.data && diff.data.length > 0 ? (
              <ScrollTable minWidth={560} label={`Changes of ${title}`}>
                <Table aria-label={`Changes of ${title}`} verticalSpacing={4}>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Field</Table.Th>
                      <Table.Th>Change</Table.Th>
                      <Table.Th>Published</Table.Th>
                      <Table.Th>In the release</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {diff.data.map((r, i) => (
                      <Table.Tr key={`${r.what}:${r.locale}:${i}`}>
                        <Table.Td>
                          {r.what}
                          {r.locale ? ` (${r.locale})` : ''}
                        </Table.Td>
                        <Table.Td>
                          <Badge size="xs" variant="light" color={KIND_COLOR[r.kind]}>
                            {r.kind}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{r.before || '—'}</Table.Td>
                        <Table.Td>{r.after || '—'}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </ScrollTable>
            ) : null}
          </>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
