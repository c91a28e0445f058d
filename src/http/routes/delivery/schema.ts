/** Delivery route for the workspace schema (docs/api.md "GET /api/v1/public/schema"). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Context } from '../../../context.js';
import { taggedContext } from '../../cache-tags.js';
import { getDeliverySchema } from '../../../modules/delivery/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { DeliverySchemaDocument } from '../../schemas/delivery.js';

export async function deliverySchemaRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/schema',
    {
      schema: {
        operationId: 'getDeliverySchema',
        tags: ['Delivery: schema'],
        summary: 'Content types the key may read (block types always) and the workspace locales',
        description:
          'The content model as the key sees it: content types of its whitelist (all when empty) and every block type, with their fields, and the workspace’s locales (D13).',
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: EnvelopeOf(DeliverySchemaDocument) },
      },
    },
    async (req) => ok(await getDeliverySchema(taggedContext(ctx, req), req.actor)),
  );
}
