/** Delivery route for media metadata (docs/api.md "GET /api/v1/public/media/{id}"). Parse, call, reply. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { taggedContext } from '../../cache-tags.js';
import { getDeliveryMedia } from '../../../modules/media/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { DeliveryMediaSchema, MediaIdParams } from '../../schemas/media.js';

/** Registers GET /media/:id on the delivery plugin. */
export async function deliveryMediaRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/media/:id',
    {
      schema: {
        operationId: 'getDeliveryMedia',
        tags: ['Delivery: media'],
        summary: "Media metadata (the key's workspace only)",
        description:
          'The delivery media object: `url` (absolute, served by GET /media/files/{path}), type, size in pixels, alt text, title, description and focal point.',
        params: MediaIdParams,
        response: { 200: EnvelopeOf(DeliveryMediaSchema) },
      },
    },
    async (req) => ok(await getDeliveryMedia(taggedContext(ctx, req), req.actor, req.params.id)),
  );
}
