/** Delivery route for previews (api.md "GET /preview", D46): a delivery key plus a preview token. */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { getPreview } from '../../../modules/preview/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { toWireEntry } from '../../wire/entries.js';
import { PreviewQuery, PreviewSchema } from '../../schemas/delivery.js';

export async function deliveryPreviewRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/preview',
    {
      // A token's answer depends on its lifetime, not only on the content: never cached.
      config: { cache: false },
      schema: {
        tags: ['Delivery: preview'],
        summary: 'The entry a preview token names, any status, with its translations',
        querystring: PreviewQuery,
        response: { 200: EnvelopeOf(PreviewSchema) },
      },
    },
    async (req) => {
      const entry = toWireEntry(await getPreview(ctx, req.actor, req.query.token));
      return ok({ entry, translations: entry.translations });
    },
  );
}
