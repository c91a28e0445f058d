/** Delivery route for previews (docs/api.md "GET /api/v1/public/preview", D46): a delivery key plus a preview token. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { taggedContext } from '../../cache-tags.js';
import { readPreview } from '../../../modules/preview/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { toWireEntry } from '../../wire/entries.js';
import { toWirePageDetail } from '../../wire/pages.js';
import { PreviewQuery, PreviewSchema } from '../../schemas/delivery.js';
import { SourceMapMeta } from '../../schemas/source-map.js';

export async function deliveryPreviewRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/preview',
    {
      // A token's answer depends on its lifetime, not only on the content: never cached.
      config: { cache: false },
      schema: {
        operationId: 'getPreview',
        tags: ['Delivery: preview'],
        summary: 'The entry (or page) a preview token names, any status, with its translations',
        description:
          'The working copy of the entry a signed preview token names (minted by POST /api/v1/manage/preview-tokens or the CLI, valid 48 hours), in the management shape with all its translations: `{entry, translations}`. A token minted for a page (`{page_id}`) answers the page in the management shape instead: `{page, blocks, seo_translations, block_translations}`. With a preview key, `stega=true` hides each text value’s origin in it and `source_maps=true` adds `meta.source_map` (entry tokens; a page token’s answer stays plain; D140). An expired or tampered token answers 401; a token of another workspace, or of an item deleted since, 404. Never cached.',
        errors: ['FORBIDDEN', 'NOT_FOUND'],
        querystring: PreviewQuery,
        response: { 200: EnvelopeOf(PreviewSchema, SourceMapMeta) },
      },
    },
    async (req) => {
      const { token, ...trace } = req.query;
      const { item, sourceMap } = await readPreview(taggedContext(ctx, req), req.actor, token, trace);
      if (item.kind === 'page') return ok(toWirePageDetail(item.content));
      const entry = toWireEntry(item.entry);
      return ok({ entry, translations: entry.translations }, sourceMap && { source_map: sourceMap });
    },
  );
}
