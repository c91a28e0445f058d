/** Delivery routes for entries (docs/api.md "GET /api/v1/public/entries", "GET /api/v1/public/entries/{entrySlug}"). Parse, call, reply. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { taggedContext } from '../../cache-tags.js';
import { listEntries, readEntryDetail } from '../../../modules/delivery/operations.js';
import { EnvelopeOf, ok, PageMeta } from '../../envelope.js';
import { SourceMapMeta } from '../../schemas/source-map.js';
import { DeliveryEntrySchema, EntryDetailQuery, EntryDetailSchema, EntrySlugParams, ListEntriesQuery } from '../../schemas/delivery.js';

const tags = ['Delivery: entries'];

export async function deliveryEntryRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(
    '/entries',
    {
      config: { readsRelease: true },
      schema: {
        operationId: 'listDeliveryEntries',
        tags,
        summary: 'List visible entries of one content type (filters: filter[<field>] or filter[<field>][<op>])',
        description:
          'Published entries of the content type `type` (drafts and scheduled ones too for a preview key), each `data` resolved for `locale` with per-field fallback to the default locale (D40). Offset pages (`page`, at most 1000) or cursor pages (`cursor` = `meta.next_cursor`); `sort` and `filter[...]` accept sortable and filterable fields (D43); `fields` selects fields, `<rich>_html`/`<rich>_text` renderings and `<relation>.<field>`.',
        errors: ['PAGE_TOO_DEEP', 'FORBIDDEN', 'NOT_FOUND'],
        querystring: ListEntriesQuery,
        response: { 200: EnvelopeOf(Type.Array(DeliveryEntrySchema), PageMeta) },
      },
    },
    async (req) => {
      const { items, meta } = await listEntries(taggedContext(ctx, req), req.actor, { ...req.query, filters: req.query as Record<string, unknown> });
      return ok(items, meta);
    },
  );

  r.get(
    '/entries/:entrySlug',
    {
      config: { readsRelease: true },
      schema: {
        operationId: 'getDeliveryEntry',
        tags,
        summary: 'One visible entry by slug',
        description:
          'One entry by slug with relations resolved one level deep (D41). Without `type`, a slug used by entries of several visible types answers 400 asking for it (D42). `is_fallback` says whether the requested locale had no translation.',
        errors: ['FORBIDDEN'],
        params: EntrySlugParams,
        querystring: EntryDetailQuery,
        response: { 200: EnvelopeOf(EntryDetailSchema, SourceMapMeta) },
      },
    },
    async (req) => {
      const { data, sourceMap } = await readEntryDetail(taggedContext(ctx, req), req.actor, req.params.entrySlug, req.query);
      return ok(data, sourceMap && { source_map: sourceMap });
    },
  );
}
