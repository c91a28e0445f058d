/**
 * The built-in preview (docs/studio.md "Live preview"): what the live preview shows when the
 * workspace has no preview URL template, or when the editor switches to it. It draws the working
 * copy being edited (the form's current values, so it follows every keystroke) in the editor's
 * locale with delivery's fallback to the default locale (builtin-preview.ts): the fields in their
 * order, each under its label; images through the media transforms; rich text rendered by
 * @quire/client and sanitized; linked entries by their display value; a page's blocks nested,
 * each named by its block type.
 */
import { Box, Image, Stack, Text, Title } from '@mantine/core';
import type { Field } from '../api/types';
import { fieldOptions } from '../fields/field-meta';
import { useEntryLookup, useMediaLookup } from '../fields/shared/lookups';
import type { MediaSummary } from '../fields/sources';
import { imageAt, isEmptyValue, richTextHtml, valueIn, type PreviewBlock, type PreviewValues } from './builtin-preview';

export interface BuiltinPreviewProps {
  title: string;
  locale: string;
  defaultLocale: string;
  /** an entry's fields and values (a page has none of its own) */
  fields?: Field[];
  values?: PreviewValues;
  /** a page's block tree */
  blocks?: PreviewBlock[];
}

interface Ctx {
  locale: string;
  defaultLocale: string;
}

export function BuiltinPreview({ title, locale, defaultLocale, fields = [], values, blocks }: BuiltinPreviewProps) {
  const ctx = { locale, defaultLocale };
  return (
    <Box component="article" p="md" bg="white" lang={locale} data-builtin-preview style={{ minHeight: '100%', color: 'var(--mantine-color-black)' }}>
      <Title order={2} mb="md">
        {title}
      </Title>
      {values ? <FieldList fields={fields} values={values} ctx={ctx} /> : null}
      {blocks ? <BlockList blocks={blocks} ctx={ctx} /> : null}
    </Box>
  );
}

function FieldList({ fields, values, ctx }: { fields: Field[]; values: PreviewValues; ctx: Ctx }) {
  const ordered = [...fields].sort((a, b) => a.sort_order - b.sort_order);
  return (
    <Stack gap="sm">
      {ordered.map((field) => {
        const value = valueIn(field, values, ctx.locale, ctx.defaultLocale);
        if (isEmptyValue(value)) return null;
        return (
          <Box key={field.name} data-preview-field={field.name}>
            <Text size="xs" c="dimmed" fw={600} tt="uppercase">
              {field.label}
            </Text>
            <FieldValue field={field} value={value} />
          </Box>
        );
      })}
    </Stack>
  );
}

function BlockList({ blocks, ctx }: { blocks: PreviewBlock[]; ctx: Ctx }) {
  if (!blocks.length) return null;
  return (
    <Stack gap="sm">
      {blocks.map((block) => (
        <Box
          key={block.id}
          component="section"
          data-preview-block={block.type}
          aria-label={`Block ${block.typeName ?? block.type}`}
          p="sm"
          style={{ border: '1px dashed var(--mantine-color-gray-5)', borderRadius: 8 }}
        >
          {/* indigo 9: 4.5:1 and more on white */}
          <Text size="xs" fw={700} c="indigo.9" mb="xs">
            {block.typeName ?? block.type}
          </Text>
          <FieldList fields={block.fields} values={block.values} ctx={ctx} />
          {block.children.length ? (
            <Box mt="sm" pl="md">
              <BlockList blocks={block.children} ctx={ctx} />
            </Box>
          ) : null}
        </Box>
      ))}
    </Stack>
  );
}

const ids = (value: unknown): string[] => (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');

function FieldValue({ field, value }: { field: Field; value: unknown }) {
  switch (field.field_type) {
    case 'rich_text':
      return <RichText value={value} />;
    case 'media':
    case 'media_list':
      return <MediaValue ids={ids(value)} />;
    case 'relation':
    case 'relation_list':
      return <RelationValue ids={ids(value)} types={fieldOptions(field)} />;
    case 'boolean':
      return <Text>{value ? 'Yes' : 'No'}</Text>;
    case 'json':
      return (
        <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
          {JSON.stringify(value, null, 2)}
        </Text>
      );
    default:
      return <Text style={{ whiteSpace: 'pre-wrap' }}>{Array.isArray(value) ? value.map(String).join(', ') : String(value)}</Text>;
  }
}

function RichText({ value }: { value: unknown }) {
  const embedded = embeddedIds(value);
  const media = useMediaLookup(embedded);
  const html = richTextHtml(value, {
    asset: (id) => {
      const m = media.get(id);
      return m ? { id, url: m.mimeType.startsWith('image/') ? imageAt(m.url, m.mimeType, 800) : m.url, mime_type: m.mimeType, alt_text: m.label } : undefined;
    },
  });
  // richTextHtml sanitized the HTML (DOMPurify) before it is inserted.
  return <div className="quire-preview-rich-text" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** The asset ids a rich-text document embeds or links (`data.target.sys.id` of asset nodes). */
function embeddedIds(node: unknown, out: string[] = []): string[] {
  if (typeof node !== 'object' || node === null) return out;
  const n = node as { nodeType?: unknown; data?: { target?: { sys?: { id?: unknown } } }; content?: unknown };
  const id = n.data?.target?.sys?.id;
  if ((n.nodeType === 'embedded-asset-block' || n.nodeType === 'asset-hyperlink') && typeof id === 'string') out.push(id);
  if (Array.isArray(n.content)) for (const child of n.content) embeddedIds(child, out);
  return out;
}

function MediaValue({ ids: list }: { ids: string[] }) {
  const media = useMediaLookup(list);
  return (
    <Stack gap="xs">
      {list.map((id, i) => (
        <MediaItem key={`${id}-${i}`} id={id} media={media.get(id)} />
      ))}
    </Stack>
  );
}

function MediaItem({ id, media }: { id: string; media: MediaSummary | undefined }) {
  if (!media) return <Text c="dimmed">Media {id}</Text>;
  if (media.mimeType.startsWith('image/')) {
    return <Image src={imageAt(media.url, media.mimeType, 800)} alt={media.label} radius="sm" maw="100%" w="auto" fit="contain" />;
  }
  return (
    <Text component="a" href={media.url} target="_blank" rel="noopener noreferrer" c="indigo.9" td="underline">
      {media.name ?? media.label}
    </Text>
  );
}

function RelationValue({ ids: list, types }: { ids: string[]; types: string[] }) {
  const entries = useEntryLookup(list, types);
  return <Text>{list.map((id) => entries.get(id)?.label ?? id).join(', ')}</Text>;
}
