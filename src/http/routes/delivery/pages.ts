/** Delivery routes for pages (docs/api.md "GET /api/v1/public/pages", "GET /api/v1/public/pages/{slug}"; docs/api.md "GET /api/v1/public/pages" (D14); docs/pages.md "Translations and localization" (D45)). Parse, call, reply. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { taggedContext } from '../../cache-tags.js';
import { listDeliveryPages, readDeliveryPage } from '../../../modules/pages/delivery.js';
import { EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { SourceMapMeta } from '../../schemas/source-map.js';
import { toDeliveredWirePage, toDeliveredWirePageDetail } from '../../wire/pages.js';
import { DeliveryPageListQuery, DeliveryPageQuery, PageDetailSchema, PageParams, PageSchema } from '../../schemas/pages.js';

const tags = ['Delivery: pages'];

export async function deliveryPageRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/pages',
    {
      config: { readsRelease: true },
      schema: {
        operationId: 'listDeliveryPages',
        tags,
        summary: 'List visible pages (without blocks), in navigation order by default',
        description:
          'Published pages (drafts and scheduled ones too for a preview key) without their blocks, sorted by `position` unless `sort` says otherwise; with `locale`, `seo` is resolved for it. `workspace_id`, when sent, must be the key’s workspace (else 403, D14).',
        errors: ['PAGE_TOO_DEEP', 'FORBIDDEN'],
        querystring: DeliveryPageListQuery,
        response: { 200: EnvelopeOf(Type.Array(PageSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listDeliveryPages(taggedContext(ctx, req), req.actor, req.query);
      return ok(items.map(toDeliveredWirePage), meta);
    },
  );

  r.get(
    '/pages/:slug',
    {
      config: { readsRelease: true },
      schema: {
        operationId: 'getDeliveryPage',
        tags,
        summary: 'One visible page with its block tree, resolved for a locale when one is given',
        description:
          'The page detail: the page, its root blocks with nested `children`, and its SEO and block translations. With `locale`, `page.seo` and every block’s `data` come back overlaid with that locale and the translation arrays hold only it (D45).',
        errors: ['FORBIDDEN'],
        params: PageParams,
        querystring: DeliveryPageQuery,
        response: { 200: EnvelopeOf(PageDetailSchema, SourceMapMeta) },
      },
    },
    async (req) => {
      const { content, sourceMap } = await readDeliveryPage(taggedContext(ctx, req), req.actor, req.params.slug, req.query);
      return ok(toDeliveredWirePageDetail(content), sourceMap && { source_map: sourceMap });
    },
  );
}
