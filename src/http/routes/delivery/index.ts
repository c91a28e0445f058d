/**
 * The delivery API plugin (`/api/v1/public`): delivery-key authentication, then one file per
 * resource. Read-only.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Context } from '../../../context.js';
import { registerAuth } from '../../auth-hooks.js';
import { registerRateLimit } from '../../rate-limit.js';
import { registerDeliveryCache } from '../../delivery-cache.js';
import type { DeliveryReplay } from '../../delivery-replay.js';
import { useDeliveryCacheHints } from '../../graphql-cache.js';
import { persistedQueryStore, useAutomaticPersistedQueries } from '../../../modules/graphql/apq.js';
import { useQueryLimits } from '../../../modules/graphql/limits.js';
import { deliveryEntryRoutes } from './entries.js';
import { deliveryGraphqlRoutes } from './graphql.js';
import { deliveryLiveRoutes } from './live.js';
import { deliveryMediaRoutes } from './media.js';
import { deliveryPageRoutes } from './pages.js';
import { deliveryPreviewRoutes } from './preview.js';
import { deliverySchemaRoutes } from './schema.js';
import { deliverySyncRoutes } from './sync.js';

/** The plugin; `replay` (made by buildApp) remembers what the delivery cache answers. */
export function deliveryRoutes(ctx: Context, replay?: DeliveryReplay): FastifyPluginAsync {
  return async (app) => {
    registerAuth(app, ctx, 'delivery');
    registerRateLimit(app, ctx, ctx.config.rateLimitDelivery, 'delivery');
    registerDeliveryCache(app, ctx, replay);
    await deliveryEntryRoutes(app, ctx);
    await deliverySchemaRoutes(app, ctx);
    await deliveryPreviewRoutes(app, ctx);
    await deliveryMediaRoutes(app, ctx);
    await deliveryPageRoutes(app, ctx);
    await deliverySyncRoutes(app, ctx);
    await deliveryLiveRoutes(app, ctx);
    await deliveryGraphqlRoutes(app, ctx, [
      useQueryLimits({ maxDepth: ctx.config.graphqlMaxDepth, maxCost: ctx.config.graphqlMaxCost }),
      useAutomaticPersistedQueries(persistedQueryStore(ctx)),
      useDeliveryCacheHints(),
    ]);
  };
}
