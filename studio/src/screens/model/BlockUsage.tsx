/**
 * Where a block type is used (GET /content-types/{slug}/block-usage, D35): how many blocks, on
 * which pages (each once, with its state). The type screen shows it as a section, and as a
 * warning in the dialogs that change or delete a block type (add or edit a field, delete the
 * type), listing the pages the change reaches before anyone confirms it.
 */
import { Alert, Anchor, Code, List, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { ContentType } from '../../api/types';
import { useWsKey } from '../../app/queries';
import { useWorkspace } from '../../app/workspace';
import { ErrorAlert } from '../../components/ErrorAlert';
import { Loading } from '../../components/Loading';

export interface BlockUsageData {
  count: number;
  is_block: boolean;
  pages: { slug: string; status: string }[];
}

/** The usage of a block type (disabled for entry types). */
export function useBlockUsage(type: Pick<ContentType, 'slug' | 'is_block'>) {
  const key = useWsKey();
  return useQuery({
    queryKey: key('block-usage', type.slug),
    queryFn: async () => (await api<BlockUsageData>(`/content-types/${encodeURIComponent(type.slug)}/block-usage`)).data,
    enabled: type.is_block,
  });
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function PageList({ usage }: { usage: BlockUsageData }) {
  const { workspace } = useWorkspace();
  return (
    <List size="sm">
      {usage.pages.map((p) => (
        <List.Item key={p.slug}>
          <Anchor component={Link} to={`/${workspace.slug}/pages/${p.slug}`} size="sm">
            <Code>{p.slug}</Code>
          </Anchor>{' '}
          ({p.status})
        </List.Item>
      ))}
    </List>
  );
}

/** The "Where it is used" section of a block type's screen. */
export function BlockUsage({ type }: { type: ContentType }) {
  const usage = useBlockUsage(type);
  return (
    <section aria-labelledby="block-usage">
      <Title order={2} size="h3" id="block-usage" mb="sm">
        Where it is used
      </Title>
      {usage.isPending ? <Loading /> : null}
      <ErrorAlert error={usage.error} title="The block usage could not be loaded" />
      {usage.data ? (
        usage.data.count === 0 ? (
          <Text size="sm">No page uses this block type.</Text>
        ) : (
          <>
            <Text size="sm">
              {plural(usage.data.count, 'block', 'blocks')} on {plural(usage.data.pages.length, 'page', 'pages')}:
            </Text>
            <PageList usage={usage.data} />
          </>
        )
      ) : null}
    </section>
  );
}

/**
 * A warning for a dialog that changes (`change`) or deletes (`delete`) a block type: the pages
 * using it. Nothing for entry types or an unused block type.
 */
export function BlockUsageWarning({ type, action }: { type: ContentType; action: 'change' | 'delete' }) {
  const usage = useBlockUsage(type);
  if (!type.is_block || !usage.data || usage.data.count === 0) return null;
  const d = usage.data;
  return (
    <Alert color="orange" title={`Used by ${plural(d.count, 'block', 'blocks')} on ${plural(d.pages.length, 'page', 'pages')}`} role="note">
      <Text size="sm" mb={4}>
        {action === 'delete'
          ? 'Quire refuses to delete a block type that pages still use: remove these blocks from the pages first.'
          : 'The change applies to every block of this type on these pages (their working copies and what readers see).'}
      </Text>
      <PageList usage={d} />
    </Alert>
  );
}
