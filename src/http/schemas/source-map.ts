/**
 * Wire schemas of Content Source Maps and stega (docs/visual-editing.md; D140): the `source_maps`
 * and `stega` query parameters of delivery reads and the `meta.source_map` they add.
 */
import { Type } from '@sinclair/typebox';

/** `source_maps` and `stega` of the delivery reads that trace their strings (preview keys only, else 400). */
export const TraceQuery = {
  source_maps: Type.Optional(Type.Boolean({ description: 'add meta.source_map: the origin of every content string (preview keys only)' })),
  stega: Type.Optional(Type.Boolean({ description: 'hide each text string’s origin in it with @vercel/stega (preview keys only)' })),
};

const Mapping = Type.Object(
  {
    kind: Type.Union([Type.Literal('entry'), Type.Literal('page'), Type.Literal('block'), Type.Literal('asset')]),
    id: Type.String(),
    content_type: Type.Optional(Type.String({ description: 'the entry’s content type or the block’s block type (slug)' })),
    field: Type.String({ description: 'the field name; seo.<key> for a page’s SEO values' }),
    locale: Type.String({ description: 'the locale the value was read from, after fallback' }),
    path: Type.Optional(Type.String({ description: 'a block’s place in its page: blocks.0.children.1' })),
  },
  { title: 'SourceMapping' },
);

/** The Content Source Map of one answer: mappings by JSONPath from the envelope's `data`. */
export const SourceMapSchema = Type.Object(
  { mappings: Type.Record(Type.String(), Mapping, { description: 'by JSONPath from `data` ($), a JSON-encoded data string read as the object it encodes' }) },
  { title: 'SourceMap' },
);

/** `meta` of a single-item read asked for `source_maps` (null otherwise). */
export const SourceMapMeta = Type.Object({ source_map: SourceMapSchema }, { title: 'SourceMapMeta' });
