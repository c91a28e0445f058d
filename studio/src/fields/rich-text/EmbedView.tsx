/**
 * How embedded entries and assets look inside the rich-text editor: a box naming the entry (its
 * title and type) or showing the asset (thumbnail and alt text), instead of a bare id. Reads the
 * titles through the field sources, like the relation and media widgets.
 */
import { Badge, Group, Text } from '@mantine/core';
import { NodeViewWrapper, type ReactNodeViewProps } from '@tiptap/react';
import { MediaThumb } from '../shared/MediaPicker';
import { shortId, useEntryLookup, useMediaLookup } from '../shared/lookups';

export function EmbedView({ node, selected }: ReactNodeViewProps) {
  const id = String(node.attrs.id ?? '');
  const isAsset = node.type.name === 'embeddedAsset';
  const inline = node.type.name === 'inlineEntry';
  const entry = useEntryLookup(isAsset ? [] : [id], []).get(id);
  const media = useMediaLookup(isAsset ? [id] : []).get(id);
  const label = isAsset ? (media?.label ?? shortId(id)) : (entry?.label ?? shortId(id));
  const kind = isAsset ? 'Asset' : 'Entry';
  const outline = selected ? '2px solid var(--mantine-color-blue-6)' : '1px solid var(--mantine-color-gray-4)';
  if (inline) {
    return (
      <NodeViewWrapper as="span" data-inline-entry={id} style={{ border: outline, borderRadius: 4, padding: '0 4px' }} aria-label={`${kind}: ${label}`}>
        {label}
      </NodeViewWrapper>
    );
  }
  return (
    <NodeViewWrapper
      data-embedded={id}
      style={{ border: outline, borderRadius: 6, padding: 8, margin: '8px 0' }}
      aria-label={`Embedded ${kind.toLowerCase()}: ${label}`}
    >
      <Group gap="sm" wrap="nowrap" contentEditable={false}>
        {isAsset ? <MediaThumb media={media} size={48} /> : null}
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Badge size="xs" variant="outline" color="gray.8">
          {isAsset ? 'embedded asset' : `embedded ${entry?.type ?? 'entry'}`}
        </Badge>
      </Group>
    </NodeViewWrapper>
  );
}
