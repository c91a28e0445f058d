/** Delivery route for sync (docs/front-ends.md "Sync" (D83)). Parse, call, shape. */
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Context } from '../../../context.js';
import { taggedContext } from '../../cache-tags.js';
import { sync, type SyncItem } from '../../../modules/sync/operations.js';
import { EnvelopeOf, ok } from '../../envelope.js';
import { SyncItemSchema, SyncMetaSchema, SyncQuery, type WireSyncItem } from '../../schemas/sync.js';
import { toDeliveredWirePageDetail } from '../../wire/pages.js';
import { stableStringify } from '../../../lib/json.js';

/** The wire item: the delivery shape of its kind with `sys` added. */
function toWireSyncItem(item: SyncItem): WireSyncItem {
  switch (item.kind) {
    case 'entry':
      return {
        sys: { type: 'entry', id: item.entry.id, content_type: item.contentType, slug: item.entry.slug },
        ...item.entry,
        translations: item.translations.map((t) => ({ locale: t.locale, data: stableStringify(t.data) })),
      };
    case 'page': {
      const { page, ...content } = toDeliveredWirePageDetail(item.content);
      return { sys: { type: 'page', id: page.id, slug: page.slug }, ...page, ...content };
    }
    case 'media':
      return { sys: { type: 'media', id: item.media.id }, ...item.media };
    default:
      return { sys: { type: item.kind, id: item.id, slug: item.slug, ...(item.contentType === null ? {} : { content_type: item.contentType }) } };
  }
}

/** Registers GET /sync on the delivery plugin. */
export async function deliverySyncRoutes(app: FastifyInstance, ctx: Context): Promise<void> {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/sync',
    {
      config: { readsRelease: true },
      schema: {
        tags: ['Delivery: sync'],
        operationId: 'syncDelivery',
        summary: 'Mirror what the key may see: initial=true lists every item, sync_token what changed since (D83)',
        description:
          'Pages of up to 100 items; meta.next_page_token continues (as page_token), the last page has meta.next_sync_token. Items are entries (default locale plus translations), pages (block tree and translations) and media, or deleted_entry/deleted_page/deleted_media with id and slug. A delta lists exactly what the key can see changed: a production key is not told of working copies saved or drafts created or deleted. Tokens are signed and bound to the key’s workspace, visibility, content type whitelist and `release` (400 otherwise).',
        querystring: SyncQuery,
        response: { 200: EnvelopeOf(Type.Array(SyncItemSchema), SyncMetaSchema) },
      },
    },
    async (req) => {
      const { items, meta } = await sync(taggedContext(ctx, req), req.actor, req.query);
      return ok(items.map(toWireSyncItem), meta);
    },
  );
}
