/** Delivery routes for entries (api.md "GET /entries", "GET /entries/{entrySlug}"). Parse, call, reply. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { getEntryBySlug, listEntries } from '../../../modules/delivery/operations.js';
import { EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { DeliveryEntrySchema, EntryDetailQuery, EntryDetailSchema, EntrySlugParams, ListEntriesQuery } from '../../schemas/delivery.js';

const tags = ['Delivery: entries'];

export async function deliveryEntryRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/entries',
    {
      schema: {
        tags,
        summary: 'List visible entries of one content type (filters: filter[<field>] or filter[<field>][<op>])',
        querystring: ListEntriesQuery,
        response: { 200: EnvelopeOf(Type.Array(DeliveryEntrySchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listEntries(ctx, req.actor, { ...req.query, filters: req.query as Record<string, unknown> });
      return ok(items, meta);
    },
  );

  r.get(
    '/entries/:entrySlug',
    {
      schema: {
        tags,
        summary: 'One visible entry by slug',
        params: EntrySlugParams,
        querystring: EntryDetailQuery,
        response: { 200: EnvelopeOf(EntryDetailSchema) },
      },
    },
    async (req) => ok(await getEntryBySlug(ctx, req.actor, req.params.entrySlug, req.query)),
  );
}
