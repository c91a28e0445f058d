/** Management route minting preview tokens (docs/api.md "Preview tokens" (D46)). */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { createPreviewToken } from '../../../modules/preview/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { PreviewTokenBody, PreviewTokenSchema } from '../../schemas/delivery.js';

export async function previewTokenRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.post(
    '/preview-tokens',
    {
      config: { action: 'content:write' },
      schema: {
        operationId: 'createPreviewToken',
        tags: ['Management: preview tokens'],
        description:
          'Returns a signed token naming one entry (`{entry_id}`) or one page (`{page_id}`), valid 48 hours, for GET /api/v1/public/preview?token=… (D46). A 404 when the item is not in the workspace.',
        errors: ['NOT_FOUND'],
        summary: 'Mint a signed preview token for one entry or page (valid 48 hours)',
        body: PreviewTokenBody,
        response: { 201: EnvelopeOf(PreviewTokenSchema) },
      },
    },
    async (req, reply) => {
      const token = await createPreviewToken(ctx, req.actor, req.body);
      reply.code(201);
      return ok(token);
    },
  );
}
