/** Delivery routes for pages (api.md "GET /pages", "GET /pages/{slug}"; DECISIONS.md D14, D45). Parse, call, reply. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { getDeliveryPage, listDeliveryPages } from '../../../modules/pages/delivery.js';
import { EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { toDeliveredWirePage, toDeliveredWirePageDetail } from '../../wire/pages.js';
import { DeliveryPageListQuery, DeliveryPageQuery, PageDetailSchema, PageParams, PageSchema } from '../../schemas/pages.js';

const tags = ['Delivery: pages'];

export async function deliveryPageRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/pages',
    {
      schema: {
        tags,
        summary: 'List visible pages (without blocks), in navigation order by default',
        querystring: DeliveryPageListQuery,
        response: { 200: EnvelopeOf(Type.Array(PageSchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listDeliveryPages(ctx, req.actor, req.query);
      return ok(items.map(toDeliveredWirePage), meta);
    },
  );

  r.get(
    '/pages/:slug',
    {
      schema: {
        tags,
        summary: 'One visible page with its block tree, resolved for a locale when one is given',
        params: PageParams,
        querystring: DeliveryPageQuery,
        response: { 200: EnvelopeOf(PageDetailSchema) },
      },
    },
    async (req) => ok(toDeliveredWirePageDetail(await getDeliveryPage(ctx, req.actor, req.params.slug, req.query))),
  );
}
